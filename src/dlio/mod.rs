//! `iogauge dlio`: MLPerf Storage's training workloads as DLIO runs them (docs/dlio.md).
//! Parse (`cmdline::dlio`), the checks before any I/O (`checks.rs`), the document, the
//! terminal report (`output.rs`) and DLIO's result directory (`files.rs`), then the run on
//! the ranks (`workload::dlio::run`). `iogauge dlio datasize ...` is a calculator: it prints
//! and runs nothing (its own `main` in front of the command path).

mod checkpoint_checks;
mod checks;
pub mod files;
pub mod output;

use std::path::PathBuf;

use cmdline::dlio::{DlioCommand, DlioLine};
use results::{DlioParameters, DlioResolved, Parameters, RunResult, Sink};
use workload::session::{Finished, Session};

use crate::command::{Checked, Context, Invocation, Launch, Supports, Workload};
use crate::world::{self, Global};

/// `iogauge dlio`, as the command path runs it.
pub struct Dlio;

/// What the checks found.
pub struct Prepared {
    /// DLIO's result directory (`--output`, or one under `results/`).
    pub output_dir: PathBuf,
    /// Training files on disk before the run (0 when the run generates them).
    pub train_files_found: u64,
    /// MLPerf Storage's minimum training files for the run's ranks, nodes and host memory.
    pub minimum_files: u64,
    /// `dlio-dataset-below-minimum`, when the data set is smaller than that.
    pub below_minimum: Option<results::Alert>,
    /// A checkpoint run's warnings with their evidence (`dlio-checkpoint-cache`).
    pub checkpoint_alerts: Vec<results::Alert>,
}

impl Invocation for DlioCommand {
    fn launch(&self) -> Launch {
        self.launch.clone()
    }
}

/// The registry's `main` for dlio: `datasize` prints its report and exits 0; everything
/// else is a run through the command path.
pub fn main(args: &[String], global: &Global) -> u8 {
    if args.first().map(String::as_str) != Some("datasize") {
        return crate::command::run::<Dlio>(args, global);
    }
    match cmdline::dlio::parse(args) {
        Ok(DlioLine::Datasize(d)) => {
            if world::is_root() {
                if d.help {
                    crate::out!("{}", cmdline::dlio::DATASIZE_HELP);
                } else {
                    crate::out!("{}", cmdline::dlio::datasize_report(&d));
                }
            }
            world::exit_early(0)
        }
        Ok(DlioLine::Run(_)) => crate::command::run::<Dlio>(args, global),
        Err(e) => world::bad_input(format!("iogauge {}", e.0)),
    }
}

impl Workload for Dlio {
    const NAME: &'static str = "dlio";
    const ABOUT: &'static str = "MLPerf Storage's training workloads emulated as DLIO runs them, for sizing and pre-qualification (see `iogauge dlio --help`)";
    const ARGS: &'static str = "WORKLOAD [OVERRIDES...] [--data-dir DIR] [--output DIR] | datasize WORKLOAD --accelerators N --hosts H --host-memory SIZE";
    const EXAMPLES: &'static [(&'static str, &'static str)] = &[(
        "iogauge dlio unet3d_h100 ++workload.workflow.checkpoint=False --tasks 4 --data-dir /scratch/unet3d",
        "MLPerf Storage's unet3d training on 4 emulated accelerators",
    )];
    const SUPPORTS: Supports = Supports {
        drop_caches: true,
        root_target: false,
        dry_run: false,
    };
    type Command = DlioCommand;
    type Prepared = Prepared;
    type Outcome = results::dlio::PhaseOutcome;

    fn parse(args: &[String]) -> Result<DlioCommand, String> {
        match cmdline::dlio::parse(args) {
            Ok(DlioLine::Run(c)) => Ok(c),
            Ok(DlioLine::Datasize(_)) => {
                Err("datasize runs nothing; see iogauge dlio datasize --help".into())
            }
            Err(e) => Err(e.0.trim_start_matches("dlio: ").to_string()),
        }
    }

    fn help() -> String {
        cmdline::dlio::HELP.to_string()
    }

    fn check(cmd: &DlioCommand, ctx: &Context) -> Result<Checked<Prepared>, String> {
        checks::check(cmd, &ctx.setup)
    }

    fn document(cmd: &DlioCommand, prepared: &Prepared, ctx: &Context) -> RunResult {
        document(cmd, prepared, ctx)
    }

    fn sinks(
        cmd: &DlioCommand,
        prepared: &Prepared,
        _ctx: &Context,
        _doc: &RunResult,
    ) -> Result<Vec<Box<dyn Sink>>, String> {
        let dir = files::DlioFiles::new(&cmd.params, &prepared.output_dir)?;
        let out = output::DlioOutput::new(Box::new(std::io::stdout()));
        Ok(vec![Box::new(out), Box::new(dir)])
    }

    fn run(
        cmd: &DlioCommand,
        _prepared: &Prepared,
        ranks: &exec::Ranks,
        session: &Session,
    ) -> Finished<results::dlio::PhaseOutcome> {
        workload::dlio::run(&cmd.params, cmd.keep, ranks, session)
    }
}

