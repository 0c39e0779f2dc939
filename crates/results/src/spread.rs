//! How the ranks of a phase finished: first done and last done (as elbencho reports them), the
//! median rank, and how far the slowest finished behind it. A rank is done when its own work
//! ends (`RankTimes::close_stop_s`, before any closing barrier), in seconds from the phase
//! start; ranks that did no operation are left out.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, JsonSchema)]
pub struct RankSpread {
    /// When the fastest rank finished, and which.
    pub first_done_s: f64,
    pub first_done_rank: u64,
    /// The median of the ranks' finish times (the mean of the middle two for an even count).
    pub median_done_s: f64,
    /// When the slowest rank finished (the phase's time includes waiting for it), and which.
    pub last_done_s: f64,
    pub last_done_rank: u64,
    /// `last_done_s / median_done_s`; absent when the median rank finished at the start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slowest_to_median: Option<f64>,
}

impl RankSpread {
    /// Of the ranks' (finish time, rank) pairs (`PhaseResult::rank_spread` takes them from
    /// `per_rank`); `None` without ranks. Ties go to the lower rank.
    pub fn of(ranks: impl IntoIterator<Item = (f64, u64)>) -> Option<RankSpread> {
        let mut done: Vec<(f64, u64)> = ranks.into_iter().collect();
        done.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let (&(first_s, first_rank), &(last_s, _)) = (done.first()?, done.last()?);
        // The lowest rank among those that finished last.
        let last_rank = done.iter().find(|d| d.0 == last_s).map_or(0, |d| d.1);
        let n = done.len();
        let median = if n % 2 == 1 {
            done[n / 2].0
        } else {
            (done[n / 2 - 1].0 + done[n / 2].0) / 2.0
        };
        Some(RankSpread {
            first_done_s: first_s,
            first_done_rank: first_rank,
            median_done_s: median,
            last_done_s: last_s,
            last_done_rank: last_rank,
            slowest_to_median: (median > 0.0).then(|| last_s / median),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranks(done: &[f64]) -> Vec<(f64, u64)> {
        done.iter()
            .enumerate()
            .map(|(i, &d)| (d, i as u64))
            .collect()
    }

    #[test]
    fn first_median_and_last() {
        let s = RankSpread::of(ranks(&[2.0, 1.0, 6.0, 3.0])).unwrap();
        assert_eq!((s.first_done_s, s.first_done_rank), (1.0, 1));
        assert_eq!((s.last_done_s, s.last_done_rank), (6.0, 2));
        assert_eq!(s.median_done_s, 2.5);
        assert_eq!(s.slowest_to_median, Some(2.4));
        let odd = RankSpread::of(ranks(&[4.0, 4.0, 1.0])).unwrap();
        assert_eq!((odd.median_done_s, odd.last_done_rank), (4.0, 0));
        assert_eq!(odd.slowest_to_median, Some(1.0));
    }

    #[test]
    fn degenerate_phases() {
        assert_eq!(RankSpread::of([]), None);
        let at_once = RankSpread::of(ranks(&[0.0, 0.0])).unwrap();
        assert_eq!(at_once.slowest_to_median, None);
        let one = RankSpread::of(ranks(&[0.5])).unwrap();
        assert_eq!((one.first_done_s, one.last_done_s), (0.5, 0.5));
    }
}
