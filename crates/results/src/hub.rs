//! The hub of one run: the result document as it grows and the sinks that hear about it. Every
//! workload reports through it, so the document and the events always agree: a phase reported
//! here is in the document the next sink sees. Every phase goes through the same checks
//! (`checks`) on its way in, so each workload gets the warnings of `docs/warnings.md`.

use std::sync::{Mutex, MutexGuard};

use crate::alert::{Alert, Thresholds};
use crate::warnings::phase_alerts;
use crate::warnings_system::system_alerts;

use crate::sink::{
    Detail, Event, Fanout, IntervalSample, Notice, PhaseEnd, PhaseStart, RunEnd, Sink,
};
use crate::{Mark, PhaseResult, RunResult, SystemFigures};
use measure::now_ns;

pub struct Hub {
    doc: RunResult,
    sinks: Fanout,
    thresholds: Thresholds,
    /// Reads the system's side of each phase (`--no-system`: none).
    probe: Option<Box<dyn PhaseProbe>>,
    /// When the run and the open phase started (`measure::now_ns`), for the marks.
    run_start_ns: u64,
    phase_start_ns: Option<u64>,
    /// The other nodes' figures of the phase being gathered, and the ranks on this node
    /// (several nodes only), for the phase's end.
    nodes: Option<NodeFigures>,
}

/// What rank 0 gathered of the other processes for the phase's end: the ranks on its node,
/// the CPU seconds (user, system) of its node's other processes, the other nodes' figures.
pub struct NodeFigures {
    pub ranks: Vec<u64>,
    pub cpu: (f64, f64),
    pub others: Vec<SystemFigures>,
}

/// What the machine did while a phase ran: a snapshot at the phase's start event (before its
/// opening barrier), one per sampler interval, and one at its end (after its closing barrier
/// and the gather), all outside the timed window.
pub trait PhaseProbe: Send {
    fn phase_start(&mut self);
    /// Called by the sampler, about once a second while a phase runs.
    fn interval(&mut self);
    /// The figures since `phase_start`; `None` when no phase was started.
    fn phase_end(&mut self) -> Option<SystemFigures>;
}

impl Hub {
    /// `doc` holds what is known before the run (workload, parameters, ranks, environment).
    pub fn new(doc: RunResult, sinks: Fanout) -> Hub {
        Hub {
            doc,
            sinks,
            thresholds: Thresholds::default(),
            probe: None,
            run_start_ns: now_ns(),
            phase_start_ns: None,
            nodes: None,
        }
    }

    /// The system's side of each phase comes from `probe` (`--no-system`: never set).
    pub fn set_probe(&mut self, probe: Box<dyn PhaseProbe>) {
        self.probe = Some(probe);
    }

    /// On a node's first rank other than rank 0 (its own process): the probe's start, with no
    /// event (only rank 0 reports phases).
    pub fn probe_start(&mut self) {
        if let Some(probe) = &mut self.probe {
            probe.phase_start();
        }
    }

    /// On such a rank, after the phase: its node's figures.
    pub fn probe_end(&mut self) -> Option<SystemFigures> {
        self.probe.as_mut().and_then(|p| p.phase_end())
    }

    /// On rank 0 of a job of several processes, before the phase's end: what the others
    /// read.
    pub fn node_figures(&mut self, nodes: NodeFigures) {
        self.nodes = Some(nodes);
    }

    /// The thresholds of the checks (`--warn`); the defaults otherwise.
    pub fn set_thresholds(&mut self, t: Thresholds) {
        self.thresholds = t;
    }

    pub fn thresholds(&self) -> &Thresholds {
        &self.thresholds
    }

    pub fn doc(&self) -> &RunResult {
        &self.doc
    }

    /// For facts known only as the run goes (resolved seeds, summaries, IO500 scores).
    pub fn doc_mut(&mut self) -> &mut RunResult {
        &mut self.doc
    }

    pub fn start(&mut self) {
        self.run_start_ns = now_ns();
        self.sinks.event(&Event::RunStart(&self.doc));
    }

    /// The probe's snapshot first, so that the sinks' work falls inside the window it covers
    /// rather than the phase's.
    pub fn phase_start(&mut self, p: &PhaseStart) {
        if let Some(probe) = &mut self.probe {
            probe.phase_start();
        }
        self.nodes = None;
        self.phase_start_ns = Some(now_ns());
        self.sinks.event(&Event::PhaseStart(p));
    }

