use std::io;
use std::path::Path;

use exec::CommError;

/// Why a rank stopped.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    #[error("{op} {path}{}: {}", at(*.offset), engine::errno::describe(.source))]
    Io {
        op: &'static str,
        path: String,
        /// Where in the file a transfer failed.
        offset: Option<u64>,
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
            offset: None,
            source,
        }
    }

    /// A transfer's error, with the offset it started at.
    pub fn io_at(op: &'static str, path: &Path, offset: u64, source: io::Error) -> Self {
        StartupError::Io {
            op,
            path: path.display().to_string(),
            offset: Some(offset),
            source,
        }
    }
}

fn at(offset: Option<u64>) -> String {
    offset.map_or(String::new(), |o| format!(" at offset {o}"))
}

impl From<crate::reduce::WireError> for StartupError {
    fn from(e: crate::reduce::WireError) -> Self {
        StartupError::Wire(e.to_string())
    }
}
