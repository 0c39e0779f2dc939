//! The steps every timed phase takes before its clock starts, the same in every workload;
//! each tool's own barriers and timestamps around its window stay in its phase file, where
//! the peer tool has them.
//!
//! Before a window: `crate::cache::before_phase` (the page cache), then [`prepare`] (the
//! recorder, rank 0's phase-start event), then the tool's barriers and [`epoch`].

use exec::{Comm, CommError};
use measure::{now_ns, Recorder};
use results::sink::{Expect, PhaseStart};
use results::Operation;

use crate::session::Session;

/// This rank's recorder for a phase of `kinds` operation kinds at `slot` of the live
/// counters, made now because a new histogram writes its whole count array (~0.3 ms) and that
/// must stay out of the window; and on rank 0 the phase's `start` event (`None`: a phase that
/// is not reported, a clean-up), sent now, before any barrier, so that no sink runs while
/// other ranks are in the window.
pub(crate) fn prepare(
    session: &Session,
    comm: &dyn Comm,
    slot: usize,
    kinds: usize,
    start: Option<PhaseStart>,
) -> Recorder {
    let rec = session.recorder(slot, kinds);
    match (comm.rank(), start) {
        (0, Some(start)) => session.hub().phase_start(&start),
        // Another node's first rank reads its node over the same phase, and the other ranks
        // of a job of several processes their CPU time (`crate::system::gather_nodes`).
        (_, Some(_)) if session.system_on() && session.reads_node_for_rank0(comm) => {
            session.system_hub().probe_start()
        }
        (_, Some(_)) if session.system_on() && session.multi_process(comm) => {
            session.note_cpu_start()
        }
        _ => {}
    }
    rec
}

/// Rank 0's clock becomes the epoch of every rank's interval series, so that rank 0 can merge
/// them bucket by bucket. A broadcast: under MPI it is no barrier.
pub(crate) fn epoch(comm: &dyn Comm, rec: &mut Recorder) -> Result<u64, CommError> {
    let epoch = comm.broadcast_u64(now_ns(), 0)?;
    rec.set_epoch(epoch);
    Ok(epoch)
}

/// The start event of a workload's own phase (not an IO500 phase's: the suite names those).
pub(crate) fn start(
    operation: Operation,
    iteration: u32,
    ranks: usize,
    expect: Expect,
) -> PhaseStart {
    PhaseStart {
        operation,
        iteration,
        io500_phase: None,
        ranks,
        expect,
    }
}
