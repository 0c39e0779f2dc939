//! Engines: the only code that touches storage.
//!
//! An [`Engine`] opens files and runs metadata operations; an [`EngineFile`] moves bytes at
//! explicit offsets. Workloads never branch on an engine's name: they read [`Caps`].
//! One file per engine (`posix.rs`, `mmap.rs`, `dummy.rs`): the engine, the options it
//! declares, the checks of those options and its constructor. `registry.rs` is the table that
//! maps names (IOR's `-a`) to them and lists the IOR APIs that are refused; `config.rs` is the
//! plan's part that names an engine and its option values. `cache.rs` measures and drops the
//! page cache around the files of engines that use it. `target.rs` is what an operation
//! names ([`Target`]) and what an engine says about it before a run ([`TargetInfo`]; file
//! engines answer from `facts.rs`). `queue.rs` is the queued model (many requests in flight),
//! which `uring` (IOURING, AIO) and the dummy engine's `dummy_queue.rs` implement.
//! `conformance` is the contract every engine passes.

mod aligned;
pub mod cache;
mod config;
#[doc(hidden)]
pub mod conformance;
mod defaults;
mod direct;
mod dummy;
mod dummy_queue;
pub mod errno;
mod facts;
mod fault;
mod fstype;
mod mmap;
mod mountinfo;
mod options;
mod posix;
pub mod queue;
mod registry;
pub mod requests;
mod secret;
mod target;
mod uring;

pub use aligned::AlignedBuf;
pub use config::EngineConfig;
pub use direct::{direct_alignment, DirectAlign, MIN_DIRECT_ALIGN};
pub use dummy::{DummyDelays, DummyEngine};
pub use dummy_queue::QueueTiming;
pub use fault::check_fault_rank;
pub use mmap::MmapEngine;
pub use options::{EngineOption, IoShape, OptKind, OptValue, Workload};
pub use posix::PosixEngine;
pub use queue::{Completion, QueueSpec, QueuedFile, Request, SlotBuffers};
pub use registry::{
    all_options, build, check, check_target, engines, find_ior_key, find_option, finish,
    for_target, lookup, metadata_engines, module_of, refused_option, register, EngineError,
    EngineInfo, Finish, RefusedApi, ALIASES, ENGINES, REFUSED_APIS,
};
pub use requests::RequestTally;
pub use secret::Secret;
pub use target::{FileKind, Space, Target, TargetInfo};

use std::io;

/// What an engine can do; the core decides by these flags, never by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// Moves real bytes (false for the dummy engine: reads return no data to verify).
    pub does_io: bool,
    /// Runs mdtest-style metadata operations (mkdir, stat, unlink, readdir, ...).
    pub metadata: bool,
    /// Buffers, offsets and lengths must be multiples of this (O_DIRECT); 1 when free.
    pub alignment: usize,
    /// Needs the final file size when a file is created (mmap maps the whole file).
    pub needs_file_size: bool,
    /// Reads may come from the operating system's page cache (false with O_DIRECT, and for
    /// engines that move no data).
    pub page_cache: bool,
    /// Engine name as IOR prints it in its `API` column (`POSIX`, `MMAP`, `DUMMY`).
    pub api_name: &'static str,
    /// Moves data with many requests in flight ([`Engine::open_queued`], `queue.rs`) rather
    /// than one blocking call at a time ([`Engine::open`]): the workload chooses its mover by
    /// this flag, never by the engine's name.
    pub queued: bool,
    /// Offers IOR's collective transfers (`-c`: every rank of a shared file calls each
    /// transfer together, MPI-IO's `_all` calls), which the workload then keeps in step.
    pub collective: bool,
    /// Its files hold the library's own structure beside the data (HDF5's headers and
    /// B-trees), so their size is not the bytes written: IOR makes no size check of them.
    pub container: bool,
    /// An object store's engine: what its objects allow ([`ObjectCaps`]); `None` for a file
    /// engine. Its targets are [`Target::Object`]s.
    pub object: Option<ObjectCaps>,
}

