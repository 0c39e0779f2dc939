//! POSIX engine (IOR `-a POSIX`): positional `pread`/`pwrite` on a file descriptor, with
//! O_DIRECT under `--posix.odirect`.
//!
//! IOR's POSIX backend does `lseek` + `read`/`write`; positional calls move the same bytes with
//! one syscall fewer and no shared file offset, so thread ranks can share nothing.

use crate::options::{EngineOption, IoShape, Workload};
use crate::{
    Caps, DirEntry, Engine, EngineConfig, EngineFile, FileKind, FileStat, OpenHints, OpenMode,
    OptKind, Target, TargetInfo,
};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{DirBuilderExt, FileExt, MetadataExt, OpenOptionsExt};
use std::os::unix::io::AsRawFd;
use std::path::Path;

/// Alignment of the buffers of O_DIRECT transfers: a page, which covers every memory
/// alignment a file system asks for. Offsets and lengths need what the file system needs
/// (`crate::direct`), at least 512 bytes.
const DIRECT_ALIGN: usize = 4096;
/// Mode of files the benchmark creates (IOR and mdtest use 0664).
const FILE_MODE: u32 = 0o664;
/// Mode of directories (mdtest's DIRMODE is 0775).
const DIR_MODE: u32 = 0o775;

/// `--posix.odirect`, as stored in [`EngineConfig::options`].
const ODIRECT: &str = "posix.odirect";

/// The options of `-a POSIX`.
pub const OPTIONS: &[EngineOption] = &[EngineOption {
    name: "odirect",
    kind: OptKind::Flag { default: false },
    meta: "",
    help: "open files with O_DIRECT (needs -t and -b multiples of the file system's alignment: 512 or 4096)",
    ior_keys: &["useO_DIRECT"],
    metadata: false,
    ior: true,
}];

/// O_DIRECT refuses unaligned transfers with a bare EINVAL in the middle of a run; say so
/// before any I/O, naming the option at fault. This is the rule no device relaxes (512-byte
/// sectors); the run's checks against the file system ask it for its own figure
/// ([`direct_alignment`](crate::direct_alignment), [`check_target`]).
pub fn check(cfg: &EngineConfig, workload: &Workload) -> Result<(), String> {
    let Workload::Io(shape) = workload else {
        return Ok(());
    };
    if !cfg.flag(ODIRECT) {
        return Ok(());
    }
    aligned_to(
        shape,
        crate::MIN_DIRECT_ALIGN,
        "any device's smallest",
        "--posix.odirect",
    )
}

/// With O_DIRECT, `shape`'s transfers against the alignment the file system needs for `file`
/// in `dir`; Err names the option at fault and where the figure comes from.
pub fn check_target(
    cfg: &EngineConfig,
    shape: &IoShape,
    file: &Path,
    dir: &Path,
) -> Result<(), String> {
    if !cfg.flag(ODIRECT) {
        return Ok(());
    }
    direct_target(shape, file, dir, "--posix.odirect")
}

/// `shape`'s transfers against the O_DIRECT alignment of the file system of `file` in `dir`;
/// `option` is the option that asked for O_DIRECT, named in the message.
pub(crate) fn direct_target(
    shape: &IoShape,
    file: &Path,
    dir: &Path,
    option: &str,
) -> Result<(), String> {
    match crate::direct_alignment(file, dir) {
        crate::DirectAlign::Unsupported => Err(format!(
            "{option}: the file system of {} does not do O_DIRECT on {}",
            dir.display(),
            file.display()
        )),
        crate::DirectAlign::Bytes { bytes, from } => aligned_to(shape, bytes, &from, option),
    }
}

pub(crate) fn aligned_to(
    shape: &IoShape,
    align: u64,
    from: &str,
    option: &str,
) -> Result<(), String> {
    let (t, b) = (shape.transfer_size, shape.block_size);
    if t % align != 0 || b % align != 0 {
        let (opt, v) = if t % align != 0 { ("-t", t) } else { ("-b", b) };
        return Err(format!(
            "{option} needs -t and -b multiples of {align} ({from}: O_DIRECT needs \
             aligned offsets and lengths): {opt} {v} is not"
        ));
    }
    Ok(())
}

/// The registry's constructor.
pub fn make(cfg: &EngineConfig, _rank: usize) -> Box<dyn Engine> {
    Box::new(PosixEngine::new(cfg.flag(ODIRECT)))
}

