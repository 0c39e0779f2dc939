//! mdtest-compatible output of `iogauge mdtest`: the header lines, the stonewall line, the
//! SUMMARY tables (`summary.rs`) and the per-rank CSV (`csv.rs`).
//!
//! Layouts follow mdtest's `mdtest.c` where a parser could depend on them; the known quirks are
//! corrected (reference section 6.1): the time table is titled in seconds, and after a stonewall
//! or a status-file count the items actually used are printed next to the configured count.

pub mod csv;
mod sink;
pub mod summary;

use std::io::{self, Write};

use workload::mdtest::{MdtestParams, PhaseOutcome, StonewallOutcome};

use summary::{Results, Table};

pub use sink::{MdtestOutput, MdtestRankCsv};

/// Run-level facts the header needs (the caller fills them).
#[derive(Debug, Clone, Default)]
pub struct Header {
    pub version: String,
    /// `'-n' '5' ...`: every argument after `mdtest`, single-quoted as mdtest prints them.
    pub quoted_args: String,
    pub tasks: usize,
    pub nodes: usize,
    /// One digit per rank: 1 when on rank 0's node.
    pub nodemap: String,
    /// The first `-d` directory, as given.
    pub path: String,
    /// The text after `FS                  : `; empty leaves the line out.
    pub fs_line: String,
    /// `-N` after the tasks-per-node rule.
    pub stride: u64,
    /// Configured items per task.
    pub items_per_task: u64,
}

/// mdtest's `MM/DD/YYYY HH:MM:SS`.
pub fn timestamp() -> String {
    measure::local_now(measure::MDTEST_DATE_FORMAT)
}

pub struct MdtestPrinter<W: Write> {
    out: W,
    params: MdtestParams,
    header: Header,
}

impl<W: Write> MdtestPrinter<W> {
    pub fn new(out: W, params: &MdtestParams, header: Header) -> Self {
        MdtestPrinter {
            out,
            params: params.clone(),
            header,
        }
    }

    /// Everything up to the file-system lines; `warnings` are printed where mdtest validates.
    pub fn start(&mut self, warnings: &[String]) -> io::Result<()> {
        let h = &self.header;
        writeln!(self.out, "-- started at {} --\n", timestamp())?;
        writeln!(
            self.out,
            "iogauge-{} (mdtest-compatible) was launched with {} total task(s) on {} node(s)",
            h.version, h.tasks, h.nodes
        )?;
        writeln!(
            self.out,
            "Command line used: iogauge mdtest {}",
            h.quoted_args
        )?;
        for w in warnings {
            writeln!(self.out, "WARNING: {w}")?;
        }
        writeln!(self.out, "Nodemap: {}", h.nodemap)?;
        writeln!(self.out, "{:<20}: {}", "Path", h.path)?;
        if !h.fs_line.is_empty() {
            writeln!(self.out, "{:<20}: {}", "FS", h.fs_line)?;
        }
        if h.stride > 0 {
            // mdtest's verbose-message prefix, source line included, kept for diffing outputs.
            writeln!(
                self.out,
                "V-0: Rank   0 Line  2594 Shifting ranks by {} for each phase.",
                h.stride
            )?;
        }
        self.out.flush()
    }

    /// After the seeds are agreed: the random seed, the `N tasks, M files` line, and (iogauge)
    /// the count a status file imposes.
    pub fn begin(&mut self, random_seed: Option<u64>, from_status: Option<u64>) -> io::Result<()> {
        let h = &self.header;
        if let Some(s) = random_seed {
            writeln!(self.out, "random seed: {s}")?;
        }
        let noun = self.params.item_noun();
        let total = h.tasks as u64 * h.items_per_task;
        writeln!(self.out, "{} tasks, {total} {noun}", h.tasks)?;
        if let (Some(n), Some(file)) = (from_status, &self.params.status_file) {
            writeln!(
                self.out,
                "{} tasks, {} files used ({n} per task from the stonewall status file {}; {total} configured)",
                h.tasks,
                n * h.tasks as u64,
                file.display()
            )?;
        }
        self.out.flush()
    }

    /// mdtest's `Continue stonewall hit` line (trailing space and empty line included), then
    /// the number of files the create ends with.
    pub fn stonewall(&mut self, s: &StonewallOutcome) -> io::Result<()> {
        writeln!(
            self.out,
            "Continue stonewall hit min: {} max: {} avg: {:.1} ",
            s.items_min,
            s.items_max,
            s.items_mean()
        )?;
        writeln!(
            self.out,
            "{} tasks, {} files created ({} per task after the wear-out; {} configured)\n",
            s.tasks,
            s.items_max * s.tasks,
            s.items_max,
            s.tasks * self.header.items_per_task
        )?;
        self.out.flush()
    }

