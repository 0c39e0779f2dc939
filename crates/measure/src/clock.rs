//! Process-wide clocks.
//!
//! `now_ns` is the only clock the hot path reads: monotonic, relative to one epoch shared by every
//! thread of the process, so timestamps taken on different thread ranks compare directly.

use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

static EPOCH: OnceLock<Instant> = OnceLock::new();

/// Fixes the process epoch now. Call once at start-up so the first measured operation does not
/// pay for the initialisation (and so the epoch precedes every phase).
pub fn init() {
    epoch();
}

#[inline]
fn epoch() -> Instant {
    *EPOCH.get_or_init(Instant::now)
}

/// Monotonic nanoseconds since the process epoch (one `clock_gettime` via the vDSO).
#[inline]
pub fn now_ns() -> u64 {
    // u64 nanoseconds cover 584 years, so the narrowing cannot lose anything in practice.
    epoch().elapsed().as_nanos() as u64
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
