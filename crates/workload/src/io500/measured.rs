//! What a phase's tool reported, and how the IO500 turns it into result.txt lines and a score
//! (`src/phase_ior.c`, `phase_mdtest.c`, `phase_find.c`): the pairs, the invalidating checks
//! and the warnings, in the order the IO500 prints them.

use super::format::cf;
use super::phases::{IorStep, MdStep, MdwbStep};
use super::score::{ior_gib_s, ior_stonewall_gib_s, kiops};
use super::validity;

/// IOR's stonewall figures of a write phase.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IorWall {
    /// Time from the start of the transfers until the ranks agreed to stop.
    pub time_s: f64,
    /// Mean bytes per rank moved until then.
    pub bytes_mean: f64,
    /// Transfers per rank after wear-out (IOR's `pairs_accessed`).
    pub pairs: u64,
}

/// mdtest's stonewall figures of a create phase.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MdWall {
    pub time_s: f64,
    /// Items of all ranks when the wall was hit.
    pub items_sum: u64,
}

/// Rank 0's view of what a tool did.
#[derive(Debug, Clone, PartialEq)]
pub enum Measured {
    Ior {
        /// Bytes moved by all ranks, wear-out included (IOR's `aggFileSizeForBW`).
        bytes: u64,
        /// max(close stop) - min(open start).
        time_s: f64,
        /// Failed transfers (verification included).
        errors: u64,
        wall: Option<IorWall>,
    },
    Mdtest {
        /// Items of all ranks.
        items: u64,
        /// The slowest rank's time, barrier to barrier.
        time_s: f64,
        /// Files that did not read back as written.
        errors: u64,
        wall: Option<MdWall>,
    },
    Find {
        found: u64,
        /// Non-directory entries examined (pfind's `total_files`).
        examined: u64,
        /// The slowest rank's walk.
        runtime_s: f64,
    },
    /// md-workbench: each phase's rate (iops/s) and slowest operation (s), in order (the
    /// IO500's `mdworkbench_results_t`), and the errors of all of them.
    MdWorkbench {
        results: Vec<(f64, f64)>,
        errors: u64,
    },
    /// An external find script: its command, last output line, line count, wait status and
    /// wall time.
    Script {
        command: String,
        last_line: String,
        lines: u64,
        status: i32,
        runtime_s: f64,
    },
}

/// One line of a phase's section in result.txt.
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    Pair(String, String),
    Invalid(String),
    Warning(String),
}

fn pair(k: &str, v: impl ToString) -> Line {
    Line::Pair(k.to_string(), v.to_string())
}

/// How the tool was asked to run, for the checks that depend on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Ior(IorStep),
    Mdtest(MdStep),
    MdWorkbench(MdwbStep),
    Find,
}

/// The lines and the score of a measured phase. `info` adds the IO500's verbosity > 1 pairs.
pub fn lines(
    m: &Measured,
    step: Step,
    stonewall: i64,
    ranks: usize,
    info: bool,
) -> (Vec<Line>, f64) {
    let mut out = Vec::new();
    let score = match m {
        Measured::Ior {
            bytes,
            time_s,
            errors,
            wall,
        } => {
            if *errors > 0 {
                out.push(Line::Invalid(validity::ior_errors(*errors)));
            }
            if step == Step::Ior(IorStep::Write) {
                let w = wall.unwrap_or(IorWall {
                    time_s: 0.0,
                    bytes_mean: 0.0,
                    pairs: 0,
                });
                if let Some(r) = validity::ior_write_short(*time_s, stonewall, w.time_s) {
                    out.push(Line::Invalid(r));
                }
                if info {
                    out.push(pair("accessed-pairs", w.pairs));
                }
                let sw = ior_stonewall_gib_s(w.bytes_mean, ranks, w.time_s);
                out.push(pair("throughput-stonewall", format!("{sw:.2}")));
            }
            ior_gib_s(*bytes, *time_s)
        }
        Measured::Mdtest {
            items,
            time_s,
            errors,
            wall,
        } => {
            if *errors > 0 {
                out.push(Line::Invalid(validity::mdtest_errors(*errors)));
            }
            if info {
                out.push(pair("time", cf(*time_s)));
            }
            if step == Step::Mdtest(MdStep::Create) {
                // Without -W (files-per-dir) mdtest divides 0 by 0, as the IO500 prints.
                let rate = wall.map_or(f64::NAN, |w| w.items_sum as f64 / w.time_s / 1000.0);
                out.push(pair("rate-stonewall", cf(rate)));
            }
            kiops(*items, *time_s)
        }
        Measured::Find {
            found,
            examined,
            runtime_s,
        } => {
            if *found == 0 {
                out.push(Line::Invalid(validity::FIND_NOTHING.into()));
            }
            out.push(pair("found", found));
            out.push(pair("total-files", examined));
            kiops(*examined, *runtime_s)
        }
        Measured::Script {
            command,
            last_line,
            lines,
            status,
            runtime_s,
        } => {
            return script_lines(command, last_line, *lines, *status, *runtime_s);
        }
        Measured::MdWorkbench { results, errors } => {
            return mdworkbench_lines(results, *errors, step == Step::MdWorkbench(MdwbStep::Bench));
        }
    };
    (out, score)
}

