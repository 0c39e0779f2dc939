//! Local wall-clock time in `strftime` formats, as the IO500 prints it (`localtime` +
//! `strftime`): directory timestamps and result.txt's `t_start`/`t_end`.

use std::ffi::CString;

/// `strftime(fmt, localtime(now))`.
pub fn local_now(fmt: &str) -> String {
    // SAFETY: time(NULL) only reads the clock.
    let now = unsafe { libc::time(std::ptr::null_mut()) };
    local(now, fmt)
}

/// `strftime(fmt, localtime(t))`; empty if the format cannot be used.
pub fn local(t: libc::time_t, fmt: &str) -> String {
    let Ok(cfmt) = CString::new(fmt) else {
        return String::new();
    };
    // SAFETY: tm is plain data; localtime_r fills it from a valid time_t.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    if unsafe { libc::localtime_r(&t, &mut tm) }.is_null() {
        return String::new();
    }
    let mut buf = [0u8; 128];
    // SAFETY: buf is writable for its length; cfmt is NUL-terminated; tm was filled above.
    let n = unsafe {
        libc::strftime(
            buf.as_mut_ptr() as *mut libc::c_char,
            buf.len(),
            cfmt.as_ptr(),
            &tm,
        )
    };
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// result.txt's date format (`u_print_timestamp`).
pub const DATE: &str = "%Y-%m-%d %H:%M:%S";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_like_strftime() {
        let ts = local_now(crate::io500::seeds::TIMESTAMP_FORMAT);
        assert_eq!(ts.len(), "2024.11.11-00.01.32".len(), "{ts}");
        assert_eq!(&ts[4..5], ".");
        assert_eq!(&ts[10..11], "-");
        assert_eq!(local_now(DATE).len(), "2024-11-11 00:01:32".len());
    }
}
