//! The `iogauge ior` option table: every option that is accepted (with IOR's short letter,
//! its long name and its `-O` keys) and every IOR option that is refused by name.
//! The tokenizer (`crate::optparse`) and the help text both read these tables; nothing else
//! lists options. Engine options (`--posix.odirect`, `--dummy.delay-*`) are the engines' own,
//! declared in the engine crate and read from its registry.

pub use crate::optparse::{display_refused, Arg, Origin, Refused};
use crate::optparse::{refuse as no, spec as o, Spec, Table};

/// Help-text sections, in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    Phases,
    Layout,
    Order,
    Data,
    Time,
    Files,
    Output,
    Backend,
    Iogauge,
}

pub const GROUPS: [(Group, &str); 9] = [
    (Group::Phases, "Phases"),
    (Group::Layout, "Sizes and layout"),
    (Group::Order, "Access order and task reordering"),
    (Group::Data, "Data pattern and verification"),
    (Group::Time, "Timing, stonewalling and repetitions"),
    (Group::Files, "Files"),
    (Group::Output, "Output"),
    (Group::Backend, "Back end (-a) and back-end module options"),
    (
        Group::Iogauge,
        "Tasks, directives and iogauge's own options",
    ),
];

/// What an option sets; the parser maps each to a field of `IorParams` or `IorCommand`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Api,
    RefNum,
    BlockSize,
    TransferSize,
    SegmentCount,
    FilePerProc,
    ReorderTasks,
    TaskPerNodeOffset,
    ReorderTasksRandom,
    ReorderTasksRandomSeed,
    RandomOffset,
    RandomOffsetSeed,
    Fsync,
    FsyncPerWrite,
    Collective,
    HintsFile,
    IntraTestBarriers,
    WriteFile,
    ReadFile,
    CheckWrite,
    CheckRead,
    KeepFile,
    KeepFileWithError,
    UseExistingTestFile,
    Repetitions,
    InterTestDelay,
    TestFile,
    UniqueDir,
    Deadline,
    MaxTime,
    Signature,
    DataPacket,
    NumTasks,
    Verbose,
    QuitOnError,
    MultiFile,
    SingleXferAttempt,
    Directive,
    WearOut,
    WearOutIterations,
    StatusFile,
    SummaryFormat,
    SummaryFile,
    RankCsv,
    Tasks,
    FakeNodes,
    FakePlacement,
    Json,
    Overwrite,
    Help,
}

/// One accepted option.
pub type OptSpec = Spec<Target, Group>;

use Arg::{Flag, Value};
use Group as G;
use Origin::{Differs as IorDiffers, Iogauge, Tool as Ior};
use Target as T;

