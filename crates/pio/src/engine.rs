//! `-a MPIIO`: files opened with `MPI_File_open`, a shared file on the job's communicator and
//! a file per process (`-F`) on `MPI_COMM_SELF`, each open as IOR's `MPIIO_Open` does it
//! (`docs/pio.md`): the hints built and shown, the file emptied for a write phase,
//! preallocated, and its view set. Operations IOR's module leaves to POSIX (stat, mkdir,
//! the file system's facts) go to the POSIX engine.

use std::cell::RefCell;
use std::io;
use std::path::Path;

use engine::{
    Caps, DirEntry, Engine, EngineConfig, EngineFile, FileStat, IorLayout, OpenHints, OpenMode,
    PosixEngine, Target, TargetInfo,
};

use crate::ffi::{self, Access, File, Info};
use crate::file::MpiioFile;
use crate::hints::Hints;
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
    object: None,
};

pub struct MpiioEngine {
    opts: Options,
    posix: PosixEngine,
    /// The hints of the last open file as the library reports them.
    in_effect: RefCell<Vec<(String, String)>>,
}

impl MpiioEngine {
    pub fn new(cfg: &EngineConfig) -> Self {
        MpiioEngine {
            opts: Options::of(cfg),
            posix: PosixEngine::new(false),
            in_effect: RefCell::new(Vec::new()),
        }
    }

    /// The hints for an open: the environment's `IOR_HINT*`, then the hints file's lines.
    /// The file was read once by the checks, so an unreadable one stopped the run there.
    fn hints(&self) -> io::Result<Hints> {
        let mut h = Hints::from_env(std::env::vars());
        if let Some(path) = &self.opts.hints_file {
            let text = std::fs::read_to_string(path)?;
            h.add_file(&text, &path.display().to_string());
        }
        Ok(h)
    }

    /// `--mpiio.showHints`: what IOR prints on rank 0's standard output at every open.
    fn show(title: &str, pairs: &[(String, String)]) {
        let mut text = format!("\n{title} {{\n");
        for (k, v) in pairs {
            text.push_str(&format!("\t{k} = {v}\n"));
        }
        text.push_str("}\n");
        print!("{text}");
    }
}

fn path_of(target: Target<'_>) -> io::Result<&Path> {
    target.file_path(API)
}

/// The communicator a file is opened on: the job's for a shared file, this process alone for
/// a file of its own (or a workload that does not describe its layout).
fn comm_for(layout: Option<&IorLayout>) -> io::Result<ffi::MPI_Comm> {
    match layout {
        Some(l) if !l.file_per_proc => exec::mpi::job_comm().ok_or_else(|| {
            io::Error::other("-a MPIIO opens a shared file on MPI ranks only (run under mpirun)")
        }),
        _ => Ok(ffi::comm_self()),
    }
}

impl Engine for MpiioEngine {
    fn caps(&self) -> Caps {
        CAPS
    }

    fn open(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        let path = path_of(target)?;
        let layout = hints.layout.as_ref();
        let comm = comm_for(layout)?;
        let passed = self.hints()?;
        let shows = self.opts.show_hints && hints.rank == 0;
        if shows {
            Self::show("hints passed to MPI_File_open()", &passed.pairs);
        }
        let info = Info::new(&passed.pairs)?;
        let write = mode != OpenMode::ReadOnly;
        let access = if write { Access::Write } else { Access::Read };
        let file = File::open(comm, path, access, &info)?;
        if write {
            // IOR empties the file in every write phase, `-E` included.
            file.set_size(0)?;
        }
        let returned = file.info()?;
        if shows {
            Self::show("hints returned from opened file", &returned);
        }
        *self.in_effect.borrow_mut() = returned;
        if let (true, true, Some(l)) = (write, self.opts.preallocate, layout) {
            // IOR's size, also for a file per process (which then has N times its data).
            file.preallocate(l.segments * l.block * l.tasks)?;
        }
        let f = MpiioFile::new(file, &self.opts, layout, hints.rank as u64)?;
        Ok(Box::new(f))
    }

    fn remove(&self, target: Target<'_>) -> io::Result<()> {
        let path = path_of(target)?;
        // MPI_File_delete's error for a missing file differs between libraries: ask first.
        std::fs::symlink_metadata(path)?;
        ffi::delete(path)
    }

    /// IOR's size query: the file opened alone, read only, `MPI_File_get_size`.
    fn file_size(&self, target: Target<'_>) -> io::Result<u64> {
        let path = path_of(target)?;
        let info = Info::new(&self.hints()?.pairs)?;
        let file = File::open(ffi::comm_self(), path, Access::Read, &info)?;
        let size = file.size()?;
        file.close()?;
        Ok(size)
    }

    fn target_info(&self, target: Target<'_>) -> io::Result<TargetInfo> {
        self.posix.target_info(target)
    }
    fn mkdir(&self, target: Target<'_>) -> io::Result<()> {
        self.posix.mkdir(target)
    }
    fn rmdir(&self, target: Target<'_>) -> io::Result<()> {
        self.posix.rmdir(target)
    }
    fn stat(&self, target: Target<'_>) -> io::Result<FileStat> {
        self.posix.stat(target)
    }
    fn lstat(&self, target: Target<'_>) -> io::Result<FileStat> {
        self.posix.lstat(target)
    }
    fn create_file(&self, target: Target<'_>, data: &[u8]) -> io::Result<()> {
        self.posix.create_file(target, data)
    }
    fn create_file_synced(&self, target: Target<'_>, data: &[u8]) -> io::Result<()> {
        self.posix.create_file_synced(target, data)
    }
    fn rename(&self, from: Target<'_>, to: Target<'_>) -> io::Result<()> {
        self.posix.rename(from, to)
    }
    fn sync_all(&self) -> io::Result<()> {
        self.posix.sync_all()
    }
    fn read_file(&self, target: Target<'_>, buf: &mut [u8]) -> io::Result<usize> {
        self.posix.read_file(target, buf)
    }
    fn read_dir(&self, target: Target<'_>) -> io::Result<Vec<DirEntry>> {
        self.posix.read_dir(target)
    }
    fn take_in_effect(&self) -> Vec<(String, String)> {
        std::mem::take(&mut self.in_effect.borrow_mut())
    }
}
