//! Storage errors in words a user can search for: the system's message and the errno's
//! name (`No space left on device (ENOSPC)`), instead of Rust's `(os error 28)`.

use std::io;

/// The names of the errors storage commonly returns; others keep the number.
const NAMES: &[(i32, &str)] = &[
    (libc::EPERM, "EPERM"),
    (libc::ENOENT, "ENOENT"),
    (libc::EINTR, "EINTR"),
    (libc::EIO, "EIO"),
    (libc::ENXIO, "ENXIO"),
    (libc::EBADF, "EBADF"),
    (libc::EAGAIN, "EAGAIN"),
    (libc::ENOMEM, "ENOMEM"),
    (libc::EACCES, "EACCES"),
    (libc::EBUSY, "EBUSY"),
    (libc::EEXIST, "EEXIST"),
    (libc::EXDEV, "EXDEV"),
    (libc::ENODEV, "ENODEV"),
    (libc::ENOTDIR, "ENOTDIR"),
    (libc::EISDIR, "EISDIR"),
    (libc::EINVAL, "EINVAL"),
    (libc::ENFILE, "ENFILE"),
    (libc::EMFILE, "EMFILE"),
    (libc::EFBIG, "EFBIG"),
    (libc::ENOSPC, "ENOSPC"),
    (libc::EROFS, "EROFS"),
    (libc::EMLINK, "EMLINK"),
    (libc::ENAMETOOLONG, "ENAMETOOLONG"),
    (libc::ENOTEMPTY, "ENOTEMPTY"),
    (libc::ELOOP, "ELOOP"),
    (libc::EOPNOTSUPP, "EOPNOTSUPP"),
    (libc::ENOSYS, "ENOSYS"),
    (libc::ETIMEDOUT, "ETIMEDOUT"),
    (libc::ESTALE, "ESTALE"),
    (libc::EDQUOT, "EDQUOT"),
    (libc::ENOTCONN, "ENOTCONN"),
    (libc::ECONNRESET, "ECONNRESET"),
];

/// `EIO` for 5, ...; `None` for numbers not in the table.
pub fn name(errno: i32) -> Option<&'static str> {
    NAMES.iter().find(|(n, _)| *n == errno).map(|(_, s)| *s)
}

/// The errno a name stands for (`EIO` -> 5), ignoring case.
pub fn number(name: &str) -> Option<i32> {
    NAMES
        .iter()
        .find(|(_, s)| s.eq_ignore_ascii_case(name))
        .map(|(n, _)| *n)
}

/// An error as a message line: `No space left on device (ENOSPC)` for a system error with a
/// known name, else the error's own text.
pub fn describe(e: &io::Error) -> String {
    let text = e.to_string();
    let Some(code) = e.raw_os_error() else {
        return text;
    };
    let plain = text
        .strip_suffix(&format!(" (os error {code})"))
        .unwrap_or(&text);
    match name(code) {
        Some(n) => format!("{plain} ({n})"),
        None => format!("{plain} (errno {code})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_messages() {
        assert_eq!(name(libc::ENOSPC), Some("ENOSPC"));
        assert_eq!(number("estale"), Some(libc::ESTALE));
        assert_eq!(number("ENOSUCH"), None);
        let e = io::Error::from_raw_os_error(libc::ENOSPC);
        assert_eq!(describe(&e), "No space left on device (ENOSPC)");
        let odd = io::Error::from_raw_os_error(4095);
        assert!(
            describe(&odd).ends_with("(errno 4095)"),
            "{}",
            describe(&odd)
        );
        let custom = io::Error::other("O_DIRECT transfer is not aligned");
        assert_eq!(describe(&custom), "O_DIRECT transfer is not aligned");
    }
}
