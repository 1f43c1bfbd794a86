//! Components both views use, one per file.

mod cache_controls;
mod check_box;
mod choice_select;
mod connection_test;
mod diffed_queries;
mod explanation_text;
mod judge_settings;
mod result_table;
mod text_field;

pub use cache_controls::CacheControls;
pub use check_box::CheckBox;
pub use choice_select::{ChoiceSelect, profile_options};
pub use connection_test::ConnectionTest;
pub use diffed_queries::DiffedQueries;
pub use explanation_text::ExplanationText;
pub use judge_settings::JudgeSettingsPanel;
pub use result_table::ResultTable;
pub use text_field::TextField;
