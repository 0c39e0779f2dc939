//! The ranks of a run: how many, where they are (the node map), and whether they are threads
//! of this process or MPI processes. A workload runs its per-rank body through [`Ranks::run`]
//! and never asks which kind it got.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::threads::{self, RankFailure, RankOutcome};
use crate::{Comm, NodeMap};

/// Rank 0 of an MPI job failed in a run: the process must end the job once it has saved its
/// results (the other ranks may wait for it in a collective).
static ROOT_FAILED: AtomicBool = AtomicBool::new(false);

#[derive(Debug, Clone)]
enum Kind {
    Threads,
    #[cfg(feature = "mpi")]
    Mpi(crate::mpi::MpiWorld),
}

#[derive(Debug, Clone)]
pub struct Ranks {
    node_map: NodeMap,
    kind: Kind,
}

impl Ranks {
    /// `node_map.ranks()` thread ranks in this process.
    pub fn threads(node_map: NodeMap) -> Ranks {
        Ranks {
            node_map,
            kind: Kind::Threads,
        }
    }

    /// The first `node_map.ranks()` ranks of an MPI job.
    #[cfg(feature = "mpi")]
    pub fn mpi(world: crate::mpi::MpiWorld, node_map: NodeMap) -> Ranks {
        Ranks {
            node_map,
            kind: Kind::Mpi(world),
        }
    }

    pub fn count(&self) -> usize {
        self.node_map.ranks()
    }

    pub fn node_map(&self) -> &NodeMap {
        &self.node_map
    }

    /// The same kind of ranks, `n` of them, on the node map `node_map` (a phase that runs on
    /// fewer ranks than the job, as the IO500's find with `nproc`).
    pub fn with(&self, node_map: NodeMap) -> Ranks {
        Ranks {
            node_map,
            kind: self.kind.clone(),
        }
    }

    pub fn is_mpi(&self) -> bool {
        !matches!(self.kind, Kind::Threads)
    }

    /// What the result document names as the launcher.
    pub fn launcher(&self) -> &'static str {
        if self.is_mpi() {
            "mpi"
        } else {
            "threads"
        }
    }

    /// How many of the ranks live in this process: all thread ranks; under MPI this process's
    /// own rank, or none when it is not among the first `count()` ranks.
    pub fn local(&self) -> usize {
        match &self.kind {
            Kind::Threads => self.count(),
            #[cfg(feature = "mpi")]
            Kind::Mpi(w) => usize::from(w.rank() < self.count()),
        }
    }

    /// This process's first rank (0 with thread ranks).
    pub fn first_local(&self) -> usize {
        match &self.kind {
            Kind::Threads => 0,
            #[cfg(feature = "mpi")]
            Kind::Mpi(w) => w.rank(),
        }
    }

    /// Runs `body` on every rank and returns the outcomes of this process's ranks, by rank: all
    /// of them with thread ranks, this process's own under MPI (none if it is not among the
    /// ranks). A rank that fails makes the others' collectives fail instead of hang; under MPI
    /// a rank other than 0 ends the job itself, and rank 0 leaves that to [`abort_if_root_failed`]
    /// once its results are saved.
    pub fn run<T, E, F>(&self, body: F) -> Vec<RankOutcome<T, E>>
    where
        T: Send,
        E: Send + std::fmt::Display,
        F: Fn(&dyn Comm) -> Result<T, E> + Sync,
    {
        match &self.kind {
            Kind::Threads => threads::run(self.count(), self.node_map.clone(), |c| body(&c)),
            #[cfg(feature = "mpi")]
            Kind::Mpi(w) => {
                let out = w.run(self.count(), self.node_map.clone(), |c| body(c));
                if out.iter().any(Result::is_err) {
                    ROOT_FAILED.store(true, Ordering::Release);
                }
                out
            }
        }
    }
}

/// Whether rank 0 of an MPI job failed in a run since the process started.
pub fn root_failed() -> bool {
    ROOT_FAILED.load(Ordering::Acquire)
}

/// The error that ended a run: the first rank that failed on its own (the others only report
/// that a peer failed, which `is_peer` recognises), else the first error of any rank.
pub fn first_failure<T, E: std::fmt::Display>(
    outcomes: &[RankOutcome<T, E>],
    is_peer: impl Fn(&E) -> bool,
) -> Option<String> {
    let own = outcomes.iter().enumerate().find_map(|(rank, r)| match r {
        Err(RankFailure::Error(e)) if !is_peer(e) => Some(format!("rank {rank}: {e}")),
        Err(RankFailure::Panic(m)) => Some(format!("rank {rank} panicked: {m}")),
        _ => None,
    });
    own.or_else(|| {
        outcomes.iter().find_map(|r| match r {
            Err(RankFailure::Error(e)) => Some(e.to_string()),
            _ => None,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CommError;

    #[test]
    fn thread_ranks_run_every_rank() {
        let r = Ranks::threads(NodeMap::single_node(3));
        assert_eq!((r.count(), r.local(), r.launcher()), (3, 3, "threads"));
        let out = r.run(|c| Ok::<_, CommError>(c.rank() * 10));
        let values: Vec<usize> = out.into_iter().map(|o| o.unwrap()).collect();
        assert_eq!(values, [0, 10, 20]);
    }

    #[test]
    fn the_failing_rank_is_named_not_its_peers() {
        let r = Ranks::threads(NodeMap::single_node(3));
        let out = r.run(|c| {
            if c.rank() == 1 {
                return Err(CommError::PeerFailed {
                    rank: 9,
                    message: "own".into(),
                });
            }
            c.barrier()?;
            Ok(())
        });
        let is_peer = |e: &CommError| matches!(e, CommError::PeerFailed { rank: 1, .. });
        let f = first_failure(&out, is_peer).unwrap();
        assert!(f.starts_with("rank 1: "), "{f}");
        let none: Vec<RankOutcome<(), CommError>> = vec![Ok(())];
        assert_eq!(first_failure(&none, |_| false), None);
    }
}
