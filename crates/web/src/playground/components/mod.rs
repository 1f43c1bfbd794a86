//! The playground's components, one per file.

mod copy_link;
mod counterexample_view;
mod database_panel;
mod download_scorecard;
mod equivalence_panel;
mod job_status;
mod langfuse_send;
mod metric_card;
mod normalized_view;
mod parse_error;
mod playground_view;
mod profile_summary;
mod query_editor;
mod query_results;
mod result_editor;

pub use copy_link::CopyLink;
pub use counterexample_view::CounterexampleView;
pub use database_panel::DatabasePanel;
pub use download_scorecard::DownloadScorecard;
pub use equivalence_panel::EquivalencePanel;
pub use job_status::JobStatus;
pub use langfuse_send::LangfuseSend;
pub use metric_card::MetricCard;
pub use normalized_view::NormalizedView;
pub use parse_error::ParseErrorView;
pub use playground_view::PlaygroundView;
pub use profile_summary::ProfileSummary;
pub use query_editor::QueryEditor;
pub use query_results::QueryResults;
pub use result_editor::ResultEditor;
