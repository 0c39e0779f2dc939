//! A reader thread polls a LiveBoard while writer threads record: every count only grows while
//! the phase runs, and once the writers have finished the board's totals are exact and equal to
//! what the writers' records say.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Barrier};

use measure::{LiveBoard, RankState};

const RANKS: usize = 3;
const OPS: u64 = 200_000;

#[test]
fn reader_sees_growing_counts_and_exact_totals() {
    let board = Arc::new(LiveBoard::new(RANKS));
    let stop = Arc::new(AtomicBool::new(false));
    // Writers and the reader all start together, so reads really overlap the recording.
    let go = Arc::new(Barrier::new(RANKS + 1));
    // Rank 0 pauses halfway until the reader has polled, so some polls surely see a rank mid-run.
    let polls = Arc::new(AtomicU64::new(0));

    let reader = {
        let (board, stop, go) = (Arc::clone(&board), Arc::clone(&stop), Arc::clone(&go));
        let polls = Arc::clone(&polls);
        std::thread::spawn(move || {
            go.wait();
            let mut last = [(0u64, 0u64, 0u64, 0u64); RANKS];
            let mut mid_run = false;
            while !stop.load(Ordering::Relaxed) {
                let snap = if polls.load(Ordering::Relaxed).is_multiple_of(4) {
                    board.snapshot_with_latency()
                } else {
                    board.snapshot()
                };
                for (r, rank) in snap.ranks.iter().enumerate() {
                    let hist = rank.latency.first().map_or(last[r].3, |h| h.count());
                    let now = (rank.ops, rank.bytes, rank.errors, hist);
                    assert!(now.0 >= last[r].0 && now.1 >= last[r].1 && now.2 >= last[r].2);
                    assert!(now.3 >= last[r].3, "histogram count went back");
                    // ops and bytes are read one after the other, so they need not agree.
                    assert!(now.0 <= OPS && now.1 <= OPS * 4096 && now.1 % 4096 == 0);
                    last[r] = now;
                    mid_run |= rank.state == RankState::Running && now.0 > 0 && now.0 < OPS;
                }
                assert_eq!(snap.ops, snap.ranks.iter().map(|r| r.ops).sum::<u64>());
                polls.fetch_add(1, Ordering::Relaxed);
            }
            mid_run
        })
    };

    let writers: Vec<_> = (0..RANKS)
        .map(|slot| {
            let (board, go, polls) = (Arc::clone(&board), Arc::clone(&go), Arc::clone(&polls));
            std::thread::spawn(move || {
                let mut rec = board.recorder(slot, 1, 1_000_000);
                go.wait();
                rec.start(measure::now_ns());
                for i in 0..OPS {
                    rec.record(0, 4096);
                    if i % 1000 == 0 {
                        rec.error();
                    }
                    if slot == 0 && i == OPS / 2 {
                        // Two more polls: one of them ran entirely during this pause.
                        let seen = polls.load(Ordering::Relaxed);
                        while polls.load(Ordering::Relaxed) < seen + 2 {
                            std::thread::yield_now();
                        }
                    }
                }
                rec.finish()
            })
        })
        .collect();
    let records: Vec<_> = writers.into_iter().map(|w| w.join().unwrap()).collect();
    stop.store(true, Ordering::Relaxed);
    assert!(reader.join().unwrap(), "no poll saw a rank mid-run");

    let snap = board.snapshot_with_latency();
    assert_eq!((snap.running, snap.done), (0, RANKS));
    assert!(snap.ranks.iter().all(|r| r.state == RankState::Done));
    assert_eq!(snap.ops, RANKS as u64 * OPS);
    assert_eq!(snap.bytes, RANKS as u64 * OPS * 4096);
    assert_eq!(snap.errors, RANKS as u64 * OPS / 1000);
    assert_eq!(snap.latency[0].count(), RANKS as u64 * OPS);
    for (rank, rec) in snap.ranks.iter().zip(&records) {
        assert_eq!(
            (rank.ops, rank.bytes, rank.errors),
            (rec.ops, rec.bytes, rec.errors)
        );
        assert_eq!(rank.latency[0].summary(), rec.latency[0].summary());
        assert_eq!(rec.series.total().ops, OPS);
    }
}
