//! What every workload's `run` does around its ranks, written once: start the run, run the
//! rank body on every rank with its engine and its slot on the live counters while the
//! session samples them, then name the failure that ended the run (a rank's own error, not
//! the "a peer failed" of the others), take the data errors and the signal from a rank that
//! ended well, and end the run through the session. The workload keeps what is its own: the
//! body, what it does after a failure (IOR's clean-up), and its summaries.

use engine::{Engine, EngineConfig, PosixEngine};
use exec::threads::RankOutcome;
use exec::{Comm, Ranks};
use results::OperationSummary;

use crate::session::{Finished, Session};

/// A workload's error on a rank.
pub(crate) trait RankError: std::fmt::Display + Send {
    /// This error only says that another rank failed (the job is being torn down): the run's
    /// failure is that rank's own error, not this.
    fn is_peer(&self) -> bool;
}

/// How a rank's run ended, when it ended without error.
pub(crate) trait RankEnd: Send {
    /// Data that did not verify, over all ranks (the same on every rank).
    fn errors(&self) -> u64 {
        0
    }

    /// The signal the ranks agreed stopped the run.
    fn interrupted(&self) -> Option<i32>;

    /// The failure the ranks agreed on and cleaned up after ("rank N: ..." on rank 0), where
    /// the workload keeps its ranks alive through a rank's I/O error.
    fn failure(&self) -> Option<String> {
        None
    }

    /// Where no rank of this process ended well, the run's data errors are the document's
    /// count (what rank 0 reported before) rather than none.
    const ERRORS_FROM_DOCUMENT: bool = false;
}

/// How a rank's run ended, the same on every rank, in a workload that needs no more: the data
/// errors, the signal, and the failure the ranks agreed on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RunTotals {
    /// Data that did not read back as written, over all phases and ranks.
    pub errors: u64,
    /// The signal that stopped the run, agreed by every rank.
    pub interrupted: Option<i32>,
    /// The first rank's I/O error that ended the run ("rank N: ..."), on rank 0 (an empty
    /// string on the others; `None` when no rank failed, or the workload stops at the first).
    pub failure: Option<String>,
}

impl RankEnd for RunTotals {
    fn errors(&self) -> u64 {
        self.errors
    }

    fn interrupted(&self) -> Option<i32> {
        self.interrupted
    }

    fn failure(&self) -> Option<String> {
        self.failure.clone()
    }

    // A run with no rank of this process ending well still has what rank 0 counted.
    const ERRORS_FROM_DOCUMENT: bool = true;
}

/// How a rank's run ended in a workload whose only end is the signal that stopped it, if one
/// did (start-up, dlio).
pub(crate) struct Stopped(pub Option<i32>);

impl RankEnd for Stopped {
    fn interrupted(&self) -> Option<i32> {
        self.0
    }
}

/// How each rank gets its engine.
pub(crate) enum Engines<'a, E> {
    /// The plan's (`engine::build`); a failure becomes the workload's error.
    Plan(&'a EngineConfig, fn(String) -> E),
    /// POSIX, buffered (start-up and find, whose engine is not chosen yet).
    Posix,
}

impl<E> Engines<'_, E> {
    fn build(&self, rank: usize) -> Result<Box<dyn Engine>, E> {
        match self {
            Engines::Plan(cfg, err) => engine::build(cfg, rank).map_err(|e| err(e.to_string())),
            Engines::Posix => Ok(Box::new(PosixEngine::new(false))),
        }
    }
}

/// What the rank body gets.
pub(crate) struct Rank<'a> {
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    /// This rank's slot on the session's live counters.
    pub slot: usize,
}

/// How this process's ranks ended.
pub(crate) struct Ended<T> {
    /// The end of this process's first rank that ended without error, if one did.
    pub first: Option<T>,
    /// The error that ended the run, if any.
    pub failure: Option<String>,
    errors: Option<u64>,
    interrupted: Option<i32>,
}

