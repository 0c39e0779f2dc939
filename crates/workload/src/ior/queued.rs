//! IOR's transfers at depth, on a queued engine (`engine::QueuedFile`): up to `depth`
//! transfers in flight per rank, each in a buffer slot of its own (stamped before a write,
//! checked after a read), pushed in batches and timed from their submission to their
//! completion (fio's `clat`). Per batch, not per transfer: one clock read before the
//! submission and one after the completions, one look at the stonewall and the stop flag. A
//! short transfer is pushed again for its rest; the stonewall and a signal stop the pushes and
//! the queue drains, so no transfer is lost from the counts.

use std::path::Path;

use engine::{Completion, QueuedFile, Request};
use exec::interrupt::{Stop, Watch};
use measure::{now_ns, Recorder};

use crate::ior::data::{Checker, DataPattern};
use crate::ior::error::IorError;
use crate::ior::outcome::VerifyOutcome;
use crate::ior::pattern::{AccessPattern, Offsets};

/// IOR's limit on the attempts to finish one partial transfer (`MAX_RETRY`, iordef.h).
const MAX_RETRY: u32 = 10000;

/// The token of a sync request (slots are below the depth).
const SYNC: u64 = u64::MAX;

/// One buffer slot: the transfer it holds.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    offset: u64,
    /// Bytes moved so far (a short transfer's first part).
    done: usize,
    submitted_ns: u64,
    tries: u32,
}

/// One rank's queued file and what its transfers need.
pub(crate) struct QueuedMover<'a> {
    pub file: Box<dyn QueuedFile>,
    /// The transfer size, each slot's buffer.
    pub len: usize,
    pub data: DataPattern,
    pub checker: Option<Checker>,
    pub write: bool,
    pub quit_on_error: bool,
    pub path: &'a Path,
    pub verify: VerifyOutcome,
    pub rank: u64,
    slots: Vec<Slot>,
    free: Vec<usize>,
    /// Slots pushed since the last submission, to stamp with its time.
    fresh: Vec<usize>,
    completions: Vec<Completion>,
    /// The time integral of the requests in flight (ns × requests).
    area: u64,
    /// The clock's last reading: the previous exchange's end, or the window's start.
    last_ns: u64,
}

impl<'a> QueuedMover<'a> {
    pub fn new(file: Box<dyn QueuedFile>, depth: usize, len: usize, data: DataPattern) -> Self {
        QueuedMover {
            file,
            len,
            data,
            checker: None,
            write: false,
            quit_on_error: false,
            path: Path::new(""),
            verify: VerifyOutcome::default(),
            rank: 0,
            slots: vec![Slot::default(); depth],
            // Popped from the end: slot 0 first.
            free: (0..depth).rev().collect(),
            fresh: Vec::with_capacity(depth),
            completions: Vec::with_capacity(depth),
            area: 0,
            last_ns: 0,
        }
    }

    /// A write's buffers hold the data pattern before the first transfer stamps them.
    pub fn prepare(&mut self) {
        if self.write {
            for slot in 0..self.slots.len() {
                self.data.fill(self.file.buffer(slot));
            }
        }
    }

    /// The depth: slots, and requests in flight at most.
    pub fn depth(&self) -> usize {
        self.slots.len()
    }

    /// The time integral of the requests in flight since the transfers started (ns ×
    /// requests): divided by a window's length, the mean number in flight.
    pub fn in_flight_area(&self) -> u64 {
        self.area
    }

    fn push(&mut self, req: Request, token: u64) -> Result<(), IorError> {
        let op = if self.write { "write" } else { "read" };
        let offset = match req {
            Request::Write { offset, .. } | Request::Read { offset, .. } => Some(offset),
            Request::Sync => None,
        };
        self.file
            .push(req, token)
            .map_err(|e| IorError::io(op, self.path, offset, e))
    }

