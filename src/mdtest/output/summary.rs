//! mdtest's SUMMARY tables (`summarize_results_rank0`), byte for byte in mdtest's columns, with
//! the time table titled in seconds and p50/p99/max latency columns appended to the rate rows.

use std::collections::HashMap;
use std::fmt::Write;

use measure::{LatencyHistogram, Stats};
use results::Operation as Op;
use workload::mdtest::{MdtestParams, PhaseOutcome};

/// Which table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Table {
    Rate,
    Time,
}

/// Max, min, mean and sample standard deviation over iterations (mdtest's summary columns).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct RowStats {
    pub max: f64,
    pub min: f64,
    pub mean: f64,
    pub sd: f64,
}

impl RowStats {
    fn of(values: &[f64]) -> Self {
        let s = Stats::of(values);
        RowStats {
            max: s.max,
            min: s.min,
            mean: s.mean,
            sd: s.stddev_sample,
        }
    }
}

/// The outcomes of one run, by operation and iteration.
pub struct Results<'a> {
    by_op: HashMap<Op, Vec<Option<&'a PhaseOutcome>>>,
    iterations: usize,
    tasks: usize,
}

impl<'a> Results<'a> {
    pub fn new(outcomes: &'a [PhaseOutcome], iterations: u32, tasks: usize) -> Self {
        let iterations = iterations as usize;
        let mut by_op: HashMap<Op, Vec<Option<&PhaseOutcome>>> = HashMap::new();
        for o in outcomes {
            let slots = by_op.entry(o.op).or_insert_with(|| vec![None; iterations]);
            if let Some(slot) = slots.get_mut(o.iteration as usize) {
                *slot = Some(o);
            }
        }
        Results {
            by_op,
            iterations,
            tasks,
        }
    }

    fn of(&self, op: Op) -> impl Iterator<Item = Option<&'a PhaseOutcome>> + '_ {
        let slots = self.by_op.get(&op);
        (0..self.iterations).map(move |j| slots.and_then(|s| s[j]))
    }

    /// Per-iteration values of a row: the rate or the time, 0 where the phase did not run.
    pub fn iteration_values(&self, op: Op, table: Table) -> Vec<f64> {
        self.of(op)
            .map(|o| {
                o.map_or(0.0, |o| match table {
                    Table::Rate => o.rate(),
                    Table::Time => o.time(),
                })
            })
            .collect()
    }

    /// `--showRankStatistics`: over every (task, iteration), the rate or time before the
    /// closing barrier; tree rows use rank 0's per-iteration values, as mdtest.
    fn rank_stats(&self, op: Op, table: Table) -> (f64, f64, f64) {
        if op.is_tree() {
            let s = RowStats::of(&self.iteration_values(op, table));
            return (s.max, s.min, s.mean);
        }
        let mut values = Vec::new();
        for o in self.of(op) {
            for r in 0..self.tasks {
                let v = o.and_then(|o| o.ranks.get(r)).map_or(0.0, |r| match table {
                    Table::Rate => {
                        workload::mdtest::outcome::per_s(r.items as f64, r.time_before_barrier())
                    }
                    Table::Time => r.time_before_barrier(),
                });
                values.push(v);
            }
        }
        let s = Stats::of(&values);
        (s.max, s.min, s.mean)
    }

    /// Every iteration's latencies of an operation, merged.
    fn latency(&self, op: Op) -> LatencyHistogram {
        let mut h = LatencyHistogram::new();
        for o in self.of(op).flatten() {
            h.merge(&o.latency);
        }
        h
    }
}

/// The rows mdtest prints: files, directories or both, then the tree rows.
pub fn rows(p: &MdtestParams) -> Vec<Op> {
    Op::MDTEST
        .into_iter()
        .filter(|op| op.is_tree() || (op.is_file() && p.files) || (op.is_dir() && p.dirs_too))
        .collect()
}

fn us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

