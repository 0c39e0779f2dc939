//! Where DLIO's generated files live and the order its loaders list them in.
//!
//! DLIO (`DataGenerator.generate`, `DLIOBenchmark.initialize`):
//!
//! * file i of n: `<data_folder>/<split>/[<sub>/]<prefix>_<i>_of_<n>.<format>`, i zero-padded to
//!   the digits of n (`img_007_of_168.npz`), n unpadded, the extension the format's name;
//! * subfolders only when the split has more than one: file i goes to subfolder i mod k, named
//!   by its number padded to the digits of k (`train/07/`); with 0 or 1 the files sit in the
//!   split's folder (DLIO's loader then insists on 0: a data set generated with 1 fails its
//!   training run; we accept both);
//! * the loader lists the split folder (flat: entries whose names end with the format, sorted by
//!   full path; subfolders: `*/*.<format>` and `*/*.<FORMAT>`, sorted by file name) and uses the
//!   first `num_files` of that list. The names are padded, so for one data set this is index
//!   order; a folder holding files of another count (`_of_10` beside `_of_5`) mixes them in.

use std::io;
use std::path::{Path, PathBuf};

use super::DataFormat;

/// DLIO's two data sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Split {
    Train,
    Valid,
}

impl Split {
    /// The folder under `data_folder`, as DLIO names it.
    pub fn folder(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::Valid => "valid",
        }
    }

    /// A number that tells the splits apart in random keys.
    pub(crate) fn tag(self) -> u64 {
        match self {
            Split::Train => 1,
            Split::Valid => 2,
        }
    }
}

/// One split of a DLIO data set on a file system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// `dataset.data_folder` (DLIO strips trailing slashes; a `Path` does not care).
    pub data_folder: PathBuf,
    pub split: Split,
    /// `num_files_train` or `num_files_eval`.
    pub num_files: u64,
    /// `num_subfolders_train` or `num_subfolders_eval`.
    pub num_subfolders: u64,
    /// `dataset.file_prefix` (DLIO's default `img`).
    pub file_prefix: String,
    pub format: DataFormat,
}

impl Layout {
    /// `<data_folder>/<split>`.
    pub fn split_dir(&self) -> PathBuf {
        self.data_folder.join(self.split.folder())
    }

    /// Whether files are spread over subfolders (DLIO's generator: more than one).
    pub fn has_subfolders(&self) -> bool {
        self.num_subfolders > 1
    }

    /// The subfolders to create before writing, in number order (none when flat).
    pub fn subfolders(&self) -> Vec<PathBuf> {
        if !self.has_subfolders() {
            return Vec::new();
        }
        let digits = digits(self.num_subfolders);
        (0..self.num_subfolders)
            .map(|k| self.split_dir().join(padded(k, digits)))
            .collect()
    }

    /// `<prefix>_<i>_of_<n>.<format>`.
    pub fn file_name(&self, index: u64) -> String {
        format!(
            "{}_{}_of_{}.{}",
            self.file_prefix,
            padded(index, digits(self.num_files)),
            self.num_files,
            self.format.extension()
        )
    }

    /// The full path of file `index` (0-based, below `num_files`).
    pub fn file_path(&self, index: u64) -> PathBuf {
        let dir = self.split_dir();
        let dir = if self.has_subfolders() {
            dir.join(padded(
                index % self.num_subfolders,
                digits(self.num_subfolders),
            ))
        } else {
            dir
        };
        dir.join(self.file_name(index))
    }

    /// Every file of the split in the order DLIO's loader lists them (`file_list_train`).
    pub fn files_in_dlio_order(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = (0..self.num_files).map(|i| self.file_path(i)).collect();
        sort_as_dlio(&mut files, self.has_subfolders());
        files
    }

    /// What DLIO's loader would find in the split folder on disk, in its order, all of it (DLIO
    /// uses the first `num_files`; fewer is its "not enough dataset" error). A missing split
    /// folder is an error (`NotFound`); an empty one an empty list.
    pub fn list_on_disk(&self) -> io::Result<Vec<PathBuf>> {
        let dir = self.split_dir();
        let ext = self.format.extension();
        let mut found = Vec::new();
        if self.has_subfolders() {
            // DLIO globs `*/*.<ext>` and `*/*.<EXT>`: dot-files are skipped by the glob.
            let upper = ext.to_uppercase();
            for sub in visible_entries(&dir)? {
                if !sub.is_dir() {
                    continue;
                }
                for file in visible_entries(&sub)? {
                    if has_extension(&file, ext) || has_extension(&file, &upper) {
                        found.push(file);
                    }
                }
            }
        } else {
            // DLIO keeps every entry whose name ends with the format (no dot required).
            for entry in std::fs::read_dir(&dir)? {
                let path = entry?.path();
                if path
                    .as_os_str()
                    .as_encoded_bytes()
                    .ends_with(ext.as_bytes())
                {
                    found.push(path);
                }
            }
        }
        sort_as_dlio(&mut found, self.has_subfolders());
        Ok(found)
    }
}

/// DLIO's sort: by file name when the files are in subfolders, by full path when flat. Python
/// compares strings by code point, which for UTF-8 is byte order.
pub fn sort_as_dlio(files: &mut [PathBuf], in_subfolders: bool) {
    if in_subfolders {
        files.sort_by(|a, b| name_bytes(a).cmp(name_bytes(b)));
    } else {
        files.sort_by(|a, b| {
            a.as_os_str()
                .as_encoded_bytes()
                .cmp(b.as_os_str().as_encoded_bytes())
        });
    }
}

fn name_bytes(path: &Path) -> &[u8] {
    path.file_name().map_or(&[], |n| n.as_encoded_bytes())
}

/// Entries of `dir` whose names do not start with a dot (what a shell glob `*` matches).
fn visible_entries(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if !entry.file_name().as_encoded_bytes().starts_with(b".") {
            out.push(entry.path());
        }
    }
    Ok(out)
}

fn has_extension(path: &Path, ext: &str) -> bool {
    path.extension()
        .is_some_and(|e| e.as_encoded_bytes() == ext.as_bytes())
}

/// Python's `len(str(n))`.
fn digits(n: u64) -> usize {
    n.to_string().len()
}

/// DLIO's `add_padding`: `str(n).rjust(digits, "0")`.
fn padded(n: u64, digits: usize) -> String {
    format!("{n:0digits$}")
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
