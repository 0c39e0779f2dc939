//! The result model: one serde schema for JSON, the store and reports. Documented field by field
//! in `docs/results.md`; bump [`SCHEMA_VERSION`] on any incompatible change.

use crate::alert::Alert;
use crate::cache::PageCache;
use crate::environment::{self, Environment};
use crate::io500::Io500Result;
use crate::params::Parameters;
use crate::spread::RankSpread;
use crate::Operation;
use measure::{compact_utc, now_rfc3339, rfc3339_utc};
use measure::{HistogramSummary, SeriesSummary, Stats};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::SystemTime;

pub const SCHEMA_VERSION: u32 = 2;
const MIB: f64 = 1_048_576.0;

/// One run of one workload.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct RunResult {
    pub schema_version: u32,
    pub tool: Tool,
    pub run_id: String,
    pub command_line: Vec<String>,
    /// RFC 3339 UTC.
    pub started: String,
    /// RFC 3339 UTC; empty while the run has not finished (an interrupted run).
    pub finished: String,
    pub environment: Environment,
    pub ranks: Ranks,
    /// `"workload"` (`"ior"`, `"mdtest"`, `"find"`, `"io500"`) and its resolved `"parameters"`.
    #[serde(flatten)]
    pub parameters: Parameters,
    pub phases: Vec<PhaseResult>,
    pub summary: Vec<OperationSummary>,
    pub warnings: Vec<String>,
    pub verification_errors: u64,
    pub exit_code: i32,
    /// The IO500's scores and validity (workload io500 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io500: Option<Io500Result>,
    /// Run-level warnings with a stable id and their evidence (`docs/warnings.md`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alerts: Vec<Alert>,
    /// The steps of the rising load and the knee (workload mix only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mix: Option<crate::mix::MixResult>,
    /// Per training epoch AU, samples/s and DLIO's MB/s, and DLIO's training metrics (workload
    /// dlio only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dlio: Option<crate::dlio::DlioResult>,
    /// Why the results are not valid (an interrupted phase, data that failed verification, a
    /// failed run, an IO500 rule): such a run is stored and shown with these reasons, and is
    /// never a baseline for `compare --fail-if-slower`. Empty for a valid run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invalid: Vec<String>,
    /// Marks put into the run from outside while it ran (`iogauge mark`), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<crate::mark::Mark>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct Ranks {
    pub count: u64,
    pub nodes: u64,
    pub tasks_per_node: u64,
    /// "block" | "round-robin"
    pub placement: String,
    /// "threads" | "mpi"
    pub launcher: String,
}

impl Default for Ranks {
    fn default() -> Self {
        Ranks {
            count: 1,
            nodes: 1,
            tasks_per_node: 1,
            placement: "block".to_string(),
            launcher: "threads".to_string(),
        }
    }
}

/// One phase (operation) of one iteration, aggregated over all ranks.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct PhaseResult {
    pub operation: Operation,
    /// The IO500 phase this is (`ior-easy-write`, ...), in an IO500 run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io500_phase: Option<String>,
    pub iteration: u32,
    /// Bytes actually moved by all ranks.
    pub bytes: u64,
    pub ops: u64,
    pub times: PhaseTimes,
    /// bytes / times.total_s / 2^20
    pub bandwidth_mib_s: f64,
    pub iops: f64,
    pub latency: HistogramSummary,
    pub series: SeriesSummary,
    /// Per-rank timestamps, seconds relative to the phase start (the earliest open start).
    pub per_rank: Vec<RankTimes>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stonewall: Option<Stonewall>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verification: Option<Verification>,
    /// Counts of the workload's own (find: "found", "directories", "lstat_calls", ...), totals
    /// over all ranks; on an object store the requests per method ("requests.GET", ...) and
    /// "requests.throttled".
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, u64>,
    /// The latency of each kind of operation, where a phase times several (md-workbench:
    /// "create", "read", "stat", "delete", "mkdir", "rmdir"); `latency` merges them. On an
    /// object store also "ttfb": the GETs' times to first byte, which `latency` leaves out.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub latency_by_kind: BTreeMap<String, HistogramSummary>,
    pub warnings: Vec<String>,
    /// What the page cache held at the start (read phases) and what `--drop-caches` did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page_cache: Option<PageCache>,
    /// Write phases: whether the timed window includes flushing the data to storage (fsync);
    /// absent where the engine writes around the page cache or moves no data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flushed: Option<bool>,
    /// First done, last done and the median rank (two or more ranks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<RankSpread>,
    /// Warnings about this phase with a stable id and their evidence (`docs/warnings.md`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alerts: Vec<Alert>,
    /// A signal (SIGINT, SIGTERM) stopped the ranks before the phase's end: its figures cover
    /// only the part that ran.
    #[serde(default, skip_serializing_if = "is_false")]
    pub interrupted: bool,
    /// A queued engine's: the depth each rank kept and the requests in flight on average;
    /// absent for one transfer at a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue: Option<QueueFigures>,
    /// The MPI-IO hints in effect on rank 0's file of the phase, as the MPI library reports
    /// them (`MPI_File_get_info`: ROMIO's or OMPIO's names); `-a MPIIO` only.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub mpi_hints: BTreeMap<String, String>,
    /// What the machine did while the phase ran: CPU, process I/O, network, block devices,
    /// dirty pages, NFS/Lustre client counters (`docs/system.md`); absent with `--no-system`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<crate::system::SystemFigures>,
}

