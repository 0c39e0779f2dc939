//! How an engine declares its options and what its checks see of the workload. Each engine
//! file lists its [`EngineOption`]s; parsers, help texts and checks read them from the
//! registry, so an option is written down once.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The value of an engine option: a flag, or a number (microseconds, counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OptValue {
    Flag(bool),
    Number(u64),
}

impl fmt::Display for OptValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptValue::Flag(b) => write!(f, "{b}"),
            OptValue::Number(n) => write!(f, "{n}"),
        }
    }
}

impl OptValue {
    /// Whether `self` is of the same kind (flag or number) as `other`.
    pub fn same_kind(self, other: OptValue) -> bool {
        matches!(
            (self, other),
            (OptValue::Flag(_), OptValue::Flag(_)) | (OptValue::Number(_), OptValue::Number(_))
        )
    }
}

/// One option of an engine, given as `--<module>.<name>` (IOR's module options).
#[derive(Debug)]
pub struct EngineOption {
    /// The name after the module prefix: `odirect`, `delay-create`.
    pub name: &'static str,
    /// Kind and default in one: `Flag(false)` is a flag, `Number(0)` takes a number.
    pub default: OptValue,
    /// The value's placeholder in help texts (`USEC`); empty for flags.
    pub meta: &'static str,
    /// One line for the help texts, without the engine's name.
    pub help: &'static str,
    /// IOR `-O` keys that set it too (`useO_DIRECT`), matched without case.
    pub ior_keys: &'static [&'static str],
    /// Metadata workloads (mdtest) accept it; bandwidth workloads (IOR) accept every option.
    pub metadata: bool,
}

impl EngineOption {
    /// Whether the option takes a value (as opposed to a flag).
    pub fn takes_value(&self) -> bool {
        matches!(self.default, OptValue::Number(_))
    }
}

/// What a bandwidth workload does per file, as far as an engine's checks care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IoShape {
    /// Bytes per I/O call (IOR `-t`).
    pub transfer_size: u64,
    /// Contiguous bytes per task per segment (IOR `-b`).
    pub block_size: u64,
    /// A sync after every write transfer (IOR `-Y`).
    pub fsync_per_write: bool,
}

/// The workload an engine configuration is checked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// Reads and writes of files (IOR).
    Io(IoShape),
    /// Metadata operations and small whole-file I/O (mdtest).
    Metadata,
}