    /// Fills the free slots with the next transfers (up to `to`); returns how many.
    fn fill(&mut self, offsets: &mut Offsets<'_>, k: &mut u64, to: u64) -> Result<(), IorError> {
        while *k < to {
            let Some(slot) = self.free.pop() else { break };
            let offset = offsets.next();
            let buf = self.file.buffer(slot);
            if self.write {
                self.data.stamp(buf, offset);
            } else if self.checker.is_some() {
                // Make sure the read really lands in the buffer (IOR's invalidate_buffer_pattern).
                buf[0] = !buf[0];
            }
            self.slots[slot] = Slot {
                offset,
                ..Slot::default()
            };
            let len = self.len;
            let req = match self.write {
                true => Request::Write {
                    slot,
                    at: 0,
                    len,
                    offset,
                },
                false => Request::Read {
                    slot,
                    at: 0,
                    len,
                    offset,
                },
            };
            self.push(req, slot as u64)?;
            self.fresh.push(slot);
            *k += 1;
        }
        Ok(())
    }

    /// Hands what is pushed to the device and waits for at least one completion; returns the
    /// clock after it. One clock read per exchange: the previous exchange's reading (or the
    /// window's start) stands for this submission, as the synchronous mover chains its
    /// transfers; the time between is the settling and refilling of the slots.
    fn exchange(&mut self, rec: &mut Recorder) -> Result<u64, IorError> {
        let submitted = self.last_ns;
        for &slot in &self.fresh {
            self.slots[slot].submitted_ns = submitted;
        }
        self.fresh.clear();
        let in_flight = self.file.in_flight() as u64;
        rec.set_in_flight(in_flight);
        let op = if self.write { "write" } else { "read" };
        self.file
            .submit(1, &mut self.completions)
            .map_err(|e| IorError::io(op, self.path, None, e))?;
        let now = now_ns();
        // All of them were in flight until the first completion, which ends the wait.
        let dt = now.saturating_sub(submitted);
        self.area = self.area.saturating_add(dt.saturating_mul(in_flight));
        self.last_ns = now;
        Ok(now)
    }

    /// The completions of the last exchange: each recorded, checked, or pushed again for its
    /// rest; returns the transfers finished.
    fn settle(&mut self, now: u64, rec: &mut Recorder) -> Result<u64, IorError> {
        let mut finished = 0;
        let mut completions = std::mem::take(&mut self.completions);
        let mut result = Ok(());
        for c in completions.drain(..) {
            if result.is_err() {
                continue;
            }
            result = self.settle_one(c, now, rec).map(|f| finished += f);
        }
        self.completions = completions;
        result.map(|()| finished)
    }

    fn settle_one(&mut self, c: Completion, now: u64, rec: &mut Recorder) -> Result<u64, IorError> {
        let op = if self.write { "write" } else { "read" };
        let slot = c.token as usize;
        let s = self.slots[slot];
        let n = c
            .io()
            .map_err(|e| IorError::io(op, self.path, Some(s.offset + s.done as u64), e))?;
        let done = s.done + n;
        if done < self.len {
            return self.rest(slot, done, n).map(|()| 0);
        }
        rec.record_span(0, s.submitted_ns, now, self.len as u64);
        if !self.write && self.checker.is_some() {
            self.check(slot, rec)?;
        }
        self.free.push(slot);
        Ok(1)
    }

    /// A transfer that moved `done` of its bytes: warn as IOR does and push the rest, up to
    /// IOR's `MAX_RETRY` attempts. A write that moves nothing is an error; a read that gets
    /// nothing is the end of the file, a short read.
    #[cold]
    #[inline(never)]
    fn rest(&mut self, slot: usize, done: usize, moved: usize) -> Result<(), IorError> {
        let op = if self.write { "write" } else { "read" };
        let s = self.slots[slot];
        let at = s.offset + done as u64;
        if moved == 0 && self.write {
            let e = std::io::Error::new(std::io::ErrorKind::WriteZero, "write moved 0 bytes");
            return Err(IorError::io(op, self.path, Some(at), e));
        }
        if moved == 0 {
            return Err(IorError::ShortRead {
                path: self.path.display().to_string(),
                offset: s.offset,
                got: done as u64,
                want: self.len as u64,
            });
        }
        eprintln!(
            "WARNING: rank {}, partial {op} of {}, {done} of {} bytes at offset {}; retrying \
             the rest",
            self.rank,
            self.path.display(),
            self.len,
            s.offset
        );
        let tries = s.tries + 1;
        if tries > MAX_RETRY {
            let e = std::io::Error::other(format!("still partial after {MAX_RETRY} retries"));
            return Err(IorError::io(op, self.path, Some(at), e));
        }
        self.slots[slot].done = done;
        self.slots[slot].tries = tries;
        let len = self.len - done;
        let req = match self.write {
            true => Request::Write {
                slot,
                at: done,
                len,
                offset: at,
            },
            false => Request::Read {
                slot,
                at: done,
                len,
                offset: at,
            },
        };
        // Timed from the transfer's first submission: the rest is part of the same one.
        self.push(req, slot as u64)
    }

