//! What a rank carries through an md-workbench run: the plan, its ranks and engine, the
//! agreed data seed, and where rank 0 reports.

use engine::Engine;
use exec::Comm;
use plan::mdworkbench::MdWorkbenchParams;

use super::report::Report;

pub(crate) struct Ctx<'a> {
    pub params: &'a MdWorkbenchParams,
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    /// `-G`, or rank 0's clock as a C `int` (md-workbench's `time(NULL)`).
    pub seed: i64,
    pub(crate) report: &'a Report<'a>,
    /// This rank's slot on the session's live counters.
    pub(crate) slot: usize,
    /// The signal the ranks agreed stops the run (after a phase's end).
    pub(crate) stopped: std::cell::Cell<Option<i32>>,
}

impl Ctx<'_> {
    pub(crate) fn rank(&self) -> u64 {
        self.comm.rank() as u64
    }

    pub(crate) fn ranks(&self) -> u64 {
        self.comm.size() as u64
    }
}
