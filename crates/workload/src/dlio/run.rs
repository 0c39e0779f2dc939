//! The sequence of a dlio run on every rank: the generation (`workflow.generate_data`), then
//! the training (`workflow.train`): rank 0 lists the training files as DLIO's loader lists
//! them and every rank learns their paths and sizes; then each epoch (`run_epoch`); or, for
//! the checkpoint workload, the checkpoints (`checkpoint::run`). A signal
//! ends the run at the step the ranks agree on, the finished epochs kept.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::path::PathBuf;

use engine::Target;
use exec::{Comm, Ranks};
use plan::dlio::DlioParams;
use results::dlio::{summaries, EpochOutcome, PhaseOutcome};
use results::Parameters;

use super::checkpoint::run::run_checkpoints;
use super::config;
use super::data::Split;
use super::error::DlioError;
use super::run_ctx::{Ctx, TrainFiles};
use super::run_epoch::epoch_phase;
use super::run_generate::generate;
use super::train::{steps, ComputeDraws};
use crate::session::{Collected, Finished, Session};
use crate::skeleton::{self, Engines, Stopped};

/// Runs `p` on `ranks`, reporting through `session` from start to end; `keep`: a checkpoint
/// run leaves the files it wrote.
pub fn run(p: &DlioParams, keep: bool, ranks: &Ranks, session: &Session) -> Finished<PhaseOutcome> {
    let phases = Collected::new();
    let ended = skeleton::run(session, ranks, Engines::Posix, |r| {
        let ctx = Ctx {
            p,
            comm: r.comm,
            engine: r.engine,
            session,
            phases: &phases,
            slot: r.slot,
            host: (
                std::thread::available_parallelism().map_or(0, |n| n.get() as u64),
                results::mem_total(),
            ),
            keep,
        };
        run_rank(&ctx).map(Stopped)
    });
    let phases = phases.into_inner();
    let summary = summaries(&phases);
    ended.finish(session, phases, summary)
}

fn run_rank(ctx: &Ctx) -> Result<Option<i32>, DlioError> {
    let p = ctx.p;
    if p.workflow.generate_data {
        if let Some(sig) = generate(ctx)? {
            return Ok(Some(sig));
        }
    }
    if p.is_checkpoint_run() {
        return run_checkpoints(ctx);
    }
    if !p.workflow.train {
        return Ok(None);
    }
    let listed = if ctx.comm.rank() == 0 {
        list_train_files(ctx)
    } else {
        Ok(TrainFiles::default())
    };
    let files = share(ctx.comm, listed)?;
    let tp = config::train_params(p, ctx.comm.size() as u64, ctx.comm.rank() as u64);
    let mut draws = ComputeDraws::new(&tp);
    // Rank 0's finished epochs, for the document's dlio block.
    let mut done: Vec<EpochOutcome> = Vec::new();
    for epoch in 1..=tp.epochs {
        draws.begin_epoch(epoch);
        let stop = epoch_phase(ctx, &tp, &files, epoch, &mut draws, &mut done)?;
        if stop.is_some() {
            return Ok(stop);
        }
    }
    ctx.comm.barrier()?;
    Ok(None)
}

/// Rank 0: lists the training split as DLIO's loader does and takes its first
/// `num_files_train` (fewer is DLIO's "not enough dataset"); records what it found.
fn list_train_files(ctx: &Ctx) -> Result<TrainFiles, String> {
    let layout = config::layout(ctx.p, Split::Train);
    let found = layout.list_on_disk().map_err(|e| {
        format!(
            "list {}: {}",
            layout.split_dir().display(),
            engine::errno::describe(&e)
        )
    })?;
    let want = ctx.p.dataset.num_files_train as usize;
    if found.len() < want {
        return Err(format!(
            "{} holds {} training files; dataset.num_files_train is {want}",
            layout.split_dir().display(),
            found.len()
        ));
    }
    let paths: Vec<PathBuf> = found.iter().take(want).cloned().collect();
    let mut sizes = Vec::with_capacity(want);
    for path in &paths {
        let st = ctx
            .engine
            .stat(Target::from(path))
            .map_err(|e| format!("stat {}: {}", path.display(), engine::errno::describe(&e)))?;
        sizes.push(st.size);
    }
    if let Parameters::Dlio(d) = &mut ctx.session.hub().doc_mut().parameters {
        d.resolved.train_files_found = found.len() as u64;
    }
    Ok(TrainFiles { paths, sizes })
}

/// Rank 0's list (or its error) to every rank: `[1, count, sizes..., paths joined by NUL]`.
fn share(comm: &dyn Comm, listed: Result<TrainFiles, String>) -> Result<TrainFiles, DlioError> {
    let mine = match &listed {
        Ok(f) => {
            let mut b = vec![1u8];
            b.extend((f.sizes.len() as u64).to_le_bytes());
            for s in &f.sizes {
                b.extend(s.to_le_bytes());
            }
            let names: Vec<&[u8]> = f
                .paths
                .iter()
                .map(|p| p.as_os_str().as_encoded_bytes())
                .collect();
            b.extend(names.join(&0u8));
            b
        }
        Err(e) => [vec![0u8], e.as_bytes().to_vec()].concat(),
    };
    let got = comm.broadcast_bytes(&mine, 0)?;
    if comm.rank() == 0 {
        return listed.map_err(DlioError::Prepare);
    }
    let wire = |m: &str| DlioError::Wire(format!("the training file list: {m}"));
    match got.split_first() {
        Some((1, rest)) if rest.len() >= 8 => {
            let n = u64::from_le_bytes(rest[..8].try_into().unwrap_or_default()) as usize;
            let end = 8 + n * 8;
            if rest.len() < end {
                return Err(wire("short"));
            }
            let sizes = rest[8..end]
                .chunks_exact(8)
                .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
                .collect();
            let paths: Vec<PathBuf> = match n {
                0 => Vec::new(),
                _ => rest[end..]
                    .split(|b| *b == 0)
                    .map(|s| PathBuf::from(OsString::from_vec(s.to_vec())))
                    .collect(),
            };
            if paths.len() != n {
                return Err(wire("names and sizes differ"));
            }
            Ok(TrainFiles { paths, sizes })
        }
        Some((0, _)) => Err(DlioError::Comm(exec::CommError::PeerFailed {
            rank: 0,
            message: "listing the training files failed".into(),
        })),
        _ => Err(wire("empty")),
    }
}

/// Steps per epoch and samples per epoch over all ranks, as DLIO counts them.
pub fn epoch_counts(p: &DlioParams, ranks: u64) -> (u64, u64) {
    let tp = config::train_params(p, ranks, 0);
    let steps = steps::steps_per_epoch(&tp);
    (steps, steps * tp.batch_size * ranks)
}
