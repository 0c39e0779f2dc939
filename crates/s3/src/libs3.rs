//! `-a S3-libs3`: IOR's own object layout, as hpc/ior's `aiori-S3-libs3.c` makes it, so that
//! a pasted IOR command line leaves the same objects. A test file's path becomes an object
//! name ([`object_name`]); opening it for writing PUTs an empty object under that name; every
//! transfer is an object of its own, the name itself at offset 0 and `<name>-<offset>-<length>`
//! elsewhere, PUT whole and read back with a GET of its bytes; remove DELETEs the name, then
//! its other transfers' objects (IOR deletes every object under the name as a prefix, other
//! files' too: see `remove`); a file's size is its first
//! transfer's (IOR's own TODO); `-u`'s directories are empty objects named by the path's
//! letters and digits ([`dir_name`]). With `--S3-libs3.bucket-per-file` each file is a bucket of
//! its own, its transfers `0` and `<offset>-<length>` in it. Fsync and sync do nothing.
//! The engine works on paths (`Target::Path`), as IOR's module does, and names objects itself.

use std::io;
use std::sync::Arc;

use engine::{
    Caps, DirEntry, Engine, EngineFile, FileKind, FileStat, ObjectCaps, OpenHints, OpenMode,
    Target, TargetInfo,
};

use crate::client::{Bucket, Client};
use crate::error::S3Error;

const API: &str = "S3-libs3";

pub const CAPS: Caps = Caps {
    does_io: true,
    metadata: false,
    alignment: 1,
    needs_file_size: false,
    page_cache: false,
    api_name: API,
    collective: false,
    container: false,
    queued: false,
    object: Some(ObjectCaps {
        ranged_get: true,
        multipart: None,
        listing: true,
        transfer_objects: true,
    }),
};

/// IOR's bucket: the prefix, and unless `dont_suffix` the sum over the access key's bytes of
/// byte × 10^position (position from 0, in 64-bit arithmetic that wraps), modulo 1000,
/// printed without leading zeros.
pub fn bucket_name(prefix: &str, access_key: &str, dont_suffix: bool) -> String {
    if dont_suffix {
        return prefix.to_string();
    }
    let mut sum = 0u64;
    let mut pos = 1u64;
    for b in access_key.bytes() {
        sum = sum.wrapping_add(u64::from(b).wrapping_mul(pos));
        pos = pos.wrapping_mul(10);
    }
    format!("{prefix}{}", sum % 1000)
}

/// IOR's object name of a path (`def_file_name`): digits and lower-case letters kept,
/// capitals lowered, `/` as `_`, any other byte as the two letters `'a' + byte / 26` and
/// `'a' + byte % 26`, then `b`; with a bucket per file, `<bucket>-` before it.
pub fn object_name(path: &str, bucket_per_file: Option<&str>) -> String {
    let mut out = bucket_per_file.map_or_else(String::new, |b| format!("{b}-"));
    for b in path.bytes() {
        match b {
            b'0'..=b'9' | b'a'..=b'z' => out.push(char::from(b)),
            b'A'..=b'Z' => out.push(char::from(b.to_ascii_lowercase())),
            b'/' => out.push('_'),
            _ => {
                // IOR's `char` is signed on x86: a byte above 127 is negative there.
                let c = i32::from(b as i8);
                out.push(char::from_u32((i32::from(b'a') + c / 26) as u32).unwrap_or('?'));
                out.push(char::from_u32((i32::from(b'a') + c % 26) as u32).unwrap_or('?'));
            }
        }
    }
    out.push('b');
    out
}

/// IOR's name of a directory's object (`def_bucket_name`): its digits and letters only,
/// capitals lowered; with a bucket per file, `<bucket>-` before it.
pub fn dir_name(path: &str, bucket_per_file: Option<&str>) -> String {
    let mut out = bucket_per_file.map_or_else(String::new, |b| format!("{b}-"));
    out.extend(
        path.bytes()
            .filter(u8::is_ascii_alphanumeric)
            .map(|b| char::from(b.to_ascii_lowercase())),
    );
    out
}

/// The object of a transfer at `offset` of `len` bytes in the file named `name`.
pub fn transfer_key(name: &str, offset: u64, len: usize) -> String {
    if offset == 0 {
        name.to_string()
    } else {
        format!("{name}-{offset}-{len}")
    }
}

/// Whether `rest` (a key after `<name>-`) is `<offset>-<length>`: a transfer's of the file.
pub fn is_transfer(rest: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    rest.split_once('-')
        .is_some_and(|(offset, len)| digits(offset) && digits(len))
}

/// How the layout is set.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The bucket of every object (prefix and suffix).
    pub bucket: String,
    /// Each file a bucket of its own (`--S3-libs3.bucket-per-file`).
    pub bucket_per_file: bool,
    /// `--S3-libs3.s3-compatible`: a transfer's or mkdir's failure is not reported (IOR).
    pub s3_compatible: bool,
}

pub struct Libs3Engine {
    client: Arc<Client>,
    layout: Layout,
}

fn io(e: S3Error) -> io::Error {
    e.into_io()
}

