use std::sync::{Arc, Mutex};

use super::*;
use results::Operation;

fn current(ranks: usize, expect: Expect) -> Current {
    Current {
        label: "write #0".into(),
        ranks,
        expect,
        started: Instant::now(),
        last: None,
    }
}

fn sample(bytes: u64, ops: u64, rank_ops: &[u64]) -> IntervalSample {
    IntervalSample {
        elapsed_s: 1.0,
        ops,
        bytes,
        errors: 0,
        in_flight: 0,
        samples: 0,
        busy_s: 0.0,
        ranks_running: rank_ops.len(),
        ranks_done: 0,
        rank_ops: rank_ops.to_vec(),
    }
}

#[test]
fn a_known_amount_shows_percent_time_left_and_the_slowest_rank() {
    let ex = Expect {
        bytes: Some(400 << 20),
        ops: Some(400),
        deadline_s: None,
    };
    let c = current(4, ex);
    let s = sample(100 << 20, 100, &[30, 25, 20, 25]);
    let l = line(
        &c,
        &s,
        2.0,
        Some(Rates {
            bytes: 40.0 * MIB,
            ops: 40.0,
            ..Rates::default()
        }),
    );
    assert_eq!(
        l,
        "write #0  2.0 s, ~6.0 s left  40.0 MiB/s (avg 50.0)  25 %  slowest rank 2 at 20 %"
    );
}

#[test]
fn a_stonewall_and_an_unknown_amount() {
    let ex = Expect {
        deadline_s: Some(30.0),
        ..Expect::default()
    };
    let l = line(&current(2, ex), &sample(0, 500, &[300, 200]), 5.0, None);
    assert_eq!(
        l,
        "write #0  5.0 s of the 30 s stonewall  avg 100 ops/s  slowest rank 1: 200 ops (median 300)"
    );
    // Wear-out: the ranks go on past the stonewall to the largest count.
    let l = line(&current(2, ex), &sample(0, 500, &[300, 200]), 31.0, None);
    assert!(
        l.starts_with("write #0  31.0 s, past the 30 s stonewall  "),
        "{l}"
    );
}

#[test]
fn mpi_rank_zero_says_what_it_sees() {
    let ex = Expect {
        ops: Some(800),
        ..Expect::default()
    };
    // Rank 0's process holds one of 8 ranks: its share is 100 operations.
    let l = line(
        &current(8, ex),
        &sample(0, 50, &[50]),
        1.0,
        Some(Rates {
            ops: 50.0,
            ..Rates::default()
        }),
    );
    assert_eq!(
        l,
        "write #0  [rank 0's 1 of 8 ranks]  1.0 s, ~1.0 s left  50 ops/s (avg 50)  50 %"
    );
}

#[test]
fn a_plan_in_items_shows_items_also_where_files_carry_bytes() {
    let ex = Expect {
        ops: Some(200),
        ..Expect::default()
    };
    let l = line(&current(2, ex), &sample(390_100, 100, &[50, 50]), 1.0, None);
    assert_eq!(
        l,
        "write #0  1.0 s, ~1.0 s left  avg 100 ops/s  50 %  slowest rank 0 at 50 %"
    );
}

#[test]
fn a_training_phase_shows_samples_per_second_and_au() {
    let ex = Expect {
        ops: Some(40),
        ..Expect::default()
    };
    // Two ranks, 4 s in: 10 steps of 100 samples, 6 s of compute between them (75 % each).
    let mut s = sample(0, 10, &[5, 5]);
    s.samples = 1000;
    s.busy_s = 6.0;
    let first = line(&current(2, ex), &s, 4.0, None);
    assert!(
        first.ends_with("avg 250 samples/s  AU avg 75.0 %  25 %  slowest rank 0 at 25 %"),
        "{first}"
    );
    // Over the last second: 300 samples, both ranks busy 0.9 s.
    let now = Rates {
        ops: 3.0,
        samples: 300.0,
        busy: 1.8,
        ..Rates::default()
    };
    let l = line(&current(2, ex), &s, 4.0, Some(now));
    assert!(
        l.contains(" left  300 samples/s (avg 250)  AU 90.0 % (avg 75.0)  25 %  "),
        "{l}"
    );
    // Through the sink: the rates come from two samples.
    let out = Shared::default();
    let mut p = Progress::new(Box::new(out.clone()), || 200);
    p.event(&Event::PhaseStart(&PhaseStart {
        operation: Operation::DlioEpoch,
        iteration: 0,
        io500_phase: None,
        ranks: 2,
        expect: ex,
    }));
    p.event(&Event::Interval(&s));
    p.event(&Event::Interval(&s));
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("0 samples/s (avg "), "{text:?}");
    assert!(text.contains("AU 0.0 % (avg "), "{text:?}");
}

#[test]
fn long_lines_fit_the_terminal() {
    assert_eq!(fit("abcdefghijklmnop", 12), "abcdefghijk");
    assert_eq!(fit("short", 80), "short");
}

/// Output the test can read back.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn drawn_on_samples_and_cleared_before_anything_else() {
    let out = Shared::default();
    let mut p = Progress::new(Box::new(out.clone()), || 80);
    // No phase yet (an IOR -W check): nothing drawn.
    p.event(&Event::Interval(&sample(1, 1, &[1])));
    assert!(out.0.lock().unwrap().is_empty());
    p.event(&Event::PhaseStart(&PhaseStart {
        operation: Operation::Read,
        iteration: 2,
        io500_phase: None,
        ranks: 1,
        expect: Expect::default(),
    }));
    p.event(&Event::Interval(&sample(1 << 20, 1, &[1])));
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(
        text.starts_with(CLEAR) && text.contains("read #2  "),
        "{text:?}"
    );
    out.0.lock().unwrap().clear();
    p.event(&Event::Notice(&results::Notice::Warning("w")));
    assert_eq!(&*out.0.lock().unwrap(), CLEAR.as_bytes());
    // Cleared once: a second event writes nothing.
    p.event(&Event::Notice(&results::Notice::Warning("w")));
    assert_eq!(&*out.0.lock().unwrap(), CLEAR.as_bytes());
}
