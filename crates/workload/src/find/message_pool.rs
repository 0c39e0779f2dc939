//! Work stealing between ranks that share no memory (MPI ranks), through `Comm` messages.
//!
//! Every rank makes its own [`MessagePool`] over its own comm; rank 0 starts with the roots.
//! Queue, spill list and [`StealStats`] behave as in [`StealingPool`](super::StealingPool).
//! An idle rank sends a steal request to one victim and polls until the reply comes, answering
//! the requests it gets meanwhile with "no work"; a rank with work answers with the older half
//! of its queue. Busy ranks poll in `push` and `next`. Termination: rank 0 sends a token round
//! the ring summing each rank's (created, finished) directory counters (Mattern's four-counter
//! method, see [`MessagePool::token`]) and then tells every rank DONE.
//!
//! Only work replies can be large (and block in `send_to` until received); they go only to a
//! rank that asked and polls until its answer comes. Every message carries the walk id, so
//! leftovers of an earlier walk on the same comm are dropped.

use std::collections::VecDeque;
use std::ffi::OsStr;
use std::ops::RangeInclusive;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use exec::{Comm, Message};

use super::pool::{DirPool, StealStats, VictimChoice};

/// Point-to-point tags the pool uses; while a walk runs it consumes every message, and drops
/// those outside this range.
pub const MESSAGE_POOL_TAGS: RangeInclusive<u16> = 0x4600..=0x46FF;
const TAG_REQUEST: u16 = 0x4600;
const TAG_WORK: u16 = 0x4601;
const TAG_TOKEN: u16 = 0x4602;
const TAG_DONE: u16 = 0x4603;
const TAG_ABORT: u16 = 0x4604;

#[derive(Default)]
struct State {
    queue: VecDeque<PathBuf>,
    spill: Vec<PathBuf>,
    rng: u64,
    stats: StealStats,
    /// Directories pushed here (rank 0: the roots too) and finished here; both only grow.
    created: u64,
    finished: u64,
    /// The victim of the steal request awaiting its reply.
    asked: Option<usize>,
    done: bool,
    /// Rank 0: a token is on its way round the ring.
    wave_out: bool,
    /// Rank 0: (created, finished) summed by the last complete wave.
    last_wave: Option<(u64, u64)>,
}

/// One rank's share of a walk whose ranks talk only through [`Comm::send_to`] and
/// [`Comm::try_receive`]. Call its [`DirPool`] methods with this rank's number only.
pub struct MessagePool<'a> {
    comm: &'a dyn Comm,
    rank: usize,
    size: usize,
    walk: [u8; 4],
    capacity: usize,
    victims: VictimChoice,
    aborted: AtomicBool,
    state: Mutex<State>,
}

