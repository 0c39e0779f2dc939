//! What a phase did: one name per operation, shared by every workload, the result document,
//! the store and the reports.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The operation a phase times. Serialized in kebab case (`"write"`, `"file-create"`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// IOR: transfers written.
    Write,
    /// IOR: transfers read.
    Read,
    DirCreate,
    DirStat,
    DirRename,
    DirRemove,
    FileCreate,
    FileStat,
    FileRead,
    FileRemove,
    /// mdtest: the directory tree made (rank 0's, or each rank's with `-u`).
    TreeCreate,
    TreeRemove,
    /// A parallel find over a tree (entries examined).
    Find,
    /// md-workbench: data sets and objects made before the benchmark.
    Precreate,
    /// md-workbench: one iteration of stat, read, delete and create of objects.
    Benchmark,
    /// md-workbench: the objects and data sets removed.
    Cleanup,
    /// Every rank stats and reads every file of a tree: an application's imports as it starts.
    TreeRead,
    /// Every rank reads one common large file: an application's binary or data as it starts.
    CommonRead,
    /// mix: each rank's tree made before the first step.
    MixPrepare,
    /// mix: one step of the rising load (the iteration is the step's number).
    MixStep,
    /// mix: the files and directories of the run removed.
    MixCleanup,
    /// dlio: the data set generated (`workflow.generate_data`), one operation per file.
    DlioGenerate,
    /// dlio: one training epoch (the iteration is the epoch's number); ops are samples.
    DlioEpoch,
    /// dlio: one checkpoint written (the iteration is its number); ops are shard files.
    DlioCheckpointWrite,
    /// dlio: one checkpoint read back.
    DlioCheckpointRead,
}

impl Operation {
    /// mdtest's timed phases in the order of its SUMMARY table.
    pub const MDTEST: [Operation; 10] = [
        Operation::DirCreate,
        Operation::DirStat,
        Operation::DirRename,
        Operation::DirRemove,
        Operation::FileCreate,
        Operation::FileStat,
        Operation::FileRead,
        Operation::FileRemove,
        Operation::TreeCreate,
        Operation::TreeRemove,
    ];

    /// The name in results and messages (`"write"`, `"file-create"`).
    pub fn label(self) -> &'static str {
        match self {
            Operation::Write => "write",
            Operation::Read => "read",
            Operation::DirCreate => "dir-create",
            Operation::DirStat => "dir-stat",
            Operation::DirRename => "dir-rename",
            Operation::DirRemove => "dir-remove",
            Operation::FileCreate => "file-create",
            Operation::FileStat => "file-stat",
            Operation::FileRead => "file-read",
            Operation::FileRemove => "file-remove",
            Operation::TreeCreate => "tree-create",
            Operation::TreeRemove => "tree-remove",
            Operation::Find => "find",
            Operation::Precreate => "precreate",
            Operation::Benchmark => "benchmark",
            Operation::Cleanup => "cleanup",
            Operation::TreeRead => "tree-read",
            Operation::CommonRead => "common-read",
            Operation::MixPrepare => "mix-prepare",
            Operation::MixStep => "mix-step",
            Operation::MixCleanup => "mix-cleanup",
            Operation::DlioGenerate => "dlio-generate",
            Operation::DlioEpoch => "dlio-epoch",
            Operation::DlioCheckpointWrite => "dlio-checkpoint-write",
            Operation::DlioCheckpointRead => "dlio-checkpoint-read",
        }
    }

    /// mdtest's row label (`mdtest_test_name`); the label for the other operations.
    pub fn title(self) -> &'static str {
        match self {
            Operation::DirCreate => "Directory creation",
            Operation::DirStat => "Directory stat",
            Operation::DirRename => "Directory rename",
            Operation::DirRemove => "Directory removal",
            Operation::FileCreate => "File creation",
            Operation::FileStat => "File stat",
            Operation::FileRead => "File read",
            Operation::FileRemove => "File removal",
            Operation::TreeCreate => "Tree creation",
            Operation::TreeRemove => "Tree removal",
            other => other.label(),
        }
    }

    pub fn is_dir(self) -> bool {
        matches!(
            self,
            Operation::DirCreate | Operation::DirStat | Operation::DirRename | Operation::DirRemove
        )
    }

    pub fn is_file(self) -> bool {
        matches!(
            self,
            Operation::FileCreate
                | Operation::FileStat
                | Operation::FileRead
                | Operation::FileRemove
        )
    }

    pub fn is_tree(self) -> bool {
        matches!(self, Operation::TreeCreate | Operation::TreeRemove)
    }

    /// The figure a run listing shows for phases of this operation (`iogauge runs`), so that
    /// the store derives it from any document without knowing the workload.
    pub fn headline(self) -> Headline {
        match self {
            Operation::Write
            | Operation::Read
            | Operation::DlioGenerate
            | Operation::DlioCheckpointWrite
            | Operation::DlioCheckpointRead => Headline::Bandwidth,
            // An epoch's samples per second (DLIO's throughput); its AU is the run's `dlio`.
            Operation::DlioEpoch => Headline::Rate,
            // The time until the last rank was done: what an application's start costs.
            Operation::TreeRead | Operation::CommonRead => Headline::Time,
            // Tree creation and removal are one operation per run: not a rate worth a column.
            // A ramp's figure is its knee (the document's `mix`), not a step's.
            Operation::TreeCreate
            | Operation::TreeRemove
            | Operation::MixPrepare
            | Operation::MixStep
            | Operation::MixCleanup => Headline::None,
            _ => Headline::Rate,
        }
    }
}

/// Which figure of a phase a run listing shows ([`Operation::headline`]): the best over the
/// run's phases of that operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Headline {
    /// `bandwidth_mib_s`, the highest.
    Bandwidth,
    /// `iops`, the highest.
    Rate,
    /// `times.total_s`, the shortest.
    Time,
    /// Not listed.
    None,
}

impl std::fmt::Display for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_the_serialized_names() {
        for op in Operation::MDTEST.into_iter().chain([
            Operation::Write,
            Operation::Read,
            Operation::Find,
            Operation::Precreate,
            Operation::Benchmark,
            Operation::Cleanup,
            Operation::TreeRead,
            Operation::CommonRead,
            Operation::MixPrepare,
            Operation::MixStep,
            Operation::MixCleanup,
            Operation::DlioGenerate,
            Operation::DlioEpoch,
            Operation::DlioCheckpointWrite,
            Operation::DlioCheckpointRead,
        ]) {
            let json = serde_json::to_string(&op).unwrap();
            assert_eq!(json, format!("\"{}\"", op.label()));
            assert_eq!(serde_json::from_str::<Operation>(&json).unwrap(), op);
        }
        assert_eq!(Operation::DirRename.title(), "Directory rename");
        assert_eq!(Operation::Write.title(), "write");
        assert!(Operation::TreeRemove.is_tree() && !Operation::TreeRemove.is_file());
        assert!(Operation::FileRead.is_file() && Operation::DirStat.is_dir());
    }
}
