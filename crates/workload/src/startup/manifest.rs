//! The files every rank reads, listed once before the run: the generated tree's, or those of
//! an existing `--tree`, which rank 0 alone walks (so that the ranks do not warm the caches
//! the run measures) and sends to the others.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::shape::Layout;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    pub root: PathBuf,
    /// Every regular file with its size when listed, in read order.
    pub files: Vec<(PathBuf, u64)>,
    /// Directories, the root included.
    pub dirs: u64,
    /// Entries that are neither regular files nor directories (not read).
    pub skipped: u64,
}

impl Manifest {
    /// The generated tree `layout` at `root`.
    pub fn generated(root: &Path, layout: &Layout) -> Manifest {
        Manifest {
            root: root.to_path_buf(),
            files: layout
                .files
                .iter()
                .map(|(f, size)| (root.join(f), *size))
                .collect(),
            dirs: layout.dirs.len() as u64 + 1,
            skipped: 0,
        }
    }

    /// An existing tree: in each directory its files by name, then its directories by name,
    /// depth first. Symbolic links are not followed; an unreadable directory is an error
    /// naming it.
    pub fn walk(root: &Path) -> Result<Manifest, String> {
        let mut m = Manifest {
            root: root.to_path_buf(),
            ..Manifest::default()
        };
        m.visit(root)?;
        Ok(m)
    }

    fn visit(&mut self, dir: &Path) -> Result<(), String> {
        self.dirs += 1;
        let unreadable = |e: std::io::Error| format!("{}: cannot be read: {e}", dir.display());
        let mut entries = Vec::new();
        for e in std::fs::read_dir(dir).map_err(unreadable)? {
            let e = e.map_err(unreadable)?;
            let kind = e.file_type().map_err(unreadable)?;
            entries.push((e.file_name(), kind));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut subdirs = Vec::new();
        for (name, kind) in entries {
            let path = dir.join(&name);
            if kind.is_file() {
                let size = std::fs::symlink_metadata(&path).map_err(unreadable)?.len();
                self.files.push((path, size));
            } else if kind.is_dir() {
                subdirs.push(path);
            } else {
                self.skipped += 1;
            }
        }
        subdirs.iter().try_for_each(|d| self.visit(d))
    }

    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.1).sum()
    }

    /// For the other ranks: counts, the root and every file, little-endian.
    pub fn encode(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + self.files.len() * 80);
        b.extend(self.dirs.to_le_bytes());
        b.extend(self.skipped.to_le_bytes());
        put_path(&mut b, &self.root);
        b.extend((self.files.len() as u64).to_le_bytes());
        for (path, size) in &self.files {
            b.extend(size.to_le_bytes());
            put_path(&mut b, path);
        }
        b
    }

    pub fn decode(bytes: &[u8]) -> Result<Manifest, String> {
        let mut r = Reader(bytes);
        let bad = || "the list of files from rank 0 is cut short".to_string();
        let dirs = r.u64().ok_or_else(bad)?;
        let skipped = r.u64().ok_or_else(bad)?;
        let root = r.path().ok_or_else(bad)?;
        let n = r.u64().ok_or_else(bad)?;
        let mut files = Vec::new();
        for _ in 0..n {
            let size = r.u64().ok_or_else(bad)?;
            files.push((r.path().ok_or_else(bad)?, size));
        }
        Ok(Manifest {
            root,
            files,
            dirs,
            skipped,
        })
    }
}

fn put_path(b: &mut Vec<u8>, p: &Path) {
    let raw = p.as_os_str().as_bytes();
    b.extend((raw.len() as u64).to_le_bytes());
    b.extend(raw);
}

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        if self.0.len() < n {
            return None;
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Some(head)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }

    fn path(&mut self) -> Option<PathBuf> {
        let n = usize::try_from(self.u64()?).ok()?;
        Some(PathBuf::from(OsStr::from_bytes(self.take(n)?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::startup::shape::generate;

    #[test]
    fn a_walk_lists_files_before_subdirectories() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path();
        std::fs::create_dir_all(r.join("b/c")).unwrap();
        std::fs::create_dir(r.join("a")).unwrap();
        for (f, n) in [("z.py", 3), ("b/x", 1), ("b/c/y", 2), ("a/w", 0)] {
            std::fs::write(r.join(f), vec![0u8; n]).unwrap();
        }
        std::os::unix::fs::symlink(r.join("z.py"), r.join("b/link")).unwrap();
        let m = Manifest::walk(r).unwrap();
        let names: Vec<(String, u64)> = m
            .files
            .iter()
            .map(|(p, s)| (p.strip_prefix(r).unwrap().display().to_string(), *s))
            .collect();
        let want = [("z.py", 3), ("a/w", 0), ("b/x", 1), ("b/c/y", 2)];
        let want: Vec<(String, u64)> = want.iter().map(|(p, s)| (p.to_string(), *s)).collect();
        assert_eq!(names, want);
        assert_eq!((m.dirs, m.skipped, m.bytes()), (4, 1, 6));
        assert_eq!(Manifest::decode(&m.encode()), Ok(m));
        let e = Manifest::walk(&r.join("absent")).unwrap_err();
        assert!(e.contains("absent: cannot be read"), "{e}");
    }

    #[test]
    fn a_generated_tree_travels_whole() {
        let m = Manifest::generated(Path::new("/x/t"), &generate(50, 3));
        assert_eq!(m.files.len(), 50);
        assert!(m.files.iter().all(|f| f.0.starts_with("/x/t")));
        let bytes = m.encode();
        assert_eq!(Manifest::decode(&bytes), Ok(m));
        assert!(Manifest::decode(&bytes[..bytes.len() - 1]).is_err());
    }
}
