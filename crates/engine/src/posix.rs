//! POSIX engine: positional `pread`/`pwrite` on a file descriptor, optionally with O_DIRECT.
//!
//! IOR's POSIX backend does `lseek` + `read`/`write`; positional calls move the same bytes with
//! one syscall fewer and no shared file offset, so thread ranks can share nothing.

use crate::{Caps, DirEntry, Engine, EngineFile, FileStat, OpenHints, OpenMode};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::{DirBuilderExt, FileExt, MetadataExt, OpenOptionsExt};
use std::path::Path;

/// Alignment of buffer address, length and offset that O_DIRECT transfers must respect. 4096
/// covers every common logical block size (512 and 4K sectors).
const DIRECT_ALIGN: usize = 4096;
/// Mode of files the benchmark creates (IOR and mdtest use 0664).
const FILE_MODE: u32 = 0o664;
/// Mode of directories (mdtest's DIRMODE is 0775).
const DIR_MODE: u32 = 0o775;

pub struct PosixEngine {
    odirect: bool,
}

impl PosixEngine {
    /// Capabilities without O_DIRECT (the registry's table entry).
    pub const CAPS: Caps = Self::caps_for(false);

    pub fn new(odirect: bool) -> Self {
        PosixEngine { odirect }
    }

    pub const fn caps_for(odirect: bool) -> Caps {
        Caps {
            does_io: true,
            metadata: true,
            alignment: if odirect { DIRECT_ALIGN } else { 1 },
            needs_file_size: false,
            api_name: "POSIX",
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
        path: &Path,
        mode: OpenMode,
        _hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
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

    fn remove(&self, path: &Path) -> io::Result<()> {
        fs::remove_file(path)
    }

    fn file_size(&self, path: &Path) -> io::Result<u64> {
        Ok(fs::metadata(path)?.len())
    }

    fn mkdir(&self, path: &Path) -> io::Result<()> {
        fs::DirBuilder::new().mode(DIR_MODE).create(path)
    }

    fn rmdir(&self, path: &Path) -> io::Result<()> {
        fs::remove_dir(path)
    }

    fn stat(&self, path: &Path) -> io::Result<FileStat> {
        raw_stat(path)
    }

    fn lstat(&self, path: &Path) -> io::Result<FileStat> {
        Ok(file_stat(&fs::symlink_metadata(path)?))
    }

    // Metadata-path files never use O_DIRECT: mdtest's item sizes (e.g. 3901 bytes) are not
    // block multiples and would fail with EINVAL.
    fn create_file(&self, path: &Path, data: &[u8]) -> io::Result<()> {
        create_and_write(path, data, false)
    }

    fn create_file_synced(&self, path: &Path, data: &[u8]) -> io::Result<()> {
        create_and_write(path, data, true)
    }

    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }

    fn sync_all(&self) -> io::Result<()> {
        // SAFETY: sync(2) takes no arguments and cannot fail.
        unsafe { libc::sync() };
        Ok(())
    }

    fn read_file(&self, path: &Path, buf: &mut [u8]) -> io::Result<usize> {
        let mut file = File::open(path)?;
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

    fn read_dir(&self, path: &Path) -> io::Result<Vec<DirEntry>> {
        let mut out = Vec::new();
        for entry in fs::read_dir(path)? {
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
}

/// mdtest's create: O_CREAT|O_WRONLY, no O_TRUNC and no O_EXCL; the write at offset 0; with
/// `sync` an fsync before the close.
fn create_and_write(path: &Path, data: &[u8], sync: bool) -> io::Result<()> {
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .mode(FILE_MODE)
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
    Ok(FileStat {
        size: st.st_size as u64,
        is_dir: st.st_mode & libc::S_IFMT == libc::S_IFDIR,
        ctime_sec: st.st_ctime as i64,
        ctime_nsec: st.st_ctime_nsec as i64,
    })
}

fn file_stat(md: &fs::Metadata) -> FileStat {
    FileStat {
        size: md.len(),
        is_dir: md.is_dir(),
        ctime_sec: md.ctime(),
        ctime_nsec: md.ctime_nsec(),
    }
}

struct PosixFile {
    file: File,
    odirect: bool,
}

impl PosixFile {
    /// O_DIRECT fails with a bare EINVAL on misalignment; say what is wrong instead.
    fn check_direct(&self, addr: *const u8, len: usize, offset: u64) -> io::Result<()> {
        let a = DIRECT_ALIGN;
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

impl EngineFile for PosixFile {
    fn write_at(&mut self, buf: &[u8], offset: u64) -> io::Result<usize> {
        self.check_direct(buf.as_ptr(), buf.len(), offset)?;
        write_full_at(&self.file, buf, offset)
    }

    fn read_at(&mut self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        self.check_direct(buf.as_ptr(), buf.len(), offset)?;
        read_full_at(&self.file, buf, offset)
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
mod tests {
    use super::*;
    use crate::AlignedBuf;
    use std::os::unix::ffi::OsStrExt;

    fn hints() -> OpenHints {
        OpenHints::default()
    }

    #[test]
    fn round_trip_at_offsets() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        let e = PosixEngine::new(false);
        let mut f = e.open(&p, OpenMode::CreateTruncate, &hints()).unwrap();
        assert_eq!(f.write_at(b"world", 100).unwrap(), 5);
        assert_eq!(f.write_at(b"hello", 0).unwrap(), 5);
        f.sync().unwrap();
        f.close().unwrap();
        assert_eq!(e.file_size(&p).unwrap(), 105);

        let mut f = e.open(&p, OpenMode::ReadOnly, &hints()).unwrap();
        let mut buf = [0u8; 5];
        assert_eq!(f.read_at(&mut buf, 100).unwrap(), 5);
        assert_eq!(&buf, b"world");
        assert_eq!(f.read_at(&mut buf, 0).unwrap(), 5);
        assert_eq!(&buf, b"hello");
        // The hole in between reads as zeros.
        assert_eq!(f.read_at(&mut buf, 50).unwrap(), 5);
        assert_eq!(buf, [0; 5]);
        // Read-only files refuse writes.
        assert!(f.write_at(b"x", 0).is_err());
        f.close().unwrap();
    }

    #[test]
    fn truncate_versus_keep() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        let e = PosixEngine::new(false);
        let mut f = e.open(&p, OpenMode::CreateTruncate, &hints()).unwrap();
        f.write_at(&[1u8; 1000], 0).unwrap();
        f.close().unwrap();

        let mut f = e.open(&p, OpenMode::CreateKeep, &hints()).unwrap();
        f.write_at(&[2u8; 10], 0).unwrap();
        f.close().unwrap();
        assert_eq!(e.file_size(&p).unwrap(), 1000);
        let data = fs::read(&p).unwrap();
        assert_eq!(&data[..10], &[2u8; 10]);
        assert_eq!(data[10], 1);

        let f = e.open(&p, OpenMode::CreateTruncate, &hints()).unwrap();
        f.close().unwrap();
        assert_eq!(e.file_size(&p).unwrap(), 0);
        assert!(e
            .open(&dir.path().join("missing"), OpenMode::ReadOnly, &hints())
            .is_err());
    }

    #[test]
    fn short_read_only_at_eof() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f");
        fs::write(&p, vec![9u8; 300]).unwrap();
        let e = PosixEngine::new(false);
        let mut f = e.open(&p, OpenMode::ReadOnly, &hints()).unwrap();
        let mut buf = vec![0u8; 256];
        assert_eq!(f.read_at(&mut buf, 0).unwrap(), 256);
        assert_eq!(f.read_at(&mut buf, 256).unwrap(), 44);
        assert!(buf[..44].iter().all(|&b| b == 9));
        assert_eq!(f.read_at(&mut buf, 300).unwrap(), 0);
        assert_eq!(f.read_at(&mut buf, 10_000).unwrap(), 0);
    }

    #[test]
    fn odirect_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d");
        let e = PosixEngine::new(true);
        assert_eq!(e.caps().alignment, 4096);
        let mut f = match e.open(&p, OpenMode::CreateTruncate, &hints()) {
            Err(err) if err.raw_os_error() == Some(libc::EINVAL) => {
                eprintln!(
                    "note: {} rejects O_DIRECT; skipping the O_DIRECT round trip",
                    dir.path().display()
                );
                return;
            }
            other => other.unwrap(),
        };
        let mut buf = e.alloc_buffer(8192);
        assert_eq!(buf.as_ptr() as usize % 4096, 0);
        for (i, b) in buf.iter_mut().enumerate() {
            *b = (i % 251) as u8;
        }
        assert_eq!(f.write_at(&buf, 4096).unwrap(), 8192);
        f.sync().unwrap();
        f.close().unwrap();
        assert_eq!(e.file_size(&p).unwrap(), 12288);

        let mut f = e.open(&p, OpenMode::ReadOnly, &hints()).unwrap();
        let mut back = AlignedBuf::new(8192, 4096);
        assert_eq!(f.read_at(&mut back, 4096).unwrap(), 8192);
        assert_eq!(back.as_slice(), buf.as_slice());
        // Past the end of the file the read is short, not an error.
        assert_eq!(f.read_at(&mut back, 8192).unwrap(), 4096);
        f.close().unwrap();
    }

    #[test]
    fn odirect_misaligned_is_invalid_input() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d");
        let e = PosixEngine::new(true);
        let mut f = match e.open(&p, OpenMode::CreateTruncate, &hints()) {
            Err(err) if err.raw_os_error() == Some(libc::EINVAL) => {
                eprintln!("note: {} rejects O_DIRECT; skipping", dir.path().display());
                return;
            }
            other => other.unwrap(),
        };
        let buf = AlignedBuf::new(8192, 4096);
        // Misaligned address, length and offset are each refused before the syscall.
        for (slice, off) in [(&buf[1..4097], 0u64), (&buf[..100], 0), (&buf[..4096], 512)] {
            let err = f.write_at(slice, off).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
            assert!(err.to_string().contains("O_DIRECT"), "{err}");
        }
        f.close().unwrap();
        assert_eq!(fs::metadata(&p).unwrap().len(), 0, "nothing was written");
    }

    #[test]
    fn metadata_ops() {
        let dir = tempfile::tempdir().unwrap();
        let e = PosixEngine::new(false);
        let d = dir.path().join("sub");
        e.mkdir(&d).unwrap();
        assert!(e.mkdir(&d).is_err(), "mkdir of an existing directory fails");
        let st = e.stat(&d).unwrap();
        assert!(st.is_dir);
        assert!(st.ctime_sec > 0);

        let f = d.join("item");
        e.create_file(&f, b"payload").unwrap();
        e.create_file(&d.join("empty"), b"").unwrap();
        e.mkdir(&d.join("child")).unwrap();
        let st = e.stat(&f).unwrap();
        assert_eq!((st.size, st.is_dir), (7, false));

        let mut buf = [0u8; 16];
        assert_eq!(e.read_file(&f, &mut buf).unwrap(), 7);
        assert_eq!(&buf[..7], b"payload");
        let mut small = [0u8; 3];
        assert_eq!(e.read_file(&f, &mut small).unwrap(), 3);
        assert_eq!(&small, b"pay");

        let mut entries = e.read_dir(&d).unwrap();
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        let got: Vec<_> = entries
            .iter()
            .map(|x| (x.name.to_str().unwrap(), x.is_dir))
            .collect();
        assert_eq!(
            got,
            vec![
                ("child", Some(true)),
                ("empty", Some(false)),
                ("item", Some(false))
            ]
        );

        assert!(e.rmdir(&d).is_err(), "rmdir of a non-empty directory fails");
        e.remove(&f).unwrap();
        e.remove(&d.join("empty")).unwrap();
        e.rmdir(&d.join("child")).unwrap();
        assert!(e.stat(&f).is_err());
        e.rmdir(&d).unwrap();
        assert_eq!(e.stat(&d).unwrap_err().kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn stat_long_paths_and_nul_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let e = PosixEngine::new(false);
        // Longer than the stack buffer: nested directories of 100-byte names.
        let mut p = dir.path().to_path_buf();
        for _ in 0..5 {
            p.push("d".repeat(100));
            e.mkdir(&p).unwrap();
        }
        let f = p.join("f");
        e.create_file(&f, b"12345").unwrap();
        assert!(f.as_os_str().len() > 384);
        assert_eq!(e.stat(&f).unwrap().size, 5);
        assert!(e.stat(&p).unwrap().is_dir);
        assert_eq!(
            e.stat(&p.join("nope")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        let nul = Path::new(std::ffi::OsStr::from_bytes(b"a\0b"));
        assert_eq!(e.stat(nul).unwrap_err().kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn rename_synced_create_and_sync_all() {
        let dir = tempfile::tempdir().unwrap();
        let e = PosixEngine::new(false);
        let f = dir.path().join("f");
        e.create_file_synced(&f, b"abc").unwrap();
        assert_eq!(fs::read(&f).unwrap(), b"abc");
        // Like mdtest's create: no truncate, so a shorter write keeps the tail.
        e.create_file_synced(&f, b"x").unwrap();
        assert_eq!(fs::read(&f).unwrap(), b"xbc");
        let d = dir.path().join("d");
        e.mkdir(&d).unwrap();
        let moved = dir.path().join("d-XX");
        e.rename(&d, &moved).unwrap();
        assert!(e.stat(&moved).unwrap().is_dir);
        assert_eq!(e.stat(&d).unwrap_err().kind(), io::ErrorKind::NotFound);
        assert_eq!(
            e.rename(&d, &moved).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        e.sync_all().unwrap();
    }

    #[test]
    fn lstat_does_not_follow_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let e = PosixEngine::new(false);
        let target = dir.path().join("target");
        e.mkdir(&target).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("target", &link).unwrap();
        assert!(e.stat(&link).unwrap().is_dir);
        let st = e.lstat(&link).unwrap();
        assert_eq!(
            (st.size, st.is_dir),
            (6, false),
            "the link itself: 6 bytes of target name"
        );
        assert!(st.ctime_sec > 0);
        assert_eq!(
            e.lstat(&dir.path().join("missing")).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
    }
}
