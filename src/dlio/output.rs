//! `iogauge dlio`'s terminal report: what it is (an emulation for sizing and
//! pre-qualification, not an MLPerf Storage submission), the workload and data set, a line
//! per phase, and DLIO's `[METRIC]` block at the end.

use std::io::{self, Write};

use results::dlio::{checkpoint_entry, epoch_entry, CheckpointMetric, Direction, PhaseOutcome};
use results::sink::{Event, Notice, Sink};
use results::{Parameters, RunResult};

/// The first line of every run's report.
pub const HEADER: &str = "iogauge dlio: emulates MLPerf Storage's training and checkpoint workloads (DLIO) for sizing and pre-qualification; not an MLPerf Storage submission";

const MIB: f64 = 1_048_576.0;
const GIB: f64 = 1_073_741_824.0;

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
        if let Some(c) = &r.checkpoint {
            return self.checkpoint_start(p, r, c);
        }
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

    fn checkpoint_start(
        &mut self,
        p: &plan::dlio::DlioParams,
        r: &results::DlioResolved,
        c: &results::CheckpointResolved,
    ) -> io::Result<()> {
        let t = &p.model.transformer;
        writeln!(
            self.out,
            "workload {} (transformer: {} layers, hidden {}, ffn {}, {} heads / {} KV; tensor x pipeline x data {} x {} x {}, ZeRO {}): {} rank(s)",
            r.source,
            p.model.num_layers,
            t.hidden_size,
            t.ffn_hidden_size,
            t.num_attention_heads,
            t.num_kv_heads,
            c.tensor,
            c.pipeline,
            c.data,
            c.zero_stage,
            r.accelerators
        )?;
        let mut how = vec![if p.checkpoint.fsync {
            "fsync"
        } else {
            "no fsync"
        }];
        if c.odirect {
            how.push("O_DIRECT");
        }
        if c.rank_shift {
            how.push("reads shifted one node");
        }
        writeln!(
            self.out,
            "checkpoint: {} file(s), {:.3} GiB (raw tensor bytes, no torch.save container); {} written, then {} read ({}); in {}{}; results in {}",
            c.files,
            c.bytes as f64 / GIB,
            c.writes,
            c.reads,
            how.join(", "),
            c.folder.display(),
            if c.keep { " (kept)" } else { "" },
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
            PhaseOutcome::Checkpoint(c) => {
                let f = checkpoint_entry(c);
                let what = match c.direction {
                    Direction::Save => "write",
                    Direction::Load => "read",
                };
                let cut = if c.stopped { " (interrupted)" } else { "" };
                writeln!(
                    self.out,
                    "checkpoint {} {what}{cut}: {} file(s), {:.3} GiB in {:.3} s (slowest rank; fastest {:.3} s): {:.4} GiB/s",
                    f.index,
                    f.files,
                    f.bytes as f64 / GIB,
                    f.duration_seconds,
                    f.fastest_rank_seconds,
                    f.throughput_gib_per_second
                )?
            }
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

    /// DLIO's checkpoint `[METRIC]` lines ("GB" is GiB).
    fn checkpoint_end(&mut self, doc: &RunResult, m: &CheckpointMetric) -> io::Result<()> {
        writeln!(
            self.out,
            "[METRIC] Number of Simulated Accelerators: {}",
            doc.ranks.count
        )?;
        for (what, io, io_sd, t, t_sd) in [
            (
                "save",
                m.save_io_mean,
                m.save_io_stdev,
                m.save_duration_mean,
                m.save_duration_stdev,
            ),
            (
                "load",
                m.load_io_mean,
                m.load_io_stdev,
                m.load_duration_mean,
                m.load_duration_stdev,
            ),
        ] {
            if let (Some(io), Some(io_sd), Some(t), Some(t_sd)) = (io, io_sd, t, t_sd) {
                writeln!(
                    self.out,
                    "[METRIC] Checkpoint {what} duration (seconds): {t:.4} ({t_sd:.4})"
                )?;
                writeln!(
                    self.out,
                    "[METRIC] Checkpoint {what} I/O Throughput (GB/second): {io:.4} ({io_sd:.4})"
                )?;
            }
        }
        self.out.flush()
    }

    fn end(&mut self, doc: &RunResult) -> io::Result<()> {
        if let Some(m) = doc.dlio.as_ref().and_then(|d| d.checkpoint_metric.as_ref()) {
            return self.checkpoint_end(doc, m);
        }
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
