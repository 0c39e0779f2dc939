//! What an engine operation names, and what an engine can say about it before a run.
//!
//! A [`Target`] is borrowed and `Copy`, so passing one costs what a `&Path` did. File engines
//! have a path namespace, object engines (S3) a bucket and key ([`Target::Object`]); an engine
//! given a kind it cannot serve answers `io::ErrorKind::Unsupported` ([`Target::file_path`],
//! [`Target::object`]).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Where an engine operation goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target<'a> {
    /// A file or directory of a file system (file engines).
    Path(&'a Path),
    /// An object of an object store: its bucket and key (object engines). A key prefix
    /// ending in `/` stands for a directory where a workload needs one.
    Object { bucket: &'a str, key: &'a str },
}

impl<'a> Target<'a> {
    pub fn path(p: &'a Path) -> Self {
        Target::Path(p)
    }

    /// The path, for a target that is one.
    pub fn as_path(&self) -> Option<&'a Path> {
        match *self {
            Target::Path(p) => Some(p),
            Target::Object { .. } => None,
        }
    }

    /// Bucket and key, for a target that is an object.
    pub fn as_object(&self) -> Option<(&'a str, &'a str)> {
        match *self {
            Target::Object { bucket, key } => Some((bucket, key)),
            Target::Path(_) => None,
        }
    }

    /// An object engine's target for a workload's name (`-o`, a tree's path): the key is
    /// the name's text without leading `/` and `./` (`/tmp/x/f` is key `tmp/x/f`), in `bucket`.
    pub fn named(bucket: &'a str, name: &'a Path) -> Self {
        Target::Object {
            bucket,
            key: Self::key_of(name),
        }
    }

    /// The object key a name stands for: its text without leading `/` and `./`; empty for a
    /// name that is not UTF-8 (the object engines' checks refuse those before a run).
    pub fn key_of(name: &'a Path) -> &'a str {
        let mut key = name.to_str().unwrap_or_default();
        loop {
            let rest = key.trim_start_matches('/');
            let rest = rest.strip_prefix("./").unwrap_or(rest);
            if rest.len() == key.len() {
                return key;
            }
            key = rest;
        }
    }

    /// The bucket and key an object engine (`api`) works on; `Unsupported` for a path.
    pub fn object(self, api: &str) -> io::Result<(&'a str, &'a str)> {
        self.as_object().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::Unsupported,
                format!("the {api} engine works on objects (bucket and key), not on {self}"),
            )
        })
    }

    /// The path a file engine (`api`, as in its messages) works on; `Unsupported` for a
    /// target that is not a path.
    pub fn file_path(self, api: &str) -> io::Result<&'a Path> {
        self.as_path().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::Unsupported,
                format!("the {api} engine works on paths, not on {self}"),
            )
        })
    }
}

impl<'a> From<&'a Path> for Target<'a> {
    fn from(p: &'a Path) -> Self {
        Target::Path(p)
    }
}

impl<'a> From<&'a PathBuf> for Target<'a> {
    fn from(p: &'a PathBuf) -> Self {
        Target::Path(p.as_path())
    }
}

impl fmt::Display for Target<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Path(p) => write!(f, "{}", p.display()),
            Target::Object { bucket, key } => write!(f, "s3://{bucket}/{key}"),
        }
    }
}

/// What a name is, as `lstat` tells it (a final symbolic link is itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    File,
    Dir,
    Symlink,
    /// A block or character device.
    Device,
    /// A named pipe.
    Fifo,
    Socket,
    Other,
}

impl FileKind {
    /// From a file mode's type bits (`st_mode & S_IFMT`).
    pub fn from_mode(mode: libc::mode_t) -> Self {
        match mode & libc::S_IFMT {
            libc::S_IFREG => FileKind::File,
            libc::S_IFDIR => FileKind::Dir,
            libc::S_IFLNK => FileKind::Symlink,
            libc::S_IFBLK | libc::S_IFCHR => FileKind::Device,
            libc::S_IFIFO => FileKind::Fifo,
            libc::S_IFSOCK => FileKind::Socket,
            _ => FileKind::Other,
        }
    }
}

