//! What the run's steps share (`run.rs` starts them, `run_generate.rs` and `run_epoch.rs` are
//! them): a rank's context and the training files rank 0 listed.

use std::path::PathBuf;

use engine::Engine;
use exec::Comm;
use plan::dlio::DlioParams;
use results::dlio::PhaseOutcome;

use crate::session::{Collected, Session};

/// What a rank carries through the run.
pub(crate) struct Ctx<'a> {
    pub p: &'a DlioParams,
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    pub session: &'a Session,
    pub phases: &'a Collected<PhaseOutcome>,
    /// This rank's slot on the session's live counters.
    pub slot: usize,
    /// This rank's host: CPUs and memory in bytes (summary.json's per-host lists).
    pub host: (u64, u64),
    /// `--keep`: a checkpoint run leaves its files.
    pub keep: bool,
}

impl Ctx<'_> {
    /// Rank 0 ends phase `o`: the document's `dlio` block becomes `block`, the sinks hear of
    /// the phase, and the run keeps it.
    pub fn end_phase(&self, o: PhaseOutcome, block: results::dlio::DlioResult) {
        let result = results::dlio::phase_result(&o);
        {
            let mut hub = self.session.hub();
            hub.doc_mut().dlio = Some(block);
            hub.phase_end(result, results::sink::Detail::of(&o));
        }
        self.phases.push(o);
    }
}

/// The training files in DLIO's order, the first `num_files_train`, and their sizes.
#[derive(Debug, Default)]
pub(crate) struct TrainFiles {
    pub paths: Vec<PathBuf>,
    pub sizes: Vec<u64>,
}
