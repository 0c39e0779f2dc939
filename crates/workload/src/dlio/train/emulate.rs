//! The emulated data loader and training thread of one rank for one epoch, timed the way DLIO's
//! statistics counter times it (utils/statscounter.py):
//!
//! - the block starts before the reader threads start (torch forks its workers on the first
//!   `next`, so the first step's wait includes the start; `metric_exclude_start_steps` leaves it
//!   out of AU);
//! - per step: `wait` from the end of the previous step's barrier to the batch in hand;
//!   `compute` the emulated computation; `proc` = wait + compute; then the barrier (`sync`);
//! - the block ends after the last step's barrier. DLIO's one more barrier at the end of the
//!   epoch is the caller's.
//!
//! Reader threads are OS threads (DLIO's are processes for torch, a thread pool for tf.data);
//! each works through its visits in order and holds back a read while its batch is more than
//! `window` batches ahead of the training thread. With `inline` (torch `read_threads: 0`) the
//! training thread reads each batch itself when it needs it.
//!
//! The computation is a sleep to a deadline: `std::thread::sleep` for all but the last 200 µs
//! (it oversleeps by the timer slack, tens of µs), then yielding until the deadline, so a 3.5 ms
//! step (cosmoflow) is accurate to a few µs. The compute time recorded is measured, as MLPerf
//! Storage's DLIO branch measures it (DLIO 2.0.0 records the configured time).

use std::io;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::schedule::{EpochSchedule, Visit};

/// The storage side of the loader; the I/O engine implements it.
pub trait SampleSource: Send + Sync {
    /// An open training file.
    type Handle: Send;
    /// Opens training file `file` (index in name order) on reader thread `thread`.
    fn open(&self, thread: usize, file: u64) -> io::Result<Self::Handle>;
    /// Reads `range` of the open file; returns the bytes read (less at the end of the file).
    fn read(&self, thread: usize, handle: &mut Self::Handle, range: Range<u64>) -> io::Result<u64>;
}

/// One step's times, as DLIO records them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepTimes {
    /// Waiting for the batch (DLIO's `load`).
    pub wait: Duration,
    /// The emulated computation, measured (DLIO's `compute`).
    pub compute: Duration,
    /// Wait plus computation (DLIO's `proc`); the barrier after it is in neither.
    pub proc: Duration,
}

/// One rank's epoch (DLIO's block: no checkpoint inside the epoch).
#[derive(Debug, Clone)]
pub struct EpochRun {
    pub start: Instant,
    pub end: Instant,
    pub steps: Vec<StepTimes>,
    /// Bytes the reader threads read in the epoch, the reads ahead of the last step included.
    pub bytes_read: u64,
    /// Samples delivered: steps x batch size, as DLIO counts them.
    pub samples: u64,
    /// The ranks agreed to stop before the epoch's last step.
    pub stopped: bool,
}

struct Progress {
    ready: Vec<u32>,
    taken: u32,
    stop: bool,
    error: Option<io::Error>,
}

struct Shared {
    progress: Mutex<Progress>,
    wake: Condvar,
    bytes: AtomicU64,
}

/// Runs one epoch. `compute` gives each step's computation time in seconds (`ComputeDraws`);
/// `sync` is the per-step barrier: it takes whether this rank wants to stop (`cancel` is set)
/// and returns whether all ranks stop, so they stop at the same step.
pub fn run_epoch<S: SampleSource>(
    source: &S,
    schedule: &EpochSchedule,
    compute: &mut dyn FnMut() -> f64,
    sync: &mut dyn FnMut(bool) -> bool,
    cancel: &AtomicBool,
) -> io::Result<EpochRun> {
    let shared = Shared {
        progress: Mutex::new(Progress {
            ready: vec![0; schedule.batch_needs.len()],
            taken: 0,
            stop: false,
            error: None,
        }),
        wake: Condvar::new(),
        bytes: AtomicU64::new(0),
    };
    let start = Instant::now();
    let mut steps = Vec::with_capacity(schedule.batch_needs.len());
    let mut stopped = false;
    let outcome = std::thread::scope(|scope| -> io::Result<()> {
        if !schedule.inline {
            for (thread, visits) in schedule.threads.iter().enumerate() {
                let shared = &shared;
                scope.spawn(move || reader(source, thread, visits, schedule.window, shared));
            }
        }
        let mut inline_next = 0usize;
        let result = (|| {
            for (k, &need) in schedule.batch_needs.iter().enumerate() {
                let loading = Instant::now();
                if schedule.inline {
                    wait_inline(source, schedule, k, need, &mut inline_next, &shared)?;
                } else {
                    wait_batch(&shared, k, need)?;
                }
                let loaded = Instant::now();
                let seconds = compute();
                sleep_until(loaded + Duration::from_secs_f64(seconds.max(0.0)));
                let done = Instant::now();
                steps.push(StepTimes {
                    wait: loaded - loading,
                    compute: done - loaded,
                    proc: done - loading,
                });
                if sync(cancel.load(Ordering::Relaxed)) {
                    stopped = k + 1 < schedule.batch_needs.len();
                    break;
                }
            }
            Ok(())
        })();
        let mut progress = shared.progress.lock().expect("loader state");
        progress.stop = true;
        drop(progress);
        shared.wake.notify_all();
        result
    });
    let end = Instant::now();
    outcome?;
    Ok(EpochRun {
        start,
        end,
        samples: steps.len() as u64 * schedule.samples_per_step,
        steps,
        bytes_read: shared.bytes.load(Ordering::Relaxed),
        stopped,
    })
}

