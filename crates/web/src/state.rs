//! The playground's state and the actions that change it.

use std::rc::Rc;

use qeval_core::sql::SqlDialect;
use yew::Reducible;

/// What the user typed: everything a shared link must reproduce.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Playground {
    pub generated: String,
    pub expected: String,
    pub dialect: SqlDialect,
}

impl Playground {
    /// What a first-time visitor sees: seed 002's partial-match example, ready to edit.
    pub fn example() -> Playground {
        Playground {
            generated: "SELECT u.name\nFROM users AS u\nWHERE u.active = true;".to_string(),
            expected: "SELECT u.name, COUNT(o.id) AS orders\nFROM users u\nJOIN orders o ON o.user_id = u.id\nGROUP BY u.name;".to_string(),
            dialect: SqlDialect::Generic,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    SetGenerated(String),
    SetExpected(String),
    SetDialect(SqlDialect),
    /// Replace everything, e.g. when a shared link is opened in this tab.
    Load(Playground),
}

impl Reducible for Playground {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::SetGenerated(text) => next.generated = text,
            Action::SetExpected(text) => next.expected = text,
            Action::SetDialect(dialect) => next.dialect = dialect,
            Action::Load(state) => next = state,
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
        let state = state.reduce(Action::SetGenerated("SELECT 1".into()));
        let state = state.reduce(Action::SetDialect(SqlDialect::Sqlite));
        assert_eq!(state.generated, "SELECT 1");
        assert_eq!(state.expected, "");
        assert_eq!(state.dialect, SqlDialect::Sqlite);
    }

    #[test]
    fn an_action_that_changes_nothing_keeps_the_same_state() {
        let state = Rc::new(Playground::example());
        let same = state
            .clone()
            .reduce(Action::SetDialect(SqlDialect::Generic));
        assert!(Rc::ptr_eq(&state, &same));
    }
}