/// What an object engine can do with an object, for the workloads to choose by (and to
/// refuse, naming the option, what it cannot): no engine of this kind renames, makes
/// directories (a key prefix stands for one) or overwrites part of an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjectCaps {
    /// Reads of a byte range (`GET` with `Range`); without, whole objects only.
    pub ranged_get: bool,
    /// An object written in parts: the limits of a multipart upload; `None`: one PUT each.
    pub multipart: Option<MultipartLimits>,
    /// Lists the keys under a prefix (ListObjectsV2).
    pub listing: bool,
    /// Every transfer is an object of its own (IOR's `S3-libs3` layout: `<name>-<offset>-
    /// <length>`), so a file of any size is written in transfers of any size, in place:
    /// none of the whole-object rules apply.
    pub transfer_objects: bool,
}

/// S3's limits of a multipart upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MultipartLimits {
    /// Every part but the last at least this many bytes (S3: 5 MiB).
    pub min_part: u64,
    /// Parts per object at most (S3: 10,000).
    pub max_parts: u32,
}

impl MultipartLimits {
    /// Amazon S3's, which S3-compatible servers keep.
    pub const S3: MultipartLimits = MultipartLimits {
        min_part: 5 << 20,
        max_parts: 10_000,
    };

    /// Why an object of `object_bytes` written in parts of `part` bytes cannot be uploaded,
    /// naming the limit; `None` when it can (one part needs no minimum).
    pub fn refuse(&self, part: u64, object_bytes: u64) -> Option<String> {
        let parts = object_bytes.div_ceil(part.max(1));
        if parts > 1 && part < self.min_part {
            return Some(format!(
                "a part of {part} bytes in an object of {parts} parts: every part but the last \
                 must be at least {} bytes (5 MiB)",
                self.min_part
            ));
        }
        if parts > u64::from(self.max_parts) {
            return Some(format!(
                "{parts} parts in one object: at most {}",
                self.max_parts
            ));
        }
        None
    }
}

/// How a file is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// Create if missing and truncate to zero (IOR write without `-E`).
    CreateTruncate,
    /// Create if missing, keep existing contents (IOR `-E`).
    CreateKeep,
    /// Read only (reads and checks).
    ReadOnly,
}

/// The pattern, told to the engine once per open instead of on every call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenHints {
    /// The size the file will have when the phase is complete (mmap sizes its mapping by it).
    pub file_size: u64,
    /// This rank (the dummy engine's `delay-only-rank0` uses it).
    pub rank: usize,
    /// IOR's whole pattern, for engines whose library is told it at open (MPI-IO's file
    /// views, HDF5's datasets); `None` from other workloads.
    pub layout: Option<IorLayout>,
}

/// IOR's layout of a file as IOR's MPI-IO and HDF5 back ends see it at open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct IorLayout {
    /// `-b`: contiguous bytes of a rank per segment.
    pub block: u64,
    /// `-t`: bytes per transfer.
    pub transfer: u64,
    /// `-s`.
    pub segments: u64,
    /// IOR's `N`: the ranks that share the file's pattern.
    pub tasks: u64,
    /// The rank whose blocks this open moves (IOR's pretend rank: `-C`/`-Z` shift reads).
    pub pretend: u64,
    /// `-F`: a file of this rank's own (opened by it alone).
    pub file_per_proc: bool,
    /// `-c`: collective transfers.
    pub collective: bool,
}

/// File metadata as returned by [`Engine::stat`] and [`Engine::lstat`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStat {
    pub size: u64,
    /// `kind == FileKind::Dir`.
    pub is_dir: bool,
    /// What it is (for `lstat`, a symbolic link is [`FileKind::Symlink`]).
    pub kind: FileKind,
    /// Change time, seconds and nanoseconds since the epoch.
    pub ctime_sec: i64,
    pub ctime_nsec: i64,
}

/// One directory entry from [`Engine::read_dir`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    pub name: std::ffi::OsString,
    /// `Some(true)` for a directory, `Some(false)` for anything else, `None` when the file
    /// system does not say (d_type unknown): the caller must stat.
    pub is_dir: Option<bool>,
}

/// A storage back end. One instance per rank; `Send` so thread ranks can own one each.
pub trait Engine: Send {
    fn caps(&self) -> Caps;

