//! The plan of a start-up run (`iogauge startup`): what every rank reads the way a starting
//! application does, a tree of small files and/or one common large file, and how the ranks
//! start (stagger, iterations).

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Files of the generated tree by default: RIKEN's "Python script of about 600 files".
pub const DEFAULT_FILES: u64 = 600;
pub const DEFAULT_SEED: u64 = 1;
/// Read size of the common file, and the buffer every file is read through.
pub const DEFAULT_TRANSFER: u64 = 1 << 20;
/// The directory a run makes under `--dir` for what it generates.
pub const RUN_DIR: &str = "iogauge-startup";
/// The generated tree, inside [`RUN_DIR`].
pub const TREE_DIR: &str = "site-packages";
/// The generated common file, inside [`RUN_DIR`].
pub const COMMON_FILE: &str = "common.dat";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct StartupParams {
    /// `--dir DIR`: the run makes `DIR/iogauge-startup` with the generated tree and common
    /// file in it, and removes them after (unless `keep`).
    pub dir: Option<PathBuf>,
    /// `--tree DIR`: an existing tree to read instead of a generated one; only read.
    pub tree: Option<PathBuf>,
    /// `--files N`: files of the generated tree (0: no tree).
    pub files: u64,
    /// `--seed N`: the generated tree's shape, sizes and data.
    pub seed: u64,
    /// `--common-size SIZE`: bytes of a generated common file (0: none).
    pub common_size: u64,
    /// `--common-file PATH`: an existing common file to read; only read.
    pub common_file: Option<PathBuf>,
    /// `--transfer SIZE`: bytes per read call.
    pub transfer_size: u64,
    /// `--stagger DURATION`: rank r starts r times this after the first rank (seconds).
    pub stagger_s: f64,
    /// `--iterations N`: start-ups in a row.
    pub iterations: u32,
    /// `--ranks-per-node N`: only the first N ranks of each node start the application, the
    /// others wait (absent: every rank).
    pub ranks_per_node: Option<u64>,
    /// `--keep`: leave what the run generated, for later runs with `--tree`/`--common-file`.
    pub keep: bool,
}

impl Default for StartupParams {
    fn default() -> Self {
        StartupParams {
            dir: None,
            tree: None,
            files: DEFAULT_FILES,
            seed: DEFAULT_SEED,
            common_size: 0,
            common_file: None,
            transfer_size: DEFAULT_TRANSFER,
            stagger_s: 0.0,
            iterations: 1,
            ranks_per_node: None,
            keep: false,
        }
    }
}

impl StartupParams {
    /// The run generates a tree (no `--tree`, and `--files` above 0).
    pub fn generates_tree(&self) -> bool {
        self.tree.is_none() && self.files > 0
    }

    /// The run generates a common file.
    pub fn generates_common(&self) -> bool {
        self.common_file.is_none() && self.common_size > 0
    }

    /// `DIR/iogauge-startup` when the run generates anything.
    pub fn run_dir(&self) -> Option<PathBuf> {
        let makes = self.generates_tree() || self.generates_common();
        self.dir.as_ref().filter(|_| makes).map(|d| d.join(RUN_DIR))
    }

    /// The tree the ranks read: `--tree`, or the generated one.
    pub fn tree_root(&self) -> Option<PathBuf> {
        match &self.tree {
            Some(t) => Some(t.clone()),
            None if self.generates_tree() => self.run_dir().map(|d| d.join(TREE_DIR)),
            None => None,
        }
    }

    /// The common file the ranks read: `--common-file`, or the generated one.
    pub fn common_path(&self) -> Option<PathBuf> {
        match &self.common_file {
            Some(f) => Some(f.clone()),
            None if self.generates_common() => self.run_dir().map(|d| d.join(COMMON_FILE)),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_generated_and_read() {
        let p = StartupParams {
            dir: Some("/x".into()),
            ..Default::default()
        };
        assert_eq!(p.run_dir(), Some("/x/iogauge-startup".into()));
        assert_eq!(
            p.tree_root(),
            Some("/x/iogauge-startup/site-packages".into())
        );
        assert_eq!(p.common_path(), None);
        let q = StartupParams {
            tree: Some("/env".into()),
            common_size: 1 << 20,
            ..p.clone()
        };
        assert_eq!(q.tree_root(), Some("/env".into()));
        assert_eq!(
            q.common_path(),
            Some("/x/iogauge-startup/common.dat".into())
        );
        let r = StartupParams {
            common_file: Some("/lib.so".into()),
            ..q.clone()
        };
        assert_eq!(
            (r.run_dir(), r.common_path()),
            (None, Some("/lib.so".into()))
        );
    }
}
