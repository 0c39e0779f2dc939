//! Stopping a run early, the same way in every workload: the ranks agree that a signal asked
//! them to stop (`exec::interrupt`), so every rank leaves its phase loop at the same point and
//! the clean-up that follows can still use collectives.

use exec::{Comm, CommError, ReduceOp};

/// The signal that stops the run, agreed by every rank (the largest any rank saw), or `None`.
/// A collective: every rank calls it at the same point, between phases.
pub fn agreed(comm: &dyn Comm) -> Result<Option<i32>, CommError> {
    let sig = comm.all_reduce_u64(exec::interrupt::signal_if_stopping(), ReduceOp::Max)?;
    Ok((sig != 0).then_some(sig as i32))
}

/// After a phase: whether any rank's loop was cut by a signal (`mine` on this rank: the phase
/// is then recorded as interrupted) and the signal that stops the run, if any; one collective.
/// A rank that cut its loop has the stop flag set, so its vote carries a signal.
pub fn after_phase(comm: &dyn Comm, mine: bool) -> Result<(bool, Option<i32>), CommError> {
    let vote = (u64::from(mine) << 32) | exec::interrupt::signal_if_stopping();
    let max = comm.all_reduce_u64(vote, ReduceOp::Max)?;
    let sig = (max & 0xffff_ffff) as i32;
    Ok((max >> 32 != 0, (sig != 0).then_some(sig)))
}
