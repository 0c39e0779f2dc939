//! What names a stored run and says where it came from.

use std::fmt;

/// A run's number in the store (`iogauge report 42`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RunId(pub i64);

impl fmt::Display for RunId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Where a stored run came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Stored by the run itself, as it went.
    Run,
    /// Imported from an IO500 result directory (the IO500's own or iogauge's).
    Io500Dir,
    /// Imported from an iogauge JSON document.
    Json,
}

impl Source {
    /// The name in the `source` column: `run`, `io500-dir`, `json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Run => "run",
            Source::Io500Dir => "io500-dir",
            Source::Json => "json",
        }
    }

    pub fn parse(name: &str) -> Option<Source> {
        [Source::Run, Source::Io500Dir, Source::Json]
            .into_iter()
            .find(|s| s.as_str() == name)
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
