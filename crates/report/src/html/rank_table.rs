//! The straggler view of a phase: every rank's start, finish, amount and rate, for the
//! iteration whose slowest rank lagged the median most.

use super::{Table, Td};
use crate::fmt;
use crate::phases::PhaseGroup;
use results::PhaseResult;

/// More ranks than this: the slowest ones only.
const MAX_ROWS: usize = 64;

/// The table, for phases of two or more ranks.
pub(super) fn rank_table(g: &PhaseGroup<'_>) -> Option<Table> {
    // Older documents have no spread: it comes from their per-rank times.
    let spread = |p: &PhaseResult| p.spread.or_else(|| p.rank_spread());
    let lag = |p: &PhaseResult| spread(p).and_then(|s| s.slowest_to_median).unwrap_or(0.0);
    let p = *g
        .iterations
        .iter()
        .filter(|p| p.per_rank.len() > 1)
        .max_by(|a, b| lag(a).total_cmp(&lag(b)))?;
    let bytes = p.per_rank.iter().any(|r| r.bytes > 0);
    let rate = if bytes { "MiB/s" } else { "ops/s" };
    let mut t = Table::new(
        &format!("Ranks, iteration {}", p.iteration),
        &["rank", "start (s)", "done (s)", "bytes", "operations", rate],
    );
    t.note = match spread(p) {
        Some(s) => format!(
            "first done {:.4} s, last done {:.4} s, median {:.4} s{}",
            s.first_done_s,
            s.last_done_s,
            s.median_done_s,
            s.slowest_to_median
                .map(|r| format!(": the slowest took {r:.2}× the median"))
                .unwrap_or_default()
        ),
        None => String::new(),
    };
    let mut ranks: Vec<_> = p.per_rank.iter().collect();
    if ranks.len() > MAX_ROWS {
        ranks.sort_by(|a, b| b.close_stop_s.total_cmp(&a.close_stop_s));
        ranks.truncate(MAX_ROWS);
        t.note += &format!("; the {MAX_ROWS} slowest of {} ranks", p.per_rank.len());
    }
    for r in ranks {
        let took = r.close_stop_s - r.open_start_s;
        let amount = if bytes {
            r.bytes as f64 / 1_048_576.0
        } else {
            r.ops as f64
        };
        let per_s = if took > 0.0 { amount / took } else { 0.0 };
        t.rows.push(vec![
            Td::num(r.rank.to_string()),
            Td::num(format!("{:.4}", r.open_start_s)),
            Td::num(format!("{:.4}", r.close_stop_s)),
            Td::num(r.bytes.to_string()),
            Td::num(r.ops.to_string()),
            Td::num(fmt::number(per_s)),
        ]);
    }
    Some(t)
}
