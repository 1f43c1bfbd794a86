//! The playground's components, one per file.

mod check_box;
mod choice_select;
mod copy_link;
mod download_scorecard;
mod judge_settings;
mod langfuse_send;
mod metric_card;
mod parse_error;
mod profile_summary;
mod query_editor;
mod result_editor;
mod text_field;

pub use check_box::CheckBox;
pub use choice_select::ChoiceSelect;
pub use copy_link::CopyLink;
pub use download_scorecard::DownloadScorecard;
pub use judge_settings::JudgeSettingsPanel;
pub use langfuse_send::LangfuseSend;
pub use metric_card::MetricCard;
pub use parse_error::ParseErrorView;
pub use profile_summary::ProfileSummary;
pub use query_editor::QueryEditor;
pub use result_editor::ResultEditor;
pub use text_field::TextField;