#[rustfmt::skip]
pub const OPTIONS: &[OptSpec] = &[
    o('w', "writeFile", &["writeFile"], Flag, T::WriteFile, G::Phases, Ior, "", "", "write phase"),
    o('r', "readFile", &["readFile"], Flag, T::ReadFile, G::Phases, Ior, "", "", "read phase"),
    o('W', "checkWrite", &["checkWrite"], Flag, T::CheckWrite, G::Phases, Ior, "", "", "after the write, read back and verify (untimed)"),
    o('R', "checkRead", &["checkRead"], Flag, T::CheckRead, G::Phases, Ior, "", "", "read phase that verifies the data (checking inside the timed loop); without -w it needs -G"),
    o('b', "blockSize", &["blockSize"], Value, T::BlockSize, G::Layout, Ior, "SIZE", "1m", "contiguous bytes per task per segment (e.g. 8, 4k, 2m, 1g)"),
    o('t', "transferSize", &["transferSize"], Value, T::TransferSize, G::Layout, Ior, "SIZE", "256k", "bytes per I/O call"),
    o('s', "segmentCount", &["segmentCount"], Value, T::SegmentCount, G::Layout, Ior, "N", "1", "number of segments"),
    o('F', "filePerProc", &["filePerProc"], Flag, T::FilePerProc, G::Layout, Ior, "", "", "one file per task (<name>.%08d) instead of one shared file"),
    o('z', "randomOffset", &["randomOffset"], Flag, T::RandomOffset, G::Order, Ior, "", "", "shuffled transfer offsets within the block window; twice (-z -z): random blocks with replacement, reads only"),
    o(' ', "random-offset-seed", &[], Value, T::RandomOffsetSeed, G::Order, Ior, "N", "-1", "seed for -z (-1: rank 0's clock)"),
    o('C', "reorderTasks", &["reorderTasks", "reorderTasksConstant"], Flag, T::ReorderTasks, G::Order, IorDiffers, "", "", "read back another node's data: task r reads (r + Q*tasks-per-node) mod N; warns when it maps every task to itself"),
    o('Q', "taskPerNodeOffset", &["taskPerNodeOffset"], Value, T::TaskPerNodeOffset, G::Order, Ior, "N", "1", "node distance for -C, minimum distance for -Z"),
    o('Z', "reorderTasksRandom", &["reorderTasksRandom"], Flag, T::ReorderTasksRandom, G::Order, Ior, "", "", "random task offset for read-back; twice (-Z -Z): a random permutation"),
    o('X', "reorderTasksRandomSeed", &["reorderTasksRandomSeed"], Value, T::ReorderTasksRandomSeed, G::Order, Ior, "N", "0", "seed for -Z; negative: -X + repetition"),
    o('l', "dataPacketType", &["dataPacketType"], Value, T::DataPacket, G::Data, IorDiffers, "TYPE", "incompressible", "buffer contents: timestamp, offset, incompressible or random (first letter counts; incompressible and random both select iogauge's truly incompressible pattern)"),
    o('G', "setTimeStampSignature", &["setTimeStampSignature"], Value, T::Signature, G::Data, Ior, "N", "0", "data signature / seed; 0: rank 0's clock, new every repetition"),
    o('q', "quitOnError", &["quitOnError"], Flag, T::QuitOnError, G::Data, Iogauge, "", "", "stop at the first verification error"),
    o('e', "fsync", &["fsync"], Flag, T::Fsync, G::Time, IorDiffers, "", "", "fsync after the last write transfer, inside the timed window (write phases only, as IOR does)"),
    o('Y', "fsyncPerWrite", &["fsyncPerWrite"], Flag, T::FsyncPerWrite, G::Time, IorDiffers, "", "", "fsync after every write transfer (once; IOR's POSIX does it twice)"),
    o('U', "", &[], Value, T::HintsFile, G::Backend, Iogauge, "FILE", "", "old IOR's -U: sets --mpiio.hintsFileName (--hdf5.hintsFileName with -a HDF5); today's IOR has no -U"),
    o('c', "collective", &["collective"], Flag, T::Collective, G::Backend, Ior, "", "", "collective transfers (-a MPIIO, -a HDF5 in the MPI build): MPI-IO's _all calls"),
    o('g', "intraTestBarriers", &["intraTestBarriers"], Flag, T::IntraTestBarriers, G::Time, Ior, "", "", "barriers after open and before close"),
    o('i', "repetitions", &["repetitions"], Value, T::Repetitions, G::Time, Ior, "N", "1", "repetitions of the write/read phases"),
    o('d', "interTestDelay", &["interTestDelay"], Value, T::InterTestDelay, G::Time, Ior, "SECONDS", "0", "rank 0 sleeps before each write and read phase (untimed)"),
    o('D', "deadlineForStonewalling", &["deadlineForStonewalling"], Value, T::Deadline, G::Time, Ior, "SECONDS", "0", "stonewall: stop a write/read phase after this many seconds (0: off)"),
    o('T', "maxTimeDuration", &["maxTimeDuration"], Value, T::MaxTime, G::Time, Ior, "MINUTES", "0", "skip further phases once this time has passed (checked between phases)"),
    o(' ', "", &["stoneWallingWearOut"], Value, T::WearOut, G::Time, Ior, "0|1", "0", "after the deadline every task continues to the largest task's transfer count (needs -D)"),
    o(' ', "", &["stoneWallingWearOutIterations"], Value, T::WearOutIterations, G::Time, Ior, "N", "0", "stop after N transfers per task (to read back a stonewalled write)"),
    o(' ', "", &["stoneWallingStatusFile"], Value, T::StatusFile, G::Time, Ior, "FILE", "", "a write stores the transfer count here; a later read run stops after it (needs -k)"),
    o('o', "testFile", &["testFile"], Value, T::TestFile, G::Files, Ior, "PATH", "testFile", "file name; a@b@c spreads tasks over several names"),
    o('k', "keepFile", &["keepFile"], Flag, T::KeepFile, G::Files, Ior, "", "", "keep the files at the end"),
    o('K', "keepFileWithError", &["keepFileWithError"], Flag, T::KeepFileWithError, G::Files, Ior, "", "", "keep the files when verification found errors"),
    o('E', "useExistingTestFile", &["useExistingTestFile"], Flag, T::UseExistingTestFile, G::Files, IorDiffers, "", "", "use existing files: not removed before the write and not truncated (also allows writing over them)"),
    o('u', "uniqueDir", &["uniqueDir"], Flag, T::UniqueDir, G::Files, Ior, "", "", "with -F: each task's file in its own directory <dir>/<rank>/"),
    o('m', "multiFile", &["multiFile"], Flag, T::MultiFile, G::Files, Ior, "", "", "a new file per repetition (suffix .<rep>)"),
    o('x', "singleXferAttempt", &["singleXferAttempt"], Flag, T::SingleXferAttempt, G::Files, Ior, "", "", "do not retry short transfers"),
    o('v', "verbose", &["verbose"], Flag, T::Verbose, G::Output, Ior, "", "", "more output; repeat for more (-vvv)"),
    o('A', "refnum", &["refnum"], Value, T::RefNum, G::Output, Ior, "N", "0", "reference number shown in the summary (RefNum)"),
    o(' ', "", &["summaryFormat"], Value, T::SummaryFormat, G::Output, Ior, "FORMAT", "default", "summary format: default, JSON or CSV (case-insensitive)"),
    o(' ', "", &["summaryFile"], Value, T::SummaryFile, G::Output, Ior, "FILE", "", "write the summary to FILE"),
    o(' ', "", &["saveRankPerformanceDetailsCSV"], Value, T::RankCsv, G::Output, Ior, "FILE", "", "per-rank performance CSV"),
    o('a', "api", &["api"], Value, T::Api, G::Backend, Ior, "API", "POSIX", "I/O back end: {engines} (case-insensitive)"),
    o('N', "numTasks", &["numTasks"], Value, T::NumTasks, G::Iogauge, IorDiffers, "N", "1", "number of tasks, run as threads (default 1); same as --tasks"),
    o(' ', "tasks", &[], Value, T::Tasks, G::Iogauge, Iogauge, "N", "", "number of tasks, as -N"),
    o(' ', "fake-nodes", &[], Value, T::FakeNodes, G::Iogauge, Iogauge, "K", "", "pretend the tasks run on K nodes (testing aid, like IOR_FAKE_NODES)"),
    o(' ', "fake-placement", &[], Value, T::FakePlacement, G::Iogauge, Iogauge, "block|round-robin", "block", "how tasks map to the fake nodes"),
    o(' ', "json", &[], Value, T::Json, G::Iogauge, Iogauge, "PATH", "", "write iogauge's full result document to PATH"),
    o(' ', "overwrite", &[], Flag, T::Overwrite, G::Iogauge, Iogauge, "", "", "no longer needed (accepted for old scripts): the test files named by -o are replaced as IOR replaces them"),
    o('O', "", &[], Value, T::Directive, G::Iogauge, Ior, "KEY=VALUE[,...]", "", "IOR directives (keys listed below); may be repeated"),
    o('h', "help", &[], Flag, T::Help, G::Iogauge, Ior, "", "", "this help"),
];

