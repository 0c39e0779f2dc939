//! What the endpoint and the InfluxDB push report: per phase and operation the totals of the
//! finished phases plus the live readings of the current one, the current phase, and the ranks
//! by node and state. Pure bookkeeping, fed by the sink's events (phases), the board of this
//! process (its own ranks) and the pushes of other processes (MPI ranks).
//!
//! Counters never go back. A finished phase adds its reduced totals (the result document's
//! figures), or the last live reading where that was higher. Live readings cross phase
//! boundaries: a rank's reading counts for the current phase only once its generation (the
//! recorders its slot published) is above the one it had when the previous phase ended.

use std::collections::{BTreeMap, HashMap};

use measure::{LiveBoard, RankLive, RankState};
use serde::{Deserialize, Serialize};

use crate::buckets::Buckets;

/// One rank's live counters as read (locally, or pushed by its process).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub rank: u64,
    pub generation: u64,
    /// 0 idle, 1 running, 2 done.
    pub state: u8,
    pub ops: u64,
    pub bytes: u64,
    pub errors: u64,
    /// Requests in flight (queued engines); absent in a push from an older iogauge.
    #[serde(default)]
    pub in_flight: u64,
    /// Samples delivered and emulated accelerator busy ns (a training phase's); absent in a
    /// push from an older iogauge.
    #[serde(default)]
    pub samples: u64,
    #[serde(default)]
    pub busy_ns: u64,
    /// All the phase's operation kinds together.
    pub latency: Buckets,
}

impl Reading {
    pub fn from_live(rank: u64, r: &RankLive) -> Reading {
        let mut latency = Buckets::default();
        for h in &r.latency {
            latency.add(&Buckets::from_histogram(h));
        }
        Reading {
            rank,
            generation: r.generation,
            state: match r.state {
                RankState::Idle => 0,
                RankState::Running => 1,
                RankState::Done => 2,
            },
            ops: r.ops,
            bytes: r.bytes,
            errors: r.errors,
            in_flight: r.in_flight,
            samples: r.samples,
            busy_ns: r.busy_ns,
            latency,
        }
    }

    /// Every slot of `board`, slot i being rank `first + i`. Scans the histograms: for a
    /// reader's thread, never a rank's.
    pub fn from_board(board: &LiveBoard, first: u64) -> Vec<Reading> {
        let snap = board.snapshot_with_latency();
        let ranks = snap.ranks.iter().enumerate();
        ranks
            .map(|(i, r)| Reading::from_live(first + i as u64, r))
            .collect()
    }
}

/// A phase as the series label it: the IO500 phase or the operation, and the operation.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PhaseKey {
    pub phase: String,
    pub operation: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    pub ops: u64,
    pub bytes: u64,
    pub errors: u64,
    /// A training phase's samples and emulated accelerator busy ns (0 otherwise).
    pub samples: u64,
    pub busy_ns: u64,
    pub latency: Buckets,
}

impl Totals {
    fn add(&mut self, o: &Totals) {
        self.ops = self.ops.saturating_add(o.ops);
        self.bytes = self.bytes.saturating_add(o.bytes);
        self.errors = self.errors.saturating_add(o.errors);
        self.samples = self.samples.saturating_add(o.samples);
        self.busy_ns = self.busy_ns.saturating_add(o.busy_ns);
        self.latency.add(&o.latency);
    }

    fn raise_to(&mut self, o: &Totals) {
        self.ops = self.ops.max(o.ops);
        self.bytes = self.bytes.max(o.bytes);
        self.errors = self.errors.max(o.errors);
        self.samples = self.samples.max(o.samples);
        self.busy_ns = self.busy_ns.max(o.busy_ns);
        self.latency.raise_to(&o.latency);
    }

    fn add_reading(&mut self, r: &Reading) {
        self.add(&Totals {
            ops: r.ops,
            bytes: r.bytes,
            errors: r.errors,
            samples: r.samples,
            busy_ns: r.busy_ns,
            latency: r.latency.clone(),
        });
    }
}

/// The phase running now.
#[derive(Clone, Debug, PartialEq)]
pub struct Current {
    pub key: PhaseKey,
    pub iteration: u32,
    /// Unix time of its start, seconds.
    pub start_s: f64,
}

