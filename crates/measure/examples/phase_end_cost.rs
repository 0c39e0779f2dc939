//! Instruction count of the latency-histogram work at the end of a phase, for latency sets with
//! different maxima: what an ior phase does with one rank's histogram after its timed window
//! (`Recorder::finish`'s snapshot, the wire encoding, rank 0's decode and merge, the result's
//! summary, the two percentiles and the maximum the output prints, and the empty summary that
//! `PhaseResult::new` starts from).
//!
//!     cargo build --release -p measure --example phase_end_cost
//!     for set in short long; do
//!         valgrind --tool=callgrind --toggle-collect='phase_end_cost::phase_end' \
//!             --callgrind-out-file=/dev/null target/release/examples/phase_end_cost $set 2048
//!     done
//!
//! and read the "Collected" Ir. `short` draws latencies of 1-20 us with outliers up to 2 ms,
//! `long` the same with outliers up to 6 ms (and another seed); the second argument is the
//! number of operations. Without valgrind it prints the wall time of the phase end.

use std::hint::black_box;
use std::time::Instant;

use measure::{AtomicHistogram, HistogramSummary, LatencyHistogram};

/// xorshift64*: a fixed, dependency-free stream of pseudo-random numbers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Mostly 1-20 us, one in 64 between 20 us and 200 us, one in 512 up to `max_ns`, and `max_ns`
/// itself once.
fn latencies(n: usize, max_ns: u64, seed: u64) -> Vec<u64> {
    let mut rng = Rng(seed);
    let mut v: Vec<u64> = (0..n)
        .map(|_| match rng.below(512) {
            0 => 200_000 + rng.below(max_ns - 200_000),
            1..=8 => 20_000 + rng.below(180_000),
            _ => 1_000 + rng.below(19_000),
        })
        .collect();
    if let Some(last) = v.last_mut() {
        *last = max_ns;
    }
    v
}

/// Everything a phase end does with one rank's latency histogram.
#[inline(never)]
fn phase_end(live: &AtomicHistogram) -> (HistogramSummary, HistogramSummary, u64, u64, u64) {
    let empty = HistogramSummary::default();
    let mine = live.snapshot();
    let wire = mine.to_bytes();
    let decoded = LatencyHistogram::from_bytes(&wire).expect("own encoding decodes");
    let mut merged = LatencyHistogram::new();
    merged.merge(&decoded);
    let summary = merged.summary();
    let (p50, p99, max) = (
        merged.value_at_quantile(0.5),
        merged.value_at_quantile(0.99),
        merged.max(),
    );
    (empty, summary, p50, p99, max)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let set = args.get(1).map_or("short", String::as_str);
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2048);
    let (max_ns, seed) = match set {
        "short" => (2_000_000, 0x9e37_79b9_7f4a_7c15),
        "long" => (6_000_000, 0xd1b5_4a32_d192_ed03),
        other => {
            eprintln!("unknown latency set {other:?}: use short or long");
            std::process::exit(2);
        }
    };
    let live = AtomicHistogram::new();
    for v in latencies(n, max_ns, seed) {
        live.record(v);
    }
    let t = Instant::now();
    let (empty, summary, p50, p99, max) = black_box(phase_end(black_box(&live)));
    let elapsed = t.elapsed();
    println!(
        "{set}: {n} ops, {} buckets, max {max} ns, p50 {p50}, p99 {p99}, mean {:.1}, stddev {:.1}, \
         empty summary {} percentiles; phase end took {elapsed:?}",
        summary.buckets.len(),
        summary.mean,
        summary.stddev,
        empty.percentiles.len(),
    );
}