pub struct PosixEngine {
    odirect: bool,
    mounts: crate::facts::Mounts,
}

impl PosixEngine {
    /// Capabilities without O_DIRECT (the registry's table entry).
    pub const CAPS: Caps = Self::caps_for(false);

    pub const fn new(odirect: bool) -> Self {
        PosixEngine {
            odirect,
            mounts: crate::facts::Mounts::new(),
        }
    }

    pub const fn caps_for(odirect: bool) -> Caps {
        Caps {
            does_io: true,
            metadata: true,
            alignment: if odirect { DIRECT_ALIGN } else { 1 },
            needs_file_size: false,
            page_cache: !odirect,
            api_name: "POSIX",
            collective: false,
            container: false,
            queued: false,
            object: None,
        }
    }

    fn direct_flag(&self) -> io::Result<i32> {
        if !self.odirect {
            return Ok(0);
        }
        #[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
        return Ok(libc::O_DIRECT);
        #[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
        return Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "--posix.odirect: O_DIRECT is not available on this operating system",
        ));
    }
}

impl Engine for PosixEngine {
    fn caps(&self) -> Caps {
        Self::caps_for(self.odirect)
    }

    fn open(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        _hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        let path = path(target)?;
        let mut opts = OpenOptions::new();
        match mode {
            // Unlike IOR, which ignores IOR_TRUNC, a write phase truncates: a stale longer file
            // would otherwise leave old bytes past the new end and skew later reads and checks.
            OpenMode::CreateTruncate => opts.read(true).write(true).create(true).truncate(true),
            OpenMode::CreateKeep => opts.read(true).write(true).create(true),
            OpenMode::ReadOnly => opts.read(true),
        };
        opts.mode(FILE_MODE).custom_flags(self.direct_flag()?);
        let file = opts.open(path)?;
        Ok(Box::new(PosixFile {
            file,
            odirect: self.odirect,
        }))
    }

    fn remove(&self, target: Target<'_>) -> io::Result<()> {
        fs::remove_file(path(target)?)
    }

    fn file_size(&self, target: Target<'_>) -> io::Result<u64> {
        Ok(fs::metadata(path(target)?)?.len())
    }

    fn target_info(&self, target: Target<'_>) -> io::Result<TargetInfo> {
        Ok(crate::facts::path_info(path(target)?, &self.mounts))
    }

    fn mkdir(&self, target: Target<'_>) -> io::Result<()> {
        fs::DirBuilder::new().mode(DIR_MODE).create(path(target)?)
    }

    fn rmdir(&self, target: Target<'_>) -> io::Result<()> {
        fs::remove_dir(path(target)?)
    }

    fn stat(&self, target: Target<'_>) -> io::Result<FileStat> {
        raw_stat(path(target)?)
    }

    fn lstat(&self, target: Target<'_>) -> io::Result<FileStat> {
        Ok(file_stat(&fs::symlink_metadata(path(target)?)?))
    }

    // Metadata-path files never use O_DIRECT: mdtest's item sizes (e.g. 3901 bytes) are not
    // block multiples and would fail with EINVAL.
    fn create_file(&self, target: Target<'_>, data: &[u8]) -> io::Result<()> {
        create_and_write(path(target)?, data, false)
    }

    fn create_file_synced(&self, target: Target<'_>, data: &[u8]) -> io::Result<()> {
        create_and_write(path(target)?, data, true)
    }

    fn rename(&self, from: Target<'_>, to: Target<'_>) -> io::Result<()> {
        fs::rename(path(from)?, path(to)?)
    }

    fn sync_all(&self) -> io::Result<()> {
        // SAFETY: sync(2) takes no arguments and cannot fail.
        unsafe { libc::sync() };
        Ok(())
    }

