//! The `iogauge md-workbench` option table: every accepted option (md-workbench's letter and
//! long name, `md-workbench.c`'s `options`) and every md-workbench option that is refused by
//! name. The parser and the help text read these tables; nothing else lists options. Engine
//! options (`--dummy.delay-create`) are the engines' own, those marked for metadata workloads.

use crate::optparse::{refuse, Spec, Table};
pub use crate::optparse::{Arg, Origin, Refused};

pub use crate::optparse::help::Section as Group;

pub const GROUPS: [(Group, &str); 7] = [
    (Group::Phases, "Phases and the run-info file"),
    (Group::Layout, "Data sets, objects and names"),
    (Group::Data, "Object data and verification"),
    (Group::Time, "Iterations, stonewall and waiting"),
    (Group::Output, "Output"),
    (Group::Backend, "Back end (-a) and back-end module options"),
    (Group::Iogauge, "Ranks and iogauge's own options"),
];

/// What an option sets; the parser maps each to a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Precreate,
    Benchmark,
    Cleanup,
    RunInfoFile,
    StartItem,
    ReadOnly,
    IgnoreErrors,
    Dir,
    Offset,
    ObjectsPerSet,
    PrecreatePerSet,
    DataSets,
    ObjectSize,
    Seed,
    DataPacket,
    VerifyRead,
    Iterations,
    Stonewall,
    WearOut,
    Waiting,
    AdaptiveWaiting,
    Quiet,
    ProcessReports,
    DetailedStats,
    Verbose,
    Api,
    Tasks,
    FakeNodes,
    FakePlacement,
    Json,
    DryRun,
    Help,
}

/// One accepted option.
pub type OptSpec = Spec<Target, Group>;

/// A row of [`OPTIONS`]: md-workbench has no `-O` keys (its `-O` is the rank offset).
use crate::optparse::opt as o;

use Arg::{Flag, Value};
use Group as G;
use Origin::{Differs, Iogauge as New, Tool as Mdwb};
use Target as T;