    pub fn interval(&mut self, s: &IntervalSample) {
        if let Some(probe) = &mut self.probe {
            probe.interval();
        }
        self.sinks.event(&Event::Interval(s));
    }

    /// A mark from outside (`iogauge mark`): stamped now, with the phase it falls in, kept in
    /// the document and told to the sinks; returns it as stored.
    pub fn mark(&mut self, text: &str) -> Mark {
        let now = now_ns();
        let phase = self.phase_start_ns.map(|start| {
            (
                self.doc.phases.len(),
                measure::secs(now.saturating_sub(start)),
            )
        });
        let mark = Mark {
            text: text.to_string(),
            time: measure::now_rfc3339(),
            elapsed_s: measure::secs(now.saturating_sub(self.run_start_ns)),
            phase: phase.map(|p| p.0),
            phase_t_s: phase.map(|p| p.1),
        };
        self.doc.marks.push(mark.clone());
        self.sinks.event(&Event::Notice(&Notice::Mark(&mark)));
        mark
    }

    /// Adds the phase to the document (its verification errors to the run's) with its rank
    /// spread and the alerts its checks call for, then tells the sinks. A phase that comes
    /// with alerts (an IO500 phase from its tool's run) keeps them, once each.
    pub fn phase_end(&mut self, mut result: PhaseResult, detail: Detail<'_>) {
        let mut system = self.probe.as_mut().and_then(|p| p.phase_end());
        self.phase_start_ns = None;
        if let (Some(s), Some(n)) = (&mut system, self.nodes.take()) {
            s.add_cpu(n.cpu.0, n.cpu.1);
            if !n.others.is_empty() {
                s.ranks = n.ranks;
                s.other_nodes = n.others;
            }
        }
        if result.system.is_none() {
            result.system = system;
        }
        if result.spread.is_none() && result.working_ranks().count() > 1 {
            result.spread = result.rank_spread();
        }
        let alerts = phase_alerts(&self.doc, &result, &self.thresholds)
            .into_iter()
            .chain(system_alerts(&result, &self.thresholds));
        for a in alerts {
            if !result.alerts.iter().any(|b| b.id == a.id) {
                result.alerts.push(a);
            }
        }
        self.doc.verification_errors += result.verification.as_ref().map_or(0, |v| v.errors);
        self.doc.phases.push(result);
        let result = self.doc.phases.last().expect("just pushed");
        let end = PhaseEnd {
            result,
            detail,
            run: &self.doc,
        };
        self.sinks.event(&Event::PhaseEnd(&end));
    }

    /// A warning for the document and the sinks.
    pub fn warning(&mut self, text: &str) {
        self.doc.warnings.push(text.to_string());
        self.sinks.event(&Event::Notice(&Notice::Warning(text)));
    }

    /// A run-level warning with a stable id, for the document and the sinks; dropped when
    /// `--warn` turned its id off, and kept once when raised again.
    pub fn alert(&mut self, a: Alert) {
        if !self.thresholds.wants(&a.id) || self.doc.alerts.contains(&a) {
            return;
        }
        self.doc.alerts.push(a);
        let a = self.doc.alerts.last().expect("just pushed");
        self.sinks.event(&Event::Notice(&Notice::Alert(a)));
    }

    /// Any other notice; warnings go through [`Hub::warning`] and [`Hub::alert`].
    pub fn notice(&mut self, n: &Notice<'_>) {
        match n {
            Notice::Warning(w) => self.warning(w),
            Notice::Alert(a) => self.alert((*a).clone()),
            _ => self.sinks.event(&Event::Notice(n)),
        }
    }

    /// Data errors found outside a timed phase (IOR's `-W` read-back).
    pub fn add_verification_errors(&mut self, n: u64) {
        self.doc.verification_errors += n;
    }

