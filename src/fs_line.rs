//! IOR's `FS` header line from statvfs(3) of the directory holding the test file.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

pub fn fs_line(dir: &Path) -> String {
    let Ok(c) = CString::new(dir.as_os_str().as_bytes()) else {
        return String::new();
    };
    // SAFETY: statvfs fills the zeroed struct; the path is NUL-terminated.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return "unknown".to_string();
    }
    let total = st.f_blocks as f64 * st.f_frsize as f64;
    let free = st.f_bfree as f64 * st.f_frsize as f64;
    let used = if total > 0.0 {
        (1.0 - free / total) * 100.0
    } else {
        0.0
    };
    let (size, unit) = if total / (1u64 << 30) as f64 > 1024.0 {
        (total / (1u64 << 40) as f64, "TiB")
    } else {
        (total / (1u64 << 30) as f64, "GiB")
    };
    let inodes = st.f_files as f64;
    let used_inodes = if inodes > 0.0 {
        (1.0 - st.f_ffree as f64 / inodes) * 100.0
    } else {
        0.0
    };
    format!(
        "{size:.1} {unit}   Used FS: {used:.1}%   Inodes: {:.1} Mi   Used Inodes: {used_inodes:.1}%",
        inodes / (1u64 << 20) as f64
    )
}
