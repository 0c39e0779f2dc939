use std::io;
use std::path::Path;

use exec::CommError;

/// Why a rank stopped.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("{op} {path}: {source}")]
    Io {
        op: &'static str,
        path: String,
        source: io::Error,
    },
    /// Rank 0 could not make or list what the ranks read.
    #[error("{0}")]
    Prepare(String),
    #[error(transparent)]
    Comm(#[from] CommError),
    #[error("rank reports: {0}")]
    Wire(String),
}

impl StartupError {
    pub fn io(op: &'static str, path: &Path, source: io::Error) -> Self {
        StartupError::Io {
            op,
            path: path.display().to_string(),
            source,
        }
    }
}
