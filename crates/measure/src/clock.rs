//! Process-wide clocks.
//!
//! `now_ns` is the only clock the hot path reads: monotonic and shared by every thread of the
//! process, so timestamps taken on different thread ranks compare directly.

use std::time::{SystemTime, UNIX_EPOCH};

/// Reads the clock once, so the vDSO page is mapped before the first measured operation.
pub fn init() {
    now_ns();
}

/// Monotonic nanoseconds (`CLOCK_MONOTONIC`, one `clock_gettime` through the vDSO, no
/// arithmetic beyond one multiply-add). The same clock for every thread of the process, so
/// timestamps taken on different thread ranks compare directly.
#[inline]
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Wall-clock nanoseconds since the UNIX epoch, for timestamps in results; not for intervals,
/// because it can jump. A clock set before 1970 gives 0.
pub fn wall_clock_ns() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monotonic_and_shared_across_threads() {
        init();
        let a = now_ns();
        let b = std::thread::spawn(now_ns).join().unwrap();
        let c = now_ns();
        assert!(a <= b && b <= c);
    }

    #[test]
    fn wall_clock_is_after_2020() {
        // 2020-01-01T00:00:00Z in ns.
        assert!(wall_clock_ns() > 1_577_836_800_000_000_000);
    }
}