const NO_GPU: &str = "GPU buffers are not supported by iogauge";
const NO_MEM: &str = "memory hogging is not supported by iogauge";
const NO_TOPO: &str =
    "iogauge takes the task count from -N/--tasks and the node map from the launcher";
const NO_OUT: &str =
    "not supported by iogauge; --json PATH records per-rank and per-operation data";

#[rustfmt::skip]
pub const REFUSED: &[Refused] = &[
    no('f', "", &[], "IOR scripts are not supported; run one iogauge ior command per test"),
    no('j', "outlierThreshold", &["outlierThreshold"], "outlier warnings are not implemented; --json PATH records every task's times"),
    no('M', "memoryPerNode", &["memoryPerNode"], NO_MEM),
    no(' ', "", &["memoryPerTask"], NO_MEM),
    no('y', "dualMount", &["dualMount"], "dual mount points are not supported by iogauge"),
    no(' ', "randomPrefill", &[], "prefilling before random writes is not supported by iogauge"),
    no(' ', "warningAsErrors", &["warningAsErrors"], "not supported by iogauge"),
    no(' ', "dryRun", &[], "not supported by iogauge; use -a DUMMY for a run without I/O"),
    no(' ', "", &["summaryAlways"], "iogauge runs one test per command; the summary follows it"),
    no(' ', "", &["savePerOpDataCSV"], NO_OUT),
    no(' ', "", &["minTimeDuration"], "not supported by iogauge; use -D with -O stoneWallingWearOut=1, or -i"),
    no(' ', "", &["interIODelay"], "delays between transfers are not supported by iogauge (see --dummy.delay-xfer)"),
    no(' ', "", &["numNodes"], NO_TOPO),
    no(' ', "", &["numTasksOnNode0"], NO_TOPO),
    no(' ', "", &["platform"], "not supported by iogauge; the result records the host"),
    no(' ', "", &["debug"], "not supported by iogauge"),
    no(' ', "", &["allocateBufferOnGPU"], NO_GPU),
    no(' ', "", &["GPUid"], NO_GPU),
    no(' ', "gpuDirect", &["GPUDirect"], NO_GPU),
];