/// What a checkpoint run writes and reads on `ranks` ranks.
fn checkpoint_resolved(cmd: &DlioCommand, ranks: u64) -> Option<results::CheckpointResolved> {
    let p = &cmd.params;
    if !p.is_checkpoint_run() {
        return None;
    }
    let shape = workload::dlio::checkpoint::Shape::of(p, ranks);
    let c = &p.checkpoint;
    Some(results::CheckpointResolved {
        folder: workload::dlio::config::checkpoint_folder(p),
        bytes: shape.checkpoint_bytes(ranks),
        files: (0..ranks).map(|r| shape.rank_shards(r).len() as u64).sum(),
        tensor: shape.tensor,
        pipeline: shape.pipeline,
        data: shape.data,
        zero_stage: shape.zero_stage,
        writes: c.num_checkpoints_write.max(0) as u64,
        reads: c.num_checkpoints_read.max(0) as u64,
        rank_shift: c.recovery_rank_shift,
        odirect: workload::dlio::config::checkpoint_odirect(p),
        keep: cmd.keep,
    })
}

/// The document before the run: the config, what it resolves to on these ranks, and the
/// dataset-size warning against MLPerf Storage's minimum.
fn document(cmd: &DlioCommand, prepared: &Prepared, ctx: &Context) -> RunResult {
    let p = &cmd.params;
    let ranks = ctx.setup.ranks() as u64;
    let (steps, samples) = workload::dlio::epoch_counts(p, ranks);
    let folder = workload::dlio::config::data_folder(p);
    let source = match &cmd.source {
        Some(plan::dlio::Source::Shipped(n)) => n.clone(),
        Some(plan::dlio::Source::File(f)) => f.display().to_string(),
        None => String::new(),
    };
    let resolved_checkpoint = checkpoint_resolved(cmd, ranks);
    let resolved = DlioResolved {
        source,
        overrides: cmd.overrides.clone(),
        data_folder: folder.clone(),
        output_folder: prepared.output_dir.clone(),
        accelerators: ranks,
        train_files_found: prepared.train_files_found,
        steps_per_epoch: steps,
        samples_per_epoch: samples,
        minimum_files: prepared.minimum_files,
        checkpoint: resolved_checkpoint.clone(),
    };
    let mut doc = RunResult::new(
        Parameters::Dlio(Box::new(DlioParameters {
            plan: p.clone(),
            resolved,
        })),
        std::env::args().collect(),
        crate::VERSION,
    );
    let engine = engine::for_target(&engine::EngineConfig::default());
    // The storage measured: the checkpoint folder's for a checkpoint run, else the data
    // set's; the nearest folder that exists.
    let target = match &resolved_checkpoint {
        Some(c) => c.folder.clone(),
        None => folder.clone(),
    };
    let at = target
        .ancestors()
        .find(|d| d.is_dir())
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    doc.environment = results::capture(Some((&*engine, &at)));
    doc.ranks = ctx.setup.result_ranks();
    // Its text is among the checks' warnings; the document's alert carries the evidence.
    doc.alerts.extend(prepared.below_minimum.clone());
    doc.alerts
        .extend(prepared.checkpoint_alerts.iter().cloned());
    doc
}
