//! What kind of file a path is, in words, for the refusals of the checks before a run (a test
//! file that is a directory, a test directory that is a symbolic link, ...).

use std::fs::FileType;
use std::os::unix::fs::FileTypeExt;

/// "a directory", "a symbolic link", "a regular file", "a device", ...
pub fn describe(t: FileType) -> &'static str {
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_file() {
        "a regular file"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else if t.is_fifo() {
        "a named pipe"
    } else if t.is_socket() {
        "a socket"
    } else {
        "something else"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(&f, b"x").unwrap();
        let l = d.path().join("l");
        std::os::unix::fs::symlink(&f, &l).unwrap();
        let kind =
            |p: &std::path::Path| describe(std::fs::symlink_metadata(p).unwrap().file_type());
        assert_eq!(kind(d.path()), "a directory");
        assert_eq!(kind(&f), "a regular file");
        assert_eq!(kind(&l), "a symbolic link");
        assert_eq!(kind(std::path::Path::new("/dev/null")), "a device");
    }
}
