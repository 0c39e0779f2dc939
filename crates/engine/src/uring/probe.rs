//! Whether this kernel runs the ring a run asks for, asked before any I/O: a ring of the
//! run's depth (with its SQPOLL thread when asked) is set up and the operations the engine
//! uses are looked up in the kernel's probe. A refusal names its reason.

use std::io;

use io_uring::{opcode, IoUring, Probe};

use super::{Taskrun, UringOpts};
use crate::errno;

/// The kernel's `kernel.io_uring_disabled` (0 enabled, 1 limited to `kernel.io_uring_group`,
/// 2 disabled); `None` where the kernel has no such setting.
fn disabled_setting() -> Option<u8> {
    std::fs::read_to_string("/proc/sys/kernel/io_uring_disabled")
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// A ring of `depth` entries as the engine runs it. Without SQPOLL the kernel's completion
/// work waits for the rank's thread to ask for completions (COOP_TASKRUN, SINGLE_ISSUER,
/// DEFER_TASKRUN, as fio's io_uring engine sets them): no interruption of the thread per
/// completion. Kernels before 6.1 refuse those flags (EINVAL) and get a plain ring; a depth
/// the kernel refuses is refused by that second try too.
pub(super) fn new_ring(depth: u32, sqpoll: bool, taskrun: Taskrun) -> io::Result<IoUring> {
    if sqpoll {
        return IoUring::builder().setup_sqpoll(1000).build(depth);
    }
    let mut b = IoUring::builder();
    match taskrun {
        Taskrun::Defer => b
            .setup_coop_taskrun()
            .setup_single_issuer()
            .setup_defer_taskrun(),
        Taskrun::Coop => b.setup_coop_taskrun().setup_single_issuer(),
        Taskrun::Plain => &mut b,
    };
    match b.build(depth) {
        // A kernel without the flags (before 6.0/6.1): the plain ring.
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) && taskrun != Taskrun::Plain => {
            IoUring::builder().build(depth)
        }
        ring => ring,
    }
}

/// Ok when a ring of `o.depth` entries with `o`'s features can be set up and does the
/// operations the engine needs; Err is the reason, for one line after `-a IOURING: `.
pub fn probe(o: &UringOpts) -> Result<(), String> {
    let mut builder = IoUring::<io_uring::squeue::Entry, io_uring::cqueue::Entry>::builder();
    if o.sqpoll {
        builder.setup_sqpoll(1000);
    }
    let ring = builder.build(o.depth).map_err(|e| setup_refused(o, &e))?;
    let mut probe = Probe::new();
    ring.submitter().register_probe(&mut probe).map_err(|e| {
        format!(
            "this kernel's io_uring cannot say what it supports (IORING_REGISTER_PROBE: {}; \
             Linux 5.6 or later is needed)",
            errno::describe(&e)
        )
    })?;
    let mut needed = vec![
        ("read", opcode::Read::CODE),
        ("write", opcode::Write::CODE),
        ("fsync", opcode::Fsync::CODE),
    ];
    if o.fixed_bufs {
        needed.push(("read with a fixed buffer", opcode::ReadFixed::CODE));
        needed.push(("write with a fixed buffer", opcode::WriteFixed::CODE));
    }
    for (what, code) in needed {
        if !probe.is_supported(code) {
            return Err(format!("this kernel's io_uring has no {what} operation"));
        }
    }
    Ok(())
}

/// Why `io_uring_setup` refused the ring, in the user's terms.
fn setup_refused(o: &UringOpts, e: &io::Error) -> String {
    let (depth_name, _) = o.names();
    let err = errno::describe(e);
    match e.raw_os_error() {
        Some(libc::ENOSYS) => format!(
            "io_uring is not available: io_uring_setup failed with {err} (a kernel built without \
             io_uring, or a seccomp filter, e.g. a container's, that forbids it)"
        ),
        Some(libc::EPERM) => match disabled_setting() {
            Some(2) => format!("io_uring is disabled on this machine (kernel.io_uring_disabled = 2; {err})"),
            Some(1) => format!(
                "io_uring is limited to the group kernel.io_uring_group, which this user is not in \
                 (kernel.io_uring_disabled = 1; {err})"
            ),
            _ if o.sqpoll => format!(
                "the kernel refuses --iouring.sqpoll for this user ({err}); run without it"
            ),
            _ => format!("io_uring_setup was refused: {err}"),
        },
        Some(libc::EINVAL) => format!(
            "{depth_name} {}: the kernel refuses a ring of that many entries (io_uring_setup: {err}; \
             its limit is IORING_MAX_ENTRIES, 32768 in Linux)",
            o.depth
        ),
        Some(libc::ENOMEM) => format!(
            "{depth_name} {}: the kernel cannot allocate or lock the memory of the ring ({err}; \
             see ulimit -l)",
            o.depth
        ),
        _ => format!("io_uring_setup failed: {err}"),
    }
}
