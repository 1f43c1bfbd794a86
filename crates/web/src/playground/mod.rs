//! The playground: two queries (and results, or a database) scored as the user types. Its state
//! and reducer (`state`), the editor's markers (`editor`), what goes to the scoring worker
//! (`scoring`), the scorecard download (`scorecard_file`), the state in the URL (`share`), and
//! its components and hooks.

pub mod components;
pub mod editor;
pub mod hooks;
pub mod scorecard_file;
pub mod scoring;
pub mod share;
pub mod state;