impl<'a> MessagePool<'a> {
    /// This rank's pool for walk `walk_id`. `roots` are used on rank 0 only; `capacity` ≥ 1.
    ///
    /// Every rank must pass the same `walk_id` for the same walk and a different one for each
    /// walk on the same comm (messages of other walks are dropped), and a walk must start on
    /// any rank only after every rank left the previous one (a collective in between, as
    /// `find::run`'s barrier). `new` sends nothing.
    pub fn new(
        comm: &'a dyn Comm,
        roots: Vec<PathBuf>,
        capacity: usize,
        victims: VictimChoice,
        walk_id: u32,
    ) -> Self {
        let rank = comm.rank();
        let mut st = State {
            // Any odd non-zero seed works for xorshift; distinct per rank and walk.
            rng: 0x9E37_79B9_7F4A_7C15 ^ ((rank as u64 + 1) << 1) ^ (u64::from(walk_id) << 32) | 1,
            ..State::default()
        };
        let capacity = capacity.max(1);
        if rank == 0 {
            for root in roots.into_iter().rev() {
                enqueue(&mut st, capacity, root);
            }
        }
        MessagePool {
            comm,
            rank,
            size: comm.size(),
            walk: walk_id.to_le_bytes(),
            capacity,
            victims,
            aborted: AtomicBool::new(false),
            state: Mutex::new(st),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing is left half-updated under the lock, so a poisoned one is still consistent.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stopped(&self, st: &State) -> bool {
        st.done || self.aborted.load(Ordering::Relaxed)
    }

    /// A failing comm means a failing job: stop this rank's walk, never panic or spin.
    fn send(&self, dest: usize, tag: u16, data: &[u8]) {
        if self.comm.send_to(dest, tag, data).is_err() {
            self.aborted.store(true, Ordering::Relaxed);
        }
    }

    /// A message's start: the walk id.
    fn message(&self, body_len: usize) -> Vec<u8> {
        let mut m = Vec::with_capacity(4 + body_len);
        m.extend_from_slice(&self.walk);
        m
    }

    /// Handles the messages that have arrived, never waiting. Stops at stolen work, so that
    /// a request right behind it cannot take the loot back before this rank starts on it.
    fn poll(&self, st: &mut State) {
        while !self.stopped(st) {
            match self.comm.try_receive() {
                Ok(Some(m)) => {
                    let stolen = st.stats.stolen;
                    self.handle(st, m);
                    if st.stats.stolen != stolen {
                        return;
                    }
                }
                Ok(None) => return,
                Err(_) => self.aborted.store(true, Ordering::Relaxed),
            }
        }
    }

    fn handle(&self, st: &mut State, m: Message) {
        if !MESSAGE_POOL_TAGS.contains(&m.tag) || m.data.get(..4) != Some(&self.walk[..]) {
            return; // another walk's leftover, or not ours
        }
        let body = &m.data[4..];
        match m.tag {
            TAG_REQUEST => self.serve(st, m.source),
            TAG_WORK => {
                if st.asked == Some(m.source) {
                    st.asked = None;
                }
                match decode_paths(body) {
                    Some(dirs) => {
                        st.stats.stolen += dirs.len() as u64;
                        // We were idle, and the loot is at most half of a full queue.
                        st.queue.extend(dirs);
                    }
                    // Directories would be lost and the walk never end: give up instead.
                    None => self.aborted.store(true, Ordering::Relaxed),
                }
            }
            TAG_TOKEN => match (read_u64(body, 0), read_u64(body, 8)) {
                (Some(c), Some(f)) => self.token(st, c, f),
                _ => self.aborted.store(true, Ordering::Relaxed),
            },
            TAG_DONE => st.done = true,
            TAG_ABORT => self.aborted.store(true, Ordering::Relaxed),
            _ => {}
        }
    }

    /// Answers a steal request with the older half of the queue (none when idle); the
    /// directory being read is not in the queue, so it is never given away.
    fn serve(&self, st: &mut State, thief: usize) {
        let n = st.queue.len();
        let give: Vec<PathBuf> = st.queue.drain(..n.div_ceil(2)).collect();
        while st.queue.len() < self.capacity {
            match st.spill.pop() {
                Some(d) => st.queue.push_back(d),
                None => break,
            }
        }
        let mut m = self.message(4 + give.iter().map(|p| 4 + p.as_os_str().len()).sum::<usize>());
        encode_paths(&mut m, &give);
        self.send(thief, TAG_WORK, &m);
    }

    /// The token passes with the sums `(c, f)` of the ranks before this one.
    ///
    /// Termination (Mattern's four counters): let wave 1 end at time t1 with sums (C1, F1) and
    /// a later wave give (C2, F2). Counters only grow, and wave 1 read each rank before t1,
    /// wave 2 after it, so F1 ≤ F(t1) ≤ C(t1) ≤ C2 (a directory is counted created before
    /// anyone can finish it). F1 == C2 thus means every directory created by t1 was finished
    /// by t1: none queued, in flight or being read, and only reading creates directories, so
    /// the walk was over at t1.
    fn token(&self, st: &mut State, c: u64, f: u64) {
        let (c, f) = (c + st.created, f + st.finished);
        if self.rank != 0 {
            let mut m = self.message(16);
            m.extend_from_slice(&c.to_le_bytes());
            m.extend_from_slice(&f.to_le_bytes());
            self.send((self.rank + 1) % self.size, TAG_TOKEN, &m);
            return;
        }
        st.wave_out = false;
        if st.last_wave.is_some_and(|(_, f1)| f1 == c) {
            st.done = true;
            let m = self.message(0);
            for r in 1..self.size {
                self.send(r, TAG_DONE, &m);
            }
        } else {
            st.last_wave = Some((c, f));
        }
    }

    fn victim(&self, st: &mut State) -> usize {
        let mut x = st.rng;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        st.rng = x;
        if self.victims == VictimChoice::PreviousHalfTheTime && self.rank > 0 && x & 1 == 1 {
            return self.rank - 1;
        }
        // A random rank other than this one.
        let v = ((x >> 1) % (self.size as u64 - 1)) as usize;
        v + usize::from(v >= self.rank)
    }
}

fn enqueue(st: &mut State, capacity: usize, dir: PathBuf) {
    st.created += 1;
    if st.queue.len() < capacity {
        st.queue.push_back(dir);
    } else {
        st.spill.push(dir);
        st.stats.spilled += 1;
    }
}

/// Idle ranks spin briefly, then yield, then sleep 20 µs growing to 320 µs, polling in
/// between (as `pool.rs`): prompt answers and steals, no burnt core while idle for long.
fn backoff(round: u32) {
    match round {
        0..=7 => std::hint::spin_loop(),
        8..=23 => std::thread::yield_now(),
        _ => std::thread::sleep(Duration::from_micros(20u64 << (round - 24).min(4))),
    }
}

fn read_u64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

fn read_u32(b: &[u8], at: usize) -> Option<usize> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize)
}