    /// Stamps the end time and exit code, keeps `failure` among the warnings and the reasons
    /// the results are invalid (with those the document shows, `RunResult::derive_invalid`),
    /// tells the sinks.
    pub fn end(&mut self, exit_code: i32, failure: Option<&str>) {
        self.doc.derive_invalid();
        if let Some(f) = failure {
            self.doc.warnings.push(f.to_string());
            self.doc.mark_invalid(format!("the run failed: {f}"));
        }
        self.doc.finish(exit_code);
        let end = RunEnd {
            run: &self.doc,
            failure,
        };
        self.sinks.event(&Event::RunEnd(&end));
    }

    pub fn into_doc(self) -> RunResult {
        self.doc
    }
}

/// A hub shared by the ranks of a process and the live sampler. Rank 0 reports through it; the
/// lock is taken between phases and by the sampler, never on the I/O path.
pub struct SharedHub(Mutex<Hub>);

impl SharedHub {
    pub fn new(hub: Hub) -> SharedHub {
        SharedHub(Mutex::new(hub))
    }

    /// The hub, even after a rank panicked while holding it (a sink's state is still usable).
    pub fn lock(&self) -> MutexGuard<'_, Hub> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn into_inner(self) -> Hub {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::Sink;
    use crate::{Operation, Parameters};
    use std::sync::Arc;

    /// Records event kinds and what the document held at each.
    struct Log(Arc<Mutex<Vec<String>>>);

    impl Sink for Log {
        fn event(&mut self, e: &Event<'_>) {
            let line = match e {
                Event::PhaseEnd(p) => {
                    format!("phase-end {} {}", p.result.operation, p.run.phases.len())
                }
                Event::RunEnd(r) => format!("run-end {} {}", r.run.exit_code, r.run.warnings.len()),
                other => other.kind().to_string(),
            };
            self.0.lock().unwrap().push(line);
        }
    }

    #[test]
    fn the_document_and_the_events_agree() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "x");
        let mut hub = Hub::new(doc, Fanout::new(vec![Box::new(Log(log.clone()))]));
        hub.start();
        hub.phase_start(&PhaseStart {
            operation: Operation::Write,
            iteration: 0,
            io500_phase: None,
            ranks: 1,
            expect: Default::default(),
        });
        let mut p = PhaseResult::new(Operation::Write, 0);
        p.verification = Some(crate::Verification {
            errors: 2,
            ..Default::default()
        });
        hub.phase_end(p, Detail::External);
        hub.warning("w");
        hub.end(1, Some("rank 0 failed"));
        assert_eq!(
            *log.lock().unwrap(),
            [
                "run-start",
                "phase-start",
                "phase-end write 1",
                "notice",
                "run-end 1 2"
            ]
        );
        let doc = hub.into_doc();
        assert_eq!(doc.verification_errors, 2);
        assert_eq!(doc.warnings, ["w", "rank 0 failed"]);
        assert!(!doc.finished.is_empty());
    }

    #[test]
    fn phases_get_their_spread_and_checks_once() {
        use crate::{Alert, AlertId, RankTimes};
        let doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "x");
        let mut hub = Hub::new(doc, Fanout::default());
        let mut t = Thresholds::default();
        t.set("read-same-node=off").unwrap();
        hub.set_thresholds(t);
        let mut p = PhaseResult::new(Operation::Write, 0);
        p.times.total_s = 0.5;
        p.per_rank = (0..4)
            .map(|r| RankTimes {
                rank: r,
                close_stop_s: [0.1, 0.2, 0.25, 9.0][r as usize],
                // The last did nothing (as an idle rank of mdtest's tree phases): left out.
                ops: u64::from(r < 3),
                ..Default::default()
            })
            .collect();
        // As an IO500 phase arrives from its tool's run: already checked once.
        p.alerts
            .push(Alert::new(AlertId::ShortPhase, "from the tool".into()));
        hub.phase_end(p, Detail::External);
        let got = &hub.doc().phases[0];
        assert_eq!(got.spread.unwrap().last_done_rank, 2);
        let ids: Vec<&str> = got.alerts.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["short-phase"]);
        assert_eq!(got.alerts[0].message, "from the tool");
        hub.alert(Alert::new(AlertId::ReadSameNode, "off".into()));
        let cached = Alert::new(AlertId::CacheDropLimited, "once".into());
        hub.alert(cached.clone());
        hub.notice(&Notice::Alert(&cached));
        assert_eq!(hub.doc().alerts, [cached]);
    }
}
