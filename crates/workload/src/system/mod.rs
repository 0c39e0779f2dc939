//! What the machine did while each phase ran (`docs/system.md`): the hub's [`PhaseProbe`],
//! which snapshots the system's counters at the phase's start event (before its opening
//! barrier), once per sampler interval, and at its end (after its closing barrier and the
//! gather), so nothing is read inside a timed window or on the I/O path. Rank 0's process
//! reads its own node, and under MPI every other node's first rank its own (`nodes.rs`);
//! `--no-system` installs no probe.

mod figures;
mod nodes;
mod snapshot;
mod target;

use results::system::SystemPoint;
use results::{PhaseProbe, RunResult, SystemFigures};

pub use figures::REQUEST_SIZE_SOURCE;
pub use nodes::gather_nodes;

/// This process's CPU seconds (user, system) now.
pub fn cpu_now() -> Option<(f64, f64)> {
    snapshot::rusage_self()
}
use figures::{figures, point, Node};
use snapshot::Snapshot;
use target::Target;

pub struct SystemProbe {
    node: Node,
    target: Target,
    start: Option<Snapshot>,
    last: Option<Snapshot>,
    /// Highest dirty and write-back bytes read since the phase started.
    peak: (u64, u64),
    points: Vec<SystemPoint>,
}

impl SystemProbe {
    /// The probe of the run `doc` describes (its host and target), resolving the target's
    /// devices now, before any phase.
    pub fn new(doc: &RunResult) -> SystemProbe {
        let env = &doc.environment;
        SystemProbe {
            node: Node {
                host: env.hostname.clone(),
                cpus_available: env.cpus,
            },
            target: Target::of(env.target.as_ref()),
            start: None,
            last: None,
            peak: (0, 0),
            points: Vec::new(),
        }
    }

    fn see(&mut self, s: &Snapshot) {
        if let Some(d) = s.dirty {
            self.peak = (self.peak.0.max(d.dirty), self.peak.1.max(d.writeback));
        }
    }
}

impl PhaseProbe for SystemProbe {
    fn phase_start(&mut self) {
        let s = Snapshot::full(&self.target);
        self.peak = (0, 0);
        self.points.clear();
        self.see(&s);
        self.last = Some(s.clone());
        self.start = Some(s);
    }

    fn interval(&mut self) {
        let (Some(start), Some(last)) = (&self.start, &self.last) else {
            return;
        };
        let s = Snapshot::light(&self.target);
        self.points.push(point(start.at_ns, last, &s));
        self.see(&s);
        self.last = Some(s);
        // Hours of a time-based phase stay bounded: neighbours merge as the series grows.
        if self.points.len() >= 2 * results::system::MAX_POINTS {
            results::system::bound_series(&mut self.points, results::system::MAX_POINTS);
        }
    }

    fn phase_end(&mut self) -> Option<SystemFigures> {
        let start = self.start.take()?;
        let end = Snapshot::full(&self.target);
        self.see(&end);
        let mut points = std::mem::take(&mut self.points);
        if let Some(last) = self.last.take() {
            if !points.is_empty() {
                points.push(point(start.at_ns, &last, &end));
            }
        }
        Some(figures(
            &self.node,
            &self.target,
            &start,
            &end,
            self.peak,
            points,
        ))
    }
}
