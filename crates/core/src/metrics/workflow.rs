//! Workflow validation: did the system call the agents and tools it should have?
//!
//! For each of agents and tools:
//! - `included`: expected and called (all expected must be),
//! - `excluded`: to be avoided and not called,
//! - `missing`: expected but not called (must be empty),
//! - `unexpected`: called but neither expected nor always expected (must be empty); calling
//!   something on the avoid list lands here too.
//!
//! The overall pass needs both agents and tools to pass. Some callers are always expected (the
//! orchestrator); they never count as unexpected.

use serde::{Deserialize, Serialize};

/// What a scenario expects of one kind (agents or tools).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Expectation {
    pub should_include: Vec<String>,
    pub should_exclude: Vec<String>,
    /// Never counted as unexpected, e.g. `orchestrator`.
    pub always_expected: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KindCheck {
    pub pass: bool,
    pub included: Vec<String>,
    pub excluded: Vec<String>,
    pub missing: Vec<String>,
    pub unexpected: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WorkflowCheck {
    pub pass: bool,
    pub agents: KindCheck,
    pub tools: KindCheck,
}

/// The default always-expected agents.
pub fn default_always_expected_agents() -> Vec<String> {
    vec!["orchestrator".to_string()]
}

pub(crate) fn check_kind(expectation: &Expectation, called: &[String]) -> KindCheck {
    let was_called = |name: &String| called.contains(name);
    let included: Vec<String> = expectation
        .should_include
        .iter()
        .filter(|n| was_called(n))
        .cloned()
        .collect();
    let missing: Vec<String> = expectation
        .should_include
        .iter()
        .filter(|n| !was_called(n))
        .cloned()
        .collect();
    let excluded: Vec<String> = expectation
        .should_exclude
        .iter()
        .filter(|n| !was_called(n))
        .cloned()
        .collect();
    let mut unexpected: Vec<String> = Vec::new();
    for name in called {
        let expected =
            expectation.should_include.contains(name) || expectation.always_expected.contains(name);
        if !expected && !unexpected.contains(name) {
            unexpected.push(name.clone());
        }
    }
    KindCheck {
        pass: missing.is_empty() && unexpected.is_empty(),
        included,
        excluded,
        missing,
        unexpected,
    }
}

pub fn check_workflow(
    agents: &Expectation,
    agents_called: &[String],
    tools: &Expectation,
    tools_used: &[String],
) -> WorkflowCheck {
    let agents = check_kind(agents, agents_called);
    let tools = check_kind(tools, tools_used);
    WorkflowCheck {
        pass: agents.pass && tools.pass,
        agents,
        tools,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    // A worked PASS and FAIL example is in `tests/it/scenarios.rs`.

    #[test]
    fn calling_an_avoided_or_unlisted_agent_fails() {
        let agents = Expectation {
            should_include: names(&["research"]),
            should_exclude: names(&["clarification"]),
            always_expected: default_always_expected_agents(),
        };
        let result = check_kind(
            &agents,
            &names(&["orchestrator", "research", "clarification"]),
        );
        assert!(!result.pass);
        assert_eq!(result.unexpected, ["clarification"]);
        assert!(result.excluded.is_empty());
    }
}
