//! The sink seam: every run reports the same events, in the same order, to a fan-out of sinks.
//! A new output (the store, a progress display, a metrics endpoint) is one new [`Sink`]; the
//! workloads do not change.
//!
//! Order of one run: `RunStart`, then per phase `PhaseStart`, any number of `Interval`s and
//! `PhaseEnd`, with `Notice`s in between wherever they happen, and `RunEnd` last (also after a
//! failure: the phases that finished are in it). Events come from rank 0's process only; the
//! other ranks of an MPI job report to rank 0 through the workload's own reductions.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use measure::LiveBoard;

use crate::{Alert, Operation, PhaseResult, RunResult};

/// An output of a run. Called with the hub's lock held, from rank 0's thread or the live
/// sampler, never from the I/O path; a sink must not fail the run (report its own problems).
pub trait Sink: Send {
    fn event(&mut self, event: &Event<'_>);

    /// The live counters of the run's ranks in this process, given once when the session is
    /// made: for a sink that reads them from a thread of its own (a metrics endpoint). Most
    /// sinks ignore it.
    fn attach(&mut self, _board: &Arc<LiveBoard>) {}
}

/// What a run reports, as it happens.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// The run is about to start: the document holds the workload, its parameters, the ranks,
    /// the environment and the warnings of the checks before the run.
    RunStart(&'a RunResult),
    PhaseStart(&'a PhaseStart),
    /// A reading of the live counters while a phase runs.
    Interval(&'a IntervalSample),
    PhaseEnd(&'a PhaseEnd<'a>),
    Notice(&'a Notice<'a>),
    /// The run is over; the document is final (`finished`, `exit_code`, summaries).
    RunEnd(&'a RunEnd<'a>),
}

impl Event<'_> {
    /// The event's name in logs (`run-start`, `phase-end`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::RunStart(_) => "run-start",
            Event::PhaseStart(_) => "phase-start",
            Event::Interval(_) => "interval",
            Event::PhaseEnd(_) => "phase-end",
            Event::Notice(_) => "notice",
            Event::RunEnd(_) => "run-end",
        }
    }
}

/// A timed phase begins (after its opening barrier).
#[derive(Debug, Clone, PartialEq)]
pub struct PhaseStart {
    pub operation: Operation,
    pub iteration: u32,
    /// The IO500 phase it belongs to, in an IO500 run.
    pub io500_phase: Option<String>,
    /// Ranks taking part.
    pub ranks: usize,
    /// How much the phase will do, where its plan knows (for a progress display).
    pub expect: Expect,
}

/// What a phase will do if it runs to its end, over all ranks; `None` where the plan does not
/// know (a find's walk).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Expect {
    pub bytes: Option<u64>,
    pub ops: Option<u64>,
    /// The stonewall: the phase stops its operations after this many seconds.
    pub deadline_s: Option<f64>,
}

/// The live counters of this process's ranks, read while a phase runs.
#[derive(Debug, Clone, PartialEq)]
pub struct IntervalSample {
    /// Seconds since the run started (monotonic).
    pub elapsed_s: f64,
    /// Totals of the current phase so far, over this process's ranks.
    pub ops: u64,
    pub bytes: u64,
    pub errors: u64,
    /// Requests in flight now, over this process's ranks (queued engines; 0 otherwise).
    pub in_flight: u64,
    /// Samples delivered and emulated accelerator busy seconds so far, over this process's
    /// ranks (a training phase's; 0 otherwise).
    pub samples: u64,
    pub busy_s: f64,
    pub ranks_running: usize,
    pub ranks_done: usize,
    /// Operations per rank (this process's ranks, by local index): the slowest shows here.
    pub rank_ops: Vec<u64>,
}

/// A phase is over; `result` is already part of `run.phases`.
#[derive(Debug, Clone, Copy)]
pub struct PhaseEnd<'a> {
    pub result: &'a PhaseResult,
    pub detail: Detail<'a>,
    /// The document so far, this phase included.
    pub run: &'a RunResult,
}

/// The workload's own view of a finished phase, for outputs in its native format: its own
/// outcome type, which only that workload's sinks know and ask for by type
/// ([`Detail::get`]), so that a new workload adds no variant here.
#[derive(Clone, Copy)]
pub enum Detail<'a> {
    /// The workload's outcome of the phase (`ior::PhaseOutcome`, `mdtest::PhaseOutcome`, ...).
    Outcome(&'a dyn Any),
    /// A phase measured by another program (the IO500's external find script).
    External,
}