    fn open(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>>;
    fn remove(&self, target: Target<'_>) -> io::Result<()>;
    /// Current size of a file (IOR's `get_file_size`, used by `-z -z` and the size check).
    fn file_size(&self, target: Target<'_>) -> io::Result<u64>;
    /// What is at `target` and the storage that holds it, for the checks before a run and
    /// the facts a result records (file-system type, mount options, space). Answers without
    /// creating anything; facts it cannot know are `None`.
    fn target_info(&self, target: Target<'_>) -> io::Result<TargetInfo>;
    /// A zeroed buffer whose address and length suit this engine (page-aligned always).
    fn alloc_buffer(&self, len: usize) -> AlignedBuf {
        AlignedBuf::new(len, self.caps().alignment.max(4096))
    }

    // Metadata operations (mdtest, find). Engines without `Caps::metadata` return
    // `io::ErrorKind::Unsupported`.
    fn mkdir(&self, target: Target<'_>) -> io::Result<()>;
    fn rmdir(&self, target: Target<'_>) -> io::Result<()>;
    fn stat(&self, target: Target<'_>) -> io::Result<FileStat>;
    /// Like [`Engine::stat`] but does not follow a final symlink (find's `-newer`/`-size`, as
    /// pfind's `lstat`): a symlink reports its own size and ctime and `is_dir == false`.
    fn lstat(&self, target: Target<'_>) -> io::Result<FileStat>;
    /// Create a file, write `data` (may be empty) at offset 0, close it.
    fn create_file(&self, target: Target<'_>, data: &[u8]) -> io::Result<()>;
    /// As [`Engine::create_file`], with an fsync after the write, before the close (mdtest `-y`).
    fn create_file_synced(&self, target: Target<'_>, data: &[u8]) -> io::Result<()>;
    /// Rename a file or directory (mdtest's directory rename phase).
    fn rename(&self, from: Target<'_>, to: Target<'_>) -> io::Result<()>;
    /// Flush every file system's dirty data (mdtest `-Y`; POSIX `sync(2)`).
    fn sync_all(&self) -> io::Result<()>;
    /// Open read-only, read up to `buf.len()` bytes from offset 0, close; returns bytes read.
    fn read_file(&self, target: Target<'_>, buf: &mut [u8]) -> io::Result<usize>;
    /// Open read-only, read the whole file to its end through `buf` (the last read finds the
    /// end), close; returns the bytes read: what a program does that loads a file. The
    /// default goes through [`Engine::open`].
    fn read_whole(&self, target: Target<'_>, buf: &mut [u8]) -> io::Result<u64> {
        let mut f = self.open(target, OpenMode::ReadOnly, &OpenHints::default())?;
        let mut total = 0u64;
        loop {
            // Short only at the end of the file (the engine retries a short transfer).
            let n = f.read_at(buf, total)?;
            total += n as u64;
            if n < buf.len() || n == 0 {
                break;
            }
        }
        f.close()?;
        Ok(total)
    }
    fn read_dir(&self, target: Target<'_>) -> io::Result<Vec<DirEntry>>;
    /// Requests this engine keeps in flight per open file, as configured (`--iouring.depth`,
    /// `--dummy.depth`, `--aio.max-pending`); 1 for a synchronous engine.
    fn depth(&self) -> usize {
        1
    }
    /// Opens a file for queued I/O (engines with `Caps::queued`): `bufs.spec().depth` requests
    /// in flight at most, each with its slot's buffer of `bufs`, which the file holds until its
    /// close hands them back. The default is unsupported: a synchronous engine never pretends
    /// to queue.
    fn open_queued(
        &self,
        _target: Target<'_>,
        _mode: OpenMode,
        _hints: &OpenHints,
        _bufs: SlotBuffers,
    ) -> io::Result<Box<dyn QueuedFile>> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!(
                "the {} engine moves one transfer at a time",
                self.caps().api_name
            ),
        ))
    }
    /// The target that a workload's name (`-o`, a tree's path) stands for on this engine:
    /// the path itself for a file engine; an object engine puts it in its bucket
    /// ([`Target::key_of`]). Workloads name what they touch through this, never by building a
    /// [`Target`] of their own kind.
    fn target<'a>(&'a self, name: &'a std::path::Path) -> Target<'a> {
        Target::Path(name)
    }
    /// A file every rank writes at once (IOR's shared file), on an engine whose ranks must
    /// agree on it first (an object written in parts is one multipart upload): the first rank
    /// calls this inside the timed open and hands the token to the others, which open with
    /// [`Engine::open_shared`]; after every rank's [`EngineFile::close_shared`] the first rank
    /// ends it with [`Engine::shared_end`]. `None` (the default): nothing to agree on, each
    /// rank opens the file with [`Engine::open`].
    fn shared_begin(&self, _target: Target<'_>) -> io::Result<Option<Vec<u8>>> {
        Ok(None)
    }
    /// Opens `target` for writing as one rank of the shared write `token` began.
    fn open_shared(
        &self,
        target: Target<'_>,
        hints: &OpenHints,
        _token: &[u8],
    ) -> io::Result<Box<dyn EngineFile>> {
        self.open(target, OpenMode::CreateKeep, hints)
    }
    /// [`Engine::open_shared`] for queued I/O (engines with `Caps::queued`), with the slots'
    /// buffers as [`Engine::open_queued`].
    fn open_queued_shared(
        &self,
        target: Target<'_>,
        hints: &OpenHints,
        bufs: SlotBuffers,
        _token: &[u8],
    ) -> io::Result<Box<dyn QueuedFile>> {
        self.open_queued(target, OpenMode::CreateKeep, hints, bufs)
    }
    /// Ends the shared write `token` began: `parts` holds every rank's
    /// [`EngineFile::close_shared`] answer, in rank order. The file exists from here.
    fn shared_end(&self, _target: Target<'_>, _token: &[u8], _parts: &[Vec<u8>]) -> io::Result<()> {
        Ok(())
    }
    /// Gives up the shared write `token` began (after a failure): nothing of it stays.
    fn shared_abort(&self, _target: Target<'_>, _token: &[u8]) -> io::Result<()> {
        Ok(())
    }
    /// The library's version as IOR's `apiVersion` line shows it (`(3.1)` for MPI-IO, `1.10.8
    /// (Parallel)` for HDF5); empty for an engine IOR shows none for.
    fn api_version(&self) -> String {
        String::new()
    }
    /// What the engine's library put in effect for the last file it opened, taken: MPI-IO's
    /// hints of the open file (`MPI_File_get_info`), for the phase's result. Empty for an
    /// engine without such settings. Called after a phase, outside its timed window.
    fn take_in_effect(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The requests an object engine sent since the last call (per method, the throttled
    /// ones, the GETs' times to first byte), counting anew from here; `None` for an engine
    /// that sends none. Called between phases, outside any timed window.
    fn take_requests(&self) -> Option<RequestTally> {
        None
    }
    /// Set a file's permission bits (chmod(2), a setattr: the mix's `chmod`). The default
    /// is unsupported, so an engine that does not say otherwise never pretends to have done it.
    fn chmod(&self, _target: Target<'_>, _mode: u32) -> io::Result<()> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            format!("the {} engine has no chmod", self.caps().api_name),
        ))
    }
}

/// An open file. Offsets are explicit (positional I/O); a short transfer is retried by the
/// engine until complete or an error/EOF, so the returned count is short only at end of file.
pub trait EngineFile: Send {
    fn write_at(&mut self, buf: &[u8], offset: u64) -> io::Result<usize>;
    fn read_at(&mut self, buf: &mut [u8], offset: u64) -> io::Result<usize>;
    /// Make written data durable (fsync; msync for mmap).
    fn sync(&mut self) -> io::Result<()>;
    fn close(self: Box<Self>) -> io::Result<()>;
    /// Closes a file opened by [`Engine::open_shared`]; returns what the first rank's
    /// [`Engine::shared_end`] needs of this rank (an object's parts: their numbers and ETags).
    fn close_shared(self: Box<Self>) -> io::Result<Vec<u8>> {
        self.close().map(|()| Vec::new())
    }
}
