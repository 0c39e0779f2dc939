//! How an engine declares its options and what its checks see of the workload. Each engine
//! file lists its [`EngineOption`]s; parsers, help texts and checks read them from the
//! registry, so an option is written down once.

use std::fmt;
use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::secret::Secret;

/// The value of an engine option as plans and result documents store it: a flag, a number
/// (a count, microseconds, a size in bytes), a secret (stored as "<secret>", never its value)
/// or text (text and paths). The option's declared kind says how its text is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum OptValue {
    Flag(bool),
    Number(u64),
    // Before `Text`: of the strings, only "<secret>" reads back as a secret.
    Secret(Secret),
    Text(String),
}

impl fmt::Display for OptValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptValue::Flag(b) => write!(f, "{b}"),
            OptValue::Number(n) => write!(f, "{n}"),
            OptValue::Secret(s) => write!(f, "{s}"),
            OptValue::Text(t) => write!(f, "{t}"),
        }
    }
}

/// What an option's value is, with its default. Declared on [`EngineOption`]; the parsers
/// read the option's text by it ([`EngineOption::parse`]), the help texts show it, and
/// [`crate::check`] refuses a value of another kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptKind {
    /// On or off (`--posix.odirect`, `-O useO_DIRECT=1`).
    Flag { default: bool },
    /// A count or a time (microseconds); the size suffixes are taken too.
    Number { default: u64 },
    /// Bytes, with k/m/g/t suffixes (powers of 1024, as IOR); `SIZE` in help texts.
    Size { default: u64 },
    /// A time with a unit (`2ms`, `250us`; a bare number is seconds), stored in nanoseconds;
    /// `DURATION` in help texts.
    Duration { default_ns: u64 },
    /// Free text (a host name, a bucket).
    Text { default: &'static str },
    /// A file or directory; empty default: none.
    Path { default: &'static str },
    /// A password or key. The option's value names a file holding it; when the option is not
    /// given, environment variable `env` (if declared) holds it. Never shown or recorded.
    Secret { env: Option<&'static str> },
}

impl OptKind {
    /// "a flag", "a number", ... for messages.
    pub fn what(&self) -> &'static str {
        match self {
            OptKind::Flag { .. } => "a flag",
            OptKind::Number { .. } => "a number",
            OptKind::Size { .. } => "a size",
            OptKind::Duration { .. } => "a duration",
            OptKind::Text { .. } => "text",
            OptKind::Path { .. } => "a path",
            OptKind::Secret { .. } => "a secret (read from a file)",
        }
    }

    /// Whether `value` is of this kind.
    pub fn accepts(&self, value: &OptValue) -> bool {
        matches!(
            (self, value),
            (OptKind::Flag { .. }, OptValue::Flag(_))
                | (
                    OptKind::Number { .. } | OptKind::Size { .. } | OptKind::Duration { .. },
                    OptValue::Number(_)
                )
                | (
                    OptKind::Text { .. } | OptKind::Path { .. },
                    OptValue::Text(_)
                )
                | (OptKind::Secret { .. }, OptValue::Secret(_))
        )
    }

    /// The value an option has when it is not given; `None` for a secret (its environment
    /// variable is read by [`crate::EngineConfig::secret`]).
    pub fn default_value(&self) -> Option<OptValue> {
        match *self {
            OptKind::Flag { default } => Some(OptValue::Flag(default)),
            OptKind::Number { default }
            | OptKind::Size { default }
            | OptKind::Duration {
                default_ns: default,
            } => Some(OptValue::Number(default)),
            OptKind::Text { default } | OptKind::Path { default } => {
                Some(OptValue::Text(default.to_string()))
            }
            OptKind::Secret { .. } => None,
        }
    }
}

/// One option of an engine, given as `--<module>.<name>` (IOR's module options).
#[derive(Debug)]
pub struct EngineOption {
    /// The name after the module prefix: `odirect`, `delay-create`.
    pub name: &'static str,
    /// What its value is, and the default.
    pub kind: OptKind,
    /// The value's placeholder in help texts (`USEC`); empty for flags. Sizes show `SIZE`
    /// and secrets `FILE` whatever it says ([`EngineOption::placeholder`]).
    pub meta: &'static str,
    /// One line for the help texts, without the engine's name.
    pub help: &'static str,
    /// IOR `-O` keys that set it too (`useO_DIRECT`), matched without case.
    pub ior_keys: &'static [&'static str],
    /// Metadata workloads (mdtest) accept it; bandwidth workloads (IOR) accept every option.
    pub metadata: bool,
    /// IOR has it, under this name (`--posix.odirect`); false for iogauge's own options
    /// (`--iouring.*`, the dummy engine's queue and faults). Help texts mark IOR's.
    pub ior: bool,
}

