//! `-a MPIIO`: a file opened with `MPI_File_open` as IOR's `MPIIO_Open` does it
//! (`docs/pio.md`): the hints built and shown, the file emptied for a write phase (`-E`
//! too), preallocated, and its view set (`file.rs`).

use std::io;
use std::path::{Path, PathBuf};

use engine::{Caps, EngineConfig, EngineFile, OpenHints, OpenMode};

use crate::engine::{comm_for, library_caps, Base, Library};
use crate::ffi::{Access, File};
use crate::file::{MpiioFile, ViewMode};

/// IOR's `-a` name.
pub const API: &str = "MPIIO";

pub const HINTS_FILE: &str = "mpiio.hintsFileName";
const SHOW_HINTS: &str = "mpiio.showHints";
const PREALLOCATE: &str = "mpiio.preallocate";
pub const FILE_VIEW: &str = "mpiio.useFileView";
pub const STRIDED: &str = "mpiio.useStridedDatatype";

/// The options of one engine, read once.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub hints_file: Option<PathBuf>,
    pub show_hints: bool,
    pub preallocate: bool,
    pub file_view: bool,
    pub strided: bool,
}

impl Options {
    pub fn of(cfg: &EngineConfig) -> Self {
        Options {
            hints_file: cfg
                .text(HINTS_FILE)
                .filter(|t| !t.is_empty())
                .map(PathBuf::from),
            show_hints: cfg.flag(SHOW_HINTS),
            preallocate: cfg.flag(PREALLOCATE),
            file_view: cfg.flag(FILE_VIEW),
            strided: cfg.flag(STRIDED),
        }
    }
}

pub const CAPS: Caps = library_caps(API, false);

pub struct MpiIo {
    pub opts: Options,
}

impl Library for MpiIo {
    fn caps(&self) -> Caps {
        CAPS
    }

    /// IOR's: `MPI_Get_version` as `(3.1)`.
    fn api_version(&self) -> String {
        let (v, s) = crate::ffi::version();
        format!("({v}.{s})")
    }

    fn open(
        &self,
        base: &Base,
        path: &Path,
        mode: OpenMode,
        hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        let layout = hints.layout.as_ref();
        let comm = comm_for(API, layout)?;
        let info = base.hints()?;
        base.show(hints, "hints passed to MPI_File_open()", &info.pairs()?);
        let write = mode != OpenMode::ReadOnly;
        let access = if write { Access::Write } else { Access::Read };
        let file = File::open(comm, path, access, &info)?;
        if write {
            // IOR empties the file in every write phase, `-E` included.
            file.set_size(0)?;
        }
        base.opened(hints, file.info()?);
        if let (true, true, Some(l)) = (write, self.opts.preallocate, layout) {
            // IOR's size, also for a file per process (which then has N times its data).
            file.preallocate(l.segments * l.block * l.tasks)?;
        }
        let view = match (self.opts.file_view, self.opts.strided) {
            (false, _) => ViewMode::Offsets,
            (true, false) => ViewMode::FileView,
            (true, true) => ViewMode::Strided,
        };
        let f = MpiioFile::new(file, view, layout, hints.rank as u64)?;
        Ok(Box::new(f))
    }
}
