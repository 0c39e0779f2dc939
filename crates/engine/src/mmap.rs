//! MMAP engine (IOR `-a MMAP`): the whole file is mapped once per open and transfers are
//! `memcpy` into or out of the mapping; `sync` is `msync` of the whole map.
//!
//! The mapping length is fixed at open (`OpenHints::file_size` for writes, the current size for
//! reads), which is why this engine sets `Caps::needs_file_size`.
//!
//! Shared files: a `CreateTruncate` open truncates the file, and any other rank that already
//! mapped it would fault (SIGBUS) on the truncated pages. Callers sharing one file must let a
//! single rank truncate before the others open with `CreateKeep`.

use crate::options::Workload;
use crate::{
    Caps, DirEntry, Engine, EngineConfig, EngineFile, FileStat, OpenHints, OpenMode, Target,
    TargetInfo,
};
use memmap2::{Mmap, MmapMut, MmapOptions};
use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The page size msync works in.
const PAGE: u64 = 4096;

/// msync works on whole pages, so a sync after every transfer (`-Y`) needs page-sized
/// transfers; say so before any I/O.
pub fn check(_cfg: &EngineConfig, workload: &Workload) -> Result<(), String> {
    match workload {
        Workload::Io(shape) if shape.fsync_per_write && shape.transfer_size % PAGE != 0 => {
            Err(format!(
                "-Y with -a MMAP needs -t a multiple of the {PAGE}-byte page (msync works on \
                 whole pages): -t {} is not",
                shape.transfer_size
            ))
        }
        _ => Ok(()),
    }
}

/// The registry's constructor.
pub fn make(_cfg: &EngineConfig, _rank: usize) -> Box<dyn Engine> {
    Box::new(MmapEngine::new())
}

pub struct MmapEngine {
    mounts: crate::facts::Mounts,
}

impl MmapEngine {
    pub const CAPS: Caps = Caps {
        does_io: true,
        metadata: false,
        alignment: 1,
        needs_file_size: true,
        page_cache: true,
        api_name: "MMAP",
        collective: false,
        container: false,
        queued: false,
        object: None,
    };

    pub fn new() -> Self {
        MmapEngine {
            mounts: crate::facts::Mounts::new(),
        }
    }
}

impl Default for MmapEngine {
    fn default() -> Self {
        Self::new()
    }
}

fn unsupported() -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        "the MMAP engine has no metadata operations",
    )
}

fn map_len(size: u64) -> io::Result<usize> {
    usize::try_from(size).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("file size {size} does not fit in the address space"),
        )
    })
}

impl Engine for MmapEngine {
    fn caps(&self) -> Caps {
        Self::CAPS
    }

    fn open(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        let path = path(target)?;
        let (file, map) = match mode {
            OpenMode::CreateTruncate | OpenMode::CreateKeep => {
                let file = OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(mode == OpenMode::CreateTruncate)
                    .mode(0o664)
                    .open(path)?;
                // Grow only: shrinking would cut data a rank sharing the file has written.
                if file.metadata()?.len() < hints.file_size {
                    file.set_len(hints.file_size)?;
                }
                let len = map_len(hints.file_size)?;
                let map = if len == 0 {
                    Map::Empty
                } else {
                    // SAFETY: the file stays open for the map's lifetime; concurrent truncation by
                    // another process is the documented hazard of every file mapping.
                    Map::ReadWrite(unsafe { MmapOptions::new().len(len).map_mut(&file)? })
                };
                (file, map)
            }
            OpenMode::ReadOnly => {
                let file = File::open(path)?;
                let len = map_len(file.metadata()?.len())?;
                let map = if len == 0 {
                    Map::Empty
                } else {
                    // SAFETY: as above.
                    Map::ReadOnly(unsafe { MmapOptions::new().len(len).map(&file)? })
                };
                (file, map)
            }
        };
        Ok(Box::new(MmapFile { map, _file: file }))
    }

    fn remove(&self, target: Target<'_>) -> io::Result<()> {
        std::fs::remove_file(path(target)?)
    }

    fn file_size(&self, target: Target<'_>) -> io::Result<u64> {
        Ok(std::fs::metadata(path(target)?)?.len())
    }

    /// Its files live in a file system, so it answers as POSIX does.
    fn target_info(&self, target: Target<'_>) -> io::Result<TargetInfo> {
        Ok(crate::facts::path_info(path(target)?, &self.mounts))
    }