/// Many requests in flight: what a phase on a queued engine kept in flight. The latencies of
/// such a phase run from each request's submission to its completion (fio's `clat`).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, JsonSchema)]
pub struct QueueFigures {
    /// Requests each rank may have in flight (`--iouring.depth`, `--aio.max-pending`, ...).
    pub depth: u64,
    /// The time integral of the requests in flight over all ranks, divided by the phase's
    /// transfer window (`times.xfer_s`): how many were in flight on average.
    pub in_flight_mean: f64,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Durations in seconds of the phase's sub-windows across all ranks (earliest start to latest
/// stop of each), and the whole window.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct PhaseTimes {
    pub open_s: f64,
    pub xfer_s: f64,
    pub close_s: f64,
    pub total_s: f64,
}

impl PhaseTimes {
    /// A phase that is one window of `seconds`, with no open or close apart from it.
    pub fn window(seconds: f64) -> Self {
        PhaseTimes {
            open_s: 0.0,
            xfer_s: seconds,
            close_s: 0.0,
            total_s: seconds,
        }
    }
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default, JsonSchema)]
pub struct RankTimes {
    pub rank: u64,
    pub open_start_s: f64,
    pub open_stop_s: f64,
    pub xfer_start_s: f64,
    pub xfer_stop_s: f64,
    pub close_start_s: f64,
    pub close_stop_s: f64,
    pub bytes: u64,
    pub ops: u64,
    /// This rank's share of `PhaseResult::counters`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, u64>,
}

impl RankTimes {
    /// A rank of a metadata phase: operations from `start` to `stop`, the closing barrier
    /// passed at `end` (seconds from the phase start); open and close are instants.
    pub fn bracket(rank: u64, start: f64, stop: f64, end: f64, bytes: u64, ops: u64) -> Self {
        RankTimes {
            rank,
            open_start_s: start,
            open_stop_s: start,
            xfer_start_s: start,
            xfer_stop_s: stop,
            close_start_s: stop,
            close_stop_s: end,
            bytes,
            ops,
            counters: BTreeMap::new(),
        }
    }
}

/// What a deadline (`-D`) cut short.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct Stonewall {
    pub deadline_s: f64,
    /// Time from the phase start until the ranks agreed to stop.
    pub time_s: f64,
    pub pairs_min: u64,
    pub pairs_max: u64,
    pub bytes_min: u64,
    pub bytes_mean: f64,
    /// Whether ranks continued to `pairs_max` after the deadline.
    pub wear_out: bool,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default, JsonSchema)]
pub struct Verification {
    pub errors: u64,
    pub checked_ops: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_error: Option<ErrorLocation>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct ErrorLocation {
    pub file: String,
    pub offset: u64,
    pub rank: u64,
}

/// One operation across iterations (IOR's "Summary of all tests").
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct OperationSummary {
    pub operation: Operation,
    pub bw_mib_s: MinMaxMean,
    pub ops_per_s: MinMaxMean,
    pub mean_time_s: f64,
    pub iterations: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stonewall_time_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stonewall_mib_s: Option<f64>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Default, JsonSchema)]
pub struct MinMaxMean {
    pub max: f64,
    pub min: f64,
    pub mean: f64,
    pub stddev: f64,
}

