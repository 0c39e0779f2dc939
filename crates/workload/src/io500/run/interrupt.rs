//! A signal during the IO500 (SIGINT, SIGTERM): the phase running is cut short by its tool
//! (ior, mdtest, find and md-workbench poll the stop flag), recorded as interrupted, and the
//! phases after it do not run, except the delete phases of what the run wrote: they run
//! untimed and unrecorded, through their tool's own interrupt path (the stop flag set again
//! before each, so the tool removes every name it planned and skips the missing ones), and
//! the clean-up (`Layout::cleanup`) removes the rest. The phases that finished stay in
//! result.txt, the summary, the JSON and the store.

use super::{Driver, PhaseRun, Record, Text};
use crate::io500::argv::{Built, Where};
use crate::io500::layout::Wrote;
use crate::io500::phases::{Family, How, MdStep, MdwbStep, Phase};
use crate::io500::plan::Planned;
use crate::session::Session;

/// Where the run stands with respect to a signal.
#[derive(Debug, Default)]
pub(super) struct Stop {
    /// The signal that stopped the run, once a phase was cut (or a signal came between phases).
    pub signal: Option<i32>,
    /// The phase it cut.
    cut: Option<&'static str>,
    /// md-workbench made its data sets (extended mode): its delete phase runs after a signal.
    mdworkbench_made: bool,
    /// The phase at hand is a delete phase with something to remove.
    wanted: bool,
}

impl Stop {
    /// Before `phase`: `true` when the run is stopping (the phase does not run as usual). A
    /// signal that came between phases stops the run here.
    pub fn before(&mut self, phase: &'static Phase, wrote: &Wrote) -> bool {
        if self.signal.is_none() {
            self.signal = exec::interrupt::signal();
            if self.signal.is_none() {
                return false;
            }
            exec::interrupt::resume();
        }
        self.wanted = match phase.how {
            How::Mdtest(Family::Easy, MdStep::Delete) => wrote.mdtest_easy,
            How::Mdtest(Family::Hard, MdStep::Delete) => wrote.mdtest_hard,
            How::MdWorkbench(MdwbStep::Delete) => self.mdworkbench_made,
            _ => false,
        };
        true
    }

    /// After a phase ran: a cut phase is recorded as interrupted (and invalid) and stops the
    /// run, as does a signal after its end; the stop flag is cleared for what follows.
    pub fn after(&mut self, rec: &mut Record, ran: Option<&PhaseRun>, out: &mut Text) {
        if rec.ran && rec.phase.how == How::MdWorkbench(MdwbStep::Create) {
            self.mdworkbench_made = true;
        }
        if let Some(sig) = ran.and_then(|r| r.interrupted) {
            let reason = format!("interrupted by {}", exec::interrupt::signal_name(sig));
            out.invalid(rec.phase.name, &reason);
            rec.invalid.push(reason);
            rec.valid = false;
            self.signal = Some(sig);
            self.cut = Some(rec.phase.name);
        } else {
            // A signal after the tool's phase ended: the phase is whole; the run stops here.
            self.signal = exec::interrupt::signal();
        }
        if self.signal.is_some() {
            exec::interrupt::resume();
        }
    }

    /// A delete phase after the signal, when it has something to remove: its tool runs with
    /// the stop flag set, so it takes its interrupt path (remove every planned name, skip the
    /// missing ones, report nothing). Failures are left to the clean-up's warnings.
    pub fn clean_up(
        &mut self,
        phase: &'static Phase,
        built: Option<(&Built, Option<&Planned>)>,
        w: &Where,
        driver: &mut dyn Driver,
        session: &Session,
    ) {
        let (true, Some(sig), Some((built, Some(planned)))) = (self.wanted, self.signal, built)
        else {
            return;
        };
        exec::interrupt::request(sig);
        let _ = driver.run(phase, built, planned, &w.result, session);
        exec::interrupt::resume();
    }

    /// The run's invalid reason and the summary's line, once a signal stopped it.
    pub fn reason(&self) -> Option<String> {
        let name = exec::interrupt::signal_name(self.signal?);
        Some(match self.cut {
            Some(phase) => format!(
                "interrupted by {name} during {phase}: the phases after it did not run; the \
                 data was removed"
            ),
            None => format!(
                "interrupted by {name} between phases: the phases after it did not run; the \
                 data was removed"
            ),
        })
    }
}
