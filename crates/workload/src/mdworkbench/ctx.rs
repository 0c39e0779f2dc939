//! What a rank carries through an md-workbench run: the plan, its ranks and engine, the
//! agreed data seed, and where rank 0 reports.

use engine::Engine;
use exec::Comm;
use plan::mdworkbench::MdWorkbenchParams;

use super::error::MdwbError;
use super::events::Events;

pub(crate) struct Ctx<'a> {
    pub params: &'a MdWorkbenchParams,
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    /// `-G`, or rank 0's clock as a C `int` (md-workbench's `time(NULL)`).
    pub seed: i64,
    pub(crate) events: &'a Events<'a>,
    /// This rank's slot on the session's live counters.
    pub(crate) slot: usize,
    /// The signal the ranks agreed stops the run (after a phase's end).
    pub(crate) stopped: std::cell::Cell<Option<i32>>,
    /// This rank's first I/O error: the rank stops its work there but still reaches every
    /// collective, so the ranks agree at the phase's end and clean up together.
    pub(crate) failed: std::cell::RefCell<Option<MdwbError>>,
    /// The ranks agreed that a rank failed: the phases left are skipped, and what the run
    /// made is removed (`run`).
    pub(crate) failing: std::cell::Cell<bool>,
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
    pub(crate) fn absorb(&self, r: Result<(), MdwbError>) -> Result<bool, MdwbError> {
        match r {
            Ok(()) => Ok(true),
            Err(e @ MdwbError::Io { .. }) => {
                let mut first = self.failed.borrow_mut();
                if first.is_none() {
                    *first = Some(e);
                }
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }
}