fn invalid(e: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, e)
}

impl Libs3Engine {
    pub fn new(client: Client, layout: Layout) -> Self {
        Libs3Engine {
            client: Arc::new(client),
            layout,
        }
    }

    /// The bucket and object name of file `target`; in a bucket of its own, the name is the
    /// bucket's.
    fn file(&self, target: Target<'_>) -> io::Result<(String, String)> {
        let path = target.file_path(API)?;
        let text = path
            .to_str()
            .ok_or_else(|| invalid(format!("{API}: {path:?} is not UTF-8")))?;
        let name = object_name(text, self.prefix());
        let bucket = if self.layout.bucket_per_file {
            name.clone()
        } else {
            self.layout.bucket.clone()
        };
        Ok((bucket, name))
    }

    fn bucket(&self, name: &str) -> io::Result<Bucket<'_>> {
        self.client.bucket(name).map_err(invalid)
    }

    /// The key of the transfer at `offset` (in a bucket per file: `0`, `<offset>-<length>`).
    fn key(&self, name: &str, offset: u64, len: usize) -> String {
        match self.layout.bucket_per_file {
            true if offset == 0 => "0".to_string(),
            true => format!("{offset}-{len}"),
            false => transfer_key(name, offset, len),
        }
    }

    /// HEAD of the file's first transfer (a bucket per file: of its `0`): its size.
    fn first_size(&self, bucket: &str, name: &str) -> io::Result<u64> {
        let key = self.key(name, 0, 0);
        self.bucket(bucket)?.size(&key).map_err(io)
    }

    /// `<bucket>-` before every name, with a bucket per file.
    fn prefix(&self) -> Option<&str> {
        self.layout
            .bucket_per_file
            .then_some(self.layout.bucket.as_str())
    }

    /// The object (a bucket per file: the bucket) of directory `target`.
    fn dir_object(&self, target: Target<'_>) -> io::Result<String> {
        let path = target.file_path(API)?.to_string_lossy().into_owned();
        Ok(dir_name(&path, self.prefix()))
    }

    fn unsupported(what: &str) -> io::Error {
        io::Error::new(io::ErrorKind::Unsupported, format!("{API}: {what}"))
    }
}

impl Engine for Libs3Engine {
    fn caps(&self) -> Caps {
        CAPS
    }

    fn take_requests(&self) -> Option<engine::RequestTally> {
        Some(self.client.take_requests())
    }

    fn open(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        _hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        let (bucket, name) = self.file(target)?;
        match mode {
            OpenMode::ReadOnly => {
                self.first_size(&bucket, &name)?;
            }
            // IOR's create: an empty object under the name (a bucket per file: the bucket).
            _ if self.layout.bucket_per_file => {
                self.bucket(&bucket)?.create().map(drop).map_err(io)?;
            }
            _ => self.bucket(&bucket)?.put(&name, &[]).map_err(io)?,
        }
        Ok(Box::new(Libs3File {
            engine: Libs3Engine {
                client: Arc::clone(&self.client),
                layout: self.layout.clone(),
            },
            bucket,
            name,
            writes: mode != OpenMode::ReadOnly,
        }))
    }

    /// DELETE of the name, then of its other transfers' objects listed under it; a bucket per
    /// file is emptied of its transfers and removed. IOR deletes every object listed under the
    /// name, and so another file's whose name starts with it (`fb` is a prefix of `fbu00000001b`,
    /// `-o f` of `-F -o f`'s): iogauge deletes only `<name>-<offset>-<length>`.
    fn remove(&self, target: Target<'_>) -> io::Result<()> {
        let (bucket, name) = self.file(target)?;
        let b = self.bucket(&bucket)?;
        let prefix = if self.layout.bucket_per_file {
            String::new()
        } else {
            b.remove(&name).map_err(io)?;
            format!("{name}-")
        };
        for o in b.list_all(&prefix).map_err(io)? {
            let rest = &o.key[prefix.len()..];
            if is_transfer(rest) || (self.layout.bucket_per_file && rest == "0") {
                b.remove(&o.key).map_err(io)?;
            }
        }
        if self.layout.bucket_per_file {
            b.delete().map_err(io)?;
        }
        Ok(())
    }

    /// The first transfer's size, as IOR's (its TODO: the others are not added).
    fn file_size(&self, target: Target<'_>) -> io::Result<u64> {
        let (bucket, name) = self.file(target)?;
        self.first_size(&bucket, &name)
    }

    fn target_info(&self, target: Target<'_>) -> io::Result<TargetInfo> {
        let found = self
            .file(target)
            .and_then(|(bucket, name)| self.first_size(&bucket, &name))
            .is_ok();
        Ok(TargetInfo {
            kind: found.then_some(FileKind::File),
            exists: found,
            is_file: found,
            writable: true,
            fs_type: Some("s3".into()),
            mount_source: Some(self.client.endpoint().url.clone()),
            ..TargetInfo::default()
        })
    }

