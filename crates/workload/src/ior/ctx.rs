//! What a rank carries through an IOR run: the plan, its ranks, its engine, and the
//! directories it created.

use std::cell::RefCell;
use std::path::PathBuf;

use engine::Engine;
use exec::Comm;

use crate::ior::cleanup::Made;
use crate::ior::events::Events;
use crate::ior::IorParams;

/// Everything a rank needs to run the benchmark.
pub(crate) struct Ctx<'a> {
    pub params: &'a IorParams,
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    /// Width of the per-interval series buckets.
    pub interval_ns: u64,
    /// Directories this rank created (`-u`), removed again with the files.
    pub(crate) created_dirs: RefCell<Vec<PathBuf>>,
    /// Where rank 0 reports; every rank's recorder comes from its session.
    pub(crate) events: &'a Events<'a>,
    /// This rank's slot on the session's live counters.
    pub(crate) slot: usize,
    /// What the process's ranks made, for the clean-up after a failure.
    pub(crate) made: &'a Made,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(
        params: &'a IorParams,
        comm: &'a dyn Comm,
        engine: &'a dyn Engine,
        events: &'a Events<'a>,
        slot: usize,
        made: &'a Made,
    ) -> Self {
        Ctx {
            params,
            comm,
            engine,
            interval_ns: events.session.interval_ns(),
            created_dirs: RefCell::new(Vec::new()),
            events,
            slot,
            made,
        }
    }
}
