//! A shared file on an object store (IOR without `-F`, `Caps::object` with multipart): one
//! multipart upload for all ranks. Rank 0 begins it inside the timed open and broadcasts its
//! token (the upload ID); every rank writes its transfers as parts; at the close every rank
//! hands its parts' ETags to rank 0, which completes the upload inside the timed close, so the
//! write phase ends when the object exists, as a POSIX write's ends when the last close
//! returns. After a signal rank 0 aborts the upload instead: an object missing parts would
//! shift every later offset.

use std::path::Path;

use engine::Target;

use crate::ior::ctx::Ctx;
use crate::ior::error::IorError;

/// Whether a write of `tasks` ranks to one file goes through the engine's shared write.
pub(crate) fn applies(ctx: &Ctx, write: bool, tasks: u64) -> bool {
    let parts = ctx
        .engine
        .caps()
        .object
        .is_some_and(|o| o.multipart.is_some());
    write && parts && !ctx.params.file_per_proc && tasks > 1
}

/// Rank 0 begins the shared write; every rank gets its token (collective).
pub(crate) fn begin(ctx: &Ctx, path: &Path, target: Target<'_>) -> Result<Vec<u8>, IorError> {
    let mine = if ctx.comm.rank() == 0 {
        let token = ctx
            .engine
            .shared_begin(target)
            .map_err(|e| IorError::io("open", path, None, e))?
            .unwrap_or_default();
        ctx.made.shared(path.to_path_buf(), token.clone());
        token
    } else {
        Vec::new()
    };
    Ok(ctx.comm.broadcast_bytes(&mine, 0)?)
}

/// Every rank's parts go to rank 0, which completes the write (or aborts it after a signal);
/// true when it was aborted: the object does not exist (collective).
pub(crate) fn end(
    ctx: &Ctx,
    path: &Path,
    target: Target<'_>,
    token: &[u8],
    mine: &[u8],
) -> Result<bool, IorError> {
    let all = ctx.comm.gather_bytes(mine, 0)?;
    let mut aborted = false;
    if let Some(all) = all {
        // Rank 0 decides, and tells the others whether the object exists.
        aborted = exec::interrupt::requested();
        let done = if aborted {
            ctx.engine.shared_abort(target, token)
        } else {
            ctx.engine.shared_end(target, token, &all)
        };
        ctx.made.shared_done();
        done.map_err(|e| IorError::io("close", path, None, e))?;
    }
    Ok(ctx.comm.broadcast_u64(u64::from(aborted), 0)? == 1)
}