    #[cold]
    fn check(&mut self, slot: usize, rec: &mut Recorder) -> Result<(), IorError> {
        let offset = self.slots[slot].offset;
        let Some(checker) = &mut self.checker else {
            return Ok(());
        };
        self.verify.checked += 1;
        let Some(i) = checker.check(self.file.buffer(slot), offset) else {
            return Ok(());
        };
        rec.error();
        crate::ior::mover::mismatch(
            &mut self.verify,
            self.rank,
            self.path,
            offset + i as u64,
            self.quit_on_error,
        )
    }

    /// Waits for every request still in flight, results ignored: after an error, so that no
    /// request outlives the buffers it uses.
    pub fn drain(&mut self) {
        while self.file.in_flight() > 0 {
            let wait = self.file.in_flight();
            if self.file.submit(wait, &mut self.completions).is_err() {
                break;
            }
            self.completions.clear();
        }
    }

    /// `-e`: the completed writes made durable, once the queue has drained.
    pub fn sync(&mut self) -> Result<(), IorError> {
        let fsync = |e| IorError::io("fsync", self.path, None, e);
        self.file.push(Request::Sync, SYNC).map_err(fsync)?;
        let mut out = Vec::with_capacity(1);
        while out.is_empty() {
            self.file.submit(1, &mut out).map_err(fsync)?;
        }
        out.iter()
            .find(|c| c.token == SYNC)
            .map_or(Ok(0), Completion::io)
            .map(drop)
            .map_err(|e| IorError::io("fsync", self.path, None, e))
    }
}

/// Transfers `from..to` at depth, stopping the pushes once `deadline_ns` after `start` has
/// passed (when non-zero) or a signal asks the ranks to stop, and draining what is in flight;
/// returns the transfers finished and why they stopped short, if they did.
pub(crate) fn drive(
    m: &mut QueuedMover,
    pattern: &AccessPattern,
    rec: &mut Recorder,
    from: u64,
    to: u64,
    start: u64,
    deadline_ns: u64,
) -> Result<(u64, Option<Stop>), IorError> {
    let deadline = (deadline_ns != 0).then(|| start.saturating_add(deadline_ns));
    let mut watch = Watch::new(rec.prev(), deadline);
    m.last_ns = rec.prev();
    let mut offsets = pattern.offsets(from);
    let (mut k, mut finished) = (from, from);
    let mut stop = None;
    let result = loop {
        if stop.is_none() {
            if let Err(e) = m.fill(&mut offsets, &mut k, to) {
                break Err(e);
            }
        }
        if m.file.in_flight() == 0 {
            break Ok(());
        }
        let now = match m.exchange(rec) {
            Ok(now) => now,
            Err(e) => break Err(e),
        };
        match m.settle(now, rec) {
            Ok(n) => finished += n,
            Err(e) => break Err(e),
        }
        if stop.is_none() && watch.due(now) {
            stop = watch.check(now);
        }
    };
    rec.set_in_flight(0);
    if let Err(e) = result {
        m.drain();
        return Err(e);
    }
    Ok((finished, stop))
}

#[cfg(test)]
#[path = "queued_tests.rs"]
mod tests;
