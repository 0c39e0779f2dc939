//! The clocks of the workspace and every way it prints a wall-clock time.
//!
//! `now_ns` is the only clock the hot path reads: monotonic and shared by every thread of the
//! process, so timestamps taken on different thread ranks compare directly. The wall clock is for
//! labels only (result timestamps, file names, the dates IOR, mdtest and the IO500 print); it can
//! jump, so no interval is ever measured with it.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use chrono::{DateTime, Local, Utc};

/// IOR's `ctime`-style date ("Began", "Finished"): `Wed May  1 12:34:56 2024`.
pub const CTIME_FORMAT: &str = "%a %b %e %H:%M:%S %Y";
/// mdtest's start and finish date: `05/01/2024 12:34:56`.
pub const MDTEST_DATE_FORMAT: &str = "%m/%d/%Y %H:%M:%S";
/// IO500 result.txt's date (`u_print_timestamp`): `2024-05-01 12:34:56`.
pub const IO500_DATE_FORMAT: &str = "%Y-%m-%d %H:%M:%S";
/// IO500's timestamp in directory names: `2024.05.01-12.34.56`.
pub const IO500_TIMESTAMP_FORMAT: &str = "%Y.%m.%d-%H.%M.%S";

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

/// Nanoseconds as seconds: the one conversion every report uses.
#[inline]
pub fn secs(ns: u64) -> f64 {
    ns as f64 / 1e9
}

/// Wall-clock nanoseconds since the UNIX epoch, for timestamps in results; not for intervals,
/// because it can jump. A clock set before 1970 gives 0.
pub fn wall_clock_ns() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0)
}

/// The current local time in a `strftime` format (as C's `strftime(fmt, localtime(now))`, in the
/// C locale); empty if the format cannot be used.
pub fn local_now(fmt: &str) -> String {
    local(SystemTime::now(), fmt)
}

/// `t` as local time in a `strftime` format; empty if the format cannot be used or `t` is out of
/// the calendar's range.
pub fn local(t: SystemTime, fmt: &str) -> String {
    let Some(utc) = utc(t) else {
        return String::new();
    };
    format_or_empty(utc.with_timezone(&Local), fmt)
}

/// `2024-05-01T12:34:56.789Z` (milliseconds truncated).
pub fn rfc3339_utc(t: SystemTime) -> String {
    format_or_empty(utc_or_epoch(t), "%Y-%m-%dT%H:%M:%S%.3fZ")
}

/// `20240501T123456Z`, compact and sortable, for run identifiers and file names.
pub fn compact_utc(t: SystemTime) -> String {
    format_or_empty(utc_or_epoch(t), "%Y%m%dT%H%M%SZ")
}

/// Seconds from `from` to `to`, both RFC 3339 (as the result documents keep `started` and
/// `finished`); `None` when either does not parse or `to` is before `from`.
pub fn rfc3339_seconds_between(from: &str, to: &str) -> Option<f64> {
    let a = DateTime::parse_from_rfc3339(from).ok()?;
    let b = DateTime::parse_from_rfc3339(to).ok()?;
    let ms = (b - a).num_milliseconds();
    (ms >= 0).then(|| ms as f64 / 1000.0)
}

/// The current time as [`rfc3339_utc`].
pub fn now_rfc3339() -> String {
    rfc3339_utc(SystemTime::now())
}

fn utc(t: SystemTime) -> Option<DateTime<Utc>> {
    let (secs, nanos) = match t.duration_since(UNIX_EPOCH) {
        Ok(d) => (i64::try_from(d.as_secs()).ok()?, d.subsec_nanos()),
        Err(e) => {
            let d = e.duration();
            let secs = -i64::try_from(d.as_secs()).ok()?;
            match d.subsec_nanos() {
                0 => (secs, 0),
                n => (secs - 1, 1_000_000_000 - n),
            }
        }
    };
    DateTime::from_timestamp(secs, nanos)
}

/// A clock before 1970 is a misconfigured host (and one past the calendar's end a broken one):
/// report the epoch rather than fail.
fn utc_or_epoch(t: SystemTime) -> DateTime<Utc> {
    if t < UNIX_EPOCH {
        return DateTime::UNIX_EPOCH;
    }
    utc(t).unwrap_or(DateTime::UNIX_EPOCH)
}

