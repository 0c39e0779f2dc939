//! What kind of file a path is, in words, for the refusals of the checks before a run (a test
//! file that is a directory, a test directory that is a symbolic link, ...).

use engine::FileKind;

/// "a directory", "a symbolic link", "a regular file", "a device", ...
pub fn describe(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Dir => "a directory",
        FileKind::Symlink => "a symbolic link",
        FileKind::File => "a regular file",
        FileKind::Device => "a device",
        FileKind::Fifo => "a named pipe",
        FileKind::Socket => "a socket",
        FileKind::Other => "something else",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Engine, PosixEngine, Target};

    #[test]
    fn kinds() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("f");
        std::fs::write(&f, b"x").unwrap();
        let l = d.path().join("l");
        std::os::unix::fs::symlink(&f, &l).unwrap();
        let e = PosixEngine::new(false);
        let kind = |p: &std::path::Path| describe(e.lstat(Target::from(p)).unwrap().kind);
        assert_eq!(kind(d.path()), "a directory");
        assert_eq!(kind(&f), "a regular file");
        assert_eq!(kind(&l), "a symbolic link");
        assert_eq!(kind(std::path::Path::new("/dev/null")), "a device");
    }
}