    fn mkdir(&self, _target: Target<'_>) -> io::Result<()> {
        Err(unsupported())
    }
    fn rmdir(&self, _target: Target<'_>) -> io::Result<()> {
        Err(unsupported())
    }
    fn stat(&self, _target: Target<'_>) -> io::Result<FileStat> {
        Err(unsupported())
    }
    fn lstat(&self, _target: Target<'_>) -> io::Result<FileStat> {
        Err(unsupported())
    }
    fn create_file(&self, _target: Target<'_>, _data: &[u8]) -> io::Result<()> {
        Err(unsupported())
    }
    fn create_file_synced(&self, _target: Target<'_>, _data: &[u8]) -> io::Result<()> {
        Err(unsupported())
    }
    fn rename(&self, _from: Target<'_>, _to: Target<'_>) -> io::Result<()> {
        Err(unsupported())
    }
    fn sync_all(&self) -> io::Result<()> {
        Err(unsupported())
    }
    fn read_file(&self, _target: Target<'_>, _buf: &mut [u8]) -> io::Result<usize> {
        Err(unsupported())
    }
    fn read_dir(&self, _target: Target<'_>) -> io::Result<Vec<DirEntry>> {
        Err(unsupported())
    }
    fn chmod(&self, _target: Target<'_>, _mode: u32) -> io::Result<()> {
        Err(unsupported())
    }
}

/// The path an MMAP operation works on.
fn path(target: Target<'_>) -> io::Result<&Path> {
    target.file_path("MMAP")
}

enum Map {
    /// Zero-length file: nothing is mapped (mmap of length 0 is EINVAL).
    Empty,
    ReadWrite(MmapMut),
    ReadOnly(Mmap),
}

impl Map {
    fn bytes(&self) -> &[u8] {
        match self {
            Map::Empty => &[],
            Map::ReadWrite(m) => m,
            Map::ReadOnly(m) => m,
        }
    }
}

struct MmapFile {
    map: Map,
    // Kept open for the mapping's lifetime (IOR closes it only after munmap).
    _file: File,
}