/// chrono reports a bad format as a `fmt::Error` (which `to_string` would turn into a panic).
fn format_or_empty<Tz>(t: DateTime<Tz>, fmt: &str) -> String
where
    Tz: chrono::TimeZone,
    Tz::Offset: std::fmt::Display,
{
    let mut out = String::new();
    if write!(out, "{}", t.format(fmt)).is_err() {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn seconds_between_two_stamps() {
        let d = rfc3339_seconds_between("2026-11-26T10:00:00.250Z", "2026-11-26T10:01:02.000Z");
        assert_eq!(d, Some(61.75));
        assert_eq!(
            rfc3339_seconds_between("2026-11-26T10:00:01Z", "2026-11-26T10:00:00Z"),
            None
        );
        assert_eq!(rfc3339_seconds_between("", "2026-11-26T10:00:00Z"), None);
    }

    fn at(secs: u64, millis: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_millis(secs * 1000 + millis)
    }

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

    #[test]
    fn secs_divides() {
        assert_eq!(secs(1_500_000_000), 1.5);
        assert_eq!(secs(0), 0.0);
    }

    #[test]
    fn known_instants() {
        assert_eq!(rfc3339_utc(at(0, 0)), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339_utc(at(951_782_400, 5)), "2000-02-29T00:00:00.005Z");
        assert_eq!(
            rfc3339_utc(at(1_714_566_896, 789)),
            "2024-05-01T12:34:56.789Z"
        );
        assert_eq!(
            rfc3339_utc(at(4_102_444_799, 999)),
            "2099-12-31T23:59:59.999Z"
        );
        assert_eq!(compact_utc(at(1_714_566_896, 789)), "20240501T123456Z");
        // Milliseconds are truncated, not rounded.
        let t = UNIX_EPOCH + Duration::from_nanos(1_714_566_896_999_999_999);
        assert_eq!(rfc3339_utc(t), "2024-05-01T12:34:56.999Z");
    }

    #[test]
    fn before_1970_is_the_epoch() {
        let t = UNIX_EPOCH - Duration::from_secs(86_400);
        assert_eq!(rfc3339_utc(t), "1970-01-01T00:00:00.000Z");
        assert_eq!(compact_utc(t), "19700101T000000Z");
        assert!(!local(t, "%Y").is_empty());
    }

    #[test]
    fn now_is_rfc3339_shaped() {
        let s = now_rfc3339();
        assert_eq!(s.len(), "2024-05-01T12:34:56.789Z".len(), "{s}");
        assert!(s.ends_with('Z') && s.as_bytes()[10] == b'T', "{s}");
    }

    #[test]
    fn bad_format_gives_empty() {
        assert_eq!(local_now("%Q"), "");
        assert_eq!(local_now(""), "");
    }

    #[test]
    fn formats_like_strftime() {
        let ts = local_now(IO500_TIMESTAMP_FORMAT);
        assert_eq!(ts.len(), "2024.11.11-00.01.32".len(), "{ts}");
        assert_eq!(&ts[4..5], ".");
        assert_eq!(&ts[10..11], "-");
        assert_eq!(
            local_now(IO500_DATE_FORMAT).len(),
            "2024-11-11 00:01:32".len()
        );
    }

    /// `strftime(fmt, localtime_r(t))` from the C library, the implementation this module replaces
    /// for the IO500 dates.
    fn libc_strftime(t: i64, fmt: &str) -> String {
        let cfmt = std::ffi::CString::new(fmt).unwrap();
        let t = t as libc::time_t;
        // SAFETY: tm is plain data; localtime_r fills it from a valid time_t.
        let mut tm: libc::tm = unsafe { std::mem::zeroed() };
        assert!(!unsafe { libc::localtime_r(&t, &mut tm) }.is_null());
        let mut buf = [0u8; 128];
        // SAFETY: buf is writable for its length; cfmt is NUL-terminated; tm was filled above.
        let n = unsafe { libc::strftime(buf.as_mut_ptr().cast(), buf.len(), cfmt.as_ptr(), &tm) };
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }

    #[test]
    fn local_formats_equal_the_c_library() {
        let fmts = [
            CTIME_FORMAT,
            MDTEST_DATE_FORMAT,
            IO500_DATE_FORMAT,
            IO500_TIMESTAMP_FORMAT,
        ];
        // Single-digit days (%e pads with a space), leap days, DST edges in many zones, now.
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let instants = [
            0,
            951_782_400,
            1_714_566_896,
            1_711_846_800,
            1_730_595_600,
            1_704_067_199,
            4_102_444_799,
            now,
        ];
        for t in instants {
            for fmt in fmts {
                assert_eq!(
                    local(at(t, 0), fmt),
                    libc_strftime(t as i64, fmt),
                    "{t} {fmt}"
                );
            }
        }
        assert_eq!(
            local(at(1_714_566_896, 0), "%a %b %e"),
            libc_strftime(1_714_566_896, "%a %b %e")
        );
    }
}
