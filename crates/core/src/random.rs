//! Seeded randomness for what must come out the same on every run and platform.

/// splitmix64: a small seeded generator, the same on every platform, for what must come out the
/// same on a rerun (bootstrap intervals, generated test inputs).
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0), by remainder.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True `percent` times in a hundred.
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// A number in (0, 1].
    pub fn unit(&mut self) -> f64 {
        ((self.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// How many of `n` trials succeed with chance `p`: counted by the geometric gaps between
    /// successes, so it costs about `n * min(p, 1 - p)` draws.
    pub fn binomial(&mut self, n: usize, p: f64) -> usize {
        if p <= 0.0 || n == 0 {
            return 0;
        }
        if p >= 1.0 {
            return n;
        }
        if p > 0.5 {
            return n - self.binomial(n, 1.0 - p);
        }
        let log_miss = (1.0 - p).ln();
        let (mut successes, mut position) = (0usize, 0usize);
        loop {
            let gap = (self.unit().ln() / log_miss).floor();
            // A gap past the end ends the trials (so does none at all: a chance too small for
            // a float to tell from zero).
            if gap.is_nan() || gap >= (n - position) as f64 {
                return successes;
            }
            position += gap as usize + 1;
            successes += 1;
            if position >= n {
                return successes;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_draws_have_the_right_mean() {
        let mut random = SplitMix64::new(3);
        for (n, p) in [(1_000, 0.01), (1_000, 0.3), (1_000, 0.9), (50, 0.5)] {
            let draws: Vec<usize> = (0..4_000).map(|_| random.binomial(n, p)).collect();
            let mean = draws.iter().sum::<usize>() as f64 / draws.len() as f64;
            let expected = n as f64 * p;
            let sd = (n as f64 * p * (1.0 - p) / draws.len() as f64).sqrt();
            assert!(
                (mean - expected).abs() < 5.0 * sd + 1e-9,
                "n {n} p {p}: mean {mean}"
            );
            assert!(draws.iter().all(|&d| d <= n));
        }
    }
}
