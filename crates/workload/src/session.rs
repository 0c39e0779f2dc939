//! A run's session: the hub its events go through (the result document and the sinks), the
//! live counters of this process's ranks, and what every workload's `run` does around its
//! ranks: start the run, sample the live counters into `Interval` events while it runs, report
//! each phase from rank 0, end the run with its exit code, also when a rank failed.
//!
//! Rank 0's thread reports between phases, never inside a timed window; the sampler is a thread
//! of its own that reads the counters without a lock and takes the hub's lock once a second.
//! The other ranks of an MPI job report to rank 0 through the workload's reductions, so their
//! sessions hear nothing.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

use measure::{now_ns, LiveBoard, Recorder};
use results::sink::IntervalSample;
use results::{Fanout, Hub, OperationSummary, RunResult, SharedHub, Sink, Thresholds};

/// Width of the per-interval series buckets every workload records.
pub const INTERVAL_NS: u64 = 1_000_000_000;

pub struct Session {
    hub: Arc<SharedHub>,
    /// The hub whose probe reads the system in this session's phases: its own, or in a
    /// nested session `outer`'s (the IO500 suite's reads around each of its phases).
    system_hub: Arc<SharedHub>,
    interval_ns: u64,
    live: Arc<LiveBoard>,
    /// This session samples `live` while its workload runs (not a session nested in another,
    /// whose sampler covers it).
    samples: bool,
    /// `--drop-caches`: what to drop before each phase.
    drop_caches: DropCaches,
    /// The ranks this process runs (all of them with thread ranks, one under MPI).
    local_ranks: usize,
    /// The system figures are read (`--no-system` not given; not a nested session).
    system: bool,
    /// This process's CPU seconds (user, system) at the phase's start, on a rank whose
    /// process no probe reads (`crate::system::gather_nodes`).
    cpu_start: Mutex<Option<(f64, f64)>>,
}

/// `--drop-caches`: what to drop before each phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DropCaches {
    #[default]
    Off,
    /// The whole node's caches as root, else the files each read phase reads.
    Auto,
    /// The whole node's caches; needs root.
    System,
    /// The files each read phase reads (`fsync` + `POSIX_FADV_DONTNEED`), as any user.
    Files,
}

/// A run's policy besides its plan: the warnings' thresholds (`--warn`) and what to drop
/// before each phase (`--drop-caches`).
#[derive(Debug, Clone, Default)]
pub struct RunPolicy {
    pub thresholds: Thresholds,
    pub drop_caches: DropCaches,
    /// Read what the system did in each phase (CPU, devices, dirty pages; `--no-system`
    /// turns it off). Off by default, so that a bare session reads nothing.
    pub system: bool,
}

impl Session {
    /// `doc` holds what is known before the run: parameters, ranks, environment and the warnings
    /// of the checks. `sinks` are this process's outputs (none on MPI ranks other than 0);
    /// `local_ranks` the ranks this process runs (`exec::Ranks::local`).
    /// The sinks get the live counters here (`Sink::attach`).
    pub fn new(doc: RunResult, mut sinks: Fanout, local_ranks: usize) -> Session {
        let live = Arc::new(LiveBoard::new(local_ranks.max(1)));
        sinks.attach(&live);
        let hub = Arc::new(SharedHub::new(Hub::new(doc, sinks)));
        Session {
            hub: Arc::clone(&hub),
            system_hub: hub,
            interval_ns: INTERVAL_NS,
            live,
            samples: true,
            drop_caches: DropCaches::Off,
            local_ranks: local_ranks.max(1),
            system: false,
            cpu_start: Mutex::new(None),
        }
    }

    /// The same session with `policy` in force.
    pub fn with_policy(self, policy: RunPolicy) -> Session {
        {
            let mut hub = self.hub();
            if policy.system {
                let probe = crate::system::SystemProbe::new(hub.doc());
                hub.set_probe(Box::new(probe));
            }
            hub.set_thresholds(policy.thresholds);
        }
        Session {
            drop_caches: policy.drop_caches,
            system: policy.system,
            ..self
        }
    }