/// Reason given for `-O IOR_HINT__...` keys.
const HINT_REASON: &str = "IOR takes hints from the environment (IOR_HINT__MPI__<key>=<value>) or --mpiio.hintsFileName, not from -O";

/// The table and IOR's parser rules.
pub const TABLE: Table<Target, Group> = Table {
    tool: "ior",
    options: OPTIONS,
    refused: REFUSED,
    directive: Some(Target::Directive),
    refused_key_prefix: Some(("ior_hint", HINT_REASON)),
    operands: "IOR takes no operands; the file name goes to -o",
    metadata_only: false,
    dash_hints: false,
    module_refusal,
};

/// IOR's module options other than the engines' own.
fn module_refusal(module: &str) -> String {
    let provided: Vec<String> = engine::engines()
        .filter_map(|e| e.options_pattern())
        .collect();
    format!(
        "IOR's {module} module options are not supported by iogauge (only {} are)",
        text::join_words(&provided, "and")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique_across_accepted_and_refused() {
        let mut shorts = HashSet::new();
        let mut longs = HashSet::new();
        let mut keys = HashSet::new();
        let engine_opts: Vec<String> = engine::all_options().map(|(e, o)| e.full_name(o)).collect();
        let all = OPTIONS
            .iter()
            .map(|o| (o.short, o.long, o.keys))
            .chain(REFUSED.iter().map(|r| (r.short, r.long, r.keys)))
            .chain(
                engine::all_options()
                    .zip(&engine_opts)
                    .map(|((_, o), name)| (None, Some(name.as_str()), o.ior_keys)),
            );
        for (s, l, ks) in all {
            if let Some(s) = s {
                assert!(shorts.insert(s), "short -{s} twice");
            }
            if let Some(l) = l {
                assert!(longs.insert(l), "long --{l} twice");
            }
            for k in ks {
                assert!(keys.insert(k.to_ascii_lowercase()), "key {k} twice");
            }
        }
    }

    #[test]
    fn every_option_is_reachable() {
        for o in OPTIONS {
            assert!(o.short.is_some() || o.long.is_some() || !o.keys.is_empty());
            assert_eq!(o.arg == Arg::Value, !o.meta.is_empty(), "{:?}", o.target);
        }
    }

    #[test]
    fn lookups() {
        assert_eq!(TABLE.by_short('t').unwrap().target, Target::TransferSize);
        assert_eq!(
            TABLE.by_long("blockSize").unwrap().target,
            Target::BlockSize
        );
        assert!(TABLE.by_long("blocksize").is_none());
        assert_eq!(
            TABLE.by_key("REORDERTASKSCONSTANT").unwrap().target,
            Target::ReorderTasks
        );
        assert!(TABLE.by_key("useo_direct").is_none(), "an engine's key");
        assert!(TABLE.refused_short('c').is_none());
        assert!(TABLE.refused_key("gpuid").is_some());
        assert_eq!(
            display_refused(TABLE.refused_short('M').unwrap()),
            "-M (--memoryPerNode)"
        );
    }
}