/// md-workbench's lines (`phase_mdworkbench*.c`): errors invalidate; the benchmark scores its
/// second iteration, needs exactly two and warns when they differ by more than 2x.
fn mdworkbench_lines(results: &[(f64, f64)], errors: u64, bench: bool) -> (Vec<Line>, f64) {
    let mut out = Vec::new();
    if errors > 0 {
        out.push(Line::Invalid(validity::mdworkbench_errors(errors)));
    }
    let kiops = |rate: f64| rate / 1000.0;
    if !bench {
        let Some(&(rate, max_op)) = results.first() else {
            return (out, 0.0);
        };
        out.push(pair("maxOpTime", cf(max_op)));
        return (out, kiops(rate));
    }
    let [(rate0, max0), (rate, max_op)] = results else {
        out.push(Line::Invalid(validity::mdworkbench_iterations(
            results.len(),
        )));
        return (out, 0.0);
    };
    if *rate0 < rate * 0.5 || rate0 * 0.5 > *rate {
        out.push(Line::Warning(validity::MDWORKBENCH_DIFFER.into()));
    }
    out.push(pair("maxOpTime", cf(*max_op)));
    out.push(pair("scoreIteration0", cf(kiops(*rate0))));
    out.push(pair("maxOpTime0", cf(*max0)));
    (out, kiops(*rate))
}

/// An external find script's lines (`run_find` with `ext_find`).
fn script_lines(
    command: &str,
    last: &str,
    lines: u64,
    status: i32,
    runtime_s: f64,
) -> (Vec<Line>, f64) {
    let mut out = Vec::new();
    if status != 0 {
        out.push(Line::Invalid(validity::find_exit(status, command)));
    }
    out.push(pair("last-output", format!("\"{last}\"")));
    let (hits, score) = match parse_matched(last) {
        Some((found, total)) => {
            out.push(pair("total-files", total));
            (found, kiops(total, runtime_s))
        }
        None => {
            out.push(Line::Warning(
                "Couldn't find \"MATCHED x/y\" as last output, badly approximate using hits."
                    .into(),
            ));
            (lines, kiops(lines, runtime_s))
        }
    };
    if hits == 0 {
        out.push(Line::Invalid(validity::FIND_NOTHING.into()));
    }
    out.push(pair("found", hits));
    (out, score)
}

