//! The dummy engine's queued mode (`--dummy.depth N`): requests complete after
//! `--dummy.complete-delay` from their submission, in submission order or, with
//! `--dummy.reorder`, out of it, so that the accounting of a queued mover (latency from
//! submission to completion, in-flight counts, short transfers pushed again, faults, drains)
//! is tested without a device. No byte is moved, as in the synchronous mode.

use std::io;
use std::time::{Duration, Instant};

use crate::fault::Faults;
use crate::queue::{admit, Completion, QueueSpec, QueuedFile, Request, SlotBuffers};

/// How the queue completes its requests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueTiming {
    /// Requests in flight at most; 0 is the synchronous mode.
    pub depth: usize,
    /// From a request's submission to its completion.
    pub complete_delay: Duration,
    /// Complete out of submission order: each request waits between one and two delays
    /// (drawn), and what is ready together is returned newest first.
    pub reorder: bool,
}

/// One request handed to the "device": when it is done, and what it returns.
struct Flight {
    due: Instant,
    /// Submission order, which breaks ties between requests due at once.
    seq: u64,
    token: u64,
    result: Result<usize, i32>,
}

pub struct DummyQueue {
    spec: QueueSpec,
    timing: QueueTiming,
    faults: Faults,
    bufs: SlotBuffers,
    pushed: Vec<(Request, u64)>,
    flying: Vec<Flight>,
    submitted: u64,
    /// xorshift state for the reordered delays; fixed, so a test sees the same order each run.
    draw: u64,
}

impl DummyQueue {
    pub fn new(bufs: SlotBuffers, timing: QueueTiming, faults: Faults) -> Self {
        let spec = bufs.spec();
        DummyQueue {
            spec,
            timing,
            faults,
            bufs,
            pushed: Vec::with_capacity(spec.depth),
            flying: Vec::with_capacity(spec.depth),
            submitted: 0,
            draw: 0x9E37_79B9_7F4A_7C15,
        }
    }

    fn delay(&mut self) -> Duration {
        let d = self.timing.complete_delay;
        if !self.timing.reorder || d.is_zero() {
            return d;
        }
        self.draw ^= self.draw << 13;
        self.draw ^= self.draw >> 7;
        self.draw ^= self.draw << 17;
        // One to two delays: never less than the delay a test asks for.
        d + d.mul_f64((self.draw >> 11) as f64 / (1u64 << 53) as f64)
    }

    /// What the request returns: the faults count it as the synchronous mode does.
    fn outcome(&self, req: &Request) -> Result<usize, i32> {
        let r = match *req {
            Request::Write { len, .. } | Request::Read { len, .. } => self.faults.transfer(len),
            Request::Sync => self.faults.op().map(|()| 0),
        };
        r.map_err(|e| e.raw_os_error().unwrap_or(libc::EIO))
    }

    /// Moves the ready requests to `out`, earliest due first (newest first when reordering).
    fn reap(&mut self, now: Instant, out: &mut Vec<Completion>) -> usize {
        let mut ready: Vec<Flight> = Vec::new();
        let mut i = 0;
        while i < self.flying.len() {
            if self.flying[i].due <= now {
                ready.push(self.flying.swap_remove(i));
            } else {
                i += 1;
            }
        }
        ready.sort_by_key(|f| (f.due, f.seq));
        if self.timing.reorder {
            ready.reverse();
        }
        let n = ready.len();
        out.extend(ready.into_iter().map(|f| Completion {
            token: f.token,
            result: f.result,
        }));
        n
    }
}

impl QueuedFile for DummyQueue {
    fn buffer(&mut self, slot: usize) -> &mut [u8] {
        self.bufs.slot(slot)
    }

    fn push(&mut self, req: Request, token: u64) -> io::Result<()> {
        admit(&req, self.spec, self.in_flight())?;
        self.pushed.push((req, token));
        Ok(())
    }

