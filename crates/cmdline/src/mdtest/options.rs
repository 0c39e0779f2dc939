//! The `iogauge mdtest` option table: every accepted option (mdtest's letter and long name)
//! and every mdtest option that is refused by name. The parser and the help text read these
//! tables; nothing else lists options. Engine options (`--dummy.delay-create`) are the
//! engines' own, read from the engine registry (those it marks for metadata workloads).

use crate::optparse::{refuse, Spec, Table};
pub use crate::optparse::{Arg, Origin, Refused};

pub use crate::optparse::help::Section as Group;

pub const GROUPS: [(Group, &str); 7] = [
    (Group::Phases, "Phases and what is tested"),
    (Group::Layout, "Items, tree and names"),
    (Group::Data, "File data and verification"),
    (Group::Time, "Timing, stonewalling, iterations and order"),
    (Group::Output, "Output"),
    (Group::Backend, "Back end (-a) and back-end module options"),
    (Group::Iogauge, "Tasks and iogauge's own options"),
];

/// What an option sets; the parser maps each to a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Api,
    Branch,
    Create,
    Dir,
    DirsOnly,
    ReadBytes,
    ReadOnly,
    FilesOnly,
    Seed,
    Iterations,
    ItemsPerDir,
    LeafOnly,
    Items,
    Stride,
    RateAndTime,
    Remove,
    Random,
    RandomSeed,
    TimeUniqueDir,
    Stat,
    Unique,
    Rename,
    Verbose,
    VerboseValue,
    WriteBytes,
    Stonewall,
    StatusFile,
    VerifyRead,
    SyncFile,
    CallSync,
    Depth,
    PrintTime,
    DataPacket,
    RankCsv,
    RankStats,
    Tasks,
    FakeNodes,
    FakePlacement,
    Json,
    Help,
}

/// One accepted option.
pub type OptSpec = Spec<Target, Group>;

/// A row of [`OPTIONS`]: mdtest has no `-O` keys.
use crate::optparse::opt as o;

/// A row of [`REFUSED`].
const fn no(short: char, long: &'static str, reason: &'static str) -> Refused {
    refuse(short, long, &[], reason)
}

use Arg::{Flag, Value};
use Group as G;
use Origin::{Differs, Iogauge as New, Tool as Mdtest};
use Target as T;

