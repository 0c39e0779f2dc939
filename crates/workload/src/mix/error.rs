use std::io;
use std::path::Path;

use exec::CommError;

/// Why a rank stopped.
#[derive(Debug, thiserror::Error)]
pub enum MixError {
    #[error("{op} {path}: {}", engine::errno::describe(.source))]
    Io {
        op: &'static str,
        path: String,
        source: io::Error,
    },
    #[error(transparent)]
    Comm(#[from] CommError),
    #[error("rank reports: {0}")]
    Wire(String),
    /// The plan names an engine that cannot be built (checked before the run; not expected).
    #[error("{0}")]
    Engine(String),
}

impl MixError {
    pub fn io(op: &'static str, path: &Path, source: io::Error) -> Self {
        MixError::Io {
            op,
            path: path.display().to_string(),
            source,
        }
    }
}

impl From<crate::reduce::WireError> for MixError {
    fn from(e: crate::reduce::WireError) -> Self {
        MixError::Wire(e.to_string())
    }
}