    /// What this run's thresholds and cache drops are (a nested session takes them over).
    pub fn policy(&self) -> RunPolicy {
        RunPolicy {
            thresholds: self.hub().thresholds().clone(),
            drop_caches: self.drop_caches,
            system: false,
        }
    }

    pub fn drop_caches(&self) -> DropCaches {
        self.drop_caches
    }

    /// Whether this rank reads its node's system figures for rank 0: the first rank of a node
    /// other than rank 0's, in a process of its own (under MPI; thread ranks share rank 0's
    /// process, which reads the node for all of them).
    pub fn reads_node_for_rank0(&self, comm: &dyn exec::Comm) -> bool {
        comm.rank() != 0 && self.multi_process(comm) && comm.node_map().first_on_node(comm.rank())
    }

    /// The job's ranks run in several processes (MPI).
    pub fn multi_process(&self, comm: &dyn exec::Comm) -> bool {
        self.local_ranks < comm.size()
    }

    pub fn system_on(&self) -> bool {
        self.system
    }

    /// Notes this process's CPU time at a phase's start (a rank no probe reads).
    pub fn note_cpu_start(&self) {
        *self.cpu_start.lock().unwrap_or_else(|e| e.into_inner()) = crate::system::cpu_now();
    }

    /// This process's CPU seconds since [`Session::note_cpu_start`], once.
    pub fn take_cpu_since_start(&self) -> Option<(f64, f64)> {
        let start = self
            .cpu_start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()?;
        let now = crate::system::cpu_now()?;
        Some(((now.0 - start.0).max(0.0), (now.1 - start.1).max(0.0)))
    }

    /// A session for one part of `outer`'s run (an IO500 phase's tool): its own document and
    /// sinks, `outer`'s live counters, which `outer` samples, and `outer`'s policy; the system
    /// is read by `outer`'s hub around the same phase, which also takes the other nodes'
    /// figures gathered in this session's phases.
    pub fn nested(doc: RunResult, sinks: Fanout, outer: &Session) -> Session {
        let hub = Arc::new(SharedHub::new(Hub::new(doc, sinks)));
        let nested = Session {
            hub,
            system_hub: Arc::clone(&outer.system_hub),
            interval_ns: outer.interval_ns,
            live: Arc::clone(&outer.live),
            samples: false,
            drop_caches: outer.drop_caches,
            local_ranks: outer.local_ranks,
            system: false,
            cpu_start: Mutex::new(None),
        }
        // `policy()` installs no probe: this session's hub reads nothing itself.
        .with_policy(outer.policy());
        Session {
            system: outer.system,
            ..nested
        }
    }

    /// The recorder of local rank `slot`'s next phase, published on the live counters, for
    /// `kinds` operation kinds. Allocates: call it before the timed window.
    pub fn recorder(&self, slot: usize, kinds: usize) -> Recorder {
        self.live.recorder(slot, kinds, self.interval_ns)
    }

