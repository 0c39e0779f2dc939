//! `-a IOURING` and `-a AIO` refused before any I/O, each with its reason: a kernel that
//! refuses io_uring (a seccomp filter in the child makes `io_uring_setup` fail with ENOSYS, as
//! a container's profile does; the machine's own sysctl is never touched), depths the kernel
//! or the options refuse, and the options of other engines.

use std::os::unix::process::CommandExt;
use std::process::Command;

use crate::common::{bin, iogauge, listing, tmp};

/// x86-64's number of io_uring_setup(2) and the audit architecture of the filter.
#[cfg(target_arch = "x86_64")]
const SETUP: u32 = 425;
#[cfg(target_arch = "x86_64")]
const ARCH: u32 = 0xC000_003E;

/// Installs, in the calling process, a seccomp filter under which io_uring_setup fails with
/// ENOSYS and every other call is allowed.
#[cfg(target_arch = "x86_64")]
fn forbid_io_uring() -> std::io::Result<()> {
    const RET_ALLOW: u32 = 0x7fff_0000;
    const RET_ERRNO: u32 = 0x0005_0000;
    let stmt = |code: u16, k: u32| libc::sock_filter {
        code,
        jt: 0,
        jf: 0,
        k,
    };
    let jump = |code: u16, k: u32, jt: u8, jf: u8| libc::sock_filter { code, jt, jf, k };
    let (ld, jeq, ret) = (
        (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16,
        (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
        (libc::BPF_RET | libc::BPF_K) as u16,
    );
    // seccomp_data: nr at offset 0, arch at offset 4.
    let prog = [
        stmt(ld, 4),
        jump(jeq, ARCH, 1, 0),
        stmt(ret, RET_ALLOW),
        stmt(ld, 0),
        jump(jeq, SETUP, 0, 1),
        stmt(ret, RET_ERRNO | libc::ENOSYS as u32),
        stmt(ret, RET_ALLOW),
    ];
    let fprog = libc::sock_fprog {
        len: prog.len() as u16,
        filter: prog.as_ptr() as *mut libc::sock_filter,
    };
    // SAFETY: plain prctl calls on this (forked, about to exec) process; `fprog` outlives them.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
            || libc::prctl(libc::PR_SET_SECCOMP, libc::SECCOMP_MODE_FILTER, &fprog) != 0
        {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

#[cfg(target_arch = "x86_64")]
#[test]
fn a_kernel_that_refuses_io_uring_is_exit_2_before_any_io() {
    let d = tmp();
    let f = d.path().join("f");
    for api in ["IOURING", "AIO"] {
        let mut cmd = Command::new(bin());
        cmd.args([
            "--no-store",
            "ior",
            "-a",
            api,
            "-w",
            "-t",
            "4k",
            "-b",
            "64k",
            "-o",
        ])
        .arg(&f);
        // SAFETY: the closure only makes system calls, as pre_exec requires.
        unsafe { cmd.pre_exec(forbid_io_uring) };
        let out = cmd.output().expect("start iogauge");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{api}: {err}");
        assert!(
            err.contains(&format!("-a {api}: io_uring is not available"))
                && err.contains("(ENOSYS)")
                && err.contains("seccomp"),
            "{api}: {err}"
        );
        assert_eq!(listing(d.path()), Vec::<String>::new(), "no test file made");
    }
}

#[test]
fn depths_and_options_are_checked_before_any_io() {
    let d = tmp();
    let o = d.path().join("f");
    let refused = |args: &str, want: &[&str]| {
        let r = iogauge(&format!(
            "--no-store ior -w -t 4k -b 64k {args} -o {}",
            o.display()
        ))
        .code(2);
        for w in want {
            assert!(r.stderr.contains(w), "{args}: {}", r.stderr);
        }
    };
    refused("-a IOURING --iouring.depth 0", &["--iouring.depth 0"]);
    refused(
        "-a IOURING --iouring.depth deep",
        &["--iouring.depth", "deep"],
    );
    refused(
        "-a IOURING --iouring.depth 100000",
        &["--iouring.depth 100000", "(EINVAL)", "refuses a ring"],
    );
    refused("-a AIO --aio.max-pending 0", &["--aio.max-pending 0"]);
    refused(
        "-a AIO --aio.max-pending 8 --aio.granularity 16",
        &["--aio.granularity 16 exceeds --aio.max-pending 8"],
    );
    refused(
        "-a IOURING --iouring.odirect -t 1000 -b 64000",
        &["--iouring.odirect needs -t and -b"],
    );
    refused(
        "-a POSIX --iouring.depth 8",
        &["--iouring.* options apply to -a IOURING"],
    );
    refused(
        "-a DUMMY --dummy.reorder",
        &["--dummy.reorder applies to the queued mode"],
    );
    refused(
        "-a DUMMY --dummy.depth 4 --dummy.delay-xfer 10",
        &["--dummy.delay-xfer", "--dummy.complete-delay"],
    );
    refused("-a IOURING -Y", &["-Y"]);
    refused(
        "-a IOURING --iouring.taskrun eager",
        &["--iouring.taskrun eager: expected defer, coop or plain"],
    );
    refused(
        "-a IOURING --iouring.sqpoll --iouring.taskrun coop",
        &["--iouring.taskrun applies to rings without --iouring.sqpoll"],
    );
    refused(
        "-a IOURING --iouring.depth 8 --iouring.complete-min 9",
        &["--iouring.complete-min 9: at most --iouring.depth (8)"],
    );
    let md = iogauge(&format!(
        "--no-store mdtest -a IOURING -n 10 -d {}",
        o.display()
    ))
    .code(2);
    assert!(
        md.stderr.contains("no metadata operations"),
        "{}",
        md.stderr
    );
    assert_eq!(listing(d.path()), Vec::<String>::new(), "no test file made");
}

#[test]
fn fio_spellings_and_posix_odirect_with_aio_are_taken() {
    let d = tmp();
    let o = d.path().join("f");
    for engine in [
        "-a IOURING --iouring.fixedbufs --iouring.registerfiles --iouring.batch 4",
        "-a IOURING --iouring.fixed-bufs --iouring.register-files --iouring.depth 8",
        "-a IOURING --iouring.taskrun coop --iouring.depth 4",
        "-a IOURING --iouring.taskrun plain",
        // fio's iodepth_batch_complete_min: its default, and all in flight.
        "-a IOURING --iouring.complete-min 1",
        "-a IOURING --iouring.depth 4 --iouring.complete-min 4",
        "-a AIO --posix.odirect --aio.max-pending 16 --aio.granularity 4",
    ] {
        let r = iogauge(&format!(
            "--no-store ior {engine} -w -r -R -G 5 -t 64k -b 1m -o {}",
            o.display()
        ));
        if r.code != 0 && r.stderr.contains("io_uring is not available") {
            eprintln!("skipped: {}", r.stderr.trim());
            return;
        }
        let r = r.ok();
        assert!(
            !r.stderr.contains("verification failed"),
            "{engine}: {}",
            r.stderr
        );
    }
}

/// Under SQPOLL the kernel's thread publishes the entries it took at the end of its batch,
/// possibly after their completions: the queue waits for the room instead of failing
/// ("submission queue is full" in 3 of 6 runs before the wait). Reads of a tmpfs complete
/// inline, which makes the race likely.
#[test]
fn sqpoll_never_finds_the_submission_queue_full() {
    let shm = std::path::Path::new("/dev/shm");
    let d = if shm.is_dir() {
        tempfile::tempdir_in(shm).unwrap()
    } else {
        tmp()
    };
    let o = d.path().join("f");
    iogauge(&format!(
        "--no-store ior -N 2 -w -k -t 1m -b 16m -o {}",
        o.display()
    ))
    .ok();
    for _ in 0..4 {
        let r = iogauge(&format!(
            "--no-store ior -a IOURING --iouring.sqpoll --iouring.depth 32 -N 2 -E -k -r -z -t 4k \
             -b 16m -o {}",
            o.display()
        ));
        if r.code != 0 && r.stderr.contains("-a IOURING:") {
            eprintln!("skipped: {}", r.stderr.trim());
            return;
        }
        r.ok();
    }
}
