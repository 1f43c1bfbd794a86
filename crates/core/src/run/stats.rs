//! Whether a change between two runs is more than chance: pass rates over the tests both runs
//! scored, a paired bootstrap interval for their difference, and McNemar's exact test on the
//! tests that flipped.

use serde::Serialize;

use crate::random::SplitMix64;

/// One test present and scored in both runs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct TestDelta {
    pub test_id: String,
    pub before_final: f64,
    pub after_final: f64,
    pub before_passed: bool,
    pub after_passed: bool,
    /// After minus before: final, semantic, execution, datatype.
    pub deltas: [f64; 4],
}

/// Resamples for the bootstrap interval: enough for two-decimal percentiles of a pass rate.
pub(crate) const RESAMPLES: usize = 2_000;

/// Pass rates of the matched tests and how sure their difference is.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct PairedStats {
    /// Tests scored in both runs.
    pub tests: usize,
    pub before_pass_rate: f64,
    pub after_pass_rate: f64,
    /// After minus before.
    pub difference: f64,
    /// The 95% paired bootstrap interval of `difference` (2.5th and 97.5th percentiles of
    /// `resamples` resamples of the matched tests, drawn from `seed`).
    pub interval: [f64; 2],
    pub resamples: usize,
    pub seed: u64,
    /// Tests that passed before and fail after, and the other way round.
    pub flipped_to_fail: usize,
    pub flipped_to_pass: usize,
    /// McNemar's exact two-sided p-value over the flipped tests: the chance of flips at least
    /// this one-sided if the runs were equally good (1 when nothing flipped).
    pub mcnemar_p: f64,
}

impl PairedStats {
    /// The change in one sentence, as every view says it: "Pass rate 55.0% → 80.0%: +25.0
    /// points (95% interval +10.0 to +40.0; McNemar exact p = 0.013): more than chance."
    pub fn sentence(&self) -> String {
        if self.tests == 0 {
            return "No test was scored in both runs.".into();
        }
        let points = |rate: f64| rate * 100.0;
        let p = if self.mcnemar_p < 1e-4 {
            "< 0.0001".to_string()
        } else {
            format!("{:.3}", self.mcnemar_p)
        };
        let reading = if self.mcnemar_p < 0.05 {
            "more than chance"
        } else {
            "within what chance gives"
        };
        format!(
            "Pass rate {:.1}% → {:.1}%: {:+.1} points (95% interval {:+.1} to {:+.1}; McNemar exact p = {p}): {reading}.",
            points(self.before_pass_rate),
            points(self.after_pass_rate),
            points(self.difference),
            points(self.interval[0]),
            points(self.interval[1]),
        )
    }
}

/// The statistics of `matched` (each test's pass before and after).
pub(crate) fn paired_stats(matched: &[TestDelta], resamples: usize, seed: u64) -> PairedStats {
    let tests = matched.len();
    let mut stats = PairedStats {
        tests,
        resamples,
        seed,
        mcnemar_p: 1.0,
        ..PairedStats::default()
    };
    if tests == 0 {
        return stats;
    }
    let count = |pick: fn(&TestDelta) -> bool| matched.iter().filter(|d| pick(d)).count();
    let n = tests as f64;
    stats.before_pass_rate = count(|d| d.before_passed) as f64 / n;
    stats.after_pass_rate = count(|d| d.after_passed) as f64 / n;
    stats.difference = stats.after_pass_rate - stats.before_pass_rate;
    stats.flipped_to_fail = count(|d| d.before_passed && !d.after_passed);
    stats.flipped_to_pass = count(|d| !d.before_passed && d.after_passed);
    stats.mcnemar_p = mcnemar_exact(stats.flipped_to_fail, stats.flipped_to_pass);
    stats.interval = bootstrap(matched, resamples, seed);
    stats
}

