//! The queued mover on an in-memory queued file that completes out of order and cuts one
//! transfer short: the bytes land where the synchronous mover puts them, every transfer is
//! timed once from its submission, a flipped byte is caught, and the queue never holds more
//! than its depth.

use std::io;
use std::sync::{Arc, Mutex};

use engine::{queue, Completion, QueueSpec, QueuedFile, Request, SlotBuffers};
use measure::Recorder;
use plan::ior::DataPacket;

use super::*;
use crate::ior::data::{Checker, DataPattern};
use crate::ior::pattern::AccessPattern;

/// A file in memory: requests complete in reverse order of their push, and the `short`-th
/// request moves half its bytes.
struct Memory {
    data: Arc<Mutex<Vec<u8>>>,
    bufs: SlotBuffers,
    pending: Vec<(Request, u64)>,
    pushed: usize,
    short: Option<usize>,
    /// The most requests ever in flight at once.
    most: Arc<Mutex<usize>>,
}

impl Memory {
    fn new(depth: usize, len: usize, data: Arc<Mutex<Vec<u8>>>, short: Option<usize>) -> Self {
        Memory {
            data,
            bufs: SlotBuffers::new(QueueSpec {
                depth,
                buf_len: len,
            }),
            pending: Vec::new(),
            pushed: 0,
            short,
            most: Arc::new(Mutex::new(0)),
        }
    }
}

impl QueuedFile for Memory {
    fn buffer(&mut self, slot: usize) -> &mut [u8] {
        self.bufs.slot(slot)
    }

    fn push(&mut self, req: Request, token: u64) -> io::Result<()> {
        let spec = self.bufs.spec();
        if self.pending.len() >= spec.depth {
            return Err(queue::queue_full(spec.depth));
        }
        queue::check_request(&req, spec.depth, spec.buf_len)?;
        self.pending.push((req, token));
        let mut most = self.most.lock().unwrap();
        *most = (*most).max(self.pending.len());
        Ok(())
    }

    fn submit(&mut self, _wait: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        let mut data = self.data.lock().unwrap();
        // The last pushed completes first.
        while let Some((req, token)) = self.pending.pop() {
            self.pushed += 1;
            let cut = self.short == Some(self.pushed);
            let n = match req {
                Request::Write {
                    slot,
                    at,
                    len,
                    offset,
                } => {
                    let n = if cut { len / 2 } else { len };
                    let end = offset as usize + n;
                    if data.len() < end {
                        data.resize(end, 0);
                    }
                    data[offset as usize..end].copy_from_slice(&self.bufs.slot(slot)[at..at + n]);
                    n
                }
                Request::Read {
                    slot,
                    at,
                    len,
                    offset,
                } => {
                    let start = (offset as usize).min(data.len());
                    let avail = (data.len() - start).min(len);
                    let n = if cut { avail / 2 } else { avail };
                    self.bufs.slot(slot)[at..at + n].copy_from_slice(&data[start..start + n]);
                    n
                }
                Request::Sync => 0,
            };
            out.push(Completion {
                token,
                result: Ok(n),
            });
        }
        Ok(())
    }

    fn in_flight(&self) -> usize {
        self.pending.len()
    }

    fn close(self: Box<Self>) -> io::Result<SlotBuffers> {
        Ok(self.bufs)
    }
}

const LEN: usize = 4096;
const DEPTH: usize = 4;

fn pattern() -> AccessPattern {
    // 2 segments of 4 transfers of one rank's block, shuffled: out of order on the file too.
    AccessPattern::sequential(4 * LEN as u64, LEN as u64, 2, 1, false, 0).shuffled(7)
}

fn mover(file: Memory, write: bool) -> QueuedMover<'static> {
    let data = DataPattern::new(DataPacket::Incompressible, 42, 0);
    let mut m = QueuedMover::new(Box::new(file), DEPTH, LEN, data);
    m.write = write;
    if !write {
        m.checker = Some(Checker::new(data, LEN));
    }
    m.prepare();
    m
}

fn drive_all(m: &mut QueuedMover, rec: &mut Recorder) -> u64 {
    let p = pattern();
    let start = measure::now_ns();
    rec.start(start);
    let (done, stop) = drive(m, &p, rec, 0, p.transfers(), start, 0).unwrap();
    assert_eq!(stop, None);
    done
}

#[test]
fn out_of_order_completions_land_every_byte_and_time_each_transfer_once() {
    let disk = Arc::new(Mutex::new(Vec::new()));
    // The 3rd request moves half its bytes and is pushed again for the rest.
    let file = Memory::new(DEPTH, LEN, disk.clone(), Some(3));
    let most = file.most.clone();
    let mut m = mover(file, true);
    let mut rec = Recorder::new(1, 1_000_000_000);
    assert_eq!(drive_all(&mut m, &mut rec), 8);
    assert_eq!(
        rec.ops(),
        8,
        "one record per transfer, the resubmitted one included"
    );
    assert_eq!(rec.bytes(), 8 * LEN as u64);
    assert!(*most.lock().unwrap() <= DEPTH);
    assert!(m.in_flight_area() > 0);
    // What the synchronous mover writes: the pattern stamped at every offset.
    let data = DataPattern::new(DataPacket::Incompressible, 42, 0);
    let mut want = vec![0u8; 8 * LEN];
    for (i, chunk) in want.chunks_mut(LEN).enumerate() {
        data.fill(chunk);
        data.stamp(chunk, (i * LEN) as u64);
    }
    assert!(*disk.lock().unwrap() == want, "the bytes on disk");

    // Read back at depth, out of order: every transfer verifies; one flipped byte is caught.
    let read = |disk: Arc<Mutex<Vec<u8>>>| {
        let mut m = mover(Memory::new(DEPTH, LEN, disk, None), false);
        let mut rec = Recorder::new(1, 1_000_000_000);
        drive_all(&mut m, &mut rec);
        m.verify.clone()
    };
    let clean = read(disk.clone());
    assert_eq!((clean.checked, clean.errors), (8, 0));
    disk.lock().unwrap()[5 * LEN + 100] ^= 0x01;
    let bad = read(disk);
    assert_eq!(bad.errors, 1);
    assert_eq!(
        bad.first_error.map(|e| e.offset),
        Some(5 * LEN as u64 + 100)
    );
}

#[test]
fn a_read_past_the_end_is_a_short_read_and_the_queue_drains() {
    let disk = Arc::new(Mutex::new(vec![0u8; 3 * LEN]));
    let mut m = mover(Memory::new(DEPTH, LEN, disk, None), false);
    m.checker = None;
    let mut rec = Recorder::new(1, 1_000_000_000);
    let p = AccessPattern::sequential(8 * LEN as u64, LEN as u64, 1, 1, false, 0);
    let start = measure::now_ns();
    rec.start(start);
    let e = drive(&mut m, &p, &mut rec, 0, 8, start, 0).unwrap_err();
    assert!(matches!(e, IorError::ShortRead { .. }), "{e}");
    assert_eq!(m.file.in_flight(), 0, "nothing outlives the error");
}