/// The training thread takes batch `k` once its samples are in; a reader's error ends the epoch.
fn wait_batch(shared: &Shared, k: usize, need: u32) -> io::Result<()> {
    let mut progress = shared.progress.lock().expect("loader state");
    loop {
        if let Some(error) = progress.error.take() {
            return Err(error);
        }
        if progress.ready[k] >= need {
            break;
        }
        progress = shared.wake.wait(progress).expect("loader state");
    }
    progress.taken = k as u32 + 1;
    drop(progress);
    shared.wake.notify_all();
    Ok(())
}

fn wait_inline<S: SampleSource>(
    source: &S,
    schedule: &EpochSchedule,
    k: usize,
    need: u32,
    next: &mut usize,
    shared: &Shared,
) -> io::Result<()> {
    let visits = &schedule.threads[0];
    while shared.progress.lock().expect("loader state").ready[k] < need && *next < visits.len() {
        visit(source, 0, &visits[*next], u32::MAX, shared)?;
        *next += 1;
    }
    Ok(())
}

fn reader<S: SampleSource>(
    source: &S,
    thread: usize,
    visits: &[Visit],
    window: u32,
    shared: &Shared,
) {
    for v in visits {
        if let Err(error) = visit(source, thread, v, window, shared) {
            let mut progress = shared.progress.lock().expect("loader state");
            if error.kind() != io::ErrorKind::Interrupted {
                progress.error.get_or_insert(error);
            }
            progress.stop = true;
            drop(progress);
            shared.wake.notify_all();
            return;
        }
    }
}

/// One file visit: open at the first read, the reads in order, close (drop). A read waits while
/// its batch is `window` or more batches ahead; `Interrupted` means the epoch ended meanwhile.
fn visit<S: SampleSource>(
    source: &S,
    thread: usize,
    v: &Visit,
    window: u32,
    shared: &Shared,
) -> io::Result<()> {
    let mut handle = None;
    for read in &v.reads {
        if window != u32::MAX {
            let mut progress = shared.progress.lock().expect("loader state");
            while !progress.stop && read.gate >= progress.taken.saturating_add(window) {
                progress = shared.wake.wait(progress).expect("loader state");
            }
            if progress.stop {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "epoch ended"));
            }
        }
        let file = match handle.as_mut() {
            Some(file) => file,
            None => handle.insert(source.open(thread, v.file)?),
        };
        let n = source.read(thread, file, read.range.clone())?;
        shared.bytes.fetch_add(n, Ordering::Relaxed);
        if !read.releases.is_empty() {
            let mut progress = shared.progress.lock().expect("loader state");
            for release in &read.releases {
                progress.ready[release.batch as usize] += release.samples;
            }
            drop(progress);
            shared.wake.notify_all();
        }
    }
    Ok(())
}

/// Sleeps to `deadline`: the OS sleep for all but the last 200 µs, then yields.
pub fn sleep_until(deadline: Instant) {
    const TAIL: Duration = Duration::from_micros(200);
    loop {
        let now = Instant::now();
        if now >= deadline {
            return;
        }
        let left = deadline - now;
        if left > TAIL {
            std::thread::sleep(left - TAIL);
        } else {
            std::thread::yield_now();
        }
    }
}

#[cfg(test)]
#[path = "emulate_tests.rs"]
mod tests;
