//! `iogauge mix`'s terminal report, a sink of the run's events: the plan, a line per step
//! (requested and achieved rate, the limit's statistic, latency from the due time and service
//! time) with a line per operation under it, and the knee.

use std::io::Write;

use plan::mix::{show_ns, MixOp, MixParams};
use results::mix::{step_record, PhaseOutcome};
use results::sink::{Event, Notice, Sink};
use results::{Operation, RunResult};

pub struct MixOutput {
    pub out: Box<dyn Write + Send>,
    pub params: MixParams,
    pub ranks: usize,
}

/// The plan as the report and `--dry-run` print it.
pub fn plan_lines(p: &MixParams, ranks: usize) -> Vec<String> {
    let t = &p.mix.tree;
    let ops: Vec<String> = p
        .mix
        .shares
        .iter()
        .map(|s| format!("{} {}%", s.op, s.percent))
        .collect();
    let rates = p.ramp.rates();
    vec![
        format!("mix:           {} ({})", p.mix.name, p.mix.source),
        format!("operations:    {}", ops.join(", ")),
        format!(
            "tree per rank: {}/r<rank>: {} dirs x {} files of {} bytes, {} empty dirs; io {} bytes",
            p.dir.display(),
            t.dirs,
            t.files_per_dir,
            t.file_size,
            t.empty_dirs,
            t.io_size
        ),
        format!(
            "ranks:         {ranks} ({} files in all)",
            t.files() * ranks as u64
        ),
        format!(
            "ramp:          {} ops/s in {} steps of {} s (at most {} s), {:?} arrivals",
            p.ramp,
            rates.len(),
            p.step_seconds,
            p.max_seconds(),
            p.arrivals
        ),
        format!(
            "latency limit: {} (from each operation's due time)",
            p.latency_limit
        ),
    ]
}

impl MixOutput {
    fn start(&mut self, doc: &RunResult) -> std::io::Result<()> {
        for l in plan_lines(&self.params, self.ranks) {
            writeln!(self.out, "{l}")?;
        }
        for w in &doc.warnings {
            writeln!(self.out, "WARNING: {w}")?;
        }
        writeln!(self.out)
    }

    fn header(&mut self) -> std::io::Result<()> {
        writeln!(
            self.out,
            "{:>4} {:>12} {:>12} {:>10} {:>10} {:>10} {:>12}  verdict",
            "step", "requested/s", "achieved/s", "limit-stat", "p50", "p99", "service-p99"
        )
    }

    fn phase(&mut self, o: &PhaseOutcome) -> std::io::Result<()> {
        if o.phase != Operation::MixStep {
            return writeln!(
                self.out,
                "{:<8} {} operations in {:.3} s",
                o.phase.label(),
                o.completed(),
                o.elapsed()
            );
        }
        if o.step == 1 {
            self.header()?;
        }
        let s = step_record(o);
        let all = o.merged();
        let verdict = match (s.within_limit, s.short_of_requested) {
            (true, false) => "within",
            (true, true) => "within, SHORT of the requested rate",
            (false, false) => "OVER the limit",
            (false, true) => "OVER the limit, SHORT of the requested rate",
        };
        writeln!(
            self.out,
            "{:>4} {:>12} {:>12.1} {:>10} {:>10} {:>10} {:>12}  {verdict}",
            s.step,
            s.requested_ops_s,
            s.achieved_ops_s,
            show_ns(s.latency_ns),
            show_ns(all.value_at_quantile(0.5) as f64),
            show_ns(all.value_at_quantile(0.99) as f64),
            show_ns(s.service_p99_ns as f64),
        )?;
        for op in MixOp::ALL {
            if let Some(x) = s.operations.get(op.label()) {
                writeln!(
                    self.out,
                    "       {:<11} {:>9} done {:>10.1}/s  mean {:>10}  p50 {:>10}  p99 {:>10}  max {:>10}",
                    op.label(),
                    x.completed,
                    x.achieved_ops_s,
                    show_ns(x.mean_ns),
                    show_ns(x.p50_ns as f64),
                    show_ns(x.p99_ns as f64),
                    show_ns(x.max_ns as f64)
                )?;
            }
        }
        if s.not_started > 0 {
            writeln!(
                self.out,
                "       {} of {} scheduled operations never started",
                s.not_started, s.scheduled
            )?;
        }
        Ok(())
    }

    fn finish(&mut self, doc: &RunResult) -> std::io::Result<()> {
        writeln!(self.out)?;
        let Some(m) = &doc.mix else {
            return Ok(());
        };
        match &m.knee {
            Some(k) => writeln!(
                self.out,
                "knee: {:.1} ops/s achieved (step {}, requested {} ops/s, {} {})",
                k.achieved_ops_s,
                k.step,
                k.requested_ops_s,
                m.limit.statistic_name(),
                show_ns(k.latency_ns)
            )?,
            None if m.steps.is_empty() => {
                writeln!(self.out, "knee: none (no step ran to its end)")?
            }
            None => writeln!(self.out, "knee: none (no step stayed within {})", m.limit)?,
        }
        writeln!(self.out, "stopped: {}", m.stopped)
    }
}

impl Sink for MixOutput {
    fn event(&mut self, e: &Event<'_>) {
        // Output errors (a closed pipe) never stop the benchmark.
        let _ = match e {
            Event::RunStart(doc) => self.start(doc),
            Event::PhaseEnd(end) => match end.detail.get::<PhaseOutcome>() {
                Some(o) => self.phase(o),
                None => Ok(()),
            },
            Event::Notice(Notice::Warning(w)) => writeln!(self.out, "WARNING: {w}"),
            Event::RunEnd(end) => self.finish(end.run),
            _ => Ok(()),
        };
    }
}
