//! The engine the parallel I/O libraries share ([`PioEngine`]): IOR's hints (built for each
//! open, shown with `showHints`, the ones in effect kept for the phase's document), the size
//! query and removal through MPI-IO as IOR's modules do them, and what IOR leaves to POSIX
//! (stat, mkdir, the file system's facts). Each library ([`Library`]: MPI-IO in
//! `mpiio.rs`, HDF5 in `hdf5.rs`) opens its files its own way.

use std::cell::RefCell;
use std::io;
use std::path::{Path, PathBuf};

use engine::{
    Caps, DirEntry, Engine, EngineFile, FileStat, IorLayout, OpenHints, OpenMode, PosixEngine,
    Target, TargetInfo,
};

use crate::ffi::{self, Access, File, Info};
use crate::hints::Hints;

/// What an engine of IOR's parallel I/O modules can do: real bytes through the page cache,
/// collective transfers, no metadata operations; `container` when its files hold the
/// library's own structure beside the data (HDF5).
pub const fn library_caps(api_name: &'static str, container: bool) -> Caps {
    Caps {
        does_io: true,
        metadata: false,
        alignment: 1,
        needs_file_size: false,
        page_cache: true,
        api_name,
        queued: false,
        collective: true,
        container,
        object: None,
    }
}

/// One library's way of opening a file.
pub trait Library: Send + 'static {
    fn caps(&self) -> Caps;
    /// IOR's `apiVersion` of the library.
    fn api_version(&self) -> String;
    /// Opens `path` for a phase with the hints `base` builds.
    fn open(
        &self,
        base: &Base,
        path: &Path,
        mode: OpenMode,
        hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>>;
}

/// What every library's engine keeps: the hints options and the POSIX engine.
pub struct Base {
    pub api: &'static str,
    pub hints_file: Option<PathBuf>,
    pub show_hints: bool,
    posix: PosixEngine,
    /// The hints of the last open file as the library reports them.
    in_effect: RefCell<Vec<(String, String)>>,
}

impl Base {
    pub fn new(api: &'static str, hints_file: Option<PathBuf>, show_hints: bool) -> Self {
        Base {
            api,
            hints_file,
            show_hints,
            posix: PosixEngine::new(false),
            in_effect: RefCell::new(Vec::new()),
        }
    }

    /// The hints for an open: the environment's `IOR_HINT*`, then the hints file's lines.
    /// The checks read the file once before the run, so an unreadable one stopped it there.
    pub fn hints(&self) -> io::Result<Info> {
        let mut h = Hints::from_env(std::env::vars());
        if let Some(path) = &self.hints_file {
            let text = std::fs::read_to_string(path)?;
            h.add_file(&text, &path.display().to_string());
        }
        Info::new(&h.pairs)
    }

    /// `showHints` on rank 0: IOR's block of `pairs` under `title`, on standard output.
    pub fn show(&self, hints: &OpenHints, title: &str, pairs: &[(String, String)]) {
        if !self.show_hints || hints.rank != 0 {
            return;
        }
        let mut text = format!("\n{title} {{\n");
        for (k, v) in pairs {
            text.push_str(&format!("\t{k} = {v}\n"));
        }
        text.push_str("}\n");
        print!("{text}");
    }

    /// Keeps the hints in effect on a file just opened (`returned`, for the phase's document)
    /// and shows them.
    pub fn opened(&self, hints: &OpenHints, returned: Vec<(String, String)>) {
        self.show(hints, "hints returned from opened file", &returned);
        *self.in_effect.borrow_mut() = returned;
    }
}

/// The communicator a file is opened on: the job's for a shared file, this process alone for
/// a file of its own (or a workload that does not describe its layout).
pub fn comm_for(api: &str, layout: Option<&IorLayout>) -> io::Result<ffi::MPI_Comm> {
    match layout {
        Some(l) if !l.file_per_proc => exec::mpi::job_comm().ok_or_else(|| {
            io::Error::other(format!("-a {api} opens a shared file on MPI ranks only"))
        }),
        _ => Ok(ffi::comm_self()),
    }
}

/// IOR's MPI-IO and HDF5 modules as an [`Engine`].
pub struct PioEngine<L> {
    lib: L,
    base: Base,
}

impl<L: Library> PioEngine<L> {
    pub fn new(lib: L, base: Base) -> Self {
        PioEngine { lib, base }
    }

    fn path<'a>(&self, target: Target<'a>) -> io::Result<&'a Path> {
        target.file_path(self.base.api)
    }
}

impl<L: Library> Engine for PioEngine<L> {
    fn caps(&self) -> Caps {
        self.lib.caps()
    }

    fn open(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        let path = self.path(target)?;
        self.lib.open(&self.base, path, mode, hints)
    }

    fn remove(&self, target: Target<'_>) -> io::Result<()> {
        let path = self.path(target)?;
        // MPI_File_delete's error for a missing file differs between libraries: ask first.
        std::fs::symlink_metadata(path)?;
        ffi::delete(path)
    }

    /// IOR's size query: the file opened alone, read only, `MPI_File_get_size`.
    fn file_size(&self, target: Target<'_>) -> io::Result<u64> {
        let path = self.path(target)?;
        let file = File::open(ffi::comm_self(), path, Access::Read, &self.base.hints()?)?;
        let size = file.size()?;
        file.close()?;
        Ok(size)
    }

    fn target_info(&self, target: Target<'_>) -> io::Result<TargetInfo> {
        self.base.posix.target_info(target)
    }
    fn mkdir(&self, target: Target<'_>) -> io::Result<()> {
        self.base.posix.mkdir(target)
    }
    fn rmdir(&self, target: Target<'_>) -> io::Result<()> {
        self.base.posix.rmdir(target)
    }
    fn stat(&self, target: Target<'_>) -> io::Result<FileStat> {
        self.base.posix.stat(target)
    }
    fn lstat(&self, target: Target<'_>) -> io::Result<FileStat> {
        self.base.posix.lstat(target)
    }
    fn create_file(&self, target: Target<'_>, data: &[u8]) -> io::Result<()> {
        self.base.posix.create_file(target, data)
    }
    fn create_file_synced(&self, target: Target<'_>, data: &[u8]) -> io::Result<()> {
        self.base.posix.create_file_synced(target, data)
    }
    fn rename(&self, from: Target<'_>, to: Target<'_>) -> io::Result<()> {
        self.base.posix.rename(from, to)
    }
    fn sync_all(&self) -> io::Result<()> {
        self.base.posix.sync_all()
    }
    fn read_file(&self, target: Target<'_>, buf: &mut [u8]) -> io::Result<usize> {
        self.base.posix.read_file(target, buf)
    }
    fn read_dir(&self, target: Target<'_>) -> io::Result<Vec<DirEntry>> {
        self.base.posix.read_dir(target)
    }
    fn api_version(&self) -> String {
        self.lib.api_version()
    }
    fn take_in_effect(&self) -> Vec<(String, String)> {
        std::mem::take(&mut self.base.in_effect.borrow_mut())
    }
}
