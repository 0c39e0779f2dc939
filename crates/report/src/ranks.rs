//! Stragglers: how far the slowest rank finished behind the others in one phase.

use crate::fmt;
use results::PhaseResult;
use serde::Serialize;

/// The spread of the ranks' finish times (`close_stop_s`, seconds from the phase start):
/// the document's `spread` in the form the tables print.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RankSpread {
    pub fastest_rank: u64,
    pub fastest_s: f64,
    pub median_s: f64,
    pub slowest_rank: u64,
    pub slowest_s: f64,
}

impl RankSpread {
    /// `None` for a phase without per-rank times. The document's spread where it has one
    /// (mdtest's ranks finish before a closing barrier its `per_rank` times of older
    /// documents include).
    pub fn of(p: &PhaseResult) -> Option<RankSpread> {
        let s = p.spread.or_else(|| p.rank_spread())?;
        Some(RankSpread {
            fastest_rank: s.first_done_rank,
            fastest_s: s.first_done_s,
            median_s: s.median_done_s,
            slowest_rank: s.last_done_rank,
            slowest_s: s.last_done_s,
        })
    }

    /// How long after the median rank the slowest finished, in percent of the median's time;
    /// `None` when the median rank finished at the start.
    pub fn lag_percent(&self) -> Option<f64> {
        crate::spread::percent_change(self.median_s, self.slowest_s)
    }

    /// How far behind: `+35%` of the median rank's time, or `12× the median` past double.
    fn lag(&self) -> String {
        match self.lag_percent() {
            Some(p) if p >= 100.0 => format!(
                "{:.0}× the median rank's time",
                self.slowest_s / self.median_s
            ),
            Some(p) => format!("{p:+.0}% on the median rank's time"),
            None => "the median rank finished at once".to_string(),
        }
    }

    /// `rank 0 at 2.28 s, 12× the median rank's time (190 ms)`.
    pub fn text(&self) -> String {
        format!(
            "rank {} at {}, {} ({})",
            self.slowest_rank,
            fmt::duration_ns(self.slowest_s * 1e9),
            self.lag(),
            fmt::duration_ns(self.median_s * 1e9)
        )
    }

    /// `rank 3, +35%` or `rank 0, 12×` for tables.
    pub fn short(&self) -> String {
        match self.lag_percent() {
            Some(p) if p >= 100.0 => format!(
                "rank {}, {:.0}×",
                self.slowest_rank,
                self.slowest_s / self.median_s
            ),
            Some(p) => format!("rank {}, {p:+.0}%", self.slowest_rank),
            None => format!("rank {}", self.slowest_rank),
        }
    }
}
