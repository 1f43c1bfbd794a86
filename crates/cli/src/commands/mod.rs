//! One module per subcommand.

pub mod score;
pub mod tables;

/// How a command that ran to the end went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Clean,
    /// Some input could not be used; everything else was processed.
    SomeInputRejected,
}

/// A command that could not run at all, as a message for the user.
pub type Failure = String;
