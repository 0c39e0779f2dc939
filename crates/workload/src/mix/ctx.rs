//! What a rank carries through a mix run: the plan, its ranks and engine, and where rank 0
//! reports.

use std::cell::{Cell, RefCell};

use engine::Engine;
use exec::Comm;
use plan::mix::MixParams;

use super::error::MixError;
use super::events::Events;

pub(crate) struct Ctx<'a> {
    pub params: &'a MixParams,
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    pub(crate) events: &'a Events<'a>,
    /// This rank's slot on the session's live counters.
    pub(crate) slot: usize,
    /// The signal that stops the run, once the ranks agreed on it after a phase.
    pub(crate) stopped: Cell<Option<i32>>,
    /// This rank's first I/O error: the rank stops its work there but still reaches every
    /// collective, so the ranks agree at the phase's end and clean up together.
    pub(crate) failed: RefCell<Option<MixError>>,
    /// The ranks agreed that a rank failed: the steps left are skipped and the cleanup runs
    /// unreported.
    pub(crate) failing: Cell<bool>,
}

impl Ctx<'_> {
    pub(crate) fn rank(&self) -> u64 {
        self.comm.rank() as u64
    }

    pub(crate) fn ranks(&self) -> u64 {
        self.comm.size() as u64
    }

    /// Whether this rank met an I/O error (agreed or not yet).
    pub(crate) fn failed_here(&self) -> bool {
        self.failed.borrow().is_some()
    }

    /// Keeps this rank's first I/O error (`false`: the rank stops its work); any other error
    /// (a lost peer) is returned, as it breaks the run.
    pub(crate) fn absorb<T>(&self, r: Result<T, MixError>) -> Result<Option<T>, MixError> {
        match r {
            Ok(v) => Ok(Some(v)),
            Err(e @ MixError::Io { .. }) => {
                self.failed.borrow_mut().get_or_insert(e);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }
}
