//! The stop flag is process-wide, so the waits it cuts short are tested in a process of their
//! own (the unit tests of `exec` run with the flag clear).

use std::time::{Duration, Instant};

use exec::interrupt;

#[test]
fn a_signal_ends_every_wait_early() {
    interrupt::request(libc::SIGTERM);
    let t0 = Instant::now();
    let clock = || t0.elapsed().as_nanos() as u64;
    // Sleeping part: cut at once; the reading returned is before the due time.
    let due = 10_000_000_000;
    assert!(interrupt::wait_until(due, clock, 200_000) < due);
    assert!(!interrupt::sleep(Duration::from_secs(10)));
    assert!(t0.elapsed() < Duration::from_secs(5));
    assert_eq!(interrupt::signal(), Some(libc::SIGTERM));
}