impl<'a> Detail<'a> {
    pub fn of<T: Any>(outcome: &'a T) -> Detail<'a> {
        Detail::Outcome(outcome)
    }

    /// The outcome, if it is a `T`.
    pub fn get<T: Any>(&self) -> Option<&'a T> {
        match self {
            Detail::Outcome(o) => o.downcast_ref(),
            Detail::External => None,
        }
    }
}

impl fmt::Debug for Detail<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Detail::Outcome(_) => f.write_str("Detail::Outcome(..)"),
            Detail::External => f.write_str("Detail::External"),
        }
    }
}

/// Something that happened between or inside phases.
#[derive(Debug, Clone, Copy)]
pub enum Notice<'a> {
    /// Something the user should know that belongs to no phase; also in `warnings`.
    Warning(&'a str),
    /// A warning with a stable id that belongs to no phase; also in `alerts`.
    Alert(&'a Alert),
    /// A workload's own step (an IOR repetition starts, mdtest's seeds are agreed, ...), for
    /// its own sinks ([`Notice::get`]) and the event log ([`WorkloadNotice`]).
    Workload(&'a dyn WorkloadNotice),
    /// The IO500's own text: result.txt, result_summary.txt and the console.
    Io500(&'a Io500Text<'a>),
    /// A mark put into the run from outside (`iogauge mark`); also in `marks`.
    Mark(&'a crate::Mark),
}

impl<'a> Notice<'a> {
    /// The workload's notice, if it is a `T`.
    pub fn get<T: Any>(&self) -> Option<&'a T> {
        match self {
            Notice::Workload(n) => n.as_any().downcast_ref(),
            _ => None,
        }
    }
}

/// A workload's own notice: its type is the workload's, its name and fields are what the
/// event log (`--events`) records of it.
pub trait WorkloadNotice: Any + fmt::Debug {
    /// The name in the event log: `ior-repetition`.
    fn kind(&self) -> &'static str;
    /// What the event log records besides the name, as a JSON object.
    fn fields(&self) -> serde_json::Value;
    fn as_any(&self) -> &dyn Any;
}

/// What the IO500 suite writes, in the order it writes it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Io500Text<'a> {
    /// A piece of result.txt.
    Result(&'a str),
    /// A piece of result_summary.txt, also shown on the console.
    Summary(&'a str),
    /// `; ERROR INVALID reason` in result.txt, `ERROR INVALID (context) reason` on the console.
    Invalid { context: &'a str, reason: &'a str },
    /// `; WARNING text` in result.txt, `WARNING text` on the console.
    Warning(&'a str),
}

/// The run is over.
#[derive(Debug, Clone, Copy)]
pub struct RunEnd<'a> {
    pub run: &'a RunResult,
    /// Why the run stopped early, if it did.
    pub failure: Option<&'a str>,
}

/// Several sinks as one, called in the order they were added.
#[derive(Default)]
pub struct Fanout {
    sinks: Vec<Box<dyn Sink>>,
}

impl Fanout {
    pub fn new(sinks: Vec<Box<dyn Sink>>) -> Fanout {
        Fanout { sinks }
    }

    pub fn push(&mut self, sink: Box<dyn Sink>) {
        self.sinks.push(sink);
    }

    pub fn is_empty(&self) -> bool {
        self.sinks.is_empty()
    }
}

impl Sink for Fanout {
    fn event(&mut self, event: &Event<'_>) {
        for s in &mut self.sinks {
            s.event(event);
        }
    }

    fn attach(&mut self, board: &Arc<LiveBoard>) {
        for s in &mut self.sinks {
            s.attach(board);
        }
    }
}

/// Implements [`WorkloadNotice`] for `$t` with the event log's name and fields.
#[macro_export]
macro_rules! workload_notice {
    ($t:ty, $kind:literal, |$n:ident| $fields:expr) => {
        impl $crate::sink::WorkloadNotice for $t {
            fn kind(&self) -> &'static str {
                $kind
            }
            fn fields(&self) -> serde_json::Value {
                let $n = self;
                $fields
            }
            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }
    };
}
