//! Thread ranks: N ranks as threads of one process, sharing one rendezvous point.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::{Comm, CommError, Message, NodeMap};

struct State {
    /// Completed collectives so far; waiters watch it change.
    generation: u64,
    arrived: usize,
    slots: Vec<Vec<u8>>,
    /// The contributions of the last completed collective.
    last: Arc<Vec<Vec<u8>>>,
    failed: Option<(usize, String)>,
}

struct Shared {
    size: usize,
    state: Mutex<State>,
    /// Mirrors `State::generation` and `State::failed` so waiters can spin without the lock.
    generation: AtomicU64,
    failed: AtomicBool,
    wake: Condvar,
    node_map: NodeMap,
    /// Point-to-point messages waiting for each rank.
    mailboxes: Vec<Mutex<VecDeque<Message>>>,
}

/// Busy-wait rounds before a waiter sleeps; the last `YIELD_ROUNDS` yield the CPU instead.
const SPIN_ROUNDS: u32 = 300;
const YIELD_ROUNDS: u32 = 100;

/// One thread rank's handle.
pub struct ThreadComm {
    rank: usize,
    shared: Arc<Shared>,
}

impl ThreadComm {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panicking rank never holds the lock across user code, so poisoning carries no
        // broken invariant; recover the guard.
        self.shared.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn peer_failed(state: &State) -> Option<CommError> {
    state
        .failed
        .as_ref()
        .map(|(rank, message)| CommError::PeerFailed {
            rank: *rank,
            message: message.clone(),
        })
}

impl Comm for ThreadComm {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.shared.size
    }
    fn node_map(&self) -> &NodeMap {
        &self.shared.node_map
    }

    fn barrier(&self) -> Result<(), CommError> {
        self.all_gather_bytes(&[]).map(|_| ())
    }

    fn all_gather_bytes(&self, data: &[u8]) -> Result<Vec<Vec<u8>>, CommError> {
        let mut st = self.lock();
        if let Some(e) = peer_failed(&st) {
            return Err(e);
        }
        let my_generation = st.generation;
        st.slots[self.rank] = data.to_vec();
        st.arrived += 1;
        if st.arrived == self.shared.size {
            let slots = std::mem::replace(&mut st.slots, vec![Vec::new(); self.shared.size]);
            st.last = Arc::new(slots);
            st.arrived = 0;
            st.generation += 1;
            self.shared
                .generation
                .store(st.generation, Ordering::Release);
            self.shared.wake.notify_all();
            return Ok((*st.last).clone());
        }
        // Waking a sleeping thread costs tens of microseconds to milliseconds, and that delay
        // lands inside the timed window that follows the barrier. Spin a little (yielding
        // after a while, so oversubscribed ranks still make progress) before sleeping.
        drop(st);
        for i in 0..SPIN_ROUNDS {
            if self.shared.generation.load(Ordering::Acquire) != my_generation
                || self.shared.failed.load(Ordering::Acquire)
            {
                break;
            }
            if i < SPIN_ROUNDS - YIELD_ROUNDS {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        let mut st = self.lock();
        while st.generation == my_generation {
            if let Some(e) = peer_failed(&st) {
                return Err(e);
            }
            st = self.shared.wake.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        // `last` is replaced only when every rank, this one included, has arrived at the next
        // collective, so it still holds this generation's contributions.
        Ok((*st.last).clone())
    }

    fn fail(&self, message: &str) {
        let mut st = self.lock();
        if st.failed.is_none() {
            st.failed = Some((self.rank, message.to_string()));
        }
        self.shared.failed.store(true, Ordering::Release);
        self.shared.wake.notify_all();
    }

    fn send_to(&self, dest: usize, tag: u16, data: &[u8]) -> Result<(), CommError> {
        if let Some(e) = self.check_failed() {
            return Err(e);
        }
        let msg = Message {
            source: self.rank,
            tag,
            data: data.to_vec(),
        };
        self.shared.mailboxes[dest]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(msg);
        Ok(())
    }

    fn try_receive(&self) -> Result<Option<Message>, CommError> {
        if let Some(e) = self.check_failed() {
            return Err(e);
        }
        Ok(self.shared.mailboxes[self.rank]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front())
    }
}

impl ThreadComm {
    /// The failure of another rank, checked without the lock in the common case.
    fn check_failed(&self) -> Option<CommError> {
        if !self.shared.failed.load(Ordering::Acquire) {
            return None;
        }
        peer_failed(&self.lock())
    }
}

/// How one rank ended, in rank order.
pub type RankOutcome<T, E> = Result<T, RankFailure<E>>;

/// Why a rank did not return a value.
#[derive(Debug)]
pub enum RankFailure<E> {
    /// The rank's own function returned this error.
    Error(E),
    /// The rank panicked; the payload as text.
    Panic(String),
}

/// Run `body` on `ranks` threads, each with its own [`ThreadComm`], and return every rank's
/// outcome in rank order. A rank that errs or panics marks the job failed, so the other ranks'
/// collectives return `PeerFailed` instead of hanging.
pub fn run<T, E, F>(ranks: usize, node_map: NodeMap, body: F) -> Vec<RankOutcome<T, E>>
where
    T: Send,
    E: Send + std::fmt::Display,
    F: Fn(ThreadComm) -> Result<T, E> + Sync,
{
    assert!(ranks >= 1, "at least one rank");
    assert_eq!(node_map.ranks(), ranks, "node map covers every rank");
    let shared = Arc::new(Shared {
        size: ranks,
        state: Mutex::new(State {
            generation: 0,
            arrived: 0,
            slots: vec![Vec::new(); ranks],
            last: Arc::new(Vec::new()),
            failed: None,
        }),
        wake: Condvar::new(),
        generation: AtomicU64::new(0),
        failed: AtomicBool::new(false),
        node_map,
        mailboxes: (0..ranks).map(|_| Mutex::new(VecDeque::new())).collect(),
    });
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..ranks)
            .map(|rank| {
                let shared = Arc::clone(&shared);
                let body = &body;
                std::thread::Builder::new()
                    .name(format!("rank-{rank}"))
                    .spawn_scoped(scope, move || {
                        let comm = ThreadComm {
                            rank,
                            shared: Arc::clone(&shared),
                        };
                        let failer = ThreadComm { rank, shared };
                        match catch_unwind(AssertUnwindSafe(|| body(comm))) {
                            Ok(Ok(v)) => Ok(v),
                            Ok(Err(e)) => {
                                failer.fail(&e.to_string());
                                Err(RankFailure::Error(e))
                            }
                            Err(payload) => {
                                let msg = panic_text(&payload);
                                failer.fail(&format!("panicked: {msg}"));
                                Err(RankFailure::Panic(msg))
                            }
                        }
                    })
                    .expect("spawn rank thread")
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|p| Err(RankFailure::Panic(panic_text(&p))))
            })
            .collect()
    })
}

