//! How rank 0 reports an IOR run as it goes: every step becomes an event of the session (the
//! result document and the sinks), and every timed phase's outcome is kept for the summary.

use results::ior::{phase_result, verification};
use results::sink::{Detail, Notice};
use results::{Alert, PageCache};

use crate::ior::outcome::{CheckOutcome, PhaseOutcome};
use crate::session::{Collected, Session};

/// What only the run knows about a phase.
#[derive(Debug, Default)]
pub(crate) struct PhaseFacts {
    pub page_cache: Option<PageCache>,
    pub flushed: Option<bool>,
    pub interrupted: bool,
}

pub(crate) struct Events<'a> {
    pub session: &'a Session,
    pub phases: &'a Collected<PhaseOutcome>,
}

impl Events<'_> {
    pub fn repetition(&self, iteration: u32, seed: i64) {
        let n = results::ior::Repetition { iteration, seed };
        self.session.hub().notice(&Notice::Workload(&n));
    }

    /// A timed phase, with the facts only the run knows: the page cache before it, whether a
    /// write's window included the flush, and whether a signal cut it short.
    pub fn phase(&self, o: PhaseOutcome, facts: PhaseFacts) {
        let mut r = phase_result(&o);
        r.page_cache = facts.page_cache;
        r.flushed = facts.flushed;
        r.interrupted = facts.interrupted;
        self.session.hub().phase_end(r, Detail::of(&o));
        self.phases.push(o);
    }

    /// The untimed `-W` read-back: its errors count, and the first bad byte is named.
    pub fn check(&self, c: &CheckOutcome) {
        let v = verification(&c.verification);
        let mut hub = self.session.hub();
        hub.add_verification_errors(v.errors);
        if let Some(e) = v.first_error {
            hub.doc_mut().warnings.push(format!(
                "write check (-W) iteration {}: {} bad transfer(s), first at {} offset {} (rank {})",
                c.iteration, v.errors, e.file, e.offset, e.rank
            ));
        }
        hub.notice(&Notice::Workload(c));
    }

    pub fn remove(&self, iteration: u32, time_s: f64) {
        let n = results::ior::Removed { iteration, time_s };
        self.session.hub().notice(&Notice::Workload(&n));
    }

    pub fn warning(&self, text: &str) {
        self.session.hub().warning(text);
    }

    pub fn alert(&self, a: Alert) {
        self.session.hub().alert(a);
    }
}