    /// Runs `f` while a sampler thread turns the live counters into an `Interval` event every
    /// series interval in which some rank is in a phase.
    pub fn sampled<R>(&self, f: impl FnOnce() -> R) -> R {
        if !self.samples {
            return f();
        }
        let stop = (Mutex::new(false), Condvar::new());
        let start = now_ns();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let period = Duration::from_nanos(self.interval_ns);
                let mut stopped = stop.0.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    stopped = stop
                        .1
                        .wait_timeout(stopped, period)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                    if *stopped {
                        return;
                    }
                    self.sample(start);
                }
            });
            let r = f();
            *stop.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
            stop.1.notify_all();
            r
        })
    }

    /// Reads the counters with the hub held, so a sample falls between its phase's start and
    /// end events (a phase ends only after all its ranks stopped running).
    fn sample(&self, start: u64) {
        let mut hub = self.hub();
        let snap = self.live.snapshot();
        if snap.running == 0 {
            return;
        }
        let sample = IntervalSample {
            elapsed_s: measure::secs(now_ns().saturating_sub(start)),
            ops: snap.ops,
            bytes: snap.bytes,
            errors: snap.errors,
            in_flight: snap.in_flight,
            samples: snap.samples,
            busy_s: measure::secs(snap.busy_ns),
            ranks_running: snap.running,
            ranks_done: snap.done,
            rank_ops: snap.ranks.iter().map(|r| r.ops).collect(),
        };
        hub.interval(&sample);
    }

    pub fn hub(&self) -> MutexGuard<'_, Hub> {
        self.hub.lock()
    }

    pub fn interval_ns(&self) -> u64 {
        self.interval_ns
    }

    pub fn into_doc(self) -> RunResult {
        let Session {
            hub, system_hub, ..
        } = self;
        drop(system_hub);
        match Arc::try_unwrap(hub) {
            Ok(hub) => hub.into_inner().into_doc(),
            Err(shared) => shared.lock().doc().clone(),
        }
    }

    /// The hub that reads the system in this session's phases ([`Session::nested`]).
    pub fn system_hub(&self) -> MutexGuard<'_, Hub> {
        self.system_hub.lock()
    }

    /// Ends the run: the summaries into the document, the exit code (`128 + signal` when a
    /// signal stopped it, else 1 when a rank failed or data did not verify), the reasons its
    /// results are invalid, the `RunEnd` event; returns the final document with `outcomes`.
    pub fn finish<O>(
        &self,
        outcomes: Vec<O>,
        summary: Vec<OperationSummary>,
        errors: u64,
        failure: Option<String>,
        interrupted: Option<i32>,
    ) -> Finished<O> {
        let mut hub = self.hub();
        hub.doc_mut().summary = summary;
        let code = exit_code(failure.is_some(), errors, interrupted);
        if let Some(sig) = interrupted {
            let name = exec::interrupt::signal_name(sig);
            hub.doc_mut().mark_invalid(format!("interrupted by {name}"));
        }
        hub.end(i32::from(code), failure.as_deref());
        Finished {
            doc: hub.doc().clone(),
            outcomes,
            errors,
            failure,
            interrupted,
        }
    }
}

/// DESIGN.md's exit codes: `128 + signal` for an interrupted run, 1 when a rank failed or data
/// did not verify, else 0.
pub fn exit_code(failed: bool, errors: u64, interrupted: Option<i32>) -> u8 {
    match interrupted {
        Some(sig) => exec::interrupt::exit_code(sig),
        None => u8::from(failed || errors > 0),
    }
}

/// How a workload's run ended: the final document, the workload's own outcomes (those rank 0
/// reported before any failure), the data errors, the failure that ended it, if any, and the
/// signal that stopped it, if one did.
#[derive(Debug)]
pub struct Finished<O> {
    pub doc: RunResult,
    pub outcomes: Vec<O>,
    pub errors: u64,
    pub failure: Option<String>,
    pub interrupted: Option<i32>,
}

impl<O> Finished<O> {
    /// DESIGN.md's exit code for this ending ([`exit_code`]).
    pub fn exit_code(&self) -> u8 {
        exit_code(self.failure.is_some(), self.errors, self.interrupted)
    }

    /// The line a command prints on stderr when a signal stopped the run.
    pub fn interrupted_line(&self) -> Option<String> {
        self.interrupted.map(|sig| {
            format!(
                "iogauge: interrupted by {}: the phases that finished are kept, the cut one is \
                 marked interrupted, and the run is stored as invalid",
                exec::interrupt::signal_name(sig)
            )
        })
    }
}

/// What rank 0 collects as phases end, kept outside the ranks so a failure loses nothing.
pub struct Collected<O>(Mutex<Vec<O>>);

impl<O> Collected<O> {
    pub fn new() -> Self {
        Collected(Mutex::new(Vec::new()))
    }

    pub fn push(&self, o: O) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push(o);
    }

    pub fn into_inner(self) -> Vec<O> {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl<O> Default for Collected<O> {
    fn default() -> Self {
        Self::new()
    }
}