pub(crate) fn panic_text(payload: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ReduceOp;

    #[test]
    fn reductions_and_broadcast_agree_on_every_rank() {
        let out = run(4, NodeMap::single_node(4), |c| -> Result<_, CommError> {
            let sum = c.all_reduce_u64(c.rank() as u64 + 1, ReduceOp::Sum)?;
            let min = c.all_reduce_f64(c.rank() as f64, ReduceOp::Min)?;
            let max = c.all_reduce_u64(c.rank() as u64, ReduceOp::Max)?;
            let b = c.broadcast_bytes(format!("from {}", c.rank()).as_bytes(), 2)?;
            let g = c.gather_bytes(&[c.rank() as u8], 0)?;
            Ok((sum, min, max, b, g))
        });
        for (rank, o) in out.into_iter().enumerate() {
            let (sum, min, max, b, g) = o.unwrap();
            assert_eq!((sum, min, max), (10, 0.0, 3));
            assert_eq!(b, b"from 2");
            if rank == 0 {
                assert_eq!(g.unwrap(), vec![vec![0], vec![1], vec![2], vec![3]]);
            } else {
                assert!(g.is_none());
            }
        }
    }

    #[test]
    fn many_back_to_back_collectives_stay_in_step() {
        let out = run(3, NodeMap::single_node(3), |c| -> Result<u64, CommError> {
            let mut acc = 0;
            for i in 0..2000u64 {
                acc += c.all_reduce_u64(i + c.rank() as u64, ReduceOp::Max)?;
            }
            Ok(acc)
        });
        let expect: u64 = (0..2000u64).map(|i| i + 2).sum();
        for o in out {
            assert_eq!(o.unwrap(), expect);
        }
    }

    #[test]
    fn a_failing_rank_releases_the_others() {
        let out = run(3, NodeMap::single_node(3), |c| -> Result<(), String> {
            if c.rank() == 1 {
                return Err("disk on fire".into());
            }
            c.barrier().map_err(|e| e.to_string())?;
            Ok(())
        });
        assert!(matches!(&out[1], Err(RankFailure::Error(m)) if m == "disk on fire"));
        for r in [0, 2] {
            match &out[r] {
                Err(RankFailure::Error(m)) => assert_eq!(m, "rank 1 failed: disk on fire"),
                other => panic!("rank {r}: {other:?}"),
            }
        }
    }

    #[test]
    fn messages_arrive_in_order_with_source_and_tag() {
        let out = run(
            3,
            NodeMap::single_node(3),
            |c| -> Result<Vec<Message>, CommError> {
                if c.rank() != 0 {
                    for i in 0..3u8 {
                        c.send_to(0, 7 + c.rank() as u16, &[c.rank() as u8, i])?;
                    }
                }
                c.barrier()?;
                let mut got = Vec::new();
                while let Some(m) = c.try_receive()? {
                    got.push(m);
                }
                Ok(got)
            },
        );
        let got = out[0].as_ref().unwrap();
        assert_eq!(got.len(), 6);
        for src in 1..3usize {
            let from: Vec<_> = got.iter().filter(|m| m.source == src).collect();
            assert!(from.iter().all(|m| m.tag == 7 + src as u16));
            let order: Vec<u8> = from.iter().map(|m| m.data[1]).collect();
            assert_eq!(order, vec![0, 1, 2]);
        }
        assert!(out[1].as_ref().unwrap().is_empty());
    }

    #[test]
    fn a_panicking_rank_releases_the_others() {
        let out = run(2, NodeMap::single_node(2), |c| -> Result<(), String> {
            if c.rank() == 0 {
                panic!("boom");
            }
            c.barrier().map_err(|e| e.to_string())
        });
        assert!(matches!(&out[0], Err(RankFailure::Panic(m)) if m == "boom"));
        assert!(matches!(&out[1], Err(RankFailure::Error(m)) if m.contains("rank 0 failed")));
    }
}
