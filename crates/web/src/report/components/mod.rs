//! The run report's components, one per file.

mod classification_view;
mod judge_agreement;
mod report_view;
mod run_charts;
mod run_comparison;
mod run_groups;
mod run_loader;
mod run_summary;
mod strict_verdicts;
mod test_detail;
mod test_table;

pub use classification_view::ClassificationView;
pub use judge_agreement::JudgeAgreementView;
pub use report_view::ReportView;
pub use run_charts::RunCharts;
pub use run_comparison::RunComparisonView;
pub use run_groups::RunGroups;
pub use run_loader::RunLoader;
pub use run_summary::RunSummary;
pub use strict_verdicts::StrictVerdicts;
pub use test_detail::TestDetail;
pub use test_table::TestTable;
