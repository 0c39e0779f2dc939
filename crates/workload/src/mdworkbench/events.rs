//! How rank 0 reports an md-workbench run as it goes: every step becomes an event of the
//! session (the result document and the sinks), and every phase's outcome is kept.

use results::mdworkbench::phase_result;
use results::sink::Detail;
use results::{PageCache, Parameters};

use super::outcome::PhaseOutcome;
use crate::session::{Collected, Session};

pub(crate) struct Events<'a> {
    pub session: &'a Session,
    pub phases: &'a Collected<PhaseOutcome>,
}

impl Events<'_> {
    /// The seed and the start are agreed; the document keeps them (a later `-2 -X` run needs
    /// the seed).
    pub fn begin(&self, data_seed: i64, start: u64) {
        let mut hub = self.session.hub();
        if let Parameters::MdWorkbench(m) = &mut hub.doc_mut().parameters {
            m.resolved.data_seed = Some(data_seed);
            m.resolved.start_position = start;
        }
    }

    /// A phase, with the page cache before it and whether a signal cut it short.
    pub fn phase(&self, o: PhaseOutcome, page_cache: Option<PageCache>, interrupted: bool) {
        let mut result = phase_result(&o);
        result.page_cache = page_cache;
        result.interrupted = interrupted;
        self.session.hub().phase_end(result, Detail::of(&o));
        self.phases.push(o);
    }

    pub fn warning(&self, text: &str) {
        self.session.hub().warning(text);
    }
}
