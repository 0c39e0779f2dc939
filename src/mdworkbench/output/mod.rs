//! md-workbench-compatible output of `iogauge md-workbench`: the `Args:`, `Nodemap:` and
//! `MD-Workbench total objects` lines, one line per phase (`line.rs`), per rank with
//! `--process-reports`, and `Total runtime`. Layouts follow `md-workbench.c` where a parser
//! could depend on them.

pub mod line;
mod sink;

use std::io::{self, Write};
use std::time::Instant;

use results::mdworkbench::PhaseOutcome;
use workload::mdworkbench::MdWorkbenchParams;

pub use sink::MdWorkbenchOutput;

/// Run-level facts the header needs (the caller fills them).
#[derive(Debug, Clone, Default)]
pub struct Header {
    pub version: String,
    /// `"-o" "/tmp/x" ...`: every argument after `md-workbench`, double-quoted as md-workbench
    /// prints them.
    pub quoted_args: String,
    pub ranks: u64,
    /// One digit per rank: 1 when on rank 0's node.
    pub nodemap: String,
}

/// md-workbench's `Args:` quoting: every argument in double quotes.
pub fn quote_args(args: &[String]) -> String {
    args.iter().map(|a| format!(" \"{a}\"")).collect::<String>()
}

/// md-workbench's `%Y-%m-%d %H:%M:%S`.
fn now() -> String {
    measure::local_now(measure::IO500_DATE_FORMAT)
}

pub struct MdWorkbenchPrinter<W: Write> {
    out: W,
    params: MdWorkbenchParams,
    header: Header,
    started: Instant,
}

impl<W: Write> MdWorkbenchPrinter<W> {
    pub fn new(out: W, params: &MdWorkbenchParams, header: Header) -> Self {
        MdWorkbenchPrinter {
            out,
            params: params.clone(),
            header,
            started: Instant::now(),
        }
    }

    /// Everything before the first phase; `warnings` are the checks' (md-workbench prints its
    /// `num > precreate` warning there).
    pub fn start(&mut self, warnings: &[String]) -> io::Result<()> {
        self.started = Instant::now();
        let (p, h) = (&self.params, &self.header);
        writeln!(self.out, "Args: iogauge md-workbench{}", h.quoted_args)?;
        writeln!(self.out, "Nodemap: {}", h.nodemap)?;
        if let Some(s) = p.start_item {
            writeln!(self.out, "Using start position {s}")?;
        }
        if !p.quiet {
            let mib = p.working_set_bytes(h.ranks) as f64 / 1_048_576.0;
            writeln!(
                self.out,
                "MD-Workbench total objects: {} workingset size: {mib:.3} MiB (version: iogauge-{}) time: {}",
                p.total_objects(h.ranks),
                h.version,
                now()
            )?;
        }
        for w in warnings {
            writeln!(self.out, "WARNING: {w}")?;
        }
        if p.detailed_stats && !p.quiet {
            writeln!(self.out, "{}", line::DETAILED_HEADER)?;
        }
        self.out.flush()
    }

    /// A phase's line, then the ranks' lines with `--process-reports`.
    pub fn phase(&mut self, o: &PhaseOutcome) -> io::Result<()> {
        let p = &self.params;
        for w in &o.warnings {
            writeln!(self.out, "WARNING: {w}")?;
        }
        if let Some(l) = line::wear_out_line(o) {
            writeln!(self.out, "{l}")?;
        }
        if p.detailed_stats {
            writeln!(self.out, "{}", line::detailed_line(o))?;
        } else {
            writeln!(self.out, "{}", line::phase_line(o, p.quiet))?;
        }
        if p.process_reports {
            for rank in 0..o.ranks.len() {
                let l = if p.detailed_stats {
                    line::detailed_rank_line(o, rank)
                } else {
                    line::rank_line(o, rank, p.quiet)
                };
                writeln!(self.out, "{l}")?;
            }
        }
        self.out.flush()
    }

    pub fn warning(&mut self, w: &str) -> io::Result<()> {
        writeln!(self.out, "WARNING: {w}")
    }

    /// `Total runtime` (whole seconds, as md-workbench), and iogauge's line when reads failed.
    pub fn finish(&mut self, errors: u64) -> io::Result<()> {
        if errors > 0 {
            writeln!(
                self.out,
                "ERROR: {errors} object(s) did not read back as written! Take the performance values with care!"
            )?;
        }
        if !self.params.quiet {
            let t = self.started.elapsed().as_secs_f64();
            writeln!(self.out, "Total runtime: {t:.0}s time: {}", now())?;
        }
        self.out.flush()
    }
}