impl EngineOption {
    /// An option of iogauge's own (not IOR's, no `-O` key) for bandwidth workloads only.
    pub const fn own(
        name: &'static str,
        kind: OptKind,
        meta: &'static str,
        help: &'static str,
    ) -> EngineOption {
        EngineOption {
            name,
            kind,
            meta,
            help,
            ior_keys: &[],
            metadata: false,
            ior: false,
        }
    }

    /// An option of an IOR module under IOR's own name (no `-O` key: IOR takes such options
    /// only with the dashes), for bandwidth workloads only.
    pub const fn ior_named(
        name: &'static str,
        kind: OptKind,
        meta: &'static str,
        help: &'static str,
    ) -> EngineOption {
        EngineOption {
            ior: true,
            ..EngineOption::own(name, kind, meta, help)
        }
    }

    /// Whether the option takes a value (as opposed to a flag).
    pub fn takes_value(&self) -> bool {
        !matches!(self.kind, OptKind::Flag { .. })
    }

    /// The value's placeholder in help texts: `SIZE` for a size, `FILE` for a secret.
    pub fn placeholder(&self) -> &'static str {
        match self.kind {
            OptKind::Size { .. } => "SIZE",
            OptKind::Duration { .. } => "DURATION",
            OptKind::Secret { .. } => "FILE",
            _ => self.meta,
        }
    }

    /// The default as help texts show it; `None` for flags, secrets and empty text.
    pub fn default_text(&self) -> Option<String> {
        match self.kind {
            OptKind::Flag { .. } | OptKind::Secret { .. } => None,
            OptKind::Number { default } => Some(default.to_string()),
            OptKind::Size { default } => Some(text::human_size(default)),
            OptKind::Duration { default_ns } => Some(format!("{}us", default_ns / 1000)),
            OptKind::Text { default } | OptKind::Path { default } => {
                (!default.is_empty()).then(|| default.to_string())
            }
        }
    }

    /// Whether `value` is what the option is when not given.
    pub fn is_default(&self, value: &OptValue) -> bool {
        self.kind.default_value().as_ref() == Some(value)
    }

    /// The value of the option from the `given` text (`--<module>.<name>=TEXT`, `-O
    /// key=TEXT`); `shown` is the option as given, for messages. A secret's text names the
    /// file that holds it.
    pub fn parse(&self, shown: &str, given: &str) -> Result<OptValue, String> {
        match self.kind {
            // As IOR's flags: a number, on when above 0.
            OptKind::Flag { .. } => text::parse_signed(given)
                .map(|n| OptValue::Flag(n > 0))
                .map_err(|e| format!("{shown}: {e}")),
            OptKind::Number { .. } | OptKind::Size { .. } => text::parse_size(given)
                .map(OptValue::Number)
                .map_err(|e| format!("{shown}: {e}")),
            // Nanoseconds, rounded: what the engine sleeps or waits.
            OptKind::Duration { .. } => text::parse_duration(given)
                .map(|s| OptValue::Number((s * 1e9).round() as u64))
                .map_err(|e| format!("{shown}: {e}")),
            OptKind::Text { .. } | OptKind::Path { .. } if given.is_empty() => {
                Err(format!("{shown} needs a value"))
            }
            OptKind::Text { .. } | OptKind::Path { .. } => Ok(OptValue::Text(given.to_string())),
            OptKind::Secret { .. } => {
                Secret::read_file(shown, Path::new(given)).map(OptValue::Secret)
            }
        }
    }
}

/// What a bandwidth workload does per file, as far as an engine's checks care (all zero for
/// a metadata workload's checks of its target).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IoShape {
    /// Bytes per I/O call (IOR `-t`).
    pub transfer_size: u64,
    /// Contiguous bytes per task per segment (IOR `-b`).
    pub block_size: u64,
    /// A sync after every write transfer (IOR `-Y`).
    pub fsync_per_write: bool,
    /// `-F`.
    pub file_per_proc: bool,
    /// `-c`: collective transfers.
    pub collective: bool,
    /// `-z`: random offsets.
    pub random_offset: bool,
    /// `-D` with a deadline, and whether wear-out (`-O stoneWallingWearOut=1`) follows it.
    pub stonewall: bool,
    pub wear_out: bool,
}

/// The workload an engine configuration is checked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// Reads and writes of files (IOR).
    Io(IoShape),
    /// Metadata operations and small whole-file I/O (mdtest).
    Metadata,
}

#[cfg(test)]
#[path = "options_tests.rs"]
mod tests;
