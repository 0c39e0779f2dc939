//! Why a dlio rank stopped.

use std::io;
use std::path::Path;

use exec::CommError;

#[derive(Debug, thiserror::Error)]
pub enum DlioError {
    #[error("{op} {path}: {}", engine::errno::describe(.source))]
    Io {
        op: &'static str,
        path: String,
        source: io::Error,
    },
    /// Rank 0 could not make the folders or list the training files.
    #[error("{0}")]
    Prepare(String),
    /// A file's bytes could not be made (generation).
    #[error("{0}")]
    Encode(String),
    #[error(transparent)]
    Comm(#[from] CommError),
    #[error("rank reports: {0}")]
    Wire(String),
}

impl DlioError {
    pub fn io(op: &'static str, path: &Path, source: io::Error) -> Self {
        DlioError::Io {
            op,
            path: path.display().to_string(),
            source,
        }
    }
}

impl From<crate::reduce::WireError> for DlioError {
    fn from(e: crate::reduce::WireError) -> Self {
        DlioError::Wire(e.to_string())
    }
}

impl crate::skeleton::RankError for DlioError {
    fn is_peer(&self) -> bool {
        matches!(self, DlioError::Comm(CommError::PeerFailed { .. }))
    }
}