/// One SUMMARY table, starting with its empty line.
pub fn table(p: &MdtestParams, results: &Results, table: Table) -> String {
    let ranks = p.show_rank_statistics;
    let latency = table == Table::Rate;
    let mut s = String::new();
    let title = match table {
        Table::Rate => "rate (in ops/sec)",
        Table::Time => "time (in s)",
    };
    let _ = writeln!(
        s,
        "\nSUMMARY {title}: (of {} iterations)",
        results.iterations
    );
    s.push_str("   Operation     ");
    s.push_str(if ranks {
        "per Rank: Max            Min           Mean      per Iteration:"
    } else {
        "               "
    });
    s.push_str(" Max            Min           Mean        Std Dev");
    if latency {
        for h in ["p50 lat (us)", "p99 lat (us)", "max lat (us)"] {
            let _ = write!(s, " {h:>14}");
        }
    }
    s.push('\n');
    s.push_str("   ---------      ");
    if ranks {
        s.push_str("         ---            ---           ----       ");
    }
    s.push_str("               ---            ---           ----        -------");
    if latency {
        for _ in 0..3 {
            let _ = write!(s, " {:>14}", "------------");
        }
    }
    s.push('\n');
    for op in rows(p) {
        let v = RowStats::of(&results.iteration_values(op, table));
        let sd = if results.iterations == 1 { 0.0 } else { v.sd };
        if op.is_tree() {
            let _ = write!(s, "   {:<22} ", op.title());
        } else {
            let _ = write!(s, "   {:<18} ", op.title());
        }
        if ranks {
            let (max, min, mean) = results.rank_stats(op, table);
            let _ = write!(s, "{max:14.3} {min:14.3} {mean:14.3}     ");
        }
        if !op.is_tree() {
            s.push_str("    ");
        }
        let _ = write!(s, "{:14.3} {:14.3} {:14.3} {sd:14.3}", v.max, v.min, v.mean);
        if latency {
            let h = results.latency(op);
            let (p50, p99) = (h.value_at_quantile(0.5), h.value_at_quantile(0.99));
            let _ = write!(s, " {:14.3} {:14.3} {:14.3}", us(p50), us(p99), us(h.max()));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use measure::IntervalSeries;
    use workload::mdtest::RankTimes;

    fn outcome(op: Op, iteration: u32, times: &[f64], items: u64) -> PhaseOutcome {
        let mut latency = LatencyHistogram::new();
        latency.record(2000);
        PhaseOutcome {
            op,
            iteration,
            ranks: times
                .iter()
                .map(|&t| RankTimes {
                    start: 0.0,
                    end_before_barrier: t,
                    end: t,
                    items,
                    bytes: 0,
                })
                .collect(),
            tree_dirs: 1,
            latency,
            series: IntervalSeries::new(1, 0),
            stonewall: None,
            verification: None,
            warnings: vec![],
            requests: None,
        }
    }

    fn files_only() -> MdtestParams {
        MdtestParams {
            dirs_too: false,
            ..MdtestParams::default()
        }
    }

    #[test]
    fn layout_matches_mdtest_byte_for_byte() {
        let outs = vec![
            outcome(Op::FileCreate, 0, &[0.5, 1.0], 5000),
            outcome(Op::TreeCreate, 0, &[0.001], 0),
        ];
        let p = files_only();
        let r = Results::new(&outs, 1, 2);
        let t = table(&p, &r, Table::Time);
        let want = "
SUMMARY time (in s): (of 1 iterations)
   Operation                     Max            Min           Mean        Std Dev
   ---------                     ---            ---           ----        -------
   File creation                   1.000          1.000          1.000          0.000
   File stat                       0.000          0.000          0.000          0.000
   File read                       0.000          0.000          0.000          0.000
   File removal                    0.000          0.000          0.000          0.000
   Tree creation                   0.001          0.001          0.001          0.000
   Tree removal                    0.000          0.000          0.000          0.000
";
        assert_eq!(t, want);
        // Rates with the widths of the reference's example, whose rows are copied verbatim:
        // 2 x 101159219 items / 1000 s, and one tree directory in 1/66576.254 s.
        let outs = vec![
            outcome(Op::FileCreate, 0, &[1000.0, 1000.0], 101_159_219),
            outcome(Op::TreeCreate, 0, &[1.0 / 66576.254], 0),
        ];
        let r = Results::new(&outs, 1, 2);
        let t = table(&p, &r, Table::Rate);
        let lines: Vec<&str> = t.lines().collect();
        // mdtest's columns unchanged, latency appended after Std Dev.
        assert_eq!(
            &lines[2][..81],
            "   Operation                     Max            Min           Mean        Std Dev"
        );
        assert!(lines[2].ends_with("   p50 lat (us)   p99 lat (us)   max lat (us)"));
        assert_eq!(
            &lines[3][..81],
            "   ---------                     ---            ---           ----        -------"
        );
        assert_eq!(
            &lines[4][..85],
            "   File creation              202318.438     202318.438     202318.438          0.000"
        );
        assert!(
            lines[4].ends_with("          2.000          2.000          2.000"),
            "{}",
            lines[4]
        );
        assert_eq!(
            &lines[8][..85],
            "   Tree creation               66576.254      66576.254      66576.254          0.000"
        );
    }

    #[test]
    fn sample_sd_and_rank_statistics() {
        let outs = vec![
            outcome(Op::FileStat, 0, &[1.0, 2.0], 100),
            outcome(Op::FileStat, 1, &[1.0, 1.0], 100),
            outcome(Op::FileStat, 2, &[0.5, 1.0], 100),
        ];
        let r = Results::new(&outs, 3, 2);
        // Iteration rates: 2 x min(100/1, 100/2) = 100, 200, 200.
        assert_eq!(
            r.iteration_values(Op::FileStat, Table::Rate),
            [100.0, 200.0, 200.0]
        );
        let s = RowStats::of(&r.iteration_values(Op::FileStat, Table::Rate));
        assert!((s.sd - 57.735).abs() < 1e-3, "{}", s.sd);
        let (max, min, mean) = r.rank_stats(Op::FileStat, Table::Rate);
        assert_eq!((max, min), (200.0, 50.0));
        assert!((mean - 650.0 / 6.0).abs() < 1e-9);
        let mut p = files_only();
        p.show_rank_statistics = true;
        let t = table(&p, &r, Table::Rate);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[2], "   Operation     per Rank: Max            Min           Mean      per Iteration: Max            Min           Mean        Std Dev   p50 lat (us)   p99 lat (us)   max lat (us)");
        assert_eq!(lines[3], "   ---------               ---            ---           ----                      ---            ---           ----        -------   ------------   ------------   ------------");
        // The columns of the reference's --showRankStatistics row, by position.
        let reference =
            "   File creation           99810.198      72943.910      86711.627             \
                         173271.091     145845.208     159558.150      19393.028";
        let cols = |l: &str| -> Vec<String> {
            [
                (22, 36),
                (37, 51),
                (52, 66),
                (75, 89),
                (90, 104),
                (105, 119),
                (120, 134),
            ]
            .iter()
            .map(|&(a, b)| l[a..b].trim().to_string())
            .collect()
        };
        assert_eq!(cols(reference)[0], "99810.198");
        assert_eq!(cols(reference)[6], "19393.028");
        assert_eq!(
            cols(lines[5]),
            ["200.000", "50.000", "108.333", "200.000", "100.000", "166.667", "57.735"]
        );
        assert_eq!(&lines[5][3..12], "File stat");
    }

    #[test]
    fn rows_follow_files_and_dirs() {
        let both = rows(&MdtestParams::default());
        assert_eq!(both.len(), 10);
        let dirs = rows(&MdtestParams {
            files: false,
            ..MdtestParams::default()
        });
        assert_eq!(
            dirs,
            [
                Op::DirCreate,
                Op::DirStat,
                Op::DirRename,
                Op::DirRemove,
                Op::TreeCreate,
                Op::TreeRemove
            ]
        );
    }
}