    /// `-v`: one line per phase as it ends.
    pub fn phase(&mut self, o: &PhaseOutcome) -> io::Result<()> {
        if self.params.verbose >= 1 {
            writeln!(
                self.out,
                "V-1:   {:<18}: {:14.3} sec, {:14.3} ops/sec",
                o.op.title(),
                o.time(),
                o.rate()
            )?;
        }
        Ok(())
    }

    pub fn warning(&mut self, w: &str) -> io::Result<()> {
        writeln!(self.out, "WARNING: {w}")
    }

    /// The SUMMARY table(s), the verification error line and the end line.
    pub fn finish(&mut self, outcomes: &[PhaseOutcome], errors: u64) -> io::Result<()> {
        let p = &self.params;
        let results = Results::new(outcomes, p.iterations, self.header.tasks);
        let tables: &[Table] = if p.print_rate_and_time {
            &[Table::Rate, Table::Time]
        } else if p.print_time {
            &[Table::Time]
        } else {
            &[Table::Rate]
        };
        for &t in tables {
            write!(self.out, "{}", summary::table(p, &results, t))?;
        }
        if errors > 0 {
            writeln!(
                self.out,
                "\nERROR: verifying the data on read ({errors} errors)! Take the performance values with care!\n"
            )?;
        }
        writeln!(self.out, "-- finished at {} --\n", timestamp())?;
        self.out.flush()
    }
}

/// mdtest's `Command line used:` quoting: every argument in single quotes.
pub fn quote_args(args: &[String]) -> String {
    args.iter()
        .map(|a| format!("'{a}'"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printer(p: MdtestParams) -> MdtestPrinter<Vec<u8>> {
        let header = Header {
            version: "0.1.0".into(),
            quoted_args: quote_args(&["-n".into(), "5".into()]),
            tasks: 2,
            nodes: 1,
            nodemap: "11".into(),
            path: "/tmp/md".into(),
            fs_line: "1.0 GiB   Used FS: 1.0%   Inodes: 1.0 Mi   Used Inodes: 0.0%".into(),
            stride: 1,
            items_per_task: 3_000_000,
        };
        MdtestPrinter::new(Vec::new(), &p, header)
    }

    fn text(p: MdtestPrinter<Vec<u8>>) -> String {
        String::from_utf8(p.out).unwrap()
    }

    #[test]
    fn header_lines() {
        let mut pr = printer(MdtestParams {
            dirs_too: false,
            ..MdtestParams::default()
        });
        pr.start(&["Read bytes is 0, thus, a read test will actually just open/close".into()])
            .unwrap();
        pr.begin(Some(42), None).unwrap();
        let t = text(pr);
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[0].starts_with("-- started at ") && lines[0].ends_with(" --"));
        assert_eq!(lines[1], "");
        assert_eq!(
            lines[2],
            "iogauge-0.1.0 (mdtest-compatible) was launched with 2 total task(s) on 1 node(s)"
        );
        assert_eq!(lines[3], "Command line used: iogauge mdtest '-n' '5'");
        assert_eq!(
            lines[4],
            "WARNING: Read bytes is 0, thus, a read test will actually just open/close"
        );
        assert_eq!(lines[5], "Nodemap: 11");
        assert_eq!(lines[6], "Path                : /tmp/md");
        assert!(lines[7].starts_with("FS                  : 1.0 GiB"));
        assert_eq!(
            lines[8],
            "V-0: Rank   0 Line  2594 Shifting ranks by 1 for each phase."
        );
        assert_eq!(lines[9], "random seed: 42");
        assert_eq!(lines[10], "2 tasks, 6000000 files");
    }

    #[test]
    fn stonewall_lines_give_both_counts() {
        let mut pr = printer(MdtestParams::default());
        pr.stonewall(&StonewallOutcome {
            deadline_s: 2.0,
            time_s: 2.0,
            items_min: 104039,
            items_max: 116386,
            items_sum: 220425,
            tasks: 2,
            hit: true,
        })
        .unwrap();
        assert_eq!(
            text(pr),
            "Continue stonewall hit min: 104039 max: 116386 avg: 110212.5 \n\
             2 tasks, 232772 files created (116386 per task after the wear-out; 6000000 configured)\n\n"
        );
    }
}