impl From<std::fs::FileType> for FileKind {
    fn from(t: std::fs::FileType) -> Self {
        use std::os::unix::fs::FileTypeExt;
        if t.is_file() {
            FileKind::File
        } else if t.is_dir() {
            FileKind::Dir
        } else if t.is_symlink() {
            FileKind::Symlink
        } else if t.is_block_device() || t.is_char_device() {
            FileKind::Device
        } else if t.is_fifo() {
            FileKind::Fifo
        } else if t.is_socket() {
            FileKind::Socket
        } else {
            FileKind::Other
        }
    }
}

/// Space and inodes of the storage that holds a target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Space {
    pub total_bytes: u64,
    /// Free bytes, the blocks reserved for root included (`f_bfree`).
    pub free_bytes: u64,
    /// Free bytes an unprivileged user may take (`f_bavail`, as `df` shows).
    pub avail_bytes: u64,
    pub total_inodes: u64,
    pub free_inodes: u64,
}

/// What an engine says about a target before a run ([`crate::Engine::target_info`]): what is
/// there, and the storage that holds it. Facts the engine cannot know are `None`. For a target
/// that does not exist, the storage facts are those of where it would be made (for a path, its
/// nearest existing ancestor), so that a run directory made later is still described.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TargetInfo {
    /// Something is at the target's name (a dangling symbolic link too); `lstat`'s answer.
    pub kind: Option<FileKind>,
    /// The target exists with a final symbolic link followed (`stat` succeeds) ...
    pub exists: bool,
    /// ... and is a directory, or a regular file.
    pub is_dir: bool,
    pub is_file: bool,
    /// This process may create and remove names in it (a directory: write and search
    /// permission, `access(W_OK|X_OK)`).
    pub writable: bool,
    /// Its canonical path (symbolic links resolved), where it exists and has one.
    pub resolved: Option<PathBuf>,
    /// It is the root of a mounted file system.
    pub mount_root: bool,
    /// The file system's type name (`ext4`, `nfs4`, `lustre`, `tmpfs`; `dummy`).
    pub fs_type: Option<String>,
    /// The statfs `f_type` magic number.
    pub fs_magic: Option<u64>,
    pub mount_point: Option<String>,
    /// What is mounted there (a device, `server:/export`).
    pub mount_source: Option<String>,
    /// Per-mount options, then the super-block options not already listed (as `findmnt`).
    pub mount_options: Option<String>,
    pub space: Option<Space>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_and_display() {
        let owned = PathBuf::from("/tmp/a b");
        let t = Target::from(&owned);
        assert_eq!(t, Target::path(Path::new("/tmp/a b")));
        assert_eq!(t, Target::from(owned.as_path()));
        assert_eq!(t.as_path(), Some(owned.as_path()));
        assert_eq!(t.to_string(), "/tmp/a b");
        assert_eq!(t.file_path("POSIX").unwrap(), owned.as_path());
    }

    #[test]
    fn names_become_keys() {
        for (name, key) in [
            ("/tmp/x/f", "tmp/x/f"),
            ("./f", "f"),
            ("//.//a/b", "a/b"),
            ("testFile", "testFile"),
            ("3/f.00000003", "3/f.00000003"),
        ] {
            assert_eq!(Target::key_of(Path::new(name)), key, "{name}");
        }
        let t = Target::named("b", Path::new("/d/f.1"));
        assert_eq!(t.as_object(), Some(("b", "d/f.1")));
        assert_eq!(t.to_string(), "s3://b/d/f.1");
    }

    #[test]
    fn kinds_from_modes_and_types() {
        assert_eq!(FileKind::from_mode(libc::S_IFDIR | 0o755), FileKind::Dir);
        assert_eq!(FileKind::from_mode(libc::S_IFREG), FileKind::File);
        assert_eq!(FileKind::from_mode(libc::S_IFCHR), FileKind::Device);
        assert_eq!(FileKind::from_mode(libc::S_IFIFO), FileKind::Fifo);
        let d = tempfile::tempdir().unwrap();
        let md = std::fs::symlink_metadata(d.path()).unwrap();
        assert_eq!(FileKind::from(md.file_type()), FileKind::Dir);
        let dev = std::fs::metadata("/dev/null").unwrap();
        assert_eq!(FileKind::from(dev.file_type()), FileKind::Device);
    }
}
