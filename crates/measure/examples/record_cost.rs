//! Micro-benchmark of the per-operation recording cost: the workloads' former meter
//! (`now_ns` + `LatencyHistogram::record` + `IntervalSeries::record` + totals) against
//! `Recorder::record`, and the clock read alone.
//!
//! Wall time per call:
//!     cargo run --release -p measure --example record_cost
//! User-space instructions per call (each loop is its own non-inlined function):
//!     cargo build --release -p measure --example record_cost
//!     valgrind --tool=callgrind --toggle-collect='record_cost::recorder_loop' \
//!         target/release/examples/record_cost recorder 1000000
//! then divide the "Collected" Ir by the call count (likewise `meter_loop`, `clock_loop`).
//! Under valgrind the vDSO clock becomes a real syscall, whose kernel side is not counted.

use std::hint::black_box;
use std::time::Instant;

use measure::{now_ns, IntervalSeries, LatencyHistogram, Recorder};

/// What `ior::phase::Meter` and `mdtest::phase::Meter::tick` did per operation.
struct Meter {
    latency: LatencyHistogram,
    series: IntervalSeries,
    prev: u64,
    items: u64,
    bytes: u64,
}

#[inline(never)]
fn meter_loop(m: &mut Meter, n: u64) -> u64 {
    let mut last = 0;
    for _ in 0..n {
        let now = now_ns();
        m.latency.record(now - m.prev);
        m.series.record(now, black_box(4096));
        m.prev = now;
        m.items += 1;
        m.bytes += 4096;
        last = now;
    }
    last
}

#[inline(never)]
fn recorder_loop(r: &mut Recorder, n: u64) -> u64 {
    let mut last = 0;
    for _ in 0..n {
        last = r.record(0, black_box(4096));
    }
    last
}

#[inline(never)]
fn clock_loop(n: u64) -> u64 {
    let mut sum = 0u64;
    for _ in 0..n {
        sum = sum.wrapping_add(now_ns());
    }
    sum
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("all", String::as_str);
    let n: u64 = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000_000);
    measure::init();
    let epoch = now_ns();

    let mut meter = Meter {
        latency: LatencyHistogram::new(),
        series: IntervalSeries::new(1_000_000_000, epoch),
        prev: epoch,
        items: 0,
        bytes: 0,
    };
    let board = measure::LiveBoard::new(1);
    let mut rec = board.recorder(0, 1, 1_000_000_000);
    rec.set_epoch(epoch);
    rec.start(epoch);

    let time = |name: &str, f: &mut dyn FnMut() -> u64| {
        let t = Instant::now();
        black_box(f());
        let ns = t.elapsed().as_nanos() as f64 / n as f64;
        println!("{name:>9}: {ns:6.2} ns/call over {n} calls");
    };
    if matches!(which, "all" | "clock") {
        time("clock", &mut || clock_loop(n));
    }
    if matches!(which, "all" | "meter") {
        time("meter", &mut || meter_loop(&mut meter, n));
    }
    if matches!(which, "all" | "recorder") {
        time("recorder", &mut || recorder_loop(&mut rec, n));
    }
    black_box((meter.items, meter.bytes, rec.finish().ops));
}