/// The run's identity: the info metric's labels and the InfluxDB tags.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunInfo {
    pub workload: String,
    pub host: String,
    pub version: String,
    pub run_id: String,
    /// `--label KEY=VALUE`, in order.
    pub labels: Vec<(String, String)>,
}

/// A mark put into the run (`iogauge mark`), as the exports show it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MarkPoint {
    /// 1 for the run's first mark: tells apart two marks of the same text or time.
    pub index: usize,
    pub text: String,
    /// Unix time it was received, seconds.
    pub time_s: f64,
    /// Seconds since the run started.
    pub elapsed_s: f64,
}

/// Everything a scrape or a push shows, at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct View {
    pub info: RunInfo,
    /// Per phase: finished repetitions plus the live reading of a running one.
    pub phases: BTreeMap<PhaseKey, Totals>,
    pub current: Option<Current>,
    /// Start (unix seconds) of each phase's latest repetition.
    pub starts: BTreeMap<PhaseKey, f64>,
    /// Ranks per node, as `[idle, running, done]`.
    pub ranks: BTreeMap<usize, [u64; 3]>,
    /// Requests in flight now over the running ranks (queued engines; 0 otherwise).
    pub in_flight: u64,
    /// A training phase running now: its emulated accelerator busy time over the ranks' time
    /// since it started (0..1, the live AU); `None` otherwise.
    pub accelerator_utilization: Option<f64>,
    /// The run has ended.
    pub finished: bool,
    /// The run's marks so far, in order.
    pub marks: Vec<MarkPoint>,
}

#[derive(Debug, Default)]
pub struct Figures {
    pub info: RunInfo,
    current: Option<Current>,
    done: BTreeMap<PhaseKey, Totals>,
    starts: BTreeMap<PhaseKey, f64>,
    /// The live part shown so far for the current phase (counters do not go back).
    shown: Totals,
    /// Each rank's generation when the last phase ended.
    baseline: HashMap<u64, u64>,
    /// A phase has ended: a rank with no baseline may hold an old phase's figures.
    ended_any: bool,
    /// Latest reading per rank pushed from other processes.
    remote: HashMap<u64, Reading>,
    /// Node of each rank (index); ranks past the end are on node 0.
    node_of: Vec<usize>,
    finished: bool,
    marks: Vec<MarkPoint>,
}

impl Figures {
    pub fn new(info: RunInfo) -> Figures {
        Figures {
            info,
            ..Figures::default()
        }
    }

    /// The run starts: its identity and where its ranks are.
    pub fn run_start(&mut self, info: RunInfo, node_of: Vec<usize>) {
        let labels = std::mem::take(&mut self.info.labels);
        self.info = RunInfo { labels, ..info };
        self.node_of = node_of;
    }

    pub fn phase_start(&mut self, key: PhaseKey, iteration: u32, start_s: f64) {
        self.starts.insert(key.clone(), start_s);
        self.current = Some(Current {
            key,
            iteration,
            start_s,
        });
        self.shown = Totals::default();
    }

    /// A phase ended with the reduced totals `exact` (errors are not among them: the live
    /// counts stand). `local` are this process's readings now.
    pub fn phase_end(&mut self, key: PhaseKey, mut exact: Totals, local: &[Reading]) {
        self.live(local);
        exact.raise_to(&self.shown);
        self.done.entry(key).or_default().add(&exact);
        for r in local.iter().chain(self.remote.values()) {
            self.baseline.insert(r.rank, r.generation);
        }
        self.ended_any = true;
        self.current = None;
        self.shown = Totals::default();
    }

    /// A mark came at Unix time `time_s`, `elapsed_s` into the run.
    pub fn mark(&mut self, text: &str, time_s: f64, elapsed_s: f64) {
        self.marks.push(MarkPoint {
            index: self.marks.len() + 1,
            text: text.to_string(),
            time_s,
            elapsed_s,
        });
    }

    pub fn run_end(&mut self) {
        self.finished = true;
        self.current = None;
    }

    /// A reading pushed by another process; an older generation than the one held is dropped.
    pub fn push(&mut self, r: Reading) {
        match self.remote.get(&r.rank) {
            Some(old) if old.generation > r.generation => {}
            _ => {
                self.remote.insert(r.rank, r);
            }
        }
    }

