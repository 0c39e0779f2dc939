//! A rank's I/O error (ENOSPC while creating an object, EIO from a failing device) ends the
//! run for every rank, cleanly: the failing rank stops its loop but keeps calling the
//! collectives, the ranks learn of it at the phase's end (one reduction), the phase is not
//! reported, the phases left are skipped, and the ranks remove what this run made, untimed
//! and unreported, skipping the objects that are not there. At the end rank 0 names the
//! first failing rank and its error, and the run ends with status 1. The run-info file is not
//! updated.
//!
//! What "this run made" is follows md-workbench's FIFO (docs/md-workbench.md):
//! * with the cleanup phase in the plan (a full run, or `-3`): every object any rank may have
//!   reached, the data sets, and `-o` if the run made it: what the cleanup would have removed;
//! * with the precreate (`-1`, `-1 -2`) but no cleanup: the same (the precreate did not
//!   finish, so no later `-2` could use the sets; the user runs `-1` again);
//! * a benchmark alone (`-2`): only the objects it appended (from `start + P`); the data sets
//!   and the older objects are the earlier precreate's, and the run-info file still names the
//!   position before the run, so a later `-3` removes what is left.

use exec::ReduceOp;

use super::cleanup::cleanup;
use super::ctx::Ctx;
use super::error::MdwbError;
use super::status::Position;
use crate::stop;

/// Removes what this run made after the ranks agreed that one failed (a collective).
/// `start`: the position the run began at; `pos`: this rank's position now.
pub(crate) fn clean(ctx: &Ctx, start: u64, pos: Position) -> Result<(), MdwbError> {
    let p = ctx.params;
    let min = ctx.comm.all_reduce_u64(pos.pos, ReduceOp::Min)?;
    let max = ctx.comm.all_reduce_u64(pos.pos, ReduceOp::Max)?;
    let from = if p.phases.cleanup {
        min
    } else if p.phases.precreate {
        start
    } else {
        start + p.precreate_per_set
    };
    // One more than the last index reached: the failing rank's group was cut part-way, after
    // some of its sets had their next object appended.
    let to = max + p.precreate_per_set + 1;
    let sets = p.phases.cleanup || p.phases.precreate;
    cleanup(ctx, from, to.saturating_sub(from), sets)?;
    if sets
        && pos.made_dir
        && ctx.rank() == 0
        && ctx.engine.rmdir(ctx.engine.target(&p.dir)).is_err()
    {
        // Only if empty: what is left in it stays.
        ctx.events.warning(&format!(
            "could not remove {} (made by this run): it is not empty",
            p.dir.display()
        ));
    }
    Ok(())
}

/// At the end of the run, on every rank: `None` when no rank failed, else (on rank 0; an
/// empty string on the others) "rank N: <operation> <path>: <error>" of the lowest failing
/// rank.
pub(crate) fn first(ctx: &Ctx) -> Result<Option<String>, MdwbError> {
    if !stop::any_failed(ctx.comm, ctx.failed_here())? {
        return Ok(None);
    }
    let mine = ctx.failed.borrow().as_ref().map(|e| e.to_string());
    Ok(Some(stop::first_failure(
        ctx.comm,
        &mine.unwrap_or_default(),
    )?))
}
