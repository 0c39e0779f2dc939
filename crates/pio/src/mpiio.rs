//! `-a MPIIO`: a file opened with `MPI_File_open` as IOR's `MPIIO_Open` does it
//! (`docs/pio.md`): the hints built and shown, the file emptied for a write phase (`-E`
//! too), preallocated, and its view set (`file.rs`).

use std::io;
use std::path::Path;

use engine::{Caps, EngineFile, OpenHints, OpenMode};

use crate::engine::{comm_for, Base, Library};
use crate::ffi::{Access, File};
use crate::file::MpiioFile;
use crate::register::{Options, API};

pub const CAPS: Caps = Caps {
    does_io: true,
    metadata: false,
    alignment: 1,
    needs_file_size: false,
    page_cache: true,
    api_name: API,
    queued: false,
    collective: true,
    container: false,
    object: None,
};

pub struct MpiIo {
    pub opts: Options,
}

impl Library for MpiIo {
    fn caps(&self) -> Caps {
        CAPS
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
        let f = MpiioFile::new(file, &self.opts, layout, hints.rank as u64)?;
        Ok(Box::new(f))
    }
}