#[rustfmt::skip]
pub const OPTIONS: &[OptSpec] = &[
    o('C', "", Flag, T::Create, G::Phases, Mdtest, "", "", "create phase only (tree, directories, files)"),
    o('T', "", Flag, T::Stat, G::Phases, Mdtest, "", "", "stat phase only"),
    o('E', "", Flag, T::ReadOnly, G::Phases, Differs, "", "", "read phase only (files are opened read-only)"),
    o('r', "", Flag, T::Remove, G::Phases, Mdtest, "", "", "remove phase only (items, tree, test directory)"),
    o('U', "", Flag, T::Rename, G::Phases, Mdtest, "", "", "directory rename phase (none of -C -T -E -r -U: all five phases)"),
    o('F', "", Flag, T::FilesOnly, G::Phases, Mdtest, "", "", "files only"),
    o('D', "", Flag, T::DirsOnly, G::Phases, Mdtest, "", "", "directories only (neither -F nor -D: both)"),
    o('n', "", Value, T::Items, G::Layout, Mdtest, "N", "0", "items per task, spread over the tree (rounded down to a multiple of its directories)"),
    o('I', "", Value, T::ItemsPerDir, G::Layout, Mdtest, "N", "0", "items per directory; with -n (no -u): n / I test directories"),
    o('z', "", Value, T::Depth, G::Layout, Mdtest, "N", "0", "depth of the directory tree"),
    o('b', "", Value, T::Branch, G::Layout, Mdtest, "N", "1", "branching factor of the tree"),
    o('L', "", Flag, T::LeafOnly, G::Layout, Mdtest, "", "", "items only in the leaf directories"),
    o('u', "", Flag, T::Unique, G::Layout, Differs, "", "", "a tree per task: mdtest_tree.<rank>.0"),
    o('d', "", Value, T::Dir, G::Layout, Mdtest, "DIR", "./out", "test directory (only its last component is created); a@b@c spreads -u tasks"),
    o('N', "", Value, T::Stride, G::Layout, Differs, "N", "0", "task stride between phases (each phase works on another task's items; x tasks per node on several nodes)"),
    o('w', "", Value, T::WriteBytes, G::Data, Mdtest, "BYTES", "0", "bytes written to each file right after its create"),
    o('e', "", Value, T::ReadBytes, G::Data, Mdtest, "BYTES", "0", "bytes read from each file in the read phase (0: open and close only)"),
    o('y', "", Flag, T::SyncFile, G::Data, Mdtest, "", "", "fsync each file after its write"),
    o('X', "verify-read", Flag, T::VerifyRead, G::Data, Differs, "", "", "verify the bytes read (needs -e; without -w in the same run, -G)"),
    o('G', "", Value, T::Seed, G::Data, Mdtest, "N", "-1", "seed of the data pattern (-1: rank 0's clock)"),
    o(' ', "dataPacketType", Value, T::DataPacket, G::Data, Differs, "TYPE", "incompressible", "file contents: timestamp, offset, incompressible or random (first letter counts)"),
    o('i', "", Value, T::Iterations, G::Time, Mdtest, "N", "1", "iterations"),
    o('W', "", Value, T::Stonewall, G::Time, Mdtest, "SECONDS", "0", "stonewall: stop the file create phase after this time, then every task continues to the largest count"),
    o('x', "", Value, T::StatusFile, G::Time, Mdtest, "FILE", "", "stonewall status file: create -W writes the count, later runs use it"),
    o('Y', "", Flag, T::CallSync, G::Time, Mdtest, "", "", "sync(2) after every phase, inside its time"),
    o('t', "", Flag, T::TimeUniqueDir, G::Time, Mdtest, "", "", "with -u: include the per-task directory set-up in the create time"),
    o('R', "", Flag, T::Random, G::Time, Differs, "", "", "stat and read in a random order (a seeded permutation per task)"),
    o(' ', "random-seed", Value, T::RandomSeed, G::Time, Mdtest, "N", "0", "seed for -R (0: rank 0's clock); > 0 also turns -R on, as in mdtest"),
    o('P', "", Flag, T::RateAndTime, G::Output, Mdtest, "", "", "print the rate and the time table"),
    o('Z', "", Flag, T::PrintTime, G::Output, Differs, "", "", "print the time table (seconds) instead of the rate table"),
    o(' ', "showRankStatistics", Flag, T::RankStats, G::Output, Mdtest, "", "", "add per-task Max/Min/Mean columns"),
    o(' ', "saveRankPerformanceDetails", Value, T::RankCsv, G::Output, Mdtest, "FILE", "", "per-task rates and times as CSV"),
    o('v', "", Flag, T::Verbose, G::Output, Differs, "", "", "verbosity: per-phase time and rate lines (repeatable)"),
    o('V', "", Value, T::VerboseValue, G::Output, Mdtest, "N", "0", "verbosity as a number"),
    o('a', "", Value, T::Api, G::Backend, Mdtest, "API", "POSIX", "back end: {engines} (case-insensitive)"),
    o(' ', "tasks", Value, T::Tasks, G::Iogauge, New, "N", "1", "number of tasks, run as threads"),
    o(' ', "fake-nodes", Value, T::FakeNodes, G::Iogauge, New, "K", "", "pretend the tasks run on K nodes (testing aid for -N)"),
    o(' ', "fake-placement", Value, T::FakePlacement, G::Iogauge, New, "block|round-robin", "block", "how tasks map to the fake nodes"),
    o(' ', "json", Value, T::Json, G::Iogauge, New, "PATH", "", "write iogauge's full result document to PATH (after every phase)"),
    o('h', "help", Flag, T::Help, G::Iogauge, Mdtest, "", "", "this help"),
];

const SWEEP: &str =
    "task-count sweeps are not supported: run one iogauge mdtest per task count (--tasks N)";
const GPU: &str = "GPU buffers are not supported by iogauge";

#[rustfmt::skip]
pub const REFUSED: &[Refused] = &[
    no('B', "", "running phases without barriers is not supported (mdtest itself aborts with -B at this version)"),
    no('c', "", "collective creates (task 0 creating every task's items) are not supported"),
    no('f', "", SWEEP),
    no('l', "", SWEEP),
    no('s', "", SWEEP),
    no('k', "", "mknod creates are not supported"),
    no('p', "", "the pre-iteration delay is not supported"),
    no('S', "", "shared-file mode is not supported"),
    no('g', "", "Lustre directory layouts are not supported"),
    no(' ', "print-all-procs", "not supported; --json PATH records every task's times"),
    no(' ', "savePerOpDataCSV", "not supported; --json PATH records per-operation latency histograms and a time series"),
    no(' ', "warningAsErrors", "not supported by iogauge"),
    no(' ', "run-cmd-before-phase", "running external commands around phases is not supported"),
    no(' ', "run-cmd-after-phase", "running external commands around phases is not supported"),
    no(' ', "verify-write", "not supported; verify in the read phase with -e and -X"),
    no(' ', "allocateBufferOnGPU", GPU),
    no(' ', "GPUid", GPU),
    no(' ', "gpuDirect", GPU),
];

/// The table and mdtest's parser rules (IOR's, without `-O`).
pub const TABLE: Table<Target, Group> = Table {
    tool: "mdtest",
    options: OPTIONS,
    refused: REFUSED,
    directive: None,
    refused_key_prefix: None,
    operands: "mdtest takes no operands; the directory goes to -d",
    metadata_only: true,
    dash_hints: true,
    module_refusal,
};

/// Back-end module options other than those of the engines mdtest takes.
fn module_refusal(module: &str) -> String {
    crate::optparse::metadata_module_refusal("mdtest", module)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_across_accepted_and_refused() {
        crate::optparse::check_unique_names(OPTIONS, REFUSED);
    }
}