/// The 2.5th and 97.5th percentiles of the mean change in pass over resamples of the tests.
///
/// Each test's change is -1, 0 or 1, so a resample is known by how many flips of each kind it
/// drew: those counts are drawn directly (a binomial, then one of the rest), which costs about
/// the number of flipped tests per resample instead of the number of tests. A 100,000-test run
/// is checked in the page without a pause.
fn bootstrap(matched: &[TestDelta], resamples: usize, seed: u64) -> [f64; 2] {
    if resamples == 0 {
        return [0.0, 0.0];
    }
    let n = matched.len();
    let up = matched
        .iter()
        .filter(|d| !d.before_passed && d.after_passed)
        .count();
    let down = matched
        .iter()
        .filter(|d| d.before_passed && !d.after_passed)
        .count();
    let mut random = SplitMix64::new(seed);
    let mut means: Vec<f64> = (0..resamples)
        .map(|_| {
            let ups = random.binomial(n, up as f64 / n as f64);
            let rest = n - up;
            let downs = if rest == 0 {
                0
            } else {
                random.binomial(n - ups, down as f64 / rest as f64)
            };
            (ups as f64 - downs as f64) / n as f64
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((q * resamples as f64).floor() as usize).min(resamples - 1)];
    [at(0.025), at(0.975)]
}

/// Two-sided exact McNemar p-value: twice the binomial(b + c, 1/2) tail at the smaller count,
/// at most 1. Summed in logarithms, so thousands of flips do not underflow.
pub(crate) fn mcnemar_exact(b: usize, c: usize) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let smaller = b.min(c);
    let ln_half_n = n as f64 * std::f64::consts::LN_2;
    let mut ln_choose = 0.0f64; // ln C(n, 0)
    let mut tail = 0.0;
    for k in 0..=smaller {
        if k > 0 {
            ln_choose += ((n - k + 1) as f64).ln() - (k as f64).ln();
        }
        tail += (ln_choose - ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delta(before: bool, after: bool) -> TestDelta {
        TestDelta {
            test_id: String::new(),
            before_final: 0.0,
            after_final: 0.0,
            before_passed: before,
            after_passed: after,
            deltas: [0.0; 4],
        }
    }

    #[test]
    fn mcnemar_exact_matches_the_binomial_tail() {
        // 1 flip one way, 9 the other: 2 * (1 + 10) / 1024.
        assert!((mcnemar_exact(1, 9) - 22.0 / 1024.0).abs() < 1e-12);
        assert!((mcnemar_exact(9, 1) - 22.0 / 1024.0).abs() < 1e-12);
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // 0 vs 3: 2 / 8.
        assert!((mcnemar_exact(0, 3) - 0.25).abs() < 1e-12);
        // Thousands of flips: no underflow to 0 or NaN.
        let p = mcnemar_exact(4_900, 5_100);
        assert!(p > 0.04 && p < 0.06, "{p}");
        assert!(mcnemar_exact(0, 5_000) >= 0.0);
    }

    #[test]
    fn a_clear_improvement_has_an_interval_above_zero_and_a_small_p() {
        let mut matched: Vec<TestDelta> = (0..60).map(|_| delta(true, true)).collect();
        matched.extend((0..30).map(|_| delta(false, true)));
        matched.extend((0..10).map(|_| delta(false, false)));
        let stats = paired_stats(&matched, RESAMPLES, 1);
        assert_eq!((stats.before_pass_rate, stats.after_pass_rate), (0.6, 0.9));
        assert!((stats.difference - 0.3).abs() < 1e-12);
        assert!(
            stats.interval[0] > 0.15 && stats.interval[1] < 0.45,
            "{:?}",
            stats.interval
        );
        assert!(stats.interval[0] <= stats.difference && stats.difference <= stats.interval[1]);
        assert_eq!((stats.flipped_to_fail, stats.flipped_to_pass), (0, 30));
        assert!(stats.mcnemar_p < 1e-6);
        // The same seed gives the same interval.
        assert_eq!(
            paired_stats(&matched, RESAMPLES, 1).interval,
            stats.interval
        );
    }

    #[test]
    fn no_change_is_no_evidence() {
        let matched: Vec<TestDelta> = (0..20).map(|i| delta(i % 2 == 0, i % 2 == 0)).collect();
        let stats = paired_stats(&matched, RESAMPLES, 1);
        assert_eq!(stats.difference, 0.0);
        assert_eq!(stats.interval, [0.0, 0.0]);
        assert_eq!(stats.mcnemar_p, 1.0);
        assert_eq!(paired_stats(&[], RESAMPLES, 1).tests, 0);
    }
}
