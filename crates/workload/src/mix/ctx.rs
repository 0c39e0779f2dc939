//! What a rank carries through a mix run: the plan, its ranks and engine, and where rank 0
//! reports.

use std::cell::Cell;

use engine::Engine;
use exec::Comm;
use plan::mix::MixParams;

use super::report::Report;

pub(crate) struct Ctx<'a> {
    pub params: &'a MixParams,
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    pub(crate) report: &'a Report<'a>,
    /// This rank's slot on the session's live counters.
    pub(crate) slot: usize,
    /// The signal that stops the run, once the ranks agreed on it after a phase.
    pub(crate) stopped: Cell<Option<i32>>,
}

impl Ctx<'_> {
    pub(crate) fn rank(&self) -> u64 {
        self.comm.rank() as u64
    }

    pub(crate) fn ranks(&self) -> u64 {
        self.comm.size() as u64
    }
}