/// Count, then each path as its length and raw bytes (paths are any bytes on unix).
fn encode_paths(out: &mut Vec<u8>, paths: &[PathBuf]) {
    out.extend_from_slice(&(paths.len() as u32).to_le_bytes());
    for p in paths {
        let b = p.as_os_str().as_bytes();
        out.extend_from_slice(&(b.len() as u32).to_le_bytes());
        out.extend_from_slice(b);
    }
}

fn decode_paths(b: &[u8]) -> Option<Vec<PathBuf>> {
    let n = read_u32(b, 0)?;
    let mut at = 4;
    // Not trusting `n` for the allocation: each path takes at least 4 bytes.
    let mut out = Vec::with_capacity(n.min(b.len() / 4));
    for _ in 0..n {
        let len = read_u32(b, at)?;
        let p = b.get(at + 4..at + 4 + len)?;
        out.push(PathBuf::from(OsStr::from_bytes(p)));
        at += 4 + len;
    }
    (at == b.len()).then_some(out)
}

impl DirPool for MessagePool<'_> {
    fn push(&self, rank: usize, dir: PathBuf) {
        debug_assert_eq!(rank, self.rank, "a MessagePool serves its own rank only");
        let mut st = self.lock();
        enqueue(&mut st, self.capacity, dir);
        if self.size > 1 {
            self.poll(&mut st);
        }
    }

    fn next(&self, rank: usize) -> Option<PathBuf> {
        debug_assert_eq!(rank, self.rank, "a MessagePool serves its own rank only");
        let mut st = self.lock();
        let mut round = 0u32;
        loop {
            if self.size > 1 && !self.stopped(&st) {
                self.poll(&mut st);
            }
            if self.stopped(&st) {
                return None;
            }
            if exec::interrupt::requested() {
                // Every rank's walk ends: the others hear it as an abort (best effort; under
                // mpirun each rank gets the signal itself as well).
                drop(st);
                self.abort();
                return None;
            }
            if let Some(d) = st.spill.pop().or_else(|| st.queue.pop_back()) {
                return Some(d);
            }
            if self.size == 1 {
                return None;
            }
            // Idle. Rank 0 runs one wave at a time, and only now, so waves do not flood.
            if self.rank == 0 && !st.wave_out {
                st.wave_out = true;
                let mut m = self.message(16);
                m.extend_from_slice(&[0; 16]);
                self.send(1, TAG_TOKEN, &m);
            }
            if st.asked.is_none() {
                let v = self.victim(&mut st);
                st.stats.tries += 1;
                st.asked = Some(v);
                self.send(v, TAG_REQUEST, &self.message(0));
            }
            // Rounds are not reset per request: a run of empty replies slows the asking down.
            drop(st);
            backoff(round);
            round = round.saturating_add(1);
            st = self.lock();
        }
    }

    fn finish(&self, rank: usize) {
        debug_assert_eq!(rank, self.rank, "a MessagePool serves its own rank only");
        self.lock().finished += 1;
    }

    /// Stops this rank's walk and, best effort, every other rank's.
    fn abort(&self) {
        if self.aborted.swap(true, Ordering::Relaxed) {
            return;
        }
        let m = self.message(0);
        for r in (0..self.size).filter(|&r| r != self.rank) {
            let _ = self.comm.send_to(r, TAG_ABORT, &m);
        }
    }

    fn steal_stats(&self, rank: usize) -> StealStats {
        debug_assert_eq!(rank, self.rank, "a MessagePool serves its own rank only");
        self.lock().stats
    }
}

#[cfg(test)]
#[path = "message_pool_tests.rs"]
mod tests;
