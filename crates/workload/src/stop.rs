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

/// Whether any rank met an I/O error so far (`mine` on this rank); one collective. A rank
/// that fails keeps calling the collectives, so the ranks learn of it together and clean up.
pub fn any_failed(comm: &dyn Comm, mine: bool) -> Result<bool, CommError> {
    Ok(comm.all_reduce_u64(u64::from(mine), ReduceOp::Max)? != 0)
}

/// At the end of a run where a rank failed: on rank 0, "rank N: <error>" of the lowest rank
/// that has one (`mine`, this rank's error, empty where none); an empty string elsewhere.
/// A collective.
pub fn first_failure(comm: &dyn Comm, mine: &str) -> Result<String, CommError> {
    let Some(all) = comm.gather_bytes(mine.as_bytes(), 0)? else {
        return Ok(String::new());
    };
    let named = all.iter().enumerate().find(|(_, b)| !b.is_empty());
    Ok(named.map_or_else(
        || "a rank failed (no error was reported)".to_string(),
        |(rank, b)| format!("rank {rank}: {}", String::from_utf8_lossy(b)),
    ))
}

/// The error that ended a run: a rank's own error (`exec::first_failure`), else the one the
/// ranks agreed on and cleaned up after (`agreed`: what a rank's outcome carries; rank 0's
/// has the text).
pub fn run_failure<T, E: std::fmt::Display>(
    outcomes: &[exec::threads::RankOutcome<T, E>],
    is_peer: impl Fn(&E) -> bool,
    agreed: impl Fn(&T) -> Option<String>,
) -> Option<String> {
    let cleaned = outcomes
        .iter()
        .find_map(|r| r.as_ref().ok().and_then(&agreed));
    exec::first_failure(outcomes, is_peer).or(cleaned)
}
