//! `iogauge startup`'s terminal report as a sink of the run's events: what is read (once the
//! run has listed it), a line per phase with the time until the last rank was done, the
//! spread of the ranks' own times and the rates, per rank with `--per-rank`, and a summary
//! over the iterations at the end.

use std::io::{self, Write};

use results::sink::{Event, Notice, Sink};
use results::startup::PhaseOutcome;
use results::{Parameters, RunResult, StartupParameters};

const MIB: f64 = 1_048_576.0;

pub struct StartupOutput {
    pub out: Box<dyn Write + Send>,
    pub per_rank: bool,
    described: bool,
}

impl StartupOutput {
    pub fn new(out: Box<dyn Write + Send>, per_rank: bool) -> Self {
        StartupOutput {
            out,
            per_rank,
            described: false,
        }
    }

    fn describe(&mut self, doc: &RunResult) -> io::Result<()> {
        self.described = true;
        let Parameters::Startup(s) = &doc.parameters else {
            return Ok(());
        };
        for line in what_is_read(s) {
            writeln!(self.out, "{line}")?;
        }
        writeln!(self.out, "{}", HEADER)
    }

    fn phase(&mut self, o: &PhaseOutcome, doc: &RunResult) -> io::Result<()> {
        if !self.described {
            self.describe(doc)?;
        }
        writeln!(self.out, "{}", phase_line(o))?;
        if self.per_rank {
            for r in &o.ranks {
                writeln!(
                    self.out,
                    "  rank {:>4}: start {:>9.4} s  done {:>9.4} s  own {:>9.4} s  {} file(s)  {:.2} MiB",
                    r.rank,
                    r.start_s,
                    r.done_s,
                    r.own_s(),
                    r.files,
                    r.bytes as f64 / MIB
                )?;
            }
        }
        self.out.flush()
    }

    fn end(&mut self, doc: &RunResult) -> io::Result<()> {
        for s in &doc.summary {
            writeln!(
                self.out,
                "{:<12} mean of {} iteration(s): last rank done after {:.4} s; mean {:.1} ops/s, {:.2} MiB/s",
                s.operation.label(),
                s.iterations,
                s.mean_time_s,
                s.ops_per_s.mean,
                s.bw_mib_s.mean
            )?;
        }
        if let Parameters::Startup(s) = &doc.parameters {
            if let (true, Some(dir)) = (s.plan.keep, &s.resolved.run_dir) {
                writeln!(self.out, "kept (--keep): {}", dir.display())?;
            }
        }
        self.out.flush()
    }
}

/// The column heads of [`phase_line`].
pub const HEADER: &str = "phase        iter  ranks   last done s    own min s   own median s    own max s     meta ops/s        MiB/s";

/// One phase: the time until the last rank was done, the spread of the ranks' own times
/// (without their stagger), stats + opens per second and MiB/s over the first time.
pub fn phase_line(o: &PhaseOutcome) -> String {
    let own = o.own_times();
    format!(
        "{:<12} {:>4} {:>6} {:>13.6} {:>12.6} {:>14.6} {:>12.6} {:>14.1} {:>12.2}",
        o.phase.label(),
        o.iteration,
        o.ranks.len(),
        o.time_to_last_done(),
        own.min,
        own.median,
        own.max,
        o.metadata_rate(),
        o.data_rate_mib_s()
    )
}

/// What every rank reads, from the document's resolved parameters.
pub fn what_is_read(s: &StartupParameters) -> Vec<String> {
    let r = &s.resolved;
    let mut out = Vec::new();
    let how = |generated: bool| {
        if generated {
            "generated"
        } else {
            "existing, read only"
        }
    };
    if let Some(root) = &r.tree_root {
        let mut line = format!(
            "tree:   {} ({}): {} file(s) in {} director(ies), {:.2} MiB",
            root.display(),
            how(s.plan.tree.is_none()),
            r.tree_files,
            r.tree_dirs,
            r.tree_bytes as f64 / MIB
        );
        if r.tree_skipped > 0 {
            line += &format!("; {} other entr(ies) skipped", r.tree_skipped);
        }
        out.push(line);
    }
    if let Some(path) = &r.common_path {
        out.push(format!(
            "common: {} ({}): {:.2} MiB in reads of {} bytes",
            path.display(),
            how(s.plan.common_file.is_none()),
            r.common_bytes as f64 / MIB,
            s.plan.transfer_size
        ));
    }
    out
}

impl Sink for StartupOutput {
    fn event(&mut self, e: &Event<'_>) {
        // Output errors (a closed pipe) never stop the benchmark.
        let _ = match e {
            Event::PhaseEnd(end) => match end.detail.get::<PhaseOutcome>() {
                Some(o) => self.phase(o, end.run),
                None => Ok(()),
            },
            Event::Notice(Notice::Warning(w)) => writeln!(self.out, "WARNING: {w}"),
            Event::RunEnd(end) => self.end(end.run),
            _ => Ok(()),
        };
    }
}