#[rustfmt::skip]
pub const OPTIONS: &[OptSpec] = &[
    o('1', "run-precreate", Flag, T::Precreate, G::Phases, Mdwb, "", "", "precreate phase: the data sets and -P objects in each"),
    o('2', "run-benchmark", Flag, T::Benchmark, G::Phases, Mdwb, "", "", "benchmark phase: -R iterations of stat, read, delete and create"),
    o('3', "run-cleanup", Flag, T::Cleanup, G::Phases, Mdwb, "", "", "cleanup phase (none of -1 -2 -3: all three)"),
    o(' ', "run-info-file", Value, T::RunInfoFile, G::Phases, Mdwb, "FILE", "md-workbench.status", "a run without the cleanup stores its position here (pos: N); a run without the precreate starts there"),
    o(' ', "start-item", Value, T::StartItem, G::Phases, Differs, "N", "", "start at object index N instead of the run-info file's position"),
    o(' ', "read-only", Flag, T::ReadOnly, G::Phases, Mdwb, "", "", "the benchmark only stats and reads (no delete, no create); probably with -2"),
    o(' ', "ignore-precreate-errors", Flag, T::IgnoreErrors, G::Phases, Differs, "", "", "count failed data-set and object creates as errors and go on (an earlier run's data set is reused)"),
    o('o', "", Value, T::Dir, G::Layout, Mdwb, "DIR", "./out", "output directory (only its last component is created); data sets are DIR/<rank>_<set>"),
    o('D', "data-sets", Value, T::DataSets, G::Layout, Mdwb, "N", "10", "data sets (directories) per rank"),
    o('P', "precreate-per-set", Value, T::PrecreatePerSet, G::Layout, Mdwb, "N", "3000", "objects precreated per data set"),
    o('I', "obj-per-proc", Value, T::ObjectsPerSet, G::Layout, Mdwb, "N", "1000", "objects per data set and benchmark iteration"),
    o('O', "offset", Value, T::Offset, G::Layout, Mdwb, "N", "1", "rank distance between the writer of an object and its reader (put them on different nodes)"),
    o('S', "object-size", Value, T::ObjectSize, G::Data, Mdwb, "BYTES", "3901", "object (file) size"),
    o('G', "", Value, T::Seed, G::Data, Mdwb, "N", "-1", "seed of the data pattern (-1: rank 0's clock)"),
    o(' ', "dataPacketType", Value, T::DataPacket, G::Data, Differs, "TYPE", "incompressible", "object contents: timestamp, offset, incompressible or random (first letter counts)"),
    o('X', "verify-read", Flag, T::VerifyRead, G::Data, Mdwb, "", "", "check the data read (a later -2 run needs the writing run's -G)"),
    o('R', "iterations", Value, T::Iterations, G::Time, Mdwb, "N", "3", "benchmark iterations"),
    o('w', "stonewall-timer", Value, T::Stonewall, G::Time, Differs, "SECONDS", "0", "stop each benchmark iteration after this time (checked after each group of -D objects)"),
    o('W', "stonewall-wear-out", Flag, T::WearOut, G::Time, Mdwb, "", "", "on the stonewall every rank continues to the largest count (needed with -w on several ranks)"),
    o('t', "waiting-time", Value, T::Waiting, G::Time, Mdwb, "FACTOR", "0", "after each operation wait FACTOR times its latency (1.0 is 100%)"),
    o('T', "adaptive-waiting", Flag, T::AdaptiveWaiting, G::Time, Mdwb, "", "", "after each iteration seven more with waiting factors 0.0625 to 4"),
    o('q', "quiet", Flag, T::Quiet, G::Output, Mdwb, "", "", "avoid irrelevant printing"),
    o(' ', "process-reports", Flag, T::ProcessReports, G::Output, Mdwb, "", "", "a line per rank after every phase"),
    o(' ', "print-detailed-stats", Flag, T::DetailedStats, G::Output, Mdwb, "", "", "tab-separated counts and times per phase instead of the lines"),
    o('v', "verbose", Flag, T::Verbose, G::Output, Differs, "", "", "verbosity (repeatable): md-workbench's per-rank and per-operation lines are not printed"),
    o('a', "api", Value, T::Api, G::Backend, Mdwb, "API", "POSIX", "back end: {engines} (case-insensitive)"),
    o(' ', "tasks", Value, T::Tasks, G::Iogauge, New, "N", "1", "number of ranks, run as threads"),
    o(' ', "fake-nodes", Value, T::FakeNodes, G::Iogauge, New, "K", "", "pretend the ranks run on K nodes"),
    o(' ', "fake-placement", Value, T::FakePlacement, G::Iogauge, New, "block|round-robin", "block", "how ranks map to the fake nodes"),
    o(' ', "json", Value, T::Json, G::Iogauge, New, "PATH", "", "write iogauge's full result document to PATH (after every phase)"),
    o(' ', "dry-run", Flag, T::DryRun, G::Iogauge, New, "", "", "print the plan (phases, data sets, objects and bytes) and exit without any I/O"),
    o('h', "help", Flag, T::Help, G::Iogauge, Mdwb, "", "", "this help"),
];

const LATENCY: &str =
    "per-operation latency files are not written; --json PATH records every phase's latency histogram per kind of operation and a time series";
const GPU: &str = "GPU buffers are not supported by iogauge";

#[rustfmt::skip]
pub const REFUSED: &[Refused] = &[
    refuse('L', "latency", &[], LATENCY),
    refuse(' ', "latency-all", &[], LATENCY),
    refuse(' ', "allocateBufferOnGPU", &[], GPU),
    refuse(' ', "GPUid", &[], GPU),
    refuse(' ', "gpuDirect", &[], GPU),
];

/// The table and md-workbench's parser rules (IOR's `option.c`, without `-O` keys).
pub const TABLE: Table<Target, Group> = Table {
    tool: "md-workbench",
    options: OPTIONS,
    refused: REFUSED,
    directive: None,
    refused_key_prefix: None,
    operands: "md-workbench takes no operands; the directory goes to -o",
    metadata_only: true,
    dash_hints: true,
    module_refusal,
};

/// Back-end module options other than those of the metadata engines.
fn module_refusal(module: &str) -> String {
    crate::optparse::metadata_module_refusal("md-workbench", module)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_across_accepted_and_refused() {
        crate::optparse::check_unique_names(OPTIONS, REFUSED);
    }
}
