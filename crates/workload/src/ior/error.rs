use std::io;
use std::path::Path;

use exec::CommError;

/// Why a rank stopped.
#[derive(Debug, thiserror::Error)]
pub enum IorError {
    #[error("{op} {path}{}: {}", at(*.offset), engine::errno::describe(.source))]
    Io {
        op: &'static str,
        path: String,
        offset: Option<u64>,
        source: io::Error,
    },
    #[error("short read of {path} at offset {offset}: {got} of {want} bytes (the file is shorter than the pattern needs)")]
    ShortRead {
        path: String,
        offset: u64,
        got: u64,
        want: u64,
    },
    #[error("data check failed on {path} at offset {offset}; stopping as -q asks")]
    QuitOnError { path: String, offset: u64 },
    #[error(transparent)]
    Comm(#[from] CommError),
    #[error("rank reports: {0}")]
    Wire(String),
    /// The plan names an engine that cannot be built (checked before the run; not expected).
    #[error("{0}")]
    Engine(String),
}

fn at(offset: Option<u64>) -> String {
    offset
        .map(|o| format!(" at offset {o}"))
        .unwrap_or_default()
}

impl IorError {
    pub fn io(op: &'static str, path: &Path, offset: Option<u64>, source: io::Error) -> Self {
        IorError::Io {
            op,
            path: path.display().to_string(),
            offset,
            source,
        }
    }
}

impl From<crate::reduce::WireError> for IorError {
    fn from(e: crate::reduce::WireError) -> Self {
        IorError::Wire(e.to_string())
    }
}
