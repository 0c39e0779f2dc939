//! The latency limit and the knee, pure. A step is within the limit when the limit's
//! statistic (the mean or a percentile) of its latencies is at most the limit; the latencies
//! are every completed operation's, from its scheduled start, and, as lower bounds, the waits
//! of the operations that had not started when the step's window ended, so an overloaded step
//! cannot hide its queue by leaving it unserved. The knee is the highest achieved rate among
//! the steps within the limit.

use measure::LatencyHistogram;
use plan::mix::{LatencyLimit, Statistic};

use super::model::MixStep;

/// A step against the limit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    /// The limit's statistic of the step's latencies, ns.
    pub value_ns: f64,
    pub within: bool,
}

/// The limit's statistic of `h`, ns (0 for no latencies).
pub fn statistic(limit: &LatencyLimit, h: &LatencyHistogram) -> f64 {
    if h.is_empty() {
        return 0.0;
    }
    match limit.statistic {
        Statistic::Mean => h.mean(),
        Statistic::Percentile(p) => h.value_at_quantile(p / 100.0) as f64,
    }
}

/// A value exactly at the limit is within it (as the warnings' thresholds).
pub fn within(limit: &LatencyLimit, value_ns: f64) -> bool {
    value_ns <= limit.limit_ns as f64
}

/// The verdict on a step from its completed operations and the waits of those never started.
pub fn judge(
    limit: &LatencyLimit,
    completed: &LatencyHistogram,
    not_started: &LatencyHistogram,
) -> Verdict {
    let mut all = completed.clone();
    all.merge(not_started);
    let value_ns = statistic(limit, &all);
    Verdict {
        value_ns,
        within: within(limit, value_ns),
    }
}

/// The index of the knee among `steps`: the highest achieved rate of a step within the limit;
/// on a tie the earlier step (the lower load). `None` when no step stayed within.
pub fn knee(steps: &[MixStep]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for (i, s) in steps.iter().enumerate() {
        if !s.within_limit {
            continue;
        }
        if best.is_none_or(|b| s.achieved_ops_s > steps[b].achieved_ops_s) {
            best = Some(i);
        }
    }
    best
}

/// Whether the ramp goes on after a step with this verdict: not once a step exceeded the
/// limit (a higher load would only queue more).
pub fn goes_on(v: &Verdict) -> bool {
    v.within
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn limit(stat: Statistic, ns: u64) -> LatencyLimit {
        LatencyLimit {
            statistic: stat,
            limit_ns: ns,
        }
    }

    fn step(achieved: f64, within: bool) -> MixStep {
        MixStep {
            achieved_ops_s: achieved,
            within_limit: within,
            ..MixStep::default()
        }
    }

    fn hist(values: &[u64]) -> LatencyHistogram {
        let mut h = LatencyHistogram::new();
        for &v in values {
            h.record(v);
        }
        h
    }

    #[test]
    fn mean_and_percentile() {
        let h = hist(
            &[1000; 99]
                .iter()
                .copied()
                .chain([1_000_000])
                .collect::<Vec<_>>(),
        );
        let mean = limit(Statistic::Mean, 10_000);
        let p99 = limit(Statistic::Percentile(99.0), 10_000);
        let p100 = limit(Statistic::Percentile(100.0), 10_000);
        let empty = LatencyHistogram::new();
        // The mean carries the one slow operation (about 10.99 us), p99 does not.
        assert!(!judge(&mean, &h, &empty).within);
        assert!(judge(&p99, &h, &empty).within);
        assert!(!judge(&p100, &h, &empty).within);
        assert_eq!(statistic(&mean, &empty), 0.0);
        assert!(within(&mean, 10_000.0) && !within(&mean, 10_000.5));
        // Waits of operations never started count too.
        let waits = hist(&[50_000; 10]);
        assert!(!judge(&p99, &h, &waits).within);
        assert!(goes_on(&judge(&p99, &h, &empty)));
    }

    #[test]
    fn knee_examples() {
        assert_eq!(knee(&[]), None);
        assert_eq!(knee(&[step(10.0, false)]), None);
        let s = [step(100.0, true), step(190.0, true), step(150.0, false)];
        assert_eq!(knee(&s), Some(1));
        // A later step within the limit but achieving less is not the knee.
        let s = [step(100.0, true), step(190.0, true), step(180.0, true)];
        assert_eq!(knee(&s), Some(1));
        assert_eq!(knee(&[step(5.0, true), step(5.0, true)]), Some(0));
    }

    proptest! {
        #[test]
        fn the_knee_is_the_best_step_within(
            steps in proptest::collection::vec((0.0f64..1e7, any::<bool>()), 0..20)
        ) {
            let s: Vec<MixStep> = steps.iter().map(|&(a, w)| step(a, w)).collect();
            match knee(&s) {
                None => prop_assert!(s.iter().all(|x| !x.within_limit)),
                Some(k) => {
                    prop_assert!(s[k].within_limit);
                    for (i, x) in s.iter().enumerate() {
                        if x.within_limit {
                            prop_assert!(x.achieved_ops_s <= s[k].achieved_ops_s);
                            if x.achieved_ops_s == s[k].achieved_ops_s {
                                prop_assert!(k <= i);
                            }
                        }
                    }
                }
            }
        }

        #[test]
        fn a_statistic_of_equal_latencies_is_that_latency(
            v in 1u64..10_000_000_000, n in 1usize..200, p in 1.0f64..=100.0
        ) {
            let h = hist(&vec![v; n]);
            for stat in [Statistic::Mean, Statistic::Percentile(p)] {
                let got = statistic(&limit(stat, 1), &h);
                // The histogram keeps 3 significant digits.
                prop_assert!((got - v as f64).abs() <= v as f64 * 1e-3 + 1.0, "{got} vs {v}");
            }
        }

        #[test]
        fn within_is_the_limit_or_less(value in 0.0f64..1e12, lim in 1u64..1_000_000_000_000) {
            let l = limit(Statistic::Mean, lim);
            prop_assert_eq!(within(&l, value), value <= lim as f64);
            // Raising the limit never turns a step from within to over.
            let higher = limit(Statistic::Mean, lim.saturating_mul(2));
            prop_assert!(!within(&l, value) || within(&higher, value));
        }

        #[test]
        fn slower_operations_never_bring_a_step_within(
            base in proptest::collection::vec(1u64..1_000_000, 1..50),
            extra in 1u64..1_000_000, lim in 1u64..2_000_000, p in 1.0f64..=100.0
        ) {
            // Adding the same operations, each slower, cannot lower the percentile or the mean.
            let slow: Vec<u64> = base.iter().map(|v| v + extra).collect();
            for stat in [Statistic::Mean, Statistic::Percentile(p)] {
                let l = limit(stat, lim);
                let a = judge(&l, &hist(&base), &LatencyHistogram::new());
                let b = judge(&l, &hist(&slow), &LatencyHistogram::new());
                prop_assert!(b.value_ns + 1.0 >= a.value_ns * (1.0 - 2e-3));
            }
        }
    }
}
