//! What a rank carries through an mdtest run: the plan, the item layout, its ranks and engine,
//! and the seeds all ranks agreed on.

use std::path::PathBuf;

use engine::Engine;
use exec::Comm;

use super::error::MdError;
use super::events::Events;
use super::naming::{effective_stride, test_dir_name};
use super::tree::Shape;
use plan::mdtest::MdtestParams;

/// Everything a rank needs to run the benchmark.
pub(crate) struct Ctx<'a> {
    pub params: &'a MdtestParams,
    pub shape: Shape,
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    /// Width of the per-interval series buckets.
    pub interval_ns: u64,
    /// Items per task read from the stonewall status file (runs without a create phase).
    pub status_items: Option<u64>,
    /// `-N` after mdtest's tasks-per-node rule.
    pub stride: u64,
    /// Where rank 0 reports; every rank's recorder comes from its session.
    pub(crate) events: &'a Events<'a>,
    /// This rank's slot on the session's live counters.
    pub(crate) slot: usize,
    /// The signal the ranks agreed stops the run: from then on only the remove phases run,
    /// untimed and unreported, to take away what the run made.
    pub(crate) stopped: std::cell::Cell<Option<i32>>,
    /// This rank's first I/O error: the rank stops its work there but still reaches every
    /// collective, so the ranks agree at the phase's end and clean up together.
    failed: std::cell::RefCell<Option<MdError>>,
    /// The ranks agreed that a rank failed: as after a signal, only the remove phases run.
    pub(crate) failing: std::cell::Cell<bool>,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(
        params: &'a MdtestParams,
        shape: Shape,
        comm: &'a dyn Comm,
        engine: &'a dyn Engine,
        status_items: Option<u64>,
        events: &'a Events<'a>,
        slot: usize,
    ) -> Self {
        let map = comm.node_map();
        let stride = effective_stride(
            params.nstride,
            map.num_nodes(),
            map.tasks_on_node0(),
            map.is_block_mapped(),
        );
        Ctx {
            params,
            shape,
            comm,
            engine,
            interval_ns: events.session.interval_ns(),
            status_items,
            stride,
            events,
            slot,
            stopped: std::cell::Cell::new(None),
            failed: std::cell::RefCell::new(None),
            failing: std::cell::Cell::new(false),
        }
    }

    /// A signal or a rank's failure stopped the run: the phases left are the clean-up's
    /// remove phases.
    pub(crate) fn cleaning(&self) -> bool {
        self.stopped.get().is_some() || self.failing.get()
    }

    /// Whether this rank met an I/O error (agreed or not yet).
    pub(crate) fn failed_here(&self) -> bool {
        self.failed.borrow().is_some()
    }

    /// This rank's first I/O error, taken out for the final report.
    pub(crate) fn take_failure(&self) -> Option<MdError> {
        self.failed.borrow_mut().take()
    }

    /// An operation's result where an I/O error does not end the rank at once: the first one
    /// is kept and `Ok(None)` returned, so the rank still reaches the collectives and the
    /// clean-up; in the clean-up a name that is not there was never made (`Ok(None)` too).
    /// Only a broken run (a lost peer, a bad report) is returned as an error.
    pub(crate) fn absorb<T>(&self, r: Result<T, MdError>) -> Result<Option<T>, MdError> {
        match r {
            Ok(v) => Ok(Some(v)),
            Err(e) if self.cleaning() && e.not_found() => Ok(None),
            Err(e @ MdError::Io { .. }) => {
                let mut first = self.failed.borrow_mut();
                if first.is_none() {
                    *first = Some(e);
                }
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    pub(crate) fn rank(&self) -> u64 {
        self.comm.rank() as u64
    }

    pub(crate) fn tasks(&self) -> u64 {
        self.comm.size() as u64
    }

    /// `<-d of root_rank>/test-dir.<iteration>-<loop>`.
    pub(crate) fn test_dir(&self, root_rank: u64, iteration: u32, dir_loop: u64) -> PathBuf {
        self.params
            .dir_of(root_rank)
            .join(test_dir_name(iteration, dir_loop))
    }

    /// This rank creates and removes the `-d` directory and the test directories of its path
    /// (mdtest: ranks below the number of paths).
    pub(crate) fn owns_path(&self) -> bool {
        self.rank() < self.params.dirs.len() as u64
    }

    pub(crate) fn items_per_rank(&self) -> u64 {
        // validate() refused counts that overflow.
        self.shape.items_per_rank().unwrap_or(u64::MAX)
    }
}

/// Seeds agreed by all ranks.
pub(crate) struct Seeds {
    /// `-G`, or rank 0's clock as a C `int` (mdtest's `time(NULL)`).
    pub data: i64,
    /// `-R`: the shared seed plus this rank, as mdtest.
    pub random: Option<u64>,
}
