//! IOR-compatible output of `iogauge ior`: the human-readable report (IOR's header, `Options:`,
//! results table and `Summary of all tests:`), `-O summaryFormat=JSON` and `=CSV`, and the
//! per-rank CSV of `-O saveRankPerformanceDetailsCSV=F`.
//!
//! Layouts follow IOR's `ior-output.c` byte for byte where a parser could depend on them; the
//! known quirks are corrected (see the reference, section 6.1): the latency percentiles of every
//! transfer are appended after IOR's `iter` column, the stonewall-pairs line is spelled
//! correctly, per-task figures are labelled, and the JSON labels say what they hold. Warnings and
//! notices never go into a JSON or CSV stream: they go to the diagnostics stream (stderr).

pub mod csv;
mod format;
mod human;
mod json;
mod sink;

use std::io::{self, Write};

use workload::ior::{Access, CheckOutcome, IorParams, PhaseOutcome, SummaryFormat};

#[cfg(test)]
pub(crate) use format::fixtures;
pub(crate) use format::{summarize, OpSummary, Record, Row};
pub use sink::{IorOutput, IorRankCsv};

/// The time as IOR's `ctime` prints it (`Sun Nov 22 09:29:26 2026`).
pub fn ctime_now() -> String {
    measure::local_now(measure::CTIME_FORMAT)
}

/// Run-level facts the header needs (the caller fills them).
#[derive(Debug, Clone, Default)]
pub struct Header {
    /// e.g. "0.1.0"; first line: "iogauge-<version>: IOR-compatible test of parallel I/O".
    pub version: String,
    /// ctime style "Sun Nov 22 09:29:26 2026" (the caller formats).
    pub began: String,
    /// "iogauge ior -a POSIX ..." as typed.
    pub command_line: String,
    /// "Linux <hostname>" (IOR's `sysname nodename`).
    pub machine: String,
    /// First test file name (IOR's `Path` line).
    pub path: String,
    /// The text after "FS                  : "; empty when statfs failed (the line is left out).
    pub fs_line: String,
    pub nodes: usize,
    pub tasks: usize,
    /// IOR's `numTasksOnNode0`.
    pub tasks_per_node: usize,
    /// IOR's `apiVersion`: the engine's library version (`(3.1)` for MPI-IO), else empty.
    pub api_version: String,
}

/// Prints one IOR run in the format `-O summaryFormat` chose.
pub struct IorPrinter<W: Write> {
    out: W,
    diag: Box<dyn Write + Send>,
    params: IorParams,
    header: Header,
    format: SummaryFormat,
    verbose: u32,
    records: Vec<Record>,
    warnings: Vec<String>,
}

