//! The directories still to read, shared by the ranks, with work stealing.
//!
//! [`DirPool`] is what the walk sees; [`StealingPool`] is the thread-rank implementation, made
//! before the ranks start and shared by reference (thread ranks are scoped threads). MPI ranks
//! implement `DirPool` with messages (`message_pool`), as pfind does. Each rank owns a LIFO queue of at
//! most `capacity` directories (pfind's `-q`); more go to the rank's spill list, read first, as
//! pfind's "excess" list. An idle rank steals the older half of a victim's queue — the victim
//! refills its queue from its spill list — and the walk is over when no directory is queued or
//! being read: an atomic count of outstanding directories, raised before a directory is queued
//! and lowered after it has been read (its subdirectories queued), reaches zero.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Directories to read, shared by every rank of a walk.
pub trait DirPool: Sync {
    /// `rank` found a directory to read.
    fn push(&self, rank: usize, dir: PathBuf);
    /// The next directory for `rank` (its own newest, else stolen); `None` once no rank has
    /// work left or the walk was aborted. Call [`DirPool::finish`] after reading it.
    fn next(&self, rank: usize) -> Option<PathBuf>;
    /// `rank` has read the directory `next` gave it and pushed its subdirectories.
    fn finish(&self, rank: usize);
    /// Stop every rank's walk (a rank failed); `next` returns `None` from now on.
    fn abort(&self);
    /// How `rank` fared with stealing.
    fn steal_stats(&self, rank: usize) -> StealStats;
}

pub use results::find::StealStats;

/// Whom an idle rank asks for work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VictimChoice {
    /// A random other rank (pfind's default).
    #[default]
    Random,
    /// pfind `-N`: with probability ½ the rank before this one (rank − 1, for ranks > 0),
    /// else a random rank.
    PreviousHalfTheTime,
}

#[derive(Default)]
struct Local {
    queue: VecDeque<PathBuf>,
    spill: Vec<PathBuf>,
}

