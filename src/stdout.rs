//! Standard output of every command. A reader that goes away (`iogauge io500 | head`) ends the
//! output, not the run: the first write that fails points standard output at /dev/null, so the
//! run still finishes, stores its results and removes its files, and no later write fails (Rust's
//! `print!` would panic there, since a run keeps SIGPIPE ignored). `clippy::print_stdout` is
//! denied in this crate so that every line goes through here.

use std::io::Write;

/// Writes `args` to standard output; on failure (a closed pipe) sends the rest to /dev/null.
pub fn write(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if out.write_fmt(args).is_err() {
        to_null();
    }
}

/// Points standard output at /dev/null (`--quiet`, or a reader that went away). Errors and
/// warnings, on standard error, still show.
pub fn to_null() {
    use std::os::fd::AsRawFd;
    if let Ok(null) = std::fs::OpenOptions::new().write(true).open("/dev/null") {
        // SAFETY: both descriptors are open; dup2 replaces stdout's with /dev/null's.
        unsafe { libc::dup2(null.as_raw_fd(), libc::STDOUT_FILENO) };
    }
}

/// `print!` that outlives its reader (see the module's text).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::stdout::write(format_args!($($arg)*))
    };
}

/// `println!` that outlives its reader (see the module's text).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::stdout::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