/// Starts the run and runs `body` on every rank of `ranks` while the session samples the live
/// counters; the ranks' ends, for [`Ended::finish`].
pub(crate) fn run<T, E>(
    session: &Session,
    ranks: &Ranks,
    engines: Engines<'_, E>,
    body: impl Fn(&Rank<'_>) -> Result<T, E> + Sync,
) -> Ended<T>
where
    T: RankEnd,
    E: RankError,
{
    session.hub().start();
    let outcomes = session.sampled(|| {
        ranks.run(|comm| {
            let engine = engines.build(comm.rank())?;
            body(&Rank {
                comm,
                engine: engine.as_ref(),
                slot: comm.rank() - ranks.first_local(),
            })
        })
    });
    Ended::of(outcomes)
}

impl<T: RankEnd> Ended<T> {
    /// The ends of this process's ranks, by rank. The ranks agree on the errors and the
    /// signal (reductions), so any rank that ended well has them.
    pub fn of<E: RankError>(outcomes: Vec<RankOutcome<T, E>>) -> Ended<T> {
        let failure = crate::stop::run_failure(&outcomes, RankError::is_peer, RankEnd::failure);
        let interrupted = outcomes.iter().find_map(|o| o.as_ref().ok()?.interrupted());
        let first = outcomes.into_iter().find_map(Result::ok);
        Ended {
            errors: first.as_ref().map(RankEnd::errors),
            first,
            failure,
            interrupted,
        }
    }

    /// Ends the run (`Session::finish`) with rank 0's `phases` and their `summary`.
    pub fn finish<O>(
        self,
        session: &Session,
        phases: Vec<O>,
        summary: Vec<OperationSummary>,
    ) -> Finished<O> {
        let errors = match self.errors {
            Some(n) => n,
            None if T::ERRORS_FROM_DOCUMENT => session.hub().doc().verification_errors,
            None => 0,
        };
        session.finish(phases, summary, errors, self.failure, self.interrupted)
    }
}

#[cfg(test)]
mod tests {
    use exec::threads::RankFailure;

    use super::*;

    /// An error that is a peer's ("a rank failed") or a rank's own.
    struct Error(bool, &'static str);

    impl std::fmt::Display for Error {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str(self.1)
        }
    }

    impl RankError for Error {
        fn is_peer(&self) -> bool {
            self.0
        }
    }

    #[derive(Default)]
    struct Totals {
        errors: u64,
        signal: Option<i32>,
        agreed: Option<String>,
    }

    impl RankEnd for Totals {
        fn errors(&self) -> u64 {
            self.errors
        }
        fn interrupted(&self) -> Option<i32> {
            self.signal
        }
        fn failure(&self) -> Option<String> {
            self.agreed.clone()
        }
    }

    #[test]
    fn the_failure_is_a_ranks_own_error_and_the_rest_comes_from_a_rank_that_ended() {
        let outcomes: Vec<RankOutcome<Totals, Error>> = vec![
            Err(RankFailure::Error(Error(true, "rank 2 failed: gone"))),
            Ok(Totals {
                errors: 3,
                signal: Some(15),
                ..Totals::default()
            }),
            Err(RankFailure::Error(Error(false, "write /x: EIO"))),
        ];
        let ended = Ended::of(outcomes);
        assert_eq!(ended.failure.as_deref(), Some("rank 2: write /x: EIO"));
        assert_eq!((ended.errors, ended.interrupted), (Some(3), Some(15)));
        assert!(ended.first.is_some());
    }

    #[test]
    fn a_failure_the_ranks_agreed_on_counts_when_no_rank_ended_in_error() {
        let agreed = Totals {
            agreed: Some("rank 1: create /d/f: ENOSPC".into()),
            ..Totals::default()
        };
        let ended = Ended::of::<Error>(vec![Ok(agreed), Ok(Totals::default())]);
        assert_eq!(
            ended.failure.as_deref(),
            Some("rank 1: create /d/f: ENOSPC")
        );
        let none = Ended::of::<Error>(vec![Ok(Totals::default())]);
        assert_eq!((none.failure, none.errors), (None, Some(0)));
        let lost = Ended::<Totals>::of(vec![Err(RankFailure::<Error>::Panic("boom".into()))]);
        assert_eq!(lost.failure.as_deref(), Some("rank 0 panicked: boom"));
        assert!(lost.first.is_none() && lost.errors.is_none());
    }
}
