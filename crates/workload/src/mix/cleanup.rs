//! The cleanup: each rank removes, one by one and by name, exactly the files and directories
//! its tree says exist (the prepared ones and those the steps made, under their current
//! names), then its data directories and its own directory. Never recursive: a directory
//! that holds something else stays, with a warning.

use measure::now_ns;
use plan::mix::MixOp;
use results::Operation;

use super::ctx::Ctx;
use super::error::MixError;
use super::phase::{close, open};
use super::tree::RankTree;

/// Removes this rank's tree; the directories that could not be removed are the phase's
/// warnings.
pub(crate) fn cleanup(ctx: &Ctx, t: &mut RankTree) -> Result<(), MixError> {
    let e = ctx.engine;
    let (files, empties) = t.existing();
    let mut kept = Vec::new();
    let mut o = open(ctx, Operation::MixCleanup, 0, 0)?;
    for id in files {
        let p = t.file_path(0, id);
        e.remove(p).map_err(|err| MixError::io("unlink", p, err))?;
        o.tally.done[MixOp::Unlink as usize] += 1;
        o.rec.record(MixOp::Unlink as usize, 0);
    }
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
    for p in dirs {
        match e.rmdir(&p) {
            Ok(()) => {
                o.tally.done[MixOp::Rmdir as usize] += 1;
                o.rec.record(MixOp::Rmdir as usize, 0);
            }
            Err(err) => {
                kept.push(format!(
                    "Unable to remove directory {} ({err}): iogauge removes only what the run made",
                    p.display()
                ));
                o.rec.restart(now_ns());
            }
        }
    }
    let end = now_ns();
    close(ctx, o, end, kept).map(|_| ())
}
