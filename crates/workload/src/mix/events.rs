//! How rank 0 reports a mix run as it goes: every phase becomes an event of the session (the
//! result document and the sinks), and the document's `mix` block (the steps, the knee, why
//! the ramp stopped) is brought up to date before each step's event, so a document written
//! after any phase holds it.

use plan::mix::LatencyLimit;
use results::mix::{knee, phase_result, step_record, MixResult};
use results::sink::Detail;
use results::{Operation, PageCache};

use super::PhaseOutcome;
use crate::session::{Collected, Session};

pub(crate) struct Events<'a> {
    pub session: &'a Session,
    pub phases: &'a Collected<PhaseOutcome>,
    pub limit: LatencyLimit,
}

impl Events<'_> {
    /// `cut`: a signal stopped the phase; a cut step stays out of the `mix` block's steps.
    /// `page_cache`: what it held before the phase, or what `--drop-caches` did.
    pub fn phase(&self, o: PhaseOutcome, page_cache: Option<PageCache>, cut: bool) {
        let mut result = phase_result(&o);
        result.page_cache = page_cache;
        result.interrupted = cut;
        let mut hub = self.session.hub();
        if o.phase == Operation::MixStep && !cut {
            let mix = hub.doc_mut().mix.get_or_insert_with(|| MixResult {
                limit: self.limit,
                ..MixResult::default()
            });
            mix.steps.push(step_record(&o));
            mix.knee = knee(&mix.steps).map(|k| mix.steps[k].clone());
        }
        hub.phase_end(result, Detail::of(&o));
        drop(hub);
        self.phases.push(o);
    }

    /// Why the ramp ended, into the document's `mix` block.
    pub fn stopped(&self, why: String) {
        let mut hub = self.session.hub();
        let mix = hub.doc_mut().mix.get_or_insert_with(|| MixResult {
            limit: self.limit,
            ..MixResult::default()
        });
        mix.stopped = why;
    }

    pub fn warning(&self, text: &str) {
        self.session.hub().warning(text);
    }
}
