//! Deterministic efficiency: BIRD's reward-based valid efficiency score (R-VES) with SQLite's
//! virtual machine steps in place of wall-clock time. BIRD times both queries and rewards the
//! ratio of the expected query's time to the generated one's; times vary from run to run and
//! machine to machine, steps do not (the same query, data and SQLite version give the same
//! count), so the same run gives the same score everywhere.

use serde::Serialize;
use serde_json::json;

use crate::metric::Metric;

/// BIRD's reward for a correct query whose cost ratio (expected ÷ generated) is `ratio`:
/// 1.25 at twice as cheap or better, 1 as cheap, 0.75 down to half, 0.5 down to a quarter,
/// 0.25 below.
pub(crate) fn reward(ratio: f64) -> f64 {
    if ratio >= 2.0 {
        1.25
    } else if ratio >= 1.0 {
        1.0
    } else if ratio >= 0.5 {
        0.75
    } else if ratio >= 0.25 {
        0.5
    } else {
        0.25
    }
}

/// The `efficiency` metric of one pair: BIRD's reward for the step ratio when the results
/// match, 0 when they do not. The score may reach 1.25; no profile weighs it.
pub(crate) fn efficiency_metric(
    expected_steps: u64,
    generated_steps: u64,
    results_match: bool,
) -> Metric {
    // A query that takes no step at all costs less than any other: count it as one.
    let ratio = expected_steps.max(1) as f64 / generated_steps.max(1) as f64;
    let reward = if results_match { reward(ratio) } else { 0.0 };
    let explanation = if results_match {
        format!(
            "{generated_steps} SQLite VM steps against the expected query's {expected_steps} (ratio {ratio:.2}): reward {reward}"
        )
    } else {
        format!(
            "The results differ, so the {generated_steps} SQLite VM steps (expected query: {expected_steps}) earn no reward"
        )
    };
    Metric {
        score: Some(reward),
        passed: None,
        explanation,
        details: json!({
            "expected_vm_steps": expected_steps,
            "generated_vm_steps": generated_steps,
            "ratio": ratio,
            "reward": reward,
        }),
        error: None,
    }
}

/// A suite's R-VES: the mean of the square roots of the rewards, times 100 (BIRD's formula),
/// over the tests that have one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Efficiency {
    pub tests: usize,
    pub r_ves: f64,
}

pub fn r_ves(rewards: impl IntoIterator<Item = f64>) -> Option<Efficiency> {
    let (mut tests, mut sum) = (0usize, 0.0f64);
    for reward in rewards {
        tests += 1;
        sum += reward.max(0.0).sqrt() * 100.0;
    }
    (tests > 0).then(|| Efficiency {
        tests,
        r_ves: sum / tests as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_follow_birds_buckets() {
        assert_eq!(
            [4.0, 2.0, 1.5, 1.0, 0.6, 0.5, 0.3, 0.25, 0.1].map(reward),
            [1.25, 1.25, 1.0, 1.0, 0.75, 0.75, 0.5, 0.5, 0.25]
        );
        let metric = efficiency_metric(100, 40, true);
        assert_eq!(metric.score, Some(1.25));
        assert_eq!(efficiency_metric(100, 40, false).score, Some(0.0));
        assert_eq!(efficiency_metric(10, 50, true).score, Some(0.25));
    }

    #[test]
    fn r_ves_is_birds_mean_of_square_roots() {
        // sqrt(1.25) = 1.1180, sqrt(0.25) = 0.5, sqrt(0) = 0: (111.80 + 50 + 0) / 3 = 53.93.
        let suite = r_ves([1.25, 0.25, 0.0]).unwrap();
        assert_eq!(suite.tests, 3);
        assert!((suite.r_ves - 53.934).abs() < 1e-3, "{}", suite.r_ves);
        assert_eq!(r_ves([]), None);
    }
}
