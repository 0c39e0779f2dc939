//! What is wrong with a DLIO config or override: always bad input (exit 2), always naming
//! the key (`workload.dataset.format`) or the file, so the fix can be typed as an override.

use std::fmt;

/// What kind of problem; tests and callers match on it, the message says it to the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Not a key of DLIO's loader (a typo, or a key of a later DLIO).
    UnknownKey,
    /// A DLIO key or value iogauge does not emulate (parquet, dali, s3, checkpointing, ...).
    Unsupported,
    /// A value of the wrong type or out of range (`batch_size: 1.5`, `au: 2`).
    BadValue,
    /// A workload name that is not shipped, or a file that cannot be read.
    NotFound,
    /// YAML that does not parse, or a config that is not a mapping of sections.
    Syntax,
    /// A Hydra override of the wrong form, or one Hydra would refuse (`+key` on a present key).
    Override,
}

/// A config error: its kind, the key it names (`workload.reader.batch_size`) when there is
/// one, and the message for the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub kind: ErrorKind,
    pub key: Option<String>,
    pub message: String,
}

impl ConfigError {
    /// An error about `key` (its path inside the workload, `dataset.format`); the message
    /// names it as an override would (`workload.dataset.format`).
    pub fn at(kind: ErrorKind, key: &str, message: impl fmt::Display) -> Self {
        let key = format!("workload.{key}");
        ConfigError {
            kind,
            message: format!("{key}: {message}"),
            key: Some(key),
        }
    }

    /// An error about no key in particular (a file, a workload name, an override's form).
    pub fn general(kind: ErrorKind, message: impl fmt::Display) -> Self {
        ConfigError {
            kind,
            key: None,
            message: message.to_string(),
        }
    }

    /// Bad input: the exit status every config error ends with (DESIGN.md's exit codes).
    pub const EXIT_CODE: u8 = 2;
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConfigError {}