    /// IOR's mkdir: an empty object named by the path's letters and digits.
    fn mkdir(&self, target: Target<'_>) -> io::Result<()> {
        let name = self.dir_object(target)?;
        let done = if self.layout.bucket_per_file {
            self.bucket(&name)?.create().map(drop)
        } else {
            self.bucket(&self.layout.bucket)?.put(&name, &[])
        };
        match done {
            Ok(()) => Ok(()),
            Err(_) if self.layout.s3_compatible => Ok(()),
            Err(e) => Err(io(e)),
        }
    }

    fn rmdir(&self, target: Target<'_>) -> io::Result<()> {
        let name = self.dir_object(target)?;
        if self.layout.bucket_per_file {
            self.bucket(&name)?.delete().map_err(io)
        } else {
            self.bucket(&self.layout.bucket)?.remove(&name).map_err(io)
        }
    }

    fn stat(&self, target: Target<'_>) -> io::Result<FileStat> {
        let size = self.file_size(target)?;
        Ok(FileStat {
            size,
            is_dir: false,
            kind: FileKind::File,
            ctime_sec: 0,
            ctime_nsec: 0,
        })
    }

    fn lstat(&self, target: Target<'_>) -> io::Result<FileStat> {
        self.stat(target)
    }

    fn create_file(&self, _target: Target<'_>, _data: &[u8]) -> io::Result<()> {
        Err(Self::unsupported("metadata workloads use -a S3"))
    }

    fn create_file_synced(&self, target: Target<'_>, data: &[u8]) -> io::Result<()> {
        self.create_file(target, data)
    }

    fn rename(&self, _from: Target<'_>, _to: Target<'_>) -> io::Result<()> {
        Err(Self::unsupported("objects are not renamed"))
    }

    fn sync_all(&self) -> io::Result<()> {
        Ok(())
    }

    fn read_file(&self, _target: Target<'_>, _buf: &mut [u8]) -> io::Result<usize> {
        Err(Self::unsupported("metadata workloads use -a S3"))
    }

    fn read_dir(&self, _target: Target<'_>) -> io::Result<Vec<DirEntry>> {
        Err(Self::unsupported("metadata workloads use -a S3"))
    }
}

/// An open file: its bucket and object name.
struct Libs3File {
    engine: Libs3Engine,
    bucket: String,
    name: String,
    writes: bool,
}

impl EngineFile for Libs3File {
    /// One PUT of the transfer's own object.
    fn write_at(&mut self, buf: &[u8], offset: u64) -> io::Result<usize> {
        if !self.writes {
            return Err(io::Error::from_raw_os_error(libc::EBADF));
        }
        let key = self.engine.key(&self.name, offset, buf.len());
        match self.engine.bucket(&self.bucket)?.put(&key, buf) {
            Ok(()) => Ok(buf.len()),
            // IOR's s3-compatible mode does not check a transfer's status.
            Err(_) if self.engine.layout.s3_compatible => Ok(buf.len()),
            Err(e) => Err(io(e)),
        }
    }

    /// A GET of the transfer's object, its first `buf.len()` bytes (libs3 sends the range).
    fn read_at(&mut self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        let key = self.engine.key(&self.name, offset, buf.len());
        match self.engine.bucket(&self.bucket)?.get_range(&key, 0, buf) {
            Ok(n) => Ok(n),
            Err(_) if self.engine.layout.s3_compatible => Ok(buf.len()),
            Err(e) => Err(io(e)),
        }
    }

    /// IOR's fsync of S3 does nothing: a PUT is durable when answered.
    fn sync(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn close(self: Box<Self>) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_as_ior_makes_them() {
        // '.' is 46: 'a' + 1, 'a' + 20.
        assert_eq!(
            object_name("/tmp/testFile.00000001", None),
            "_tmp_testfilebu00000001b"
        );
        assert_eq!(object_name("a-b_c", None), "abtbdrcb");
        assert_eq!(object_name("f", Some("ior7")), "ior7-fb");
        assert_eq!(dir_name("/tmp/X/3", None), "tmpx3");
        assert_eq!(dir_name("d", Some("ior7")), "ior7-d");
        assert_eq!(transfer_key("nb", 0, 10), "nb");
        assert_eq!(transfer_key("nb", 4096, 1024), "nb-4096-1024");
        assert!(is_transfer("4096-1024"));
        for other in ["u00000001b", "4096", "4096-", "-1", "a-1", "1-2-3"] {
            assert!(!is_transfer(other), "{other}");
        }
    }

    #[test]
    fn the_bucket_suffix_is_iors_checksum() {
        // "AB": 65 + 66 * 10 = 725.
        assert_eq!(bucket_name("ior", "AB", false), "ior725");
        assert_eq!(bucket_name("ior", "AB", true), "ior");
        // "A": 65, printed without leading zeros.
        assert_eq!(bucket_name("ior", "A", false), "ior65");
        // 25 characters: 10^20 wraps in 64 bits, as in IOR's uint64_t (worked out apart,
        // in Python with arithmetic modulo 2^64).
        assert_eq!(bucket_name("p", "ABCDEFGHIJKLMNOPQRSTUVWXY", false), "p681");
    }
}
