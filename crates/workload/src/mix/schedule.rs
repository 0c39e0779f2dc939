//! The open-loop schedule and the choice of operation, pure. A step's rate R is for the whole
//! run; each of N ranks issues R/N per second. Fixed arrivals put rank r's k-th operation at
//! (k N + r) / R seconds, so the run's arrivals are evenly spaced; Poisson arrivals draw
//! exponential gaps of mean N / R per rank. Operations are due at these times whether or not
//! the previous one has finished (open loop): a slow operation delays the ones behind it,
//! and their latency, measured from the due time, shows it (no coordinated omission).

use plan::mix::{Arrivals, Mix, MixOp};

use crate::rng::{mix2, SplitMix};

/// Due times of one rank's operations in a step's window, ns from the step's start.
#[derive(Debug, Clone)]
pub struct Schedule {
    rank: u64,
    ranks: u64,
    rate: u64,
    window_ns: u64,
    arrivals: Arrivals,
    k: u64,
    at: f64,
    rng: SplitMix,
}

impl Schedule {
    pub fn new(
        rank: u64,
        ranks: u64,
        rate: u64,
        window_ns: u64,
        arrivals: Arrivals,
        seed: u64,
    ) -> Schedule {
        Schedule {
            rank,
            ranks: ranks.max(1),
            rate: rate.max(1),
            window_ns,
            arrivals,
            k: 0,
            at: 0.0,
            rng: SplitMix::new(mix2(seed, rank)),
        }
    }

    /// The expected number of operations in the window (exact for fixed arrivals).
    pub fn expected(&self) -> u64 {
        let total = self.window_ns as u128 * self.rate as u128;
        let per_rank = total / (1_000_000_000u128 * self.ranks as u128);
        per_rank as u64 + 1
    }

    /// The next due time, or `None` past the window.
    pub fn next_due(&mut self) -> Option<u64> {
        let due = match self.arrivals {
            Arrivals::Fixed => {
                let slot = self.k as u128 * self.ranks as u128 + self.rank as u128;
                (slot * 1_000_000_000 / self.rate as u128).min(u64::MAX as u128) as u64
            }
            Arrivals::Poisson => {
                let mean = self.ranks as f64 * 1e9 / self.rate as f64;
                // 1 - u is in (0, 1]: the logarithm is finite.
                let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
                self.at += -(1.0 - u).ln() * mean;
                self.at as u64
            }
        };
        self.k += 1;
        (due < self.window_ns).then_some(due)
    }
}

/// Picks operations in the mix's proportions.
#[derive(Debug, Clone)]
pub struct Chooser {
    /// Cumulative percentages, ascending, with their operation.
    table: Vec<(f64, MixOp)>,
}

impl Chooser {
    pub fn new(mix: &Mix) -> Chooser {
        let mut sum = 0.0;
        let table = mix
            .shares
            .iter()
            .filter(|s| s.percent > 0.0)
            .map(|s| {
                sum += s.percent;
                (sum, s.op)
            })
            .collect();
        Chooser { table }
    }

    /// The operation for a uniform draw `x` in [0, 1).
    pub fn at(&self, x: f64) -> MixOp {
        let total = self.table.last().map_or(0.0, |t| t.0);
        let p = x * total;
        self.table
            .iter()
            .find(|(c, _)| p < *c)
            .or(self.table.last())
            .map_or(MixOp::Stat, |t| t.1)
    }

    pub fn pick(&self, rng: &mut SplitMix) -> MixOp {
        self.at((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan::mix::Share;
    use proptest::prelude::*;

    fn all(mut s: Schedule) -> Vec<u64> {
        std::iter::from_fn(|| s.next_due()).collect()
    }

    #[test]
    fn fixed_arrivals_interleave_the_ranks() {
        // 4 ranks at 1000 ops/s over 10 ms: 10 operations, one every millisecond.
        let mut times: Vec<u64> = (0..4)
            .flat_map(|r| all(Schedule::new(r, 4, 1000, 10_000_000, Arrivals::Fixed, 1)))
            .collect();
        times.sort_unstable();
        assert_eq!(times, (0..10).map(|i| i * 1_000_000).collect::<Vec<_>>());
    }

    proptest! {
        #[test]
        fn fixed_counts_match_the_rate(rate in 1u64..100_000, ranks in 1u64..16, ms in 1u64..2000) {
            let window = ms * 1_000_000;
            let n: u64 = (0..ranks)
                .map(|r| all(Schedule::new(r, ranks, rate, window, Arrivals::Fixed, 1)).len() as u64)
                .sum();
            // Slots 0, 1, 2, ... at 1/rate apart, below the window: ceil(window * rate / 1e9).
            let want = (window as u128 * rate as u128).div_ceil(1_000_000_000) as u64;
            prop_assert_eq!(n, want);
            let s = Schedule::new(0, ranks, rate, window, Arrivals::Fixed, 1);
            prop_assert!(s.expected() * ranks + ranks >= n);
        }

        #[test]
        fn poisson_due_times_rise_and_stay_in_the_window(seed in any::<u64>(), rate in 1u64..50_000) {
            let t = all(Schedule::new(1, 2, rate, 200_000_000, Arrivals::Poisson, seed));
            prop_assert!(t.windows(2).all(|w| w[0] <= w[1]));
            prop_assert!(t.iter().all(|&d| d < 200_000_000));
        }

        #[test]
        fn the_chooser_follows_the_percentages(x in 0.0f64..1.0) {
            let mix = Mix {
                shares: vec![
                    Share { op: MixOp::Stat, percent: 70.0 },
                    Share { op: MixOp::Create, percent: 0.0 },
                    Share { op: MixOp::Unlink, percent: 30.0 },
                ],
                ..Mix::default()
            };
            let c = Chooser::new(&mix);
            let op = c.at(x);
            prop_assert_eq!(op, if x < 0.7 { MixOp::Stat } else { MixOp::Unlink });
        }
    }

    #[test]
    fn poisson_mean_rate_is_the_rate() {
        let n = all(Schedule::new(
            0,
            1,
            10_000,
            10_000_000_000,
            Arrivals::Poisson,
            3,
        ))
        .len();
        // 100000 expected; the standard deviation is about 316.
        assert!((98_000..102_000).contains(&n), "{n}");
    }
}
