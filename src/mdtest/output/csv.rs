//! `--saveRankPerformanceDetails=FILE`: mdtest's per-rank CSV (`StoreRankInformation`).
//! The header is written (truncating) before the run; the rows are appended at the end: an
//! `all` row with the first iteration's aggregate rate and time per phase, then one row per
//! rank and iteration with the times before the closing barrier.

use std::io::Write;
use std::path::Path;

use results::Operation as Op;
use text::c_exp;
use workload::mdtest::outcome::per_s;
use workload::mdtest::PhaseOutcome;

/// mdtest's 11 result slots, in its table order; `None` is the directory "read" slot, a no-op
/// phase iogauge does not run (its columns stay empty).
const SLOTS: [Option<Op>; 11] = [
    Some(Op::DirCreate),
    Some(Op::DirStat),
    None,
    Some(Op::DirRename),
    Some(Op::DirRemove),
    Some(Op::FileCreate),
    Some(Op::FileStat),
    Some(Op::FileRead),
    Some(Op::FileRemove),
    Some(Op::TreeCreate),
    Some(Op::TreeRemove),
];

fn slot_name(slot: Option<Op>) -> &'static str {
    slot.map_or("Directory read", Op::title)
}

pub fn header() -> String {
    let mut s = String::from("rank,items");
    for slot in SLOTS {
        let n = slot_name(slot);
        s.push_str(&format!(",rate-{n},time-{n}"));
    }
    s.push('\n');
    s
}

fn pair(items: u64, rate: f64, time: f64) -> String {
    if items == 0 {
        ",,".to_string()
    } else {
        format!(",{},{}", c_exp(rate, 10), c_exp(time, 10))
    }
}

/// The rows after the run; `items` is the items per task the run ended with.
pub fn rows(outcomes: &[PhaseOutcome], iterations: u32, tasks: usize, items: u64) -> String {
    let find = |op: Op, j: u32| outcomes.iter().find(|o| o.op == op && o.iteration == j);
    let mut s = format!("all,{items}");
    for slot in SLOTS {
        let agg = slot.and_then(|op| find(op, 0)).map(|o| {
            // Every rank counts the tree's directories, as in mdtest's table.
            let items = if o.op.is_tree() {
                o.tree_dirs * tasks as u64
            } else {
                o.items()
            };
            let time = o.ranks.iter().map(|r| r.time()).fold(0.0, f64::max);
            (items, per_s(items as f64, time), time)
        });
        let (n, rate, time) = agg.unwrap_or((0, 0.0, 0.0));
        s.push_str(&pair(n, rate, time));
    }
    s.push('\n');
    for j in 0..iterations {
        for rank in 0..tasks {
            s.push_str(&format!("{rank},"));
            // mdtest writes the phase columns only, not the tree ones.
            for slot in &SLOTS[..9] {
                let r = slot
                    .and_then(|op| find(op, j))
                    .and_then(|o| o.ranks.get(rank));
                let (n, t) = r.map_or((0, 0.0), |r| (r.items, r.time_before_barrier()));
                s.push_str(&pair(n, per_s(n as f64, t), t));
            }
            s.push('\n');
        }
    }
    s
}

/// Truncates `path` and writes the header (mdtest does this when it validates its options).
pub fn write_header(path: &Path) -> std::io::Result<()> {
    std::fs::write(path, header())
}

pub fn append_rows(path: &Path, text: &str) -> std::io::Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)?;
    f.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use measure::{IntervalSeries, LatencyHistogram};
    use workload::mdtest::RankTimes;

    #[test]
    fn header_and_rows() {
        let h = header();
        assert!(h.starts_with(
            "rank,items,rate-Directory creation,time-Directory creation,rate-Directory stat,"
        ));
        assert!(h.contains(",rate-Directory read,time-Directory read,rate-Directory rename,"));
        assert!(h.ends_with(",rate-Tree removal,time-Tree removal\n"));
        let o = PhaseOutcome {
            op: Op::FileCreate,
            iteration: 0,
            ranks: vec![
                RankTimes {
                    start: 0.0,
                    end_before_barrier: 1.0,
                    end: 2.0,
                    items: 10,
                    bytes: 0,
                },
                RankTimes {
                    start: 0.0,
                    end_before_barrier: 2.0,
                    end: 2.0,
                    items: 10,
                    bytes: 0,
                },
            ],
            tree_dirs: 1,
            latency: LatencyHistogram::new(),
            series: IntervalSeries::new(1, 0),
            stonewall: None,
            verification: None,
            warnings: vec![],
            requests: None,
        };
        let text = rows(&[o], 1, 2, 10);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        let empty = ",,".repeat(5);
        assert_eq!(
            lines[0],
            format!("all,10{empty},1.0000000000e+01,2.0000000000e+00{empty}")
        );
        assert_eq!(
            lines[1],
            format!(
                "0,{},1.0000000000e+01,1.0000000000e+00,,,,,,",
                ",,".repeat(5)
            )
        );
        assert_eq!(
            lines[2],
            format!(
                "1,{},5.0000000000e+00,2.0000000000e+00,,,,,,",
                ",,".repeat(5)
            )
        );
    }
}
