//! The emulation against a storage double that sleeps per read (a test double for storage,
//! not for what is tested: the loader, the timing and the stop).

use super::*;
use crate::dlio::train::params::{unet3d_like, ComputeTime, TrainParams};
use crate::dlio::train::schedule::epoch_schedule;
use std::sync::atomic::AtomicUsize;

struct SlowStorage {
    per_read: Duration,
    reads: AtomicUsize,
    fail_at: Option<usize>,
}

impl SampleSource for SlowStorage {
    type Handle = u64;
    fn open(&self, _thread: usize, file: u64) -> io::Result<u64> {
        Ok(file)
    }
    fn read(&self, _thread: usize, _file: &mut u64, range: Range<u64>) -> io::Result<u64> {
        let n = self.reads.fetch_add(1, Ordering::Relaxed);
        if Some(n) == self.fail_at {
            return Err(io::Error::other("injected"));
        }
        std::thread::sleep(self.per_read);
        Ok(range.end - range.start)
    }
}

fn storage(per_read_ms: u64) -> SlowStorage {
    SlowStorage {
        per_read: Duration::from_millis(per_read_ms),
        reads: AtomicUsize::new(0),
        fail_at: None,
    }
}

/// AU of the steps after the first, as DLIO computes it for one block.
fn au(run: &EpochRun) -> f64 {
    let compute: f64 = run.steps[1..].iter().map(|s| s.compute.as_secs_f64()).sum();
    let total = (run.end - run.start).as_secs_f64() - run.steps[0].proc.as_secs_f64();
    compute / total * 100.0
}

fn params(files: u64, threads: u64, compute: f64) -> TrainParams {
    TrainParams {
        num_files: files,
        batch_size: 2,
        read_threads: threads,
        computation_time: ComputeTime::Fixed(compute),
        ..unet3d_like()
    }
}

fn run(p: &TrainParams, source: &SlowStorage, cancel_after: Option<usize>) -> io::Result<EpochRun> {
    let schedule = epoch_schedule(p, 1, &|_| 4096).unwrap();
    let cancel = AtomicBool::new(false);
    let mut steps = 0;
    let seconds = match p.computation_time {
        ComputeTime::Fixed(s) => s,
        _ => unreachable!(),
    };
    run_epoch(
        source,
        &schedule,
        &mut || seconds,
        &mut |want| {
            steps += 1;
            if Some(steps) == cancel_after {
                cancel.store(true, Ordering::Relaxed);
            }
            want || cancel.load(Ordering::Relaxed)
        },
        &AtomicBool::new(false),
    )
}

#[test]
fn every_sample_is_read_and_counted() {
    let p = params(24, 3, 0.001);
    let source = storage(0);
    let r = run(&p, &source, None).unwrap();
    assert_eq!(r.steps.len(), 12);
    assert_eq!(r.samples, 24); // files x samples per file
    assert_eq!(r.bytes_read, 24 * 4096);
    assert!(!r.stopped);
}

#[test]
fn au_is_near_100_when_compute_dominates() {
    // 2 ms reads, 4 threads, 2 samples a batch, 40 ms compute: reads hide behind compute.
    let r = run(&params(24, 4, 0.040), &storage(2), None).unwrap();
    let au = au(&r);
    assert!(au > 95.0, "AU {au:.1} %");
    assert!(
        r.steps[1..]
            .iter()
            .all(|s| s.wait < Duration::from_millis(5)),
        "{:?}",
        r.steps
    );
}

#[test]
fn au_is_low_when_compute_is_tiny() {
    // 0.2 ms compute against 2 x 10 ms of reads per batch on one thread: ideal is ~1 %.
    let r = run(&params(24, 1, 0.0002), &storage(10), None).unwrap();
    let au = au(&r);
    assert!(au < 30.0, "AU {au:.1} %");
    assert!(
        r.steps[2].wait >= Duration::from_millis(8),
        "{:?}",
        r.steps[2]
    );
}

#[test]
fn reading_inline_waits_for_every_batch() {
    let r = run(&params(8, 0, 0.005), &storage(3), None).unwrap();
    assert_eq!(r.steps.len(), 4);
    assert!(
        r.steps.iter().all(|s| s.wait >= Duration::from_millis(6)),
        "{:?}",
        r.steps
    );
}

#[test]
fn a_cancel_stops_between_steps() {
    let source = storage(1);
    let r = run(&params(40, 2, 0.002), &source, Some(3)).unwrap();
    assert_eq!(r.steps.len(), 3);
    assert!(r.stopped);
    assert!(
        source.reads.load(Ordering::Relaxed) < 40,
        "readers stopped early"
    );
}

#[test]
fn a_read_error_ends_the_epoch_with_it() {
    let source = SlowStorage {
        fail_at: Some(5),
        ..storage(0)
    };
    let err = run(&params(24, 2, 0.001), &source, None).unwrap_err();
    assert_eq!(err.to_string(), "injected");
}

#[test]
fn compute_never_ends_early_and_proc_is_wait_plus_compute() {
    // The upper bound is a timing (scheduler load), so only the deadline is asserted.
    let r = run(&params(8, 2, 0.0035), &storage(0), None).unwrap();
    for s in &r.steps {
        assert!(s.compute >= Duration::from_micros(3500), "{:?}", s.compute);
        assert_eq!(s.proc, s.wait + s.compute);
    }
}
