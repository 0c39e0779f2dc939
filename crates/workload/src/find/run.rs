//! A whole find on the ranks: the work-stealing pool that suits them (shared memory for thread
//! ranks, messages for MPI ranks), every rank's walk, rank 0's report of the phase, and the
//! warnings its counts call for.

use std::sync::atomic::{AtomicU32, Ordering};

use exec::{CommError, Ranks};
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
use crate::skeleton::{self, Ended, Engines, RankEnd, RankError};

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
    let mut ended = match Query::of(plan) {
        Err(e) => {
            // Checked when the command line was read: no rank runs.
            session.hub().start();
            let e = FindError::Pattern(e.to_string());
            Ended::of(vec![Err(exec::threads::RankFailure::Error(e))])
        }
        Ok(query) => skeleton::run(session, ranks, Engines::Posix, |r| {
            let comm = r.comm;
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
                engine: r.engine,
                pool,
                query: &query,
                list,
                session: Some(session),
                slot: r.slot,
            })
            .map(Walked)
        }),
    };
    // Rank 0's outcome: the phase is reported once every rank has walked.
    let outcome = ended.first.take().and_then(|w| w.0);
    let mut summary = Vec::new();
    if let Some(o) = &outcome {
        let mut hub = session.hub();
        let mut result = phase_result(o);
        result.interrupted = o.interrupted.is_some();
        hub.phase_end(result, Detail::of(o));
        for w in warnings(o) {
            hub.warning(&w);
        }
        summary = summaries(o);
        if let Parameters::Find(f) = &mut hub.doc_mut().parameters {
            f.newer_ctime = o.newer_ctime;
        }
    }
    ended.finish(session, outcome.into_iter().collect(), summary)
}

/// A rank's walk: rank 0's outcome of the whole find, `None` on the others.
struct Walked(Option<FindOutcome>);

impl RankEnd for Walked {
    fn interrupted(&self) -> Option<i32> {
        self.0.as_ref().and_then(|o| o.interrupted)
    }
}

impl RankError for FindError {
    fn is_peer(&self) -> bool {
        matches!(self, FindError::Comm(CommError::PeerFailed { .. }))
    }
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
