//! The playground's components, one per file.

mod choice_select;
mod copy_link;
mod metric_card;
mod parse_error;
mod profile_summary;
mod query_editor;
mod result_editor;

pub use choice_select::ChoiceSelect;
pub use copy_link::CopyLink;
pub use metric_card::MetricCard;
pub use parse_error::ParseErrorView;
pub use profile_summary::ProfileSummary;
pub use query_editor::QueryEditor;
pub use result_editor::ResultEditor;
