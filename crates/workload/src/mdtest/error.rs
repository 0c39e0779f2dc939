use std::io;
use std::path::Path;

use exec::CommError;

/// Why a rank stopped.
#[derive(Debug, thiserror::Error)]
pub enum MdError {
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

/// A missing item in a stat/read/remove is most often a create that was cut short; a create
/// that meets a symlink (O_NOFOLLOW) met something no mdtest run leaves.
fn hint(op: &str, e: &io::Error) -> &'static str {
    let reads = matches!(op, "stat" | "read" | "remove" | "rmdir" | "rename");
    if reads && e.kind() == io::ErrorKind::NotFound {
        " (was it created? after a stonewalled create, pass the same -x status file)"
    } else if op == "create" && e.raw_os_error() == Some(libc::ELOOP) {
        " (a symlink at an item's name: iogauge does not write through it)"
    } else {
        ""
    }
}

impl MdError {
    /// An I/O error for a name that is not there.
    pub fn not_found(&self) -> bool {
        matches!(self, MdError::Io { source, .. } if source.kind() == io::ErrorKind::NotFound)
    }

    pub fn io(op: &'static str, path: &Path, source: io::Error) -> Self {
        MdError::Io {
            op,
            path: path.display().to_string(),
            source,
        }
    }
}

impl From<crate::reduce::WireError> for MdError {
    fn from(e: crate::reduce::WireError) -> Self {
        MdError::Wire(e.to_string())
    }
}