impl MinMaxMean {
    /// With the population standard deviation (IOR's summary).
    pub fn population(values: &[f64]) -> Self {
        let s = Stats::of(values);
        Self::with_sd(&s, s.stddev_population)
    }

    /// With the sample standard deviation (mdtest's summary).
    pub fn sample(values: &[f64]) -> Self {
        let s = Stats::of(values);
        Self::with_sd(&s, s.stddev_sample)
    }

    fn with_sd(s: &Stats, stddev: f64) -> Self {
        MinMaxMean {
            max: s.max,
            min: s.min,
            mean: s.mean,
            stddev,
        }
    }
}

/// MiB/s (2^20 bytes); 0 for an empty or non-positive window, so no NaN reaches the JSON.
pub fn mib_per_s(bytes: u64, seconds: f64) -> f64 {
    per_s(bytes as f64 / MIB, seconds)
}

/// `amount / seconds`, 0 for an empty or non-positive window.
pub fn per_s(amount: f64, seconds: f64) -> f64 {
    if seconds > 0.0 && amount.is_finite() {
        amount / seconds
    } else {
        0.0
    }
}

impl PhaseResult {
    /// A phase with no data yet; the workload fills it in.
    pub fn new(operation: Operation, iteration: u32) -> Self {
        PhaseResult {
            operation,
            io500_phase: None,
            iteration,
            bytes: 0,
            ops: 0,
            times: PhaseTimes::default(),
            bandwidth_mib_s: 0.0,
            iops: 0.0,
            latency: HistogramSummary::default(),
            series: SeriesSummary::default(),
            per_rank: Vec::new(),
            stonewall: None,
            verification: None,
            counters: BTreeMap::new(),
            latency_by_kind: BTreeMap::new(),
            warnings: Vec::new(),
            page_cache: None,
            flushed: None,
            spread: None,
            alerts: Vec::new(),
            interrupted: false,
            queue: None,
            mpi_hints: BTreeMap::new(),
            system: None,
        }
    }
}

impl PhaseResult {
    /// How the ranks that did work finished, each at its `close_stop_s` (a rank with no
    /// operations, as the idle ones of mdtest's tree phases, finished nothing); `None` when
    /// none did.
    pub fn rank_spread(&self) -> Option<RankSpread> {
        RankSpread::of(self.working_ranks().map(|r| (r.close_stop_s, r.rank)))
    }

    /// The ranks that did at least one operation.
    pub fn working_ranks(&self) -> impl Iterator<Item = &RankTimes> {
        self.per_rank.iter().filter(|r| r.ops > 0)
    }
}

impl RunResult {
    /// The run reached its end: it has an end time, or (an IO500 run read from files that
    /// carry no time, such as a result_summary.txt alone) its `[SCORE]`.
    pub fn reached_end(&self) -> bool {
        !self.finished.is_empty() || self.io500.as_ref().is_some_and(|io| io.score.is_some())
    }

    /// A run that starts now: tool, run id, start time and host facts filled in, nothing
    /// measured yet. `version` is the binary's version, which this crate cannot see.
    pub fn new(parameters: Parameters, command_line: Vec<String>, version: &str) -> Self {
        let now = SystemTime::now();
        let workload = parameters.workload();
        RunResult {
            schema_version: SCHEMA_VERSION,
            tool: Tool {
                name: "iogauge".to_string(),
                version: version.to_string(),
            },
            run_id: format!("{workload}-{}-{}", compact_utc(now), std::process::id()),
            command_line,
            started: rfc3339_utc(now),
            finished: String::new(),
            environment: environment::capture(None),
            ranks: Ranks::default(),
            parameters,
            phases: Vec::new(),
            summary: Vec::new(),
            warnings: Vec::new(),
            verification_errors: 0,
            exit_code: 0,
            io500: None,
            alerts: Vec::new(),
            mix: None,
            dlio: None,
            invalid: Vec::new(),
            marks: Vec::new(),
        }
    }