    fn counts(&self, r: &Reading) -> bool {
        match self.baseline.get(&r.rank) {
            Some(&g) => r.generation > g,
            // Unknown at the last phase end: only a running rank is surely in this phase.
            None => !self.ended_any || r.state == 1,
        }
    }

    /// The live part of the current phase, never below what was shown before.
    fn live(&mut self, local: &[Reading]) -> Totals {
        let mut live = Totals::default();
        if self.current.is_some() {
            for r in local.iter().chain(self.remote.values()) {
                if self.counts(r) {
                    live.add_reading(r);
                }
            }
        }
        self.shown.raise_to(&live);
        self.shown.clone()
    }

    /// What to show now, with `local` this process's readings.
    pub fn view(&mut self, local: &[Reading]) -> View {
        let now_s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64());
        self.view_at(local, now_s)
    }

    /// As [`view`](Self::view) at Unix time `now_s`.
    pub fn view_at(&mut self, local: &[Reading], now_s: f64) -> View {
        let live = self.live(local);
        let accelerator_utilization = self.utilization(local, &live, now_s);
        let mut phases = self.done.clone();
        if let Some(c) = &self.current {
            phases.entry(c.key.clone()).or_default().add(&live);
        }
        let mut ranks: BTreeMap<usize, [u64; 3]> = BTreeMap::new();
        // Local readings win over a push for the same rank (thread ranks push nothing).
        let mut seen: HashMap<u64, &Reading> = self.remote.iter().map(|(k, v)| (*k, v)).collect();
        for r in local {
            seen.insert(r.rank, r);
        }
        let mut in_flight = 0u64;
        for r in seen.values() {
            let node = self.node_of.get(r.rank as usize).copied().unwrap_or(0);
            ranks.entry(node).or_default()[usize::from(r.state.min(2))] += 1;
            if r.state == 1 {
                in_flight = in_flight.saturating_add(r.in_flight);
            }
        }
        View {
            info: self.info.clone(),
            phases,
            current: self.current.clone(),
            starts: self.starts.clone(),
            ranks,
            in_flight,
            accelerator_utilization,
            finished: self.finished,
            marks: self.marks.clone(),
        }
    }

    /// The live AU of the current phase: busy seconds over (seconds since its start x the
    /// ranks in it that count work). Not clamped: a rank counts a step's compute once it is
    /// over and starts after the phase's start event, so a reading above 1 would be a defect.
    fn utilization(&self, local: &[Reading], live: &Totals, now_s: f64) -> Option<f64> {
        let c = self.current.as_ref()?;
        let ranks = local
            .iter()
            .chain(self.remote.values())
            .filter(|r| self.counts(r) && r.samples > 0)
            .count();
        let elapsed = now_s - c.start_s;
        (live.samples > 0 && ranks > 0 && elapsed > 0.0)
            .then(|| live.busy_ns as f64 / 1e9 / elapsed / ranks as f64)
    }
}

