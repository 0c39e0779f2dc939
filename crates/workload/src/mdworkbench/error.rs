use std::io;
use std::path::Path;

use exec::CommError;

/// Why a rank stopped.
#[derive(Debug, thiserror::Error)]
pub enum MdwbError {
    #[error("{op} {path}: {}{}", engine::errno::describe(.source), hint(.op, .source))]
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

/// A missing object is most often a benchmark or cleanup that does not match the precreate.
fn hint(op: &str, e: &io::Error) -> &'static str {
    if e.kind() == io::ErrorKind::NotFound && matches!(op, "stat" | "read" | "delete") {
        " (was it precreated? a run without -1 starts at the --run-info-file's position and \
         needs the precreate's -P, -D, -O and number of ranks)"
    } else if op == "create" && e.raw_os_error() == Some(libc::ELOOP) {
        " (a symlink at an object's name: iogauge does not write through it)"
    } else {
        ""
    }
}

impl MdwbError {
    pub fn io(op: &'static str, path: &Path, source: io::Error) -> Self {
        MdwbError::Io {
            op,
            path: path.display().to_string(),
            source,
        }
    }
}

impl From<crate::reduce::WireError> for MdwbError {
    fn from(e: crate::reduce::WireError) -> Self {
        MdwbError::Wire(e.to_string())
    }
}
