//! md-workbench's `run_cleanup`: per data set, the `-P` objects from the run's position, then
//! the data set itself. Removal is by name, one unlink or rmdir each, never recursive.

use std::io::ErrorKind;

use measure::now_ns;
use results::mdworkbench::{DELETE, RMDIR};
use results::Operation;

use super::ctx::Ctx;
use super::error::MdwbError;
use super::naming::{set_dir, Names};
use super::phase::{close, open, Extra};

/// Removes the objects `start .. start + count` and (with `sets`) the data sets of this
/// rank. An object that is not there (an earlier, partial cleanup) is counted and reported,
/// as is a data set that cannot be removed; any other error is kept as this rank's failure
/// and the removal goes on past it (the ranks agree at the close).
pub(crate) fn cleanup(ctx: &Ctx, start: u64, count: u64, sets: bool) -> Result<(), MdwbError> {
    let p = ctx.params;
    let e = ctx.engine;
    let rank = ctx.rank();
    let mut names = Names::new(&p.dir);
    let mut extra = Extra::default();
    let mut o = open(ctx, Operation::Cleanup, 0, 0.0, None)?;
    for set in 0..p.data_sets {
        for index in start..start + count {
            let path = names.object(rank, set, index);
            match e.remove(e.target(path)) {
                Ok(()) => {
                    o.counts.obj_delete.ok += 1;
                    o.rec.record(DELETE, 0);
                }
                Err(err) if err.kind() == ErrorKind::NotFound => {
                    extra.missing.note(path);
                    o.rec.restart(now_ns());
                }
                Err(err) => {
                    ctx.absorb(Err(MdwbError::io("delete", path, err)))?;
                    o.rec.restart(now_ns());
                }
            }
        }
        if !sets {
            continue;
        }
        let dir = set_dir(&p.dir, rank, set);
        match e.rmdir(e.target(&dir)) {
            Ok(()) => {
                o.counts.dset_delete.ok += 1;
                o.rec.record(RMDIR, 0);
            }
            Err(_) => {
                extra.kept.note(&dir);
                o.rec.restart(now_ns());
            }
        }
    }
    let end = now_ns();
    close(ctx, o, end, extra)
}