/// Node of every rank for `count` ranks on `nodes` nodes, as `exec::NodeMap::new` places
/// them (block: the first nodes get one rank more; round-robin: rank r on node r % nodes).
pub fn node_of(count: usize, nodes: usize, round_robin: bool) -> Vec<usize> {
    let count = count.max(1);
    let nodes = nodes.clamp(1, count);
    if round_robin {
        return (0..count).map(|r| r % nodes).collect();
    }
    let (base, extra) = (count / nodes, count % nodes);
    (0..nodes)
        .flat_map(|n| std::iter::repeat_n(n, base + usize::from(n < extra)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(p: &str) -> PhaseKey {
        PhaseKey {
            phase: p.into(),
            operation: p.into(),
        }
    }

    fn reading(rank: u64, generation: u64, state: u8, ops: u64) -> Reading {
        Reading {
            rank,
            generation,
            state,
            ops,
            bytes: ops * 10,
            errors: 0,
            in_flight: 0,
            samples: 0,
            busy_ns: 0,
            latency: Buckets::default(),
        }
    }

    #[test]
    fn live_then_exact_and_never_back() {
        let mut f = Figures::default();
        f.phase_start(key("write"), 0, 100.0);
        let v = f.view(&[reading(0, 1, 1, 5)]);
        assert_eq!(v.phases[&key("write")].ops, 5);
        assert_eq!(v.current.as_ref().unwrap().start_s, 100.0);
        // A remote rank pushes; a stale push of an older generation is dropped.
        f.push(reading(1, 1, 1, 7));
        f.push(reading(1, 0, 2, 99));
        let v = f.view(&[reading(0, 1, 1, 6)]);
        assert_eq!(v.phases[&key("write")].ops, 13);
        // A reading that went back (a sampling race) does not lower the counter.
        let v = f.view(&[reading(0, 1, 1, 1)]);
        assert_eq!(v.phases[&key("write")].ops, 13);
        let exact = Totals {
            ops: 20,
            bytes: 200,
            ..Totals::default()
        };
        f.phase_end(key("write"), exact, &[reading(0, 1, 2, 10)]);
        let v = f.view(&[reading(0, 1, 2, 10)]);
        assert_eq!((v.phases[&key("write")].ops, v.current), (20, None));
        // The next phase: old generations do not count, new ones do.
        f.phase_start(key("read"), 0, 200.0);
        f.push(reading(2, 3, 2, 50)); // unseen at the phase end and done: ambiguous, left out
        let v = f.view(&[reading(0, 1, 2, 10)]);
        assert_eq!(v.phases[&key("read")].ops, 0);
        assert_eq!(v.phases[&key("write")].ops, 20);
        f.push(reading(1, 2, 1, 4));
        let v = f.view(&[reading(0, 2, 1, 3)]);
        assert_eq!(v.phases[&key("read")].ops, 7);
        assert_eq!(v.starts[&key("write")], 100.0);
        // Exact totals below what was shown: the shown figure stands.
        f.phase_end(key("read"), Totals::default(), &[]);
        assert_eq!(f.view(&[]).phases[&key("read")].ops, 7);
        // A repetition adds to the same series.
        f.phase_start(key("write"), 1, 300.0);
        f.phase_end(
            key("write"),
            Totals {
                ops: 1,
                ..Totals::default()
            },
            &[],
        );
        assert_eq!(f.view(&[]).phases[&key("write")].ops, 21);
    }

    #[test]
    fn training_samples_and_live_au() {
        let mut f = Figures::default();
        f.phase_start(key("dlio-epoch"), 1, 100.0);
        let train = |rank, samples, busy_s: f64| Reading {
            samples,
            busy_ns: (busy_s * 1e9) as u64,
            ..reading(rank, 1, 1, samples / 10)
        };
        // Two ranks, 4 s in, 3 s and 2 s of compute: AU 62.5 %.
        f.push(train(1, 200, 2.0));
        let v = f.view_at(&[train(0, 300, 3.0)], 104.0);
        let t = &v.phases[&key("dlio-epoch")];
        assert_eq!((t.samples, t.busy_ns), (500, 5_000_000_000));
        assert!((v.accelerator_utilization.unwrap() - 0.625).abs() < 1e-9);
        // Phases that count no samples show none.
        let mut g = Figures::default();
        g.phase_start(key("read"), 0, 100.0);
        assert_eq!(
            g.view_at(&[reading(0, 1, 1, 5)], 101.0)
                .accelerator_utilization,
            None
        );
        // Exact totals at the end; no AU between phases.
        let exact = Totals {
            ops: 50,
            samples: 520,
            busy_ns: 5_200_000_000,
            ..Totals::default()
        };
        f.phase_end(key("dlio-epoch"), exact, &[train(0, 300, 3.0)]);
        let v = f.view_at(&[], 105.0);
        assert_eq!(v.phases[&key("dlio-epoch")].samples, 520);
        assert_eq!(v.accelerator_utilization, None);
    }

    #[test]
    fn ranks_by_node_and_state() {
        let mut f = Figures::default();
        f.run_start(RunInfo::default(), node_of(4, 2, false));
        f.push(reading(2, 1, 1, 0));
        f.push(reading(3, 1, 2, 0));
        let v = f.view(&[reading(0, 1, 2, 0), reading(1, 0, 0, 0)]);
        assert_eq!(v.ranks[&0], [1, 0, 1]);
        assert_eq!(v.ranks[&1], [0, 1, 1]);
    }

    #[test]
    fn node_maps() {
        assert_eq!(node_of(5, 2, false), [0, 0, 0, 1, 1]);
        assert_eq!(node_of(4, 2, true), [0, 1, 0, 1]);
        assert_eq!(node_of(3, 9, false), [0, 1, 2]);
    }
}