impl EngineFile for MmapFile {
    fn write_at(&mut self, buf: &[u8], offset: u64) -> io::Result<usize> {
        let map_len = self.map.bytes().len();
        let dst = match &mut self.map {
            Map::ReadOnly(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    "MMAP file was opened read-only",
                ))
            }
            Map::Empty => &mut [][..],
            Map::ReadWrite(m) => &mut m[..],
        };
        let end = usize::try_from(offset)
            .ok()
            .and_then(|o| o.checked_add(buf.len()).map(|e| (o, e)));
        match end {
            Some((start, end)) if end <= map_len => {
                dst[start..end].copy_from_slice(buf);
                Ok(buf.len())
            }
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "MMAP write of {} bytes at offset {offset} goes past the end of the {map_len}-byte \
                     mapping (the mapping is sized by the expected file size)",
                    buf.len()
                ),
            )),
        }
    }

    fn read_at(&mut self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let src = self.map.bytes();
        // Like pread at end of file: short, then 0.
        let start = match usize::try_from(offset) {
            Ok(o) if o < src.len() => o,
            _ => return Ok(0),
        };
        let n = buf.len().min(src.len() - start);
        buf[..n].copy_from_slice(&src[start..start + n]);
        Ok(n)
    }

    fn sync(&mut self) -> io::Result<()> {
        match &self.map {
            Map::ReadWrite(m) => m.flush(), // msync(MS_SYNC) of the whole map
            Map::ReadOnly(_) | Map::Empty => Ok(()),
        }
    }

    fn close(self: Box<Self>) -> io::Result<()> {
        // Field order drops (unmaps) the map before closing the descriptor.
        drop(self);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hints(file_size: u64) -> OpenHints {
        OpenHints {
            file_size,
            rank: 0,
            layout: None,
        }
    }

    #[test]
    fn round_trip_across_two_opens() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m");
        let e = MmapEngine::new();
        let mut f = e
            .open(Target::from(&p), OpenMode::CreateTruncate, &hints(8192))
            .unwrap();
        // The file is sized at open, before any byte is written.
        assert_eq!(e.file_size(Target::from(&p)).unwrap(), 8192);
        assert_eq!(f.write_at(b"first", 0).unwrap(), 5);
        assert_eq!(f.write_at(b"last", 8188).unwrap(), 4);
        f.sync().unwrap();
        f.close().unwrap();

        // A second writer with CreateKeep keeps the bytes and adds its own.
        let mut f = e
            .open(Target::from(&p), OpenMode::CreateKeep, &hints(8192))
            .unwrap();
        f.write_at(b"mid", 4096).unwrap();
        f.close().unwrap();

        let data = std::fs::read(&p).unwrap();
        assert_eq!(data.len(), 8192);
        assert_eq!(&data[..5], b"first");
        assert_eq!(&data[4096..4099], b"mid");
        assert_eq!(&data[8188..], b"last");

        let mut f = e
            .open(Target::from(&p), OpenMode::ReadOnly, &hints(0))
            .unwrap();
        let mut buf = [0u8; 5];
        assert_eq!(f.read_at(&mut buf, 0).unwrap(), 5);
        assert_eq!(&buf, b"first");
        // Short at the end of the map, then 0.
        assert_eq!(f.read_at(&mut buf, 8190).unwrap(), 2);
        assert_eq!(&buf[..2], b"st");
        assert_eq!(f.read_at(&mut buf, 8192).unwrap(), 0);
        assert_eq!(
            f.write_at(b"x", 0).unwrap_err().kind(),
            io::ErrorKind::PermissionDenied
        );
        f.close().unwrap();
    }

    #[test]
    fn truncate_resets_and_keep_never_shrinks() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m");
        std::fs::write(&p, vec![7u8; 10_000]).unwrap();
        let e = MmapEngine::new();
        // Keep with a smaller expected size leaves the file alone.
        e.open(Target::from(&p), OpenMode::CreateKeep, &hints(100))
            .unwrap()
            .close()
            .unwrap();
        assert_eq!(e.file_size(Target::from(&p)).unwrap(), 10_000);
        // Truncate drops the old contents and re-extends with zeros.
        e.open(Target::from(&p), OpenMode::CreateTruncate, &hints(100))
            .unwrap()
            .close()
            .unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), vec![0u8; 100]);
    }

    #[test]
    fn writing_past_the_end_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m");
        let e = MmapEngine::new();
        let mut f = e
            .open(Target::from(&p), OpenMode::CreateTruncate, &hints(4096))
            .unwrap();
        assert_eq!(f.write_at(&[1; 96], 4000).unwrap(), 96);
        let err = f.write_at(&[1; 97], 4000).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert!(err.to_string().contains("past the end"), "{err}");
        assert!(f.write_at(&[1; 1], u64::MAX).is_err());
        f.close().unwrap();
        assert_eq!(
            e.file_size(Target::from(&p)).unwrap(),
            4096,
            "a failed write does not grow the file"
        );
    }

    #[test]
    fn zero_size_maps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("m");
        let e = MmapEngine::new();
        let mut f = e
            .open(Target::from(&p), OpenMode::CreateTruncate, &hints(0))
            .unwrap();
        assert!(f.write_at(b"x", 0).is_err());
        f.sync().unwrap();
        f.close().unwrap();
        let mut f = e
            .open(Target::from(&p), OpenMode::ReadOnly, &hints(0))
            .unwrap();
        assert_eq!(f.read_at(&mut [0u8; 4], 0).unwrap(), 0);
        f.close().unwrap();
    }

    #[test]
    fn no_metadata_ops() {
        let dir = tempfile::tempdir().unwrap();
        let e = MmapEngine::new();
        assert!(!e.caps().metadata && e.caps().needs_file_size);
        let d = dir.path().join("d");
        assert_eq!(
            e.mkdir(Target::from(&d)).unwrap_err().kind(),
            io::ErrorKind::Unsupported
        );
        assert_eq!(
            e.stat(Target::from(dir.path())).unwrap_err().kind(),
            io::ErrorKind::Unsupported
        );
        assert_eq!(
            e.lstat(Target::from(dir.path())).unwrap_err().kind(),
            io::ErrorKind::Unsupported
        );
        assert_eq!(
            e.read_dir(Target::from(dir.path())).unwrap_err().kind(),
            io::ErrorKind::Unsupported
        );
        assert_eq!(
            e.create_file(Target::from(&d), b"").unwrap_err().kind(),
            io::ErrorKind::Unsupported
        );
        assert_eq!(
            e.create_file_synced(Target::from(&d), b"")
                .unwrap_err()
                .kind(),
            io::ErrorKind::Unsupported
        );
        assert_eq!(
            e.rename(Target::from(&d), Target::from(&d))
                .unwrap_err()
                .kind(),
            io::ErrorKind::Unsupported
        );
        assert_eq!(e.sync_all().unwrap_err().kind(), io::ErrorKind::Unsupported);
        assert_eq!(
            e.chmod(Target::from(&d), 0o644).unwrap_err().kind(),
            io::ErrorKind::Unsupported
        );
        assert!(!d.exists());
    }
}
