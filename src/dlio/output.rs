//! `iogauge dlio`'s terminal report: what it is (an emulation for sizing and
//! pre-qualification, not an MLPerf Storage submission), the workload and data set, a line
//! per phase, and DLIO's `[METRIC]` block at the end.

use std::io::{self, Write};

use results::dlio::{epoch_entry, PhaseOutcome};
use results::sink::{Event, Notice, Sink};
use results::{Parameters, RunResult};

/// The first line of every run's report.
pub const HEADER: &str = "iogauge dlio: emulates MLPerf Storage's training workloads (DLIO) for sizing and pre-qualification; not an MLPerf Storage submission";

const MIB: f64 = 1_048_576.0;

pub struct DlioOutput {
    out: Box<dyn Write + Send>,
}

impl DlioOutput {
    pub fn new(out: Box<dyn Write + Send>) -> Self {
        DlioOutput { out }
    }

    fn start(&mut self, doc: &RunResult) -> io::Result<()> {
        writeln!(self.out, "{HEADER}")?;
        let Parameters::Dlio(d) = &doc.parameters else {
            return Ok(());
        };
        let (p, r) = (&d.plan, &d.resolved);
        writeln!(
            self.out,
            "workload {} ({:?} loader, {:?} files): {} accelerator(s), batch {}, {} reader thread(s), computation {} s per step",
            r.source,
            p.reader.data_loader,
            p.dataset.format,
            r.accelerators,
            p.reader.batch_size,
            p.reader.read_threads,
            p.train.computation_time
        )
        .map(|_| ())?;
        writeln!(
            self.out,
            "data set {}: {} training file(s) x {} sample(s); {} step(s) and {} samples per epoch; results in {}",
            r.data_folder.display(),
            p.dataset.num_files_train,
            p.dataset.num_samples_per_file,
            r.steps_per_epoch,
            r.samples_per_epoch,
            r.output_folder.display()
        )?;
        self.out.flush()
    }

    fn phase(&mut self, o: &PhaseOutcome) -> io::Result<()> {
        match o {
            PhaseOutcome::Generate(g) => writeln!(
                self.out,
                "generate: {} file(s), {:.2} MiB in {:.3} s: {:.2} MiB/s, {:.1} files/s",
                g.files(),
                g.bytes() as f64 / MIB,
                g.seconds(),
                results::mib_per_s(g.bytes(), g.seconds()),
                results::per_s(g.files() as f64, g.seconds())
            )?,
            PhaseOutcome::Epoch(e) => {
                let f = epoch_entry(e);
                let cut = if e.stopped { " (interrupted)" } else { "" };
                writeln!(
                    self.out,
                    "epoch {}{cut}: {} step(s), {} samples in {:.3} s; AU {:.2} % ({} at metric.au {:.0} %); {:.2} samples/s; DLIO MB/s {:.2} (derived); read {:.2} MiB/s ({:.2} MiB)",
                    f.epoch,
                    f.steps,
                    f.samples,
                    f.seconds,
                    f.au_percent,
                    if f.au_met { "pass" } else { "fail" },
                    e.au_threshold * 100.0,
                    f.samples_per_second,
                    f.dlio_mib_per_second,
                    f.read_mib_per_second,
                    f.bytes_read as f64 / MIB
                )?
            }
        }
        self.out.flush()
    }

    fn end(&mut self, doc: &RunResult) -> io::Result<()> {
        let Some(m) = doc.dlio.as_ref().and_then(|d| d.metric.as_ref()) else {
            return Ok(());
        };
        writeln!(
            self.out,
            "[METRIC] Number of Simulated Accelerators: {}",
            doc.ranks.count
        )?;
        writeln!(
            self.out,
            "[METRIC] Training Accelerator Utilization [AU] (%): {:.4} ({:.4})",
            m.train_au_mean_percentage, m.train_au_stdev_percentage
        )?;
        writeln!(
            self.out,
            "[METRIC] Training Throughput (samples/second): {:.4} ({:.4})",
            m.train_throughput_mean_samples_per_second, m.train_throughput_stdev_samples_per_second
        )?;
        writeln!(
            self.out,
            "[METRIC] Training I/O Throughput (MB/second): {:.4} ({:.4})",
            m.train_io_mean_mb_per_second, m.train_io_stdev_mb_per_second
        )?;
        writeln!(
            self.out,
            "[METRIC] train_au_meet_expectation: {}",
            m.train_au_meet_expectation
        )?;
        self.out.flush()
    }
}

impl Sink for DlioOutput {
    fn event(&mut self, e: &Event<'_>) {
        // Output errors (a closed pipe) never stop the benchmark.
        let _ = match e {
            Event::RunStart(doc) => self.start(doc),
            Event::PhaseEnd(end) => match end.detail.get::<PhaseOutcome>() {
                Some(o) => self.phase(o),
                None => Ok(()),
            },
            Event::Notice(Notice::Warning(w)) => writeln!(self.out, "WARNING: {w}"),
            Event::RunEnd(end) => self.end(end.run),
            _ => Ok(()),
        };
    }
}