    fn read_file(&self, target: Target<'_>, buf: &mut [u8]) -> io::Result<usize> {
        let mut file = File::open(path(target)?)?;
        let mut done = 0;
        while done < buf.len() {
            match file.read(&mut buf[done..]) {
                Ok(0) => break,
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(done)
    }

    // One open, reads until one returns nothing, the close: the calls `cat` makes, and no
    // allocation (std opens short paths through a buffer on the stack).
    fn read_whole(&self, target: Target<'_>, buf: &mut [u8]) -> io::Result<u64> {
        let mut file = File::open(path(target)?)?;
        let mut total = 0u64;
        loop {
            match file.read(buf) {
                Ok(0) => return Ok(total),
                Ok(n) => total += n as u64,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn read_dir(&self, target: Target<'_>) -> io::Result<Vec<DirEntry>> {
        let mut out = Vec::new();
        for entry in fs::read_dir(path(target)?)? {
            let entry = entry?;
            // On Linux `file_type()` comes from d_type without a stat; std itself falls back to
            // lstat when d_type is DT_UNKNOWN. `None` only when even that fails.
            let is_dir = entry.file_type().ok().map(|t| t.is_dir());
            out.push(DirEntry {
                name: entry.file_name(),
                is_dir,
            });
        }
        Ok(out)
    }

    fn chmod(&self, target: Target<'_>, mode: u32) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        // One chmod(2), which follows a final symlink as chmod does; the mix only targets the
        // files it made.
        fs::set_permissions(path(target)?, fs::Permissions::from_mode(mode))
    }
}

/// The path a POSIX operation works on.
#[inline]
fn path(target: Target<'_>) -> io::Result<&Path> {
    target.file_path("POSIX")
}

/// mdtest's create: O_CREAT|O_WRONLY, no O_TRUNC and no O_EXCL (an earlier run's file is
/// reopened and rewritten); the write at offset 0; with `sync` an fsync before the close.
/// O_NOFOLLOW as well: a symlink at an item's name would send the write outside the test
/// directory, and no mdtest run leaves one.
fn create_and_write(path: &Path, data: &[u8], sync: bool) -> io::Result<()> {
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .mode(FILE_MODE)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)?;
    if !data.is_empty() {
        write_full_at(&file, data, 0)?;
    }
    if sync {
        file.sync_all()?;
    }
    Ok(())
}

/// stat(2) itself, as mdtest's POSIX back end calls it: std's `metadata` goes through statx
/// with a wider mask and builds a larger value, which is measurable at a million stats a second.
fn raw_stat(path: &Path) -> io::Result<FileStat> {
    use std::os::unix::ffi::OsStrExt;
    // Paths up to this length are NUL-terminated on the stack (std does the same).
    const STACK: usize = 384;
    let bytes = path.as_os_str().as_bytes();
    let mut heap = Vec::new();
    let mut stack = [0u8; STACK];
    let buf: &mut [u8] = if bytes.len() < STACK {
        &mut stack[..=bytes.len()]
    } else {
        heap.resize(bytes.len() + 1, 0);
        &mut heap
    };
    buf[..bytes.len()].copy_from_slice(bytes);
    let c = std::ffi::CStr::from_bytes_with_nul(buf)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path contains a NUL byte"))?;
    // SAFETY: `st` is plain old data that stat(2) fills; `c` is NUL-terminated.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::stat(c.as_ptr(), &mut st) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let kind = FileKind::from_mode(st.st_mode);
    Ok(FileStat {
        size: st.st_size as u64,
        is_dir: kind == FileKind::Dir,
        kind,
        ctime_sec: st.st_ctime as i64,
        ctime_nsec: st.st_ctime_nsec as i64,
    })
}

fn file_stat(md: &fs::Metadata) -> FileStat {
    FileStat {
        size: md.len(),
        is_dir: md.is_dir(),
        kind: FileKind::from(md.file_type()),
        ctime_sec: md.ctime(),
        ctime_nsec: md.ctime_nsec(),
    }
}

struct PosixFile {
    file: File,
    odirect: bool,
}

impl PosixFile {
    /// O_DIRECT fails with a bare EINVAL on misalignment; say what is wrong instead. The rule
    /// no device relaxes (512); a file system that needs more was asked before the run.
    fn check_direct(&self, addr: *const u8, len: usize, offset: u64) -> io::Result<()> {
        let a = crate::MIN_DIRECT_ALIGN as usize;
        // A power of two, so a mask test (`is_multiple_of` is newer than our MSRV 1.80).
        let mask = a - 1;
        if self.odirect
            && ((addr as usize) & mask != 0 || len & mask != 0 || offset & mask as u64 != 0)
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "O_DIRECT transfer is not aligned to {a} bytes (buffer address {addr:p}, \
                     length {len}, offset {offset}); transfer size and offsets must be multiples of {a}"
                ),
            ));
        }
        Ok(())
    }
}

