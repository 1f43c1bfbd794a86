//! The playground's components, one per file.

mod copy_link;
mod dialect_select;
mod parse_error;
mod query_editor;
mod table_accuracy;

pub use copy_link::CopyLink;
pub use dialect_select::DialectSelect;
pub use parse_error::ParseErrorView;
pub use query_editor::QueryEditor;
pub use table_accuracy::TableAccuracyView;