/// One rank's queue and figures, on its own cache lines.
#[repr(align(128))]
#[derive(Default)]
struct Slot {
    local: Mutex<Local>,
    rng: AtomicU64,
    tries: AtomicU64,
    stolen: AtomicU64,
    spilled: AtomicU64,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, Local> {
        // Nothing is left half-updated under the lock, so a poisoned one is still consistent.
        self.local.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Work stealing between thread ranks.
pub struct StealingPool {
    slots: Vec<Slot>,
    outstanding: AtomicUsize,
    aborted: AtomicBool,
    capacity: usize,
    victims: VictimChoice,
}

impl StealingPool {
    /// `roots` start on rank 0's queue, as pfind's rank 0 seeds the walk. `capacity` ≥ 1.
    pub fn new(ranks: usize, roots: Vec<PathBuf>, capacity: usize, victims: VictimChoice) -> Self {
        let slots: Vec<Slot> = (0..ranks.max(1)).map(|_| Slot::default()).collect();
        for (rank, s) in slots.iter().enumerate() {
            // Any odd non-zero seed works for xorshift; distinct per rank.
            s.rng.store(
                0x9E37_79B9_7F4A_7C15 ^ ((rank as u64 + 1) << 1) | 1,
                Ordering::Relaxed,
            );
        }
        let pool = StealingPool {
            slots,
            outstanding: AtomicUsize::new(0),
            aborted: AtomicBool::new(false),
            capacity: capacity.max(1),
            victims,
        };
        for root in roots.into_iter().rev() {
            pool.push(0, root);
        }
        pool
    }

    fn random(&self, rank: usize) -> u64 {
        let s = &self.slots[rank].rng;
        let mut x = s.load(Ordering::Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        s.store(x, Ordering::Relaxed);
        x
    }

    fn victim(&self, rank: usize) -> usize {
        let n = self.slots.len();
        let r = self.random(rank);
        if self.victims == VictimChoice::PreviousHalfTheTime && rank > 0 && r & 1 == 1 {
            return rank - 1;
        }
        // A random rank other than this one.
        let v = ((r >> 1) % (n as u64 - 1)) as usize;
        if v >= rank {
            v + 1
        } else {
            v
        }
    }

    fn pop_own(&self, rank: usize) -> Option<PathBuf> {
        let mut l = self.slots[rank].lock();
        l.spill.pop().or_else(|| l.queue.pop_back())
    }

    fn steal(&self, rank: usize) -> Option<PathBuf> {
        let victim = self.victim(rank);
        let me = &self.slots[rank];
        me.tries.fetch_add(1, Ordering::Relaxed);
        let mut taken: Vec<PathBuf> = {
            let mut v = self.slots[victim].lock();
            let n = v.queue.len();
            if n == 0 {
                return None;
            }
            let taken = v.queue.drain(..n.div_ceil(2)).collect();
            while v.queue.len() < self.capacity {
                match v.spill.pop() {
                    Some(d) => v.queue.push_back(d),
                    None => break,
                }
            }
            taken
        };
        me.stolen.fetch_add(taken.len() as u64, Ordering::Relaxed);
        let first = taken.pop();
        if !taken.is_empty() {
            // Our queue is empty (we are idle) and the loot is at most half of a full queue.
            me.lock().queue.extend(taken);
        }
        first
    }
}

/// Idle ranks spin briefly, then yield, then sleep 20 µs growing to 320 µs: quick to pick up
/// new work, and no burnt core while one rank reads a huge directory alone.
fn backoff(round: u32) {
    match round {
        0..=7 => std::hint::spin_loop(),
        8..=23 => std::thread::yield_now(),
        _ => std::thread::sleep(Duration::from_micros(20u64 << (round - 24).min(4))),
    }
}

impl DirPool for StealingPool {
    fn push(&self, rank: usize, dir: PathBuf) {
        // Counted before it becomes visible, so the count never drops to zero while it waits.
        self.outstanding.fetch_add(1, Ordering::AcqRel);
        let slot = &self.slots[rank];
        let mut l = slot.lock();
        if l.queue.len() < self.capacity {
            l.queue.push_back(dir);
        } else {
            l.spill.push(dir);
            slot.spilled.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn next(&self, rank: usize) -> Option<PathBuf> {
        let mut round = 0u32;
        loop {
            // An idle rank waiting for work stops at a signal too.
            if self.aborted.load(Ordering::Relaxed) || exec::interrupt::requested() {
                return None;
            }
            if let Some(d) = self.pop_own(rank) {
                return Some(d);
            }
            if self.outstanding.load(Ordering::Acquire) == 0 {
                return None;
            }
            if self.slots.len() > 1 {
                if let Some(d) = self.steal(rank) {
                    return Some(d);
                }
            }
            backoff(round);
            round = round.saturating_add(1);
        }
    }

    fn finish(&self, _rank: usize) {
        self.outstanding.fetch_sub(1, Ordering::AcqRel);
    }

    fn abort(&self) {
        self.aborted.store(true, Ordering::Relaxed);
    }

    fn steal_stats(&self, rank: usize) -> StealStats {
        let s = &self.slots[rank];
        StealStats {
            tries: s.tries.load(Ordering::Relaxed),
            stolen: s.stolen.load(Ordering::Relaxed),
            spilled: s.spilled.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// A synthetic tree walked through the pool: directory `n` has children `n*fan+1 ..= n*fan+fan`
    /// up to `total` directories. Every directory must be handed out exactly once.
    fn walk(
        ranks: usize,
        capacity: usize,
        victims: VictimChoice,
    ) -> (Vec<BTreeSet<u64>>, Vec<StealStats>) {
        let (fan, total) = (3u64, 400u64);
        let pool = StealingPool::new(ranks, vec![PathBuf::from("0")], capacity, victims);
        let seen: Vec<BTreeSet<u64>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..ranks)
                .map(|rank| {
                    let pool = &pool;
                    s.spawn(move || {
                        let mut mine = BTreeSet::new();
                        while let Some(d) = pool.next(rank) {
                            let n: u64 = d.to_str().unwrap().parse().unwrap();
                            mine.insert(n);
                            for c in n * fan + 1..=n * fan + fan {
                                if c < total {
                                    pool.push(rank, PathBuf::from(c.to_string()));
                                }
                            }
                            // A little work per directory, so stealing happens.
                            std::thread::sleep(Duration::from_micros(50));
                            pool.finish(rank);
                        }
                        mine
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let all: BTreeSet<u64> = seen.iter().flatten().copied().collect();
        assert_eq!(all.len() as u64, total);
        assert_eq!(
            seen.iter().map(|s| s.len()).sum::<usize>() as u64,
            total,
            "no directory twice"
        );
        let stats = (0..ranks).map(|r| pool.steal_stats(r)).collect();
        (seen, stats)
    }

    #[test]
    fn every_directory_once_and_work_is_shared() {
        for victims in [VictimChoice::Random, VictimChoice::PreviousHalfTheTime] {
            let (seen, stats) = walk(4, 100_000, victims);
            assert!(
                seen.iter().filter(|s| !s.is_empty()).count() >= 2,
                "{seen:?}"
            );
            assert!(stats.iter().map(|s| s.stolen).sum::<u64>() > 0);
            assert_eq!(stats.iter().map(|s| s.spilled).sum::<u64>(), 0);
        }
        let (seen, _) = walk(1, 100_000, VictimChoice::Random);
        assert_eq!(seen[0].len(), 400);
    }

    #[test]
    fn a_small_queue_spills_and_still_finishes() {
        let (_, stats) = walk(2, 2, VictimChoice::Random);
        assert!(stats.iter().map(|s| s.spilled).sum::<u64>() > 0);
        let (_, stats) = walk(1, 1, VictimChoice::Random);
        assert!(stats[0].spilled > 0);
    }

    #[test]
    fn roots_are_read_in_the_order_given() {
        let pool = StealingPool::new(
            1,
            vec!["a".into(), "b".into(), "c".into()],
            10,
            VictimChoice::Random,
        );
        let mut order = Vec::new();
        while let Some(d) = pool.next(0) {
            order.push(d);
            pool.finish(0);
        }
        assert_eq!(order, [PathBuf::from("a"), "b".into(), "c".into()]);
    }

    #[test]
    fn victims_are_other_ranks() {
        let pool = StealingPool::new(4, vec![], 10, VictimChoice::Random);
        for rank in 0..4 {
            let picked: BTreeSet<usize> = (0..200).map(|_| pool.victim(rank)).collect();
            assert!(!picked.contains(&rank));
            assert_eq!(picked.len(), 3, "rank {rank}: {picked:?}");
        }
        let next = StealingPool::new(4, vec![], 10, VictimChoice::PreviousHalfTheTime);
        let hits = (0..1000).filter(|_| next.victim(2) == 1).count();
        assert!(hits > 550, "rank 1 is picked about 2/3 of the time: {hits}");
    }

    #[test]
    fn abort_releases_waiting_ranks() {
        let pool = StealingPool::new(2, vec!["root".into()], 10, VictimChoice::Random);
        let d = pool.next(0).unwrap();
        assert_eq!(d, PathBuf::from("root"));
        std::thread::scope(|s| {
            let waiter = s.spawn(|| pool.next(1));
            std::thread::sleep(Duration::from_millis(20));
            pool.abort();
            assert_eq!(waiter.join().unwrap(), None);
        });
    }
}