fn end_offset(offset: u64, done: usize) -> io::Result<u64> {
    offset
        .checked_add(done as u64)
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "file offset overflows u64"))
}

/// `pwrite` until every byte is written; EINTR and short writes are retried.
fn write_full_at(file: &File, buf: &[u8], offset: u64) -> io::Result<usize> {
    let mut done = 0;
    while done < buf.len() {
        match file.write_at(&buf[done..], end_offset(offset, done)?) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    format!("write at offset {} returned 0 bytes", offset + done as u64),
                ))
            }
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// `pread` until the buffer is full or end of file; only EOF makes the count short.
fn read_full_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    let mut done = 0;
    while done < buf.len() {
        match file.read_at(&mut buf[done..], end_offset(offset, done)?) {
            Ok(0) => break,
            Ok(n) => done += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// One `pwrite(2)`/`pread(2)` on the whole buffer: the common case, with nothing around it.
/// Returns `None` unless every byte moved (an error, EINTR, a short count or an offset beyond
/// `off_t` go to the careful path).
#[inline]
fn whole(done: isize, len: usize) -> Option<usize> {
    (done >= 0 && done as usize == len).then_some(len)
}

/// After a first `pwrite` that returned `done` (an error, or fewer bytes): the error, or the
/// rest of the buffer through the retrying loop.
#[cold]
fn finish_write(file: &File, buf: &[u8], offset: u64, done: isize) -> io::Result<usize> {
    match usize::try_from(done) {
        Err(_) => {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
            write_full_at(file, buf, offset)
        }
        Ok(0) => Err(io::Error::new(
            io::ErrorKind::WriteZero,
            format!("write at offset {offset} returned 0 bytes"),
        )),
        Ok(d) => Ok(d + write_full_at(file, &buf[d..], end_offset(offset, d)?)?),
    }
}

/// After a first `pread` that returned `done`: the error, end of file, or the rest.
#[cold]
fn finish_read(file: &File, buf: &mut [u8], offset: u64, done: isize) -> io::Result<usize> {
    match usize::try_from(done) {
        Err(_) => {
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
            read_full_at(file, buf, offset)
        }
        Ok(0) => Ok(0),
        Ok(d) => Ok(d + read_full_at(file, &mut buf[d..], end_offset(offset, d)?)?),
    }
}

impl EngineFile for PosixFile {
    #[inline]
    fn write_at(&mut self, buf: &[u8], offset: u64) -> io::Result<usize> {
        if self.odirect {
            self.check_direct(buf.as_ptr(), buf.len(), offset)?;
        }
        let fd = self.file.as_raw_fd();
        // SAFETY: `buf` is valid for `buf.len()` bytes; `fd` is this file's open descriptor.
        let done =
            unsafe { libc::pwrite(fd, buf.as_ptr().cast(), buf.len(), offset as libc::off_t) };
        match whole(done, buf.len()) {
            Some(n) => Ok(n),
            None => finish_write(&self.file, buf, offset, done),
        }
    }

    #[inline]
    fn read_at(&mut self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        if self.odirect {
            self.check_direct(buf.as_ptr(), buf.len(), offset)?;
        }
        let fd = self.file.as_raw_fd();
        // SAFETY: `buf` is writable for `buf.len()` bytes; `fd` is this file's descriptor.
        let done = unsafe {
            libc::pread(
                fd,
                buf.as_mut_ptr().cast(),
                buf.len(),
                offset as libc::off_t,
            )
        };
        match whole(done, buf.len()) {
            Some(n) => Ok(n),
            None => finish_read(&self.file, buf, offset, done),
        }
    }

    fn sync(&mut self) -> io::Result<()> {
        self.file.sync_all()
    }

    fn close(self: Box<Self>) -> io::Result<()> {
        // Dropping `File` ignores close(2) errors; close explicitly so NFS-style deferred write
        // errors reach the caller.
        use std::os::unix::io::IntoRawFd;
        let fd = self.file.into_raw_fd();
        // SAFETY: `fd` was just released by `File` and is closed exactly once here.
        if unsafe { libc::close(fd) } != 0 {
            let e = io::Error::last_os_error();
            // EINTR on close: the descriptor is gone on Linux; retrying could close another.
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "posix_tests.rs"]
mod tests;
