//! SIGINT and SIGTERM during a run: the first one asks the ranks to stop, the second ends the
//! process at once.
//!
//! The handler only stores the signal number and sets a flag (both async-signal-safe). The
//! ranks look at the flag where they already look at the clock for the stonewall (at most
//! every [`POLL_NS`]), stop their loop, and finish the phase as a short one; the workload then
//! agrees with the other ranks that the run stops ([`signal_if_stopping`] in a reduction),
//! removes its test files and ends with `128 + signal` (130, 143).
//!
//! A clean-up that must not itself be cut short (the IO500's delete phases after an interrupt)
//! calls [`resume`]: the flag is cleared, the signal stays recorded, and a second signal still
//! ends the process at once.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// How often a working rank looks at the flag: well within the second the ranks have to stop.
pub const POLL_NS: u64 = 100_000_000;

/// The first signal received, 0 before any.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The ranks should stop; cleared by [`resume`].
static STOP: AtomicBool = AtomicBool::new(false);
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// Installs the handler for SIGINT and SIGTERM (once; later calls do nothing). A benchmark
/// command calls it just before its run, so a query command keeps the default (immediate) exit.
pub fn install() {
    if INSTALLED.swap(true, Ordering::AcqRel) {
        return;
    }
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: a zeroed sigaction with a plain handler, SA_RESTART so that system calls
        // the signal interrupts go on (the engines retry EINTR as well).
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_signal as *const () as libc::sighandler_t;
            act.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(sig, &act, std::ptr::null_mut());
        }
    }
}

/// First signal: record it, ask the ranks to stop, say so on stderr. Second: exit now.
extern "C" fn on_signal(sig: libc::c_int) {
    if SIGNAL
        .compare_exchange(0, sig, Ordering::AcqRel, Ordering::Acquire)
        .is_err()
    {
        say(b"\niogauge: second signal: exiting at once; test files may be left behind\n");
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(128 + sig) };
    }
    STOP.store(true, Ordering::Release);
    say(
        b"\niogauge: interrupted: stopping the ranks, keeping the finished phases and removing \
          the test files (interrupt again to exit at once)\n",
    );
}

/// write(2) to stderr: async-signal-safe, unlike anything that formats or locks.
fn say(text: &[u8]) {
    // SAFETY: a valid buffer; write is async-signal-safe.
    let _ = unsafe { libc::write(2, text.as_ptr().cast(), text.len()) };
}

/// The ranks should stop (a relaxed load: cheap enough for the polls).
#[inline]
pub fn requested() -> bool {
    STOP.load(Ordering::Relaxed)
}

/// The stop flag itself, for a loop that takes a flag to poll (dlio's emulated loader).
pub fn flag() -> &'static AtomicBool {
    &STOP
}

/// The first signal received, if any (also after [`resume`]).
pub fn signal() -> Option<i32> {
    match SIGNAL.load(Ordering::Acquire) {
        0 => None,
        s => Some(s),
    }
}

/// This process's vote in the ranks' agreement to stop: its signal while the flag is set,
/// else 0. Ranks reduce it with `Max`, so they all take the same way.
pub fn signal_if_stopping() -> u64 {
    if requested() {
        // A flag without a signal (tests, `request`) counts as SIGINT.
        signal().unwrap_or(libc::SIGINT) as u64
    } else {
        0
    }
}

/// Clears the stop flag for a clean-up that must run to its end; the signal stays recorded.
pub fn resume() {
    STOP.store(false, Ordering::Release);
}

/// Asks the ranks to stop as a signal would (tests, and code that stops a run on purpose).
pub fn request(sig: i32) {
    let _ = SIGNAL.compare_exchange(0, sig, Ordering::AcqRel, Ordering::Acquire);
    STOP.store(true, Ordering::Release);
}

/// Sleeps for `d`, waking at least every [`POLL_NS`] to look at the flag (a stagger, IOR's
/// `-d`, a pause); `false` when a signal cut the sleep short. [`wait_until`] on a clock of its
/// own, without spinning.
pub fn sleep(d: std::time::Duration) -> bool {
    let t0 = std::time::Instant::now();
    let due = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
    let clock = || u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX);
    wait_until(due, clock, 0) >= due
}

/// How long before `due` a nap ends where the rest is spun: a nap may overshoot by the timer
/// slack (~50 us), and the spin takes up what is left.
const WAKE_EARLY_NS: u64 = 100_000;

