//! A rank's I/O error (ENOSPC while creating, EIO from a failing device) ends the run for
//! every rank, cleanly: the failing rank stops its work but keeps calling the collectives,
//! the ranks learn of the failure at the phase's end (one reduction), the phase is not
//! reported, and from then on only the remove phases run, untimed, as after a signal: they
//! take away the items, tree directories, test directories and the `-d` directory the run
//! made, skipping the names it never made. At the end rank 0 names the first failing rank
//! and its error, and the run ends with status 1. Without `-r` in the plan (`-C` alone) what
//! was made stays, as it would after a finished run (the user asked for the tree).
//!
//! Under MPI this keeps every rank alive to the end: no rank aborts the job, so rank 0 saves
//! the finished phases and the clean-up covers every rank's names.

use super::ctx::Ctx;
use super::error::MdError;
use crate::stop;

/// Whether any rank has failed so far (a collective: every rank calls it at the same
/// point). Once they agree, the run is cleaning up.
pub(crate) fn agreed(ctx: &Ctx) -> Result<bool, MdError> {
    let any = stop::any_failed(ctx.comm, ctx.failed_here())?;
    if any {
        ctx.failing.set(true);
    }
    Ok(any)
}

/// At the end of the run, on every rank: `None` when no rank failed, else (on rank 0; an
/// empty string on the others) "rank N: <operation> <path>: <error>" of the lowest failing
/// rank.
pub(crate) fn first(ctx: &Ctx) -> Result<Option<String>, MdError> {
    if !agreed(ctx)? {
        return Ok(None);
    }
    let mine = ctx
        .take_failure()
        .map(|e| e.to_string())
        .unwrap_or_default();
    Ok(Some(stop::first_failure(ctx.comm, &mine)?))
}
