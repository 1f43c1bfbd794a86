//! The playground's state and the actions that change it.

use std::rc::Rc;

use qeval_core::{AnswerType, Language, Mode, ProfileName, SqlDialect};
use yew::Reducible;

/// What the user typed and chose: everything a shared link must reproduce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Playground {
    pub generated: String,
    pub expected: String,
    pub language: Language,
    pub dialect: SqlDialect,
    pub profile: ProfileName,
    /// `None`: the profile's default mode.
    pub mode: Option<Mode>,
    /// JSON text of the expected query's result; empty when not given.
    pub expected_result: String,
    /// JSON text of the generated query's result; empty when not given.
    pub generated_result: String,
    pub answer_type: Option<AnswerType>,
    /// The name of the database file both queries run on (the file itself is never shared).
    pub database: String,
    /// The SQL the database was built from, when it was built from pasted SQL: a link carries
    /// it (within its size limit) and the page that opens the link builds the database again.
    pub database_sql: String,
    /// Test-suite checking: how many databases to generate (0: off).
    pub suite: u32,
    /// The seed generated databases come from (test-suite checking and the equivalence check).
    pub seed: u64,
    /// `CREATE TABLE` statements for the equivalence check; empty: inferred from the queries.
    pub schema: String,
    /// Databases the equivalence check generates when no database is loaded (0: off).
    pub checks: u32,
    /// The question the queries answer; empty when not given. The LLM judge is shown it, and
    /// the `defog` mode keeps the rows' order when it asks for one.
    pub question: String,
    /// defog sql-eval's `query_category` (`order_by` keeps the rows' order); empty when not given.
    pub query_category: String,
}

/// Generated databases for the equivalence check, unless the user picks another number.
pub const DEFAULT_CHECKS: u32 = 40;
/// At most this many generated databases: each runs both queries (in the database worker).
pub const MAX_CHECKS: u32 = 1_000;
/// At most this many test-suite databases on a loaded database (they can be large).
pub const MAX_SUITE: u32 = 200;

impl Default for Playground {
    fn default() -> Self {
        Playground {
            generated: String::new(),
            expected: String::new(),
            language: Language::Sql,
            dialect: SqlDialect::Generic,
            profile: ProfileName::Qas,
            mode: None,
            expected_result: String::new(),
            generated_result: String::new(),
            answer_type: None,
            database: String::new(),
            database_sql: String::new(),
            suite: 0,
            seed: 1,
            schema: String::new(),
            checks: DEFAULT_CHECKS,
            question: String::new(),
            query_category: String::new(),
        }
    }
}

impl Playground {
    /// What a first-time visitor sees: a partially correct query (no orders join, no count), ready to edit.
    pub fn example() -> Playground {
        Playground {
            generated: "SELECT u.name\nFROM users AS u\nWHERE u.active = true;".to_string(),
            expected: "SELECT u.name, COUNT(o.id) AS orders\nFROM users u\nJOIN orders o ON o.user_id = u.id\nGROUP BY u.name;".to_string(),
            ..Playground::default()
        }
    }
}

impl Playground {
    /// The state with the numbers of generated databases within the page's limits, and what
    /// was cut (a link can ask for any number).
    pub fn capped(mut self) -> (Playground, Option<String>) {
        let mut notes = Vec::new();
        if self.checks > MAX_CHECKS {
            notes.push(format!(
                "This link asked for {} generated databases; the page checks at most {MAX_CHECKS}.",
                self.checks
            ));
            self.checks = MAX_CHECKS;
        }
        if self.suite > MAX_SUITE {
            notes.push(format!(
                "This link asked for {} test-suite databases; the page makes at most {MAX_SUITE}.",
                self.suite
            ));
            self.suite = MAX_SUITE;
        }
        (self, (!notes.is_empty()).then(|| notes.join(" ")))
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum PlaygroundAction {
    SetGenerated(String),
    SetExpected(String),
    SetDialect(SqlDialect),
    SetLanguage(Language),
    SetProfile(ProfileName),
    SetMode(Option<Mode>),
    SetExpectedResult(String),
    SetGeneratedResult(String),
    SetAnswerType(Option<AnswerType>),
    /// A database was loaded: its name, and the SQL it was built from (empty for a file).
    SetDatabase {
        name: String,
        sql: String,
    },
    SetSuite(u32),
    SetSeed(u64),
    SetSchema(String),
    SetChecks(u32),
    SetQuestion(String),
    SetQueryCategory(String),
    /// Replace everything, e.g. when a shared link is opened in this tab.
    Load(Playground),
}

impl Reducible for Playground {
    type Action = PlaygroundAction;

    fn reduce(self: Rc<Self>, action: PlaygroundAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            PlaygroundAction::SetGenerated(text) => next.generated = text,
            PlaygroundAction::SetExpected(text) => next.expected = text,
            PlaygroundAction::SetDialect(dialect) => next.dialect = dialect,
            PlaygroundAction::SetLanguage(language) => next.language = language,
            PlaygroundAction::SetProfile(profile) => next.profile = profile,
            PlaygroundAction::SetMode(mode) => next.mode = mode,
            PlaygroundAction::SetExpectedResult(text) => next.expected_result = text,
            PlaygroundAction::SetGeneratedResult(text) => next.generated_result = text,
            PlaygroundAction::SetAnswerType(kind) => next.answer_type = kind,
            PlaygroundAction::SetDatabase { name, sql } => {
                next.database = name;
                next.database_sql = sql;
            }
            PlaygroundAction::SetSuite(count) => next.suite = count.min(MAX_SUITE),
            PlaygroundAction::SetSeed(seed) => next.seed = seed,
            PlaygroundAction::SetSchema(text) => next.schema = text,
            PlaygroundAction::SetChecks(count) => next.checks = count.min(MAX_CHECKS),
            PlaygroundAction::SetQuestion(text) => next.question = text,
            PlaygroundAction::SetQueryCategory(text) => next.query_category = text,
            PlaygroundAction::Load(state) => next = state.capped().0,
        }
        if next == *self { self } else { Rc::new(next) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_change_one_field() {
        let state = Rc::new(Playground::default());
        let state = state.reduce(PlaygroundAction::SetGenerated("SELECT 1".into()));
        let state = state.reduce(PlaygroundAction::SetDialect(SqlDialect::Sqlite));
        assert_eq!(state.generated, "SELECT 1");
        assert_eq!(state.expected, "");
        assert_eq!(state.dialect, SqlDialect::Sqlite);
    }

    #[test]
    fn a_link_cannot_ask_for_more_databases_than_the_page_makes() {
        let asked = Playground {
            checks: 1_000_000,
            suite: 5_000,
            ..Playground::example()
        };
        let (state, note) = asked.capped();
        assert_eq!((state.checks, state.suite), (MAX_CHECKS, MAX_SUITE));
        let note = note.expect("a note");
        assert!(
            note.contains("1000000 generated databases") && note.contains("at most 1000"),
            "{note}"
        );
        assert_eq!(Playground::example().capped().1, None);
    }

    #[test]
    fn an_action_that_changes_nothing_keeps_the_same_state() {
        let state = Rc::new(Playground::example());
        let same = state
            .clone()
            .reduce(PlaygroundAction::SetDialect(SqlDialect::Generic));
        assert!(Rc::ptr_eq(&state, &same));
    }
}
