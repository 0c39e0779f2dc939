//! The cleanup: each rank removes, one by one and by name, exactly the files and directories
//! its tree says exist (the prepared ones and those the steps made, under their current
//! names), then its data directories and its own directory. Never recursive: a directory
//! that holds something else stays, with a warning.
//!
//! After a rank failed (an I/O error anywhere, the reported cleanup's own included) the ranks
//! remove what is left the same way, untimed and unreported ([`after_failure`]): a name that
//! is missing is skipped (a create that failed part-way may or may not have left its file),
//! and an error on one name does not stop the others.

use engine::Target;
use std::io;

use measure::now_ns;
use plan::mix::MixOp;
use results::Operation;

use super::ctx::Ctx;
use super::error::MixError;
use super::phase::{close, open, Open};
use super::tree::RankTree;

/// Removes this rank's tree as the run's last phase; the directories that could not be
/// removed are the phase's warnings. An I/O error stops this rank's removals (kept for the
/// agreement at the phase's end; [`after_failure`] then goes on).
pub(crate) fn cleanup(ctx: &Ctx, t: &mut RankTree) -> Result<(), MixError> {
    let mut kept = Vec::new();
    let mut o = open(ctx, Operation::MixCleanup, 0, 0, None)?;
    if !ctx.failed_here() {
        ctx.absorb(remove_all(ctx, t, &mut o, &mut kept))?;
    }
    let end = now_ns();
    close(ctx, o, end, kept).map(|_| ())
}

fn remove_all(
    ctx: &Ctx,
    t: &mut RankTree,
    o: &mut Open,
    kept: &mut Vec<String>,
) -> Result<(), MixError> {
    let e = ctx.engine;
    let (files, _) = t.existing();
    for id in files {
        let p = t.file_path(0, id);
        e.remove(Target::from(p))
            .map_err(|err| MixError::io("unlink", p, err))?;
        o.tally.done[MixOp::Unlink as usize] += 1;
        o.rec.record(MixOp::Unlink as usize, 0);
    }
    for p in dirs(t) {
        match e.rmdir(Target::from(&p)) {
            Ok(()) => {
                o.tally.done[MixOp::Rmdir as usize] += 1;
                o.rec.record(MixOp::Rmdir as usize, 0);
            }
            Err(err) => {
                kept.push(kept_dir(&p, &err));
                o.rec.restart(now_ns());
            }
        }
    }
    Ok(())
}

/// The directories of the tree, deepest first: the empty ones, the data directories, the
/// rank's own.
fn dirs(t: &mut RankTree) -> Vec<std::path::PathBuf> {
    let (_, empties) = t.existing();
    let mut dirs: Vec<_> = empties
        .iter()
        .map(|&id| t.empty_path(id).to_path_buf())
        .collect();
    for j in 0..t.made_dirs {
        dirs.push(t.data_dir(j).to_path_buf());
    }
    if t.made_root {
        dirs.push(t.root().to_path_buf());
    }
    dirs
}

fn kept_dir(p: &std::path::Path, err: &io::Error) -> String {
    format!(
        "Unable to remove directory {} ({}): iogauge removes only what the run made",
        p.display(),
        engine::errno::describe(err)
    )
}

/// After the ranks agreed that one failed: every rank removes what its tree says may exist,
/// skipping missing names, then rank 0 hears every rank's problems (a collective); it returns
/// them, "rank N: ..." (empty on the other ranks).
pub(crate) fn after_failure(ctx: &Ctx, t: &mut RankTree) -> Result<Vec<String>, MixError> {
    let e = ctx.engine;
    let mut notes = Vec::new();
    let (files, _) = t.existing();
    for id in files {
        let p = t.file_path(0, id);
        match e.remove(Target::from(p)) {
            Err(err) if err.kind() != io::ErrorKind::NotFound => notes.push(format!(
                "unlink {}: {}",
                p.display(),
                engine::errno::describe(&err)
            )),
            _ => {}
        }
    }
    for p in dirs(t) {
        match e.rmdir(Target::from(&p)) {
            Err(err) if err.kind() != io::ErrorKind::NotFound => notes.push(kept_dir(&p, &err)),
            _ => {}
        }
    }
    let all = ctx.comm.gather_bytes(notes.join("\n").as_bytes(), 0)?;
    Ok(all
        .unwrap_or_default()
        .iter()
        .enumerate()
        .flat_map(|(rank, b)| {
            String::from_utf8_lossy(b)
                .lines()
                .map(|l| format!("rank {rank}: {l}"))
                .collect::<Vec<_>>()
        })
        .collect())
}