impl<W: Write> IorPrinter<W> {
    /// Format from `params.summary_format`, verbosity from `params.verbose`; notices that must
    /// not enter a JSON or CSV stream go to stderr.
    pub fn new(out: W, params: &IorParams, header: Header) -> Self {
        IorPrinter {
            out,
            diag: Box::new(io::stderr()),
            params: params.clone(),
            header,
            format: params.summary_format,
            verbose: params.verbose,
            records: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Sends the notices of JSON and CSV runs to `diag` instead of stderr.
    #[allow(dead_code)] // API for callers that capture notices; the tests use it
    #[cfg(test)]
    pub fn with_diagnostics(mut self, diag: Box<dyn Write + Send>) -> Self {
        self.diag = diag;
        self
    }

    /// Warnings collected in JSON and CSV runs (they were written to the diagnostics stream).
    #[allow(dead_code)] // API for callers that report warnings elsewhere; the tests use it
    #[cfg(test)]
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Gives the output stream back.
    #[cfg(test)]
    #[cfg(test)]
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Notices: inline for the text report, the diagnostics stream otherwise.
    fn notices(&mut self, lines: &[String]) -> io::Result<()> {
        let sink: &mut dyn Write = match self.format {
            SummaryFormat::Default => &mut self.out,
            _ => &mut *self.diag,
        };
        for l in lines {
            writeln!(sink, "{l}")?;
        }
        Ok(())
    }

    /// Default: header, `Options:` block and `Results:`; CSV: the column line; JSON: nothing.
    pub fn start(&mut self) -> io::Result<()> {
        match self.format {
            SummaryFormat::Default => {
                let text = human::start(&self.params, &self.header);
                self.out.write_all(text.as_bytes())?;
            }
            SummaryFormat::Csv => writeln!(self.out, "{}", csv::HEADER)?,
            SummaryFormat::Json => {}
        }
        self.out.flush()
    }

    /// Default: the results table header before repetition 0.
    pub fn repetition_start(&mut self, iteration: u32) -> io::Result<()> {
        if self.format == SummaryFormat::Default && iteration == 0 {
            self.out.write_all(human::table_header().as_bytes())?;
            self.out.flush()?;
        }
        Ok(())
    }

    /// One timed phase: its notices, then its row (JSON: kept for the document).
    pub fn phase(&mut self, p: &PhaseOutcome) -> io::Result<()> {
        let lines = human::phase_notices(p, &self.params);
        if self.format != SummaryFormat::Default {
            self.warnings
                .extend(lines.iter().filter(|l| l.starts_with("WARNING")).cloned());
        }
        self.notices(&lines)?;
        let row = Row::of(p);
        match self.format {
            SummaryFormat::Default => self.out.write_all(human::result_row(&row).as_bytes())?,
            SummaryFormat::Csv => writeln!(self.out, "{}", csv::row(&row, self.header.tasks))?,
            SummaryFormat::Json => {}
        }
        self.records.push(Record::Phase(row));
        self.out.flush()
    }

    /// The `-W` check: a warning only when it found errors.
    pub fn check(&mut self, c: &CheckOutcome) -> io::Result<()> {
        let lines = human::verify_notices(Access::Write, &c.verification);
        if self.format != SummaryFormat::Default {
            self.warnings
                .extend(lines.iter().filter(|l| l.starts_with("WARNING")).cloned());
        }
        self.notices(&lines)?;
        self.out.flush()
    }

    /// The verbose `remove` row (verbosity >= 1).
    pub fn remove(&mut self, iteration: u32, time_s: f64) -> io::Result<()> {
        if self.verbose < 1 {
            return Ok(());
        }
        match self.format {
            SummaryFormat::Default => {
                self.out
                    .write_all(human::remove_row(iteration, time_s).as_bytes())?;
                self.out.flush()?;
            }
            SummaryFormat::Json => self.records.push(Record::Remove { time_s }),
            SummaryFormat::Csv => {}
        }
        Ok(())
    }

    /// `WARNING: text`: inline in the text report, on the diagnostics stream otherwise.
    pub fn warning(&mut self, text: &str) -> io::Result<()> {
        let line = format!("WARNING: {text}");
        if self.format != SummaryFormat::Default {
            self.warnings.push(line.clone());
        }
        self.notices(&[line])?;
        self.out.flush()
    }

    fn rows(&self) -> Vec<&Row> {
        self.records
            .iter()
            .filter_map(|r| match r {
                Record::Phase(row) => Some(row),
                Record::Remove { .. } => None,
            })
            .collect()
    }

    /// Default: `Max Write`/`Max Read` (verbosity >= 1), the pairs line, `Summary of all tests:`
    /// and `Finished`; JSON: the whole document; CSV: nothing more.
    pub fn finish(&mut self, finished: &str) -> io::Result<()> {
        let rows = self.rows();
        let summaries = summarize(&rows);
        let pairs = human::pairs_line(&self.params, &rows);
        match self.format {
            SummaryFormat::Default => {
                let mut text = String::new();
                if self.verbose >= 1 {
                    text += &human::max_lines(&self.params, &rows);
                }
                if let Some(l) = &pairs {
                    text += l;
                    text.push('\n');
                }
                text += &human::summary(&summaries, &self.params, &self.header);
                text += &format::kv("Finished", finished);
                text.push('\n');
                self.out.write_all(text.as_bytes())?;
            }
            SummaryFormat::Json => {
                let doc = json::document(
                    &self.params,
                    &self.header,
                    &self.records,
                    &summaries,
                    finished,
                );
                if let Some(l) = &pairs {
                    writeln!(self.diag, "{l}")?;
                }
                let text = serde_json::to_string_pretty(&doc).map_err(io::Error::other)?;
                writeln!(self.out, "{text}")?;
            }
            SummaryFormat::Csv => {
                if let Some(l) = &pairs {
                    writeln!(self.diag, "{l}")?;
                }
            }
        }
        self.diag.flush()?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use workload::ior::{ErrorAt, VerifyOutcome};

    #[test]
    fn default_report_in_order() {
        let p = IorParams {
            write_file: true,
            read_file: true,
            verbose: 1,
            deadline_for_stonewalling_s: 2.0,
            stonewall_wear_out: true,
            ..IorParams::default()
        };
        let h = Header {
            version: "0.1.0".into(),
            tasks: 2,
            ..Header::default()
        };
        let mut pr = IorPrinter::new(Vec::new(), &p, h).with_diagnostics(Box::new(io::sink()));
        let mut w = fixtures::example_write();
        w.bytes = 1888029312;
        w.stat_size = 1888029312;
        w.expected_size = 18803200000;
        w.stonewall = Some(fixtures::stonewall(
            2.01,
            17918.0 * 47008.0,
            2 * 17918 * 47008,
        ));
        let first_error = Some(ErrorAt {
            rank: 1,
            file: "f.00000001".into(),
            offset: 4096,
        });
        let bad = VerifyOutcome {
            errors: 3,
            checked: 10,
            first_error,
        };
        w.verification = Some(bad.clone());
        w.warnings.push("page cache".into());
        pr.start().unwrap();
        pr.repetition_start(0).unwrap();
        pr.phase(&w).unwrap();
        let clean = VerifyOutcome::default();
        pr.check(&CheckOutcome {
            iteration: 0,
            verification: clean,
        })
        .unwrap();
        pr.check(&CheckOutcome {
            iteration: 0,
            verification: bad,
        })
        .unwrap();
        pr.warning("plain").unwrap();
        pr.remove(0, 0.000632).unwrap();
        pr.repetition_start(1).unwrap();
        pr.finish("Sun Nov 22 09:29:27 2026").unwrap();
        assert!(pr.warnings().is_empty());
        let out = String::from_utf8(pr.into_inner()).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap();
        assert_eq!(
            lines[0],
            "iogauge-0.1.0: IOR-compatible test of parallel I/O"
        );
        let heads = lines
            .iter()
            .filter(|l| l.starts_with("access    bw"))
            .count();
        assert_eq!(heads, 1);
        let row = at("write ");
        assert_eq!(at("access    bw") + 2, at("stonewalling pairs"));
        assert_eq!(
            lines[at("stonewalling pairs")..row],
            [
                "stonewalling pairs accessed min: 15754 max: 20082 -- min data: 0.7 GiB mean data: 0.8 GiB time: 2.0s",
                "WARNING: Incorrect data on write (3 errors found).",
                "First incorrect data: rank 1, file f.00000001, offset 4096",
                "WARNING: Expected aggregate file size       = 18803200000",
                "WARNING: Stat() of aggregate file size      = 1888029312",
                "WARNING: Using actual aggregate bytes moved = 1888029312",
                "WARNING: Maybe caused by deadlineForStonewalling",
                "WARNING: page cache",
            ]
        );
        assert_eq!(
            lines[row + 1],
            "WARNING: Incorrect data on write (3 errors found)."
        );
        assert_eq!(lines[row + 3], "WARNING: plain");
        assert!(lines[row + 4].starts_with("remove    -"));
        assert_eq!(
            lines[row + 5],
            "Max Write: 3153.67 MiB/sec (3306.87 MB/sec)"
        );
        assert_eq!(lines[row + 6], "Max Read:  0.00 MiB/sec (0.00 MB/sec)");
        assert_eq!(lines[row + 7], "Pairs accessed (stonewall): 20082");
        assert_eq!(lines[row + 9], "Summary of all tests:");
        assert!(lines[row + 11].contains("      2.01        399.64 "));
        assert!(lines[row + 13].starts_with("Note: Stonewall(MiB) is per task"));
        assert_eq!(
            lines.last().unwrap(),
            &"Finished            : Sun Nov 22 09:29:27 2026"
        );
    }

    #[test]
    fn summary_rows_with_na_and_max_lines() {
        let (p, h) = human::tests::example();
        let w = Row::of(&fixtures::example_write());
        let r = Row::of(&fixtures::phase(
            Access::Read,
            0,
            512 << 20,
            [0.006379, 0.275648, 0.000079, 0.275697],
            0.2693,
        ));
        let text = human::summary(&summarize(&[&w, &r]), &p, &h);
        let want = "
Summary of all tests:
Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   Min(OPs)  Mean(OPs)     StdDev    Mean(s) Stonewall(s) Stonewall(MiB) Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt   blksiz    xsize aggs(MiB)   API RefNum
write         896.76     896.76     896.76       0.00     896.76     896.76     896.76       0.00    0.57094         NA            NA     0      2   2    1   1     1        1         0    0      1 268435456  1048576     512.0 POSIX      0
read         1857.11    1857.11    1857.11       0.00    1857.11    1857.11    1857.11       0.00    0.27570         NA            NA     0      2   2    1   1     1        1         0    0      1 268435456  1048576     512.0 POSIX      0
Note: OPs are transfers/s over total(s); the IOPS column above uses wr/rd(s)
";
        assert_eq!(text, want);
        assert_eq!(
            human::max_lines(&p, &[&w, &r]),
            "Max Write: 896.76 MiB/sec (940.32 MB/sec)\nMax Read:  1857.11 MiB/sec (1947.32 MB/sec)\n"
        );
    }

    #[test]
    fn summary_row_with_stonewall() {
        let (mut p, h) = human::tests::example();
        p.file_per_proc = false;
        p.transfer_size = 47008;
        p.block_size = 47008;
        p.segment_count = 200000;
        let mut ph = fixtures::phase(
            Access::Write,
            0,
            1888029312,
            [0.000018, 2.24, 0.000478, 2.23899],
            2.2,
        );
        ph.transfer_size = 47008;
        ph.stonewall = Some(fixtures::stonewall(2.01, 843_400_000.0, 1_686_800_000));
        let text = human::summary(&summarize(&[&Row::of(&ph)]), &p, &h);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[3], "write         804.19     804.19     804.19       0.00   17938.45   17938.45   17938.45       0.00    2.23899       2.01        400.16     0      2   2    1   0     1        1         0    0 200000    47008    47008    1800.6 POSIX      0");
        assert_eq!(lines[5], "Note: Stonewall(MiB) is per task, as in IOR; aggregate stonewall bandwidth: write 800.33 MiB/s");
    }
}
