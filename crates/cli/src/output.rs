//! Standard output as Unix tools treat it: when the reader goes away (`qeval compare a b | head`),
//! qeval stops quietly instead of reporting a broken pipe.

use std::io;

/// Installs a panic hook that ends the process quietly when printing to a closed pipe failed;
/// every other panic is reported as before.
pub fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.contains("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

/// The error of a write to standard output, as a message; a closed pipe ends the process
/// quietly instead.
pub fn write_error(err: io::Error) -> String {
    if err.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    format!("cannot write the output: {err}")
}

/// Text for the terminal: the core's one terminal escaper.
pub use qeval_core::escape_terminal as terminal;

/// `eprintln!` with [`terminal`] applied: every message qeval writes to standard error.
macro_rules! say {
    ($($arg:tt)*) => {
        eprintln!("{}", $crate::output::terminal(&format!($($arg)*)))
    };
}
pub(crate) use say;