/// `MATCHED <found>/<total>`, the last line an external find script prints.
pub fn parse_matched(line: &str) -> Option<(u64, u64)> {
    let rest = line.strip_prefix("MATCHED ")?;
    let (a, b) = rest.split_once('/')?;
    Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ior_write_lines_in_the_io500_order() {
        let m = Measured::Ior {
            bytes: 3 << 30,
            time_s: 2.0,
            errors: 1,
            wall: Some(IorWall {
                time_s: 1.5,
                bytes_mean: (1u64 << 30) as f64,
                pairs: 9,
            }),
        };
        let (l, score) = lines(&m, Step::Ior(IorStep::Write), 300, 2, true);
        assert_eq!(score, 1.5);
        assert!(
            matches!(&l[0], Line::Invalid(r) if r.starts_with("Errors (1) occured during phase in IOR"))
        );
        assert!(
            matches!(&l[1], Line::Invalid(r) if r == "Write phase needed 2.000000s instead of stonewall 300s. Stonewall was hit at 1.5s")
        );
        assert_eq!(l[2], pair("accessed-pairs", 9));
        assert_eq!(l[3], pair("throughput-stonewall", "1.33"));
        let (l, _) = lines(&m, Step::Ior(IorStep::Read), 300, 2, false);
        assert_eq!(l.len(), 1, "a read: only the error");
    }

    #[test]
    fn mdtest_and_find_lines() {
        let m = Measured::Mdtest {
            items: 5000,
            time_s: 2.0,
            errors: 0,
            wall: Some(MdWall {
                time_s: 1.0,
                items_sum: 3000,
            }),
        };
        let (l, s) = lines(&m, Step::Mdtest(MdStep::Create), 300, 2, false);
        assert_eq!((l, s), (vec![pair("rate-stonewall", "3.000000")], 2.5));
        let f = Measured::Find {
            found: 0,
            examined: 6003,
            runtime_s: 0.5,
        };
        let (l, s) = lines(&f, Step::Find, 300, 2, false);
        assert_eq!(s, 12.006);
        assert_eq!(l[0], Line::Invalid(validity::FIND_NOTHING.into()));
        assert_eq!(&l[1..], [pair("found", 0), pair("total-files", 6003)]);
    }

    #[test]
    fn md_workbench_scores_the_second_iteration() {
        let m = |results: Vec<(f64, f64)>, errors| Measured::MdWorkbench { results, errors };
        let bench = Step::MdWorkbench(MdwbStep::Bench);
        let (l, s) = lines(
            &m(vec![(3000.0, 0.5), (5000.0, 0.25)], 0),
            bench,
            300,
            2,
            false,
        );
        assert_eq!(s, 5.0);
        assert_eq!(
            l,
            [
                pair("maxOpTime", "0.250000"),
                pair("scoreIteration0", "3.000000"),
                pair("maxOpTime0", "0.500000")
            ]
        );
        // More than 2x apart: a warning; errors and a wrong count invalidate.
        let (l, s) = lines(
            &m(vec![(1000.0, 0.1), (5000.0, 0.1)], 3),
            bench,
            300,
            2,
            false,
        );
        assert_eq!(s, 5.0);
        assert!(
            matches!(&l[0], Line::Invalid(r) if r.starts_with("Errors (3) occured during the md-workbench phase"))
        );
        assert_eq!(l[1], Line::Warning(validity::MDWORKBENCH_DIFFER.into()));
        let (l, s) = lines(&m(vec![(5000.0, 0.1)], 0), bench, 300, 2, false);
        assert_eq!(s, 0.0);
        assert!(
            matches!(&l[0], Line::Invalid(r) if r.contains("not two iterations are performed but 1"))
        );
        let create = Step::MdWorkbench(MdwbStep::Create);
        let (l, s) = lines(&m(vec![(2500.0, 0.125)], 0), create, 300, 2, false);
        assert_eq!((l, s), (vec![pair("maxOpTime", "0.125000")], 2.5));
    }

    #[test]
    fn external_script_output() {
        assert_eq!(
            parse_matched("MATCHED 380101/105280001"),
            Some((380101, 105280001))
        );
        assert_eq!(parse_matched("found 3"), None);
        let m = Measured::Script {
            command: "f.sh".into(),
            last_line: "MATCHED 18/6003".into(),
            lines: 1,
            status: 0,
            runtime_s: 2.0,
        };
        let (l, s) = lines(&m, Step::Find, 300, 1, false);
        assert_eq!(s, 3.0015);
        assert_eq!(
            l,
            [
                pair("last-output", "\"MATCHED 18/6003\""),
                pair("total-files", 6003),
                pair("found", 18)
            ]
        );
        let m = Measured::Script {
            command: "f.sh".into(),
            last_line: "x".into(),
            lines: 0,
            status: 256,
            runtime_s: 1.0,
        };
        let (l, _) = lines(&m, Step::Find, 300, 1, false);
        assert!(
            matches!(&l[0], Line::Invalid(r) if r.starts_with("Exit code 256 != 0 from find command: \"f.sh\""))
        );
        assert!(matches!(&l[2], Line::Warning(_)));
        assert_eq!(l[3], Line::Invalid(validity::FIND_NOTHING.into()));
    }
}
