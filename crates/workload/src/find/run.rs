//! A whole find on the ranks: the work-stealing pool that suits them (shared memory for thread
//! ranks, messages for MPI ranks), every rank's walk, rank 0's report of the phase, and the
//! warnings its counts call for.

use std::sync::atomic::{AtomicU32, Ordering};

use exec::{first_failure, CommError, Ranks};
use plan::find::FindParams;
use results::find::{phase_result, summaries};
use results::sink::Detail;
use results::Parameters;

use super::message_pool::MessagePool;
use super::pool::{DirPool, StealingPool, VictimChoice};
use super::query::Query;
use super::rank::{run_rank, FindCtx, FindError, FindOutcome};
use super::walk::Lister;
use crate::session::{Finished, Session};

/// Walks in this process so far: every rank runs the same walks in the same order, so the
/// count is the same walk id everywhere (the MPI pool keeps walks apart by it).
static WALKS: AtomicU32 = AtomicU32::new(0);

/// Runs a find plan on `ranks`, listing matches through `list` (`None`: count only).
pub fn run(
    plan: &FindParams,
    ranks: &Ranks,
    session: &Session,
    list: Option<&dyn Lister>,
) -> Finished<FindOutcome> {
    session.hub().start();
    let walk_id = WALKS.fetch_add(1, Ordering::Relaxed);
    let victims = if plan.steal_next {
        VictimChoice::PreviousHalfTheTime
    } else {
        VictimChoice::Random
    };
    let shared = (!ranks.is_mpi()).then(|| {
        StealingPool::new(
            ranks.count(),
            plan.paths.clone(),
            plan.queue_length,
            victims,
        )
    });
    let outcomes = match Query::of(plan) {
        Err(e) => vec![Err(exec::threads::RankFailure::Error(FindError::Pattern(
            e.to_string(),
        )))],
        Ok(query) => session.sampled(|| {
            ranks.run(|comm| {
                let engine = engine::PosixEngine::new(false);
                let messages;
                let pool: &dyn DirPool = match &shared {
                    Some(p) => p,
                    None => {
                        messages = MessagePool::new(
                            comm,
                            plan.paths.clone(),
                            plan.queue_length,
                            victims,
                            walk_id,
                        );
                        &messages
                    }
                };
                run_rank(&FindCtx {
                    comm,
                    engine: &engine,
                    pool,
                    query: &query,
                    list,
                    session: Some(session),
                    slot: comm.rank() - ranks.first_local(),
                })
            })
        }),
    };
    let is_peer = |e: &FindError| matches!(e, FindError::Comm(CommError::PeerFailed { .. }));
    let failure = first_failure(&outcomes, is_peer);
    let outcome = outcomes.into_iter().next().and_then(|r| r.ok()).flatten();
    let interrupted = outcome.as_ref().and_then(|o| o.interrupted);
    let mut summary = Vec::new();
    if let Some(o) = &outcome {
        let mut hub = session.hub();
        let mut result = phase_result(o);
        result.interrupted = interrupted.is_some();
        hub.phase_end(result, Detail::of(o));
        for w in warnings(o) {
            hub.warning(&w);
        }
        summary = summaries(o);
        if let Parameters::Find(f) = &mut hub.doc_mut().parameters {
            f.newer_ctime = o.newer_ctime;
        }
    }
    session.finish(
        outcome.into_iter().collect(),
        summary,
        0,
        failure,
        interrupted,
    )
}

/// What the counts say about the figures: unreadable directories, entries that could not be
/// stat'ed. (A run too short for its rate to mean much is every phase's `short-phase`.)
fn warnings(o: &FindOutcome) -> Vec<String> {
    let t = &o.total;
    let mut w = Vec::new();
    if t.unreadable_dirs > 0 {
        w.push(format!(
            "{} director{} could not be read and {} not counted: {}{}",
            t.unreadable_dirs,
            if t.unreadable_dirs == 1 { "y" } else { "ies" },
            if t.unreadable_dirs == 1 {
                "its contents are"
            } else {
                "their contents are"
            },
            o.unreadable.join("; "),
            if (o.unreadable.len() as u64) < t.unreadable_dirs {
                "; ..."
            } else {
                ""
            }
        ));
    }
    if t.stat_errors > 0 {
        w.push(format!(
            "{} entr{} could not be stat'ed (vanished or no permission) and did not match",
            t.stat_errors,
            if t.stat_errors == 1 { "y" } else { "ies" }
        ));
    }
    w
}