    /// The workload's name (`"ior"`, ...).
    pub fn workload(&self) -> &'static str {
        self.parameters.workload()
    }

    /// Stamps the end time and exit code.
    pub fn finish(&mut self, exit_code: i32) {
        self.finished = now_rfc3339();
        self.exit_code = exit_code;
    }

    /// Whether the results hold by every rule this run knows (`invalid` is empty).
    pub fn is_valid(&self) -> bool {
        self.invalid.is_empty()
    }

    /// Adds a reason the results are invalid, once.
    pub fn mark_invalid(&mut self, reason: impl Into<String>) {
        let reason = reason.into();
        if !self.invalid.contains(&reason) {
            self.invalid.push(reason);
        }
    }

    /// Adds the reasons the document itself shows ([`RunResult::shown_invalid`]).
    pub fn derive_invalid(&mut self) {
        for r in self.shown_invalid() {
            self.mark_invalid(r);
        }
    }

    /// Every reason the results are invalid: those recorded, then those the document itself
    /// shows (a document stored before `invalid` existed has only these).
    pub fn invalid_reasons(&self) -> Vec<String> {
        let mut all = self.invalid.clone();
        for r in self.shown_invalid() {
            if !all.contains(&r) {
                all.push(r);
            }
        }
        all
    }

    /// The reasons the document itself shows: interrupted phases, data that did not verify,
    /// an IO500 score the rules make invalid. (A failed run's reason is its failure, which
    /// the hub adds at the end.)
    fn shown_invalid(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .phases
            .iter()
            .filter(|p| p.interrupted)
            .map(|p| {
                let name = p
                    .io500_phase
                    .clone()
                    .unwrap_or_else(|| p.operation.to_string());
                format!("interrupted during {name} (iteration {})", p.iteration)
            })
            .collect();
        if self.verification_errors > 0 {
            let n = self.verification_errors;
            out.push(format!("data verification failed ({n} errors)"));
        }
        let Some(io500) = &self.io500 else {
            return out;
        };
        if io500.score.as_ref().is_some_and(|s| !s.valid) {
            let reasons: Vec<String> = io500
                .run_invalid
                .iter()
                .cloned()
                .chain(
                    io500
                        .phases
                        .iter()
                        .filter(|p| !p.valid)
                        .map(|p| format!("{}: {}", p.phase, p.invalid.join("; "))),
                )
                .collect();
            out.push(if reasons.is_empty() {
                "the IO500 score is invalid".to_string()
            } else {
                format!("the IO500 score is invalid: {}", reasons.join("; "))
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ior_params() -> Parameters {
        Parameters::Ior(plan::ior::IorParams::default())
    }

    #[test]
    fn new_fills_identity() {
        let r = RunResult::new(ior_params(), vec!["ior".into(), "-w".into()], "0.1.0");
        assert_eq!(r.schema_version, SCHEMA_VERSION);
        assert_eq!(r.tool.name, "iogauge");
        assert_eq!(r.tool.version, "0.1.0");
        assert!(r.run_id.starts_with("ior-20"), "{}", r.run_id);
        assert!(r.run_id.ends_with(&format!("Z-{}", std::process::id())));
        assert!(
            r.started.ends_with('Z') && r.started.len() == 24,
            "{}",
            r.started
        );
        assert_eq!(r.finished, "");
        assert_eq!(r.ranks.launcher, "threads");
    }

    #[test]
    fn finish_stamps_time() {
        let mut r = RunResult::new(ior_params(), vec![], "x");
        r.finish(1);
        assert_eq!(r.exit_code, 1);
        assert!(r.finished >= r.started);
    }

    #[test]
    fn rates_never_nan() {
        assert_eq!(mib_per_s(3 * 1_048_576, 2.0), 1.5);
        assert_eq!(mib_per_s(1, 0.0), 0.0);
        assert_eq!(per_s(10.0, -1.0), 0.0);
        assert_eq!(per_s(f64::NAN, 1.0), 0.0);
    }

    #[test]
    fn min_max_mean_variants() {
        let v = [2329.01, 1683.19, 1576.55];
        let p = MinMaxMean::population(&v);
        assert_eq!((p.max, p.min), (2329.01, 1576.55));
        assert!((p.stddev - 332.44).abs() < 0.005);
        assert!(MinMaxMean::sample(&v).stddev > p.stddev);
        assert_eq!(MinMaxMean::population(&[]), MinMaxMean::default());
    }

    #[test]
    fn optional_fields_are_omitted() {
        let v = serde_json::to_value(PhaseResult::new(Operation::Write, 0)).unwrap();
        assert!(v.get("stonewall").is_none() && v.get("verification").is_none());
        assert_eq!(v["latency"]["unit"], "ns");
    }
}