    fn submit(&mut self, wait: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        let now = Instant::now();
        for (req, token) in std::mem::take(&mut self.pushed) {
            let result = self.outcome(&req);
            let due = now + self.delay();
            self.submitted += 1;
            let seq = self.submitted;
            self.flying.push(Flight {
                due,
                seq,
                token,
                result,
            });
        }
        let mut got = self.reap(now, out);
        while got < wait && !self.flying.is_empty() {
            // Sleep until the next request is due, then take what is ready.
            let next = self.flying.iter().map(|f| f.due).min().expect("in flight");
            std::thread::sleep(next.saturating_duration_since(Instant::now()));
            got += self.reap(Instant::now(), out);
        }
        Ok(())
    }

    fn in_flight(&self) -> usize {
        self.pushed.len() + self.flying.len()
    }

    fn close(self: Box<Self>) -> io::Result<SlotBuffers> {
        if self.in_flight() > 0 {
            return Err(io::Error::other(format!(
                "closed with {} requests in flight",
                self.in_flight()
            )));
        }
        self.faults.op()?;
        Ok(self.bufs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(depth: usize, delay_ms: u64, reorder: bool) -> DummyQueue {
        let spec = QueueSpec {
            depth,
            buf_len: 4096,
        };
        let timing = QueueTiming {
            depth,
            complete_delay: Duration::from_millis(delay_ms),
            reorder,
        };
        DummyQueue::new(SlotBuffers::new(spec), timing, Faults::default())
    }

    fn write(slot: usize) -> Request {
        Request::Write {
            slot,
            at: 0,
            len: 4096,
            offset: slot as u64 * 4096,
        }
    }

    #[test]
    fn reordered_completions_come_out_of_order_and_never_early() {
        let mut q = queue(8, 3, true);
        for slot in 0..8 {
            q.push(write(slot), slot as u64).unwrap();
        }
        assert_eq!(q.in_flight(), 8);
        let t = Instant::now();
        let mut out = Vec::new();
        while q.in_flight() > 0 {
            q.submit(1, &mut out).unwrap();
            // Every completion seen so far waited its 3 ms from the submission.
            assert!(t.elapsed() >= Duration::from_millis(3));
        }
        let mut tokens: Vec<u64> = out.iter().map(|c| c.token).collect();
        assert_ne!(
            tokens,
            (0..8).collect::<Vec<_>>(),
            "completed in push order"
        );
        tokens.sort_unstable();
        assert_eq!(
            tokens,
            (0..8).collect::<Vec<_>>(),
            "each token exactly once"
        );
        assert!(out.iter().all(|c| c.result == Ok(4096)));
    }

    #[test]
    fn in_order_without_reorder_and_the_queue_has_a_bound() {
        let mut q = queue(4, 0, false);
        for slot in 0..4 {
            q.push(write(slot), 10 + slot as u64).unwrap();
        }
        let full = q.push(write(0), 99).unwrap_err();
        assert_eq!(full.kind(), io::ErrorKind::WouldBlock);
        let mut out = Vec::new();
        q.submit(4, &mut out).unwrap();
        let tokens: Vec<u64> = out.iter().map(|c| c.token).collect();
        assert_eq!(tokens, vec![10, 11, 12, 13]);
        let outside = Request::Read {
            slot: 4,
            at: 0,
            len: 1,
            offset: 0,
        };
        assert_eq!(
            q.push(outside, 1).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
        Box::new(q).close().unwrap();
    }

    #[test]
    fn faults_fail_and_shorten_requests_as_in_the_synchronous_mode() {
        let spec = QueueSpec {
            depth: 4,
            buf_len: 4096,
        };
        // Operation 2 fails with ENOSPC; transfer 3 (of those that did not fail) is short.
        let faults = Faults::new(2, 28, 3, 0, 0);
        let mut q = DummyQueue::new(SlotBuffers::new(spec), QueueTiming::default(), faults);
        for slot in 0..4 {
            q.push(write(slot), slot as u64).unwrap();
        }
        let mut out = Vec::new();
        q.submit(4, &mut out).unwrap();
        let results: Vec<_> = out.iter().map(|c| c.result).collect();
        assert_eq!(results, vec![Ok(4096), Err(28), Ok(4096), Ok(2048)]);
    }
}
