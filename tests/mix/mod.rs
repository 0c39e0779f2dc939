//! `iogauge mix`: the refusals before any I/O, the dry run, a short real ramp on /tmp with
//! thread ranks (the tree made and removed, the steps, the knee and the document), the stop
//! at the latency limit and an overloaded step flagged.

mod bad_input;
mod ramp;

use std::path::Path;

/// A small mix file in `dir`; `extra` is appended (more keys, to be refused).
pub fn mix_file(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    path.display().to_string()
}

/// Every operation, a few small files per rank.
pub const SMALL: &str = "\
[operations]
stat = 30
open-read = 15
open-write = 10
create = 10
unlink = 8
rename = 7
chmod = 5
readdir = 5
mkdir = 5
rmdir = 5
[tree]
dirs = 4
files-per-dir = 10
file-size = \"2k\"
io-size = 1024
empty-dirs = 3
";
