//! A run's session: the hub its events go through (the result document and the sinks), and what
//! every workload's `run` does around its ranks: start the run, report each phase from rank 0,
//! end the run with its exit code, also when a rank failed.
//!
//! Rank 0's thread reports between phases, never inside a timed window; the other ranks of an
//! MPI job report to rank 0 through the workload's reductions, so their sessions hear nothing.

use std::sync::{Mutex, MutexGuard};

use results::{Fanout, Hub, RunResult, SharedHub};

/// Width of the per-interval series buckets every workload records.
pub const INTERVAL_NS: u64 = 1_000_000_000;

pub struct Session {
    hub: SharedHub,
    interval_ns: u64,
}

impl Session {
    /// `doc` holds what is known before the run: parameters, ranks, environment and the warnings
    /// of the checks. `sinks` are this process's outputs (none on MPI ranks other than 0).
    pub fn new(doc: RunResult, sinks: Fanout) -> Session {
        Session {
            hub: SharedHub::new(Hub::new(doc, sinks)),
            interval_ns: INTERVAL_NS,
        }
    }

    pub fn hub(&self) -> MutexGuard<'_, Hub> {
        self.hub.lock()
    }

    pub fn interval_ns(&self) -> u64 {
        self.interval_ns
    }

    pub fn into_doc(self) -> RunResult {
        self.hub.into_inner().into_doc()
    }
}

/// How a workload's run ended: the final document, the workload's own outcomes (those rank 0
/// reported before any failure), the data errors and the failure that ended it, if any.
#[derive(Debug)]
pub struct Finished<O> {
    pub doc: RunResult,
    pub outcomes: Vec<O>,
    pub errors: u64,
    pub failure: Option<String>,
}

impl<O> Finished<O> {
    /// 1 when a rank failed or data did not verify, else 0 (DESIGN.md's exit codes).
    pub fn exit_code(&self) -> u8 {
        u8::from(self.failure.is_some() || self.errors > 0)
    }
}

/// What rank 0 collects as phases end, kept outside the ranks so a failure loses nothing.
pub struct Collected<O>(Mutex<Vec<O>>);

impl<O> Collected<O> {
    pub fn new() -> Self {
        Collected(Mutex::new(Vec::new()))
    }

    pub fn push(&self, o: O) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(o);
    }

    pub fn into_inner(self) -> Vec<O> {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl<O> Default for Collected<O> {
    fn default() -> Self {
        Self::new()
    }
}
