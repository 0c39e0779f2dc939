//! How rank 0 reports an mdtest run as it goes: every step becomes an event of the session
//! (the result document and the sinks), and every phase's outcome is kept.

use results::mdtest::phase_result;
use results::sink::{Detail, Notice};
use results::{PageCache, Parameters};

use super::outcome::{PhaseOutcome, StonewallOutcome};
use crate::session::{Collected, Session};

pub(crate) struct Events<'a> {
    pub session: &'a Session,
    pub phases: &'a Collected<PhaseOutcome>,
    /// `-w`, for the bytes figures of the document.
    pub write_bytes: u64,
}

impl Events<'_> {
    /// The seeds are agreed; the document keeps the ones a later run needs (`-G` for a `-X`
    /// check, `--random-seed` for the same order).
    pub fn begin(&self, data_seed: i64, random_seed: Option<u64>, items_from_status: Option<u64>) {
        let mut hub = self.session.hub();
        if let Parameters::Mdtest(m) = &mut hub.doc_mut().parameters {
            m.resolved.data_seed = Some(data_seed);
            m.resolved.random_seed_task0 = random_seed;
        }
        hub.notice(&Notice::Workload(&results::mdtest::Begin {
            data_seed,
            random_seed,
            items_from_status,
        }));
    }

    pub fn stonewall(&self, s: &StonewallOutcome) {
        self.session.hub().notice(&Notice::Workload(s));
    }

    /// A timed phase, with the page cache before it and whether a create's window included
    /// the flush.
    pub fn phase(
        &self,
        o: PhaseOutcome,
        page_cache: Option<PageCache>,
        flushed: Option<bool>,
        interrupted: bool,
    ) {
        let mut result = phase_result(&o, self.write_bytes);
        result.page_cache = page_cache;
        result.flushed = flushed;
        result.interrupted = interrupted;
        self.session.hub().phase_end(result, Detail::of(&o));
        self.phases.push(o);
    }

    pub fn warning(&self, text: &str) {
        self.session.hub().warning(text);
    }
}
