//! Before an IO500 run prints or stores anything: can its data and result directories be
//! made? The IO500 creates every missing component of both (`u_create_dir_recursive`), so a
//! missing path is fine; a plain file on the way, or a nearest existing directory that this
//! user cannot write, is bad input (exit 2) instead of a failure after the header.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// `what` names the setting (`datadir`, `resultdir`) in the message.
pub fn check(what: &str, dir: &Path) -> Result<(), String> {
    let mut cur = Some(dir);
    while let Some(d) = cur.filter(|d| !d.as_os_str().is_empty()) {
        match std::fs::metadata(d) {
            Ok(m) if m.is_dir() && d == dir => return Ok(()),
            Ok(m) if m.is_dir() => {
                return if writable(d) {
                    Ok(())
                } else {
                    Err(format!(
                        "{what} {}: cannot create it, {} is not writable",
                        dir.display(),
                        d.display()
                    ))
                }
            }
            Ok(_) => {
                return Err(format!(
                    "{what} {}: {} is not a directory",
                    dir.display(),
                    d.display()
                ))
            }
            Err(_) => cur = d.parent(),
        }
    }
    // A relative path with no existing component: the working directory holds it.
    check(what, Path::new(".")).map_err(|_| {
        format!(
            "{what} {}: the working directory is not writable",
            dir.display()
        )
    })
}

fn writable(dir: &Path) -> bool {
    let Ok(c) = CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path; access(2) only reads it.
    unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) == 0 }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn a_file_on_the_way_is_named() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("f"), b"x").unwrap();
        let e = check("datadir", &d.path().join("f/sub")).unwrap_err();
        assert!(e.ends_with("/f is not a directory"), "{e}");
        assert!(check("datadir", &d.path().join("new/deeper")).is_ok());
        assert!(check("datadir", d.path()).is_ok());
    }
}