/// The one wait of every workload (an open-loop schedule's due time, md-workbench's waiting
/// factor, a stagger): waits until the clock `now` (ns) reads `due` and returns its reading
/// then. While more than `spin_ns` remain it sleeps, in naps of at most [`POLL_NS`] that end a
/// little before `due` when the rest is spun, and looks at the stop flag before each nap: a
/// signal ends the wait early (the reading returned is then before `due`). The last `spin_ns`
/// are spun without looking at the flag: they are short, and a sleep would overshoot them.
pub fn wait_until(due: u64, now: impl Fn() -> u64, spin_ns: u64) -> u64 {
    let early = spin_ns.min(WAKE_EARLY_NS);
    loop {
        let t = now();
        if t >= due {
            return t;
        }
        let left = due - t;
        if left <= spin_ns {
            std::hint::spin_loop();
            continue;
        }
        if requested() {
            return t;
        }
        let nap = (left - early).min(POLL_NS);
        std::thread::sleep(std::time::Duration::from_nanos(nap));
    }
}

/// `SIGINT`, `SIGTERM`, or `signal N`.
pub fn signal_name(sig: i32) -> String {
    match sig {
        libc::SIGINT => "SIGINT".to_string(),
        libc::SIGTERM => "SIGTERM".to_string(),
        n => format!("signal {n}"),
    }
}

/// The exit status of a run that `sig` interrupted: 128 + the signal number (130, 143).
pub fn exit_code(sig: i32) -> u8 {
    (128 + sig).clamp(0, 255) as u8
}

/// What a polling loop checks between operations: the stop flag and the stonewall deadline,
/// both at most every [`POLL_NS`] (one comparison per operation; the rest is off the hot path).
#[derive(Debug, Clone, Copy)]
pub struct Watch {
    /// The next clock reading at which to look.
    next: u64,
    /// Stop after the first operation that ends past this (`u64::MAX`: no deadline).
    deadline: u64,
}

/// Why a polling loop stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// The stonewall deadline passed.
    Deadline,
    /// A signal asked the ranks to stop.
    Interrupted,
}

impl Watch {
    /// A watch from `now` with an optional absolute deadline (on the same clock). Made while
    /// a stop is requested, it is due at once: the loop stops after its first operation (the
    /// IO500's delete phases after a signal take their tool's interrupt path this way).
    pub fn new(now: u64, deadline: Option<u64>) -> Watch {
        let deadline = deadline.unwrap_or(u64::MAX);
        let next = if requested() {
            now
        } else {
            now.saturating_add(POLL_NS).min(deadline.saturating_add(1))
        };
        Watch { next, deadline }
    }

    /// Whether `now` calls for a look ([`Watch::check`]); the only test per operation.
    #[inline(always)]
    pub fn due(&self, now: u64) -> bool {
        now >= self.next
    }

    /// Looks: `Some` when the loop should stop now.
    #[cold]
    #[inline(never)]
    pub fn check(&mut self, now: u64) -> Option<Stop> {
        if requested() {
            return Some(Stop::Interrupted);
        }
        if now > self.deadline {
            return Some(Stop::Deadline);
        }
        self.next = now
            .saturating_add(POLL_NS)
            .min(self.deadline.saturating_add(1));
        None
    }

    /// `due` and `check` in one, for loops that are not per-operation hot.
    #[inline]
    pub fn stop(&mut self, now: u64) -> Option<Stop> {
        if self.due(now) {
            self.check(now)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_watch_stops_after_the_first_operation_past_the_deadline() {
        let mut w = Watch::new(0, Some(250));
        // Nothing to look at before the deadline when it is nearer than a poll.
        assert!(!w.due(250));
        assert!(w.due(251));
        assert_eq!(w.check(251), Some(Stop::Deadline));
        let mut w = Watch::new(0, None);
        assert!(!w.due(POLL_NS - 1));
        assert!(w.due(POLL_NS));
        assert_eq!(w.check(POLL_NS), None);
        assert!(!w.due(POLL_NS + 1) && w.due(2 * POLL_NS));
    }

    #[test]
    fn a_wait_reaches_its_due_time_and_spins_the_last_part() {
        let t0 = std::time::Instant::now();
        let clock = || t0.elapsed().as_nanos() as u64;
        // Spun only (below the spin threshold), then slept and spun.
        for (due, spin) in [
            (2_000_000, 5_000_000),
            (30_000_000, 200_000),
            (5_000_000, 0),
        ] {
            let start = clock();
            let got = wait_until(start + due, clock, spin);
            assert!(got >= start + due, "{got} < {}", start + due);
        }
        assert!(sleep(std::time::Duration::from_millis(3)));
        assert!(t0.elapsed() >= std::time::Duration::from_millis(40));
    }

    #[test]
    fn exit_codes() {
        assert_eq!(exit_code(libc::SIGINT), 130);
        assert_eq!(exit_code(libc::SIGTERM), 143);
    }
}
