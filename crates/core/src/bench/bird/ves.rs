//! R-VES's timed reward, as `evaluation_ves.iterated_execute_sql` computes it from the times
//! of a correct prediction and its gold: each of `iterations` runs gives the ratio gold time ÷
//! prediction time; ratios outside three standard deviations of their mean are dropped
//! (`clean_abnormal`, NumPy's population deviation, strict bounds); the mean of the rest
//! decides the reward (1.25 at twice as fast or better, 1 as fast, 0.75 down to half, 0.5 down
//! to a quarter, 0.25 below). When every ratio is the same, `clean_abnormal` keeps none and
//! the mean divides by zero: BIRD's script scores that 0, and so does this.

/// `evaluation_ves.py`'s default number of timed runs of each query.
pub const ITERATIONS: usize = 100;

/// The reward for timed runs: `(gold_ms, prediction_ms)` per iteration.
pub(crate) fn timed_reward(times: &[(f64, f64)]) -> f64 {
    let ratios: Vec<f64> = times
        .iter()
        .map(|(gold, prediction)| gold / prediction)
        .collect();
    let kept = clean_abnormal(&ratios);
    if kept.is_empty() {
        return 0.0;
    }
    let ratio = kept.iter().sum::<f64>() / kept.len() as f64;
    reward(ratio)
}

/// `clean_abnormal`.
fn clean_abnormal(values: &[f64]) -> Vec<f64> {
    if values.is_empty() {
        return Vec::new();
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let std = (values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    values
        .iter()
        .copied()
        .filter(|x| *x < mean + 3.0 * std && *x > mean - 3.0 * std)
        .collect()
}

/// The reward for a mean time ratio; 0 for a ratio of 0 (no run kept).
pub(crate) fn reward(ratio: f64) -> f64 {
    if ratio == 0.0 {
        0.0
    } else {
        crate::metrics::efficiency::reward(ratio)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards_follow_the_mean_ratio() {
        assert_eq!(timed_reward(&[(1.5, 1.0), (1.6, 1.0), (1.4, 1.0)]), 1.0);
        assert_eq!(timed_reward(&[(4.0, 1.0), (4.2, 1.0)]), 1.25);
        assert_eq!(timed_reward(&[(1.0, 3.0), (1.1, 3.0)]), 0.5);
        // Identical ratios: nothing is strictly inside mean ± 0.
        assert_eq!(timed_reward(&[(1.0, 1.0), (1.0, 1.0)]), 0.0);
    }
}
