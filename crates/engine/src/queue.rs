//! The queued model: many requests in flight on one open file. A caller pushes requests with a
//! token of its own, hands them to the device in batches, and learns of each one's end later,
//! possibly out of order. The file holds the buffers (one per slot of its depth) while it is
//! open, so a buffer stays where the device can reach it for as long as a request uses it, and
//! an engine may register them with the kernel once (io_uring's fixed buffers). The caller
//! makes them ([`SlotBuffers`]) before it opens the file and gets them back from `close`, so
//! that allocating and freeing them stays out of a timed open and close (fio makes its
//! buffers before its clock starts; IOR its buffer before its open timer).
//!
//! The contract (`docs/engines.md`; `conformance` checks it):
//! - a slot's buffer is the caller's between the completion of the request that used it and the
//!   next push that names it; the engine reads or fills it only while that request is in flight;
//! - `push` never blocks and never reaches the device; more than `depth` requests pushed and not
//!   completed is an error (`ErrorKind::WouldBlock`), not a wait;
//! - `submit` hands every pushed request to the device, in push order, then waits until at least
//!   `wait` completions are ready and appends every ready one to `out`;
//! - a completion carries the token, the request's kind and the bytes moved or the errno; a
//!   short read or write is a completion with fewer bytes, which the caller resubmits for the
//!   rest: an engine never retries on the caller's behalf (the caller times every request);
//! - `Sync` makes the data of the writes completed before it was pushed durable; it is not
//!   ordered against requests still in flight (push it once the queue has drained).
//!
//! Object requests map onto the same queue (the S3 issue): a slot's buffer holds a part; `Write`
//! at an offset is an upload of part `offset / len` (a multipart upload's, or a whole-object put
//! when the object is one part), `Read` a ranged get, `Sync` the completion of the upload; an
//! object engine opens a queued "file" per object key and keeps the HTTP requests in flight.

use std::io;

use crate::AlignedBuf;

/// Alignment of every slot's buffer: the O_DIRECT alignment assumed for any device, a page.
pub const SLOT_ALIGN: usize = crate::direct::ASSUMED_DIRECT_ALIGN as usize;

/// What a queued file is opened with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct QueueSpec {
    /// Requests in flight at most, and the number of buffer slots.
    pub depth: usize,
    /// Bytes of each slot's buffer (the transfer size).
    pub buf_len: usize,
}

/// The buffers of a queue's slots: `depth` buffers of `buf_len` bytes, zeroed, aligned to
/// [`SLOT_ALIGN`]. Lent to a queued file at its open and handed back by its close. The
/// default holds none.
#[derive(Debug, Default)]
pub struct SlotBuffers {
    spec: QueueSpec,
    bufs: Vec<AlignedBuf>,
}

impl SlotBuffers {
    /// Allocates (and zeroes, so touches) every buffer of `spec`.
    pub fn new(spec: QueueSpec) -> SlotBuffers {
        SlotBuffers {
            spec,
            bufs: (0..spec.depth)
                .map(|_| AlignedBuf::new(spec.buf_len, SLOT_ALIGN))
                .collect(),
        }
    }

    pub fn spec(&self) -> QueueSpec {
        self.spec
    }

    /// Slot `slot`'s buffer. Panics past the depth.
    pub fn slot(&mut self, slot: usize) -> &mut [u8] {
        self.bufs[slot].as_mut_slice()
    }

    /// Every buffer's address and length, in slot order (for registering them).
    pub fn regions(&mut self) -> impl Iterator<Item = (*mut u8, usize)> + '_ {
        self.bufs.iter_mut().map(|b| (b.as_mut_ptr(), b.len()))
    }
}

/// One request. `slot` names the buffer; `at` the first byte of it the request uses (the rest
/// of a short transfer starts past what moved).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    /// Write `len` bytes of the slot's buffer from `at` to the file at `offset`.
    Write {
        slot: usize,
        at: usize,
        len: usize,
        offset: u64,
    },
    /// Read `len` bytes at `offset` into the slot's buffer from `at`.
    Read {
        slot: usize,
        at: usize,
        len: usize,
        offset: u64,
    },
    /// Make the completed writes durable (fsync).
    Sync,
}

/// The end of one request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Completion {
    /// The caller's token, as pushed.
    pub token: u64,
    /// Bytes moved (0 for a sync, or a read at the end of the file), or the errno.
    pub result: Result<usize, i32>,
}

impl Completion {
    /// The result as an `io::Result`, the errno as an OS error.
    pub fn io(&self) -> io::Result<usize> {
        self.result.map_err(io::Error::from_raw_os_error)
    }
}

/// A file open for queued I/O ([`crate::Engine::open_queued`]).
pub trait QueuedFile: Send {
    /// The slot's buffer: `QueueSpec::buf_len` bytes, aligned as the engine needs.
    fn buffer(&mut self, slot: usize) -> &mut [u8];
    /// Queues `req` with `token`; nothing reaches the device before [`QueuedFile::submit`].
    fn push(&mut self, req: Request, token: u64) -> io::Result<()>;
    /// Hands the pushed requests to the device, then waits for at least `wait` completions
    /// (none: only what is ready) and appends every ready one to `out`.
    fn submit(&mut self, wait: usize, out: &mut Vec<Completion>) -> io::Result<()>;
    /// Requests pushed and not yet returned as completions.
    fn in_flight(&self) -> usize;
    /// Closes the file and hands its buffers back; every request must have completed.
    fn close(self: Box<Self>) -> io::Result<SlotBuffers>;
    /// Closes a file of a shared write ([`crate::Engine::open_queued_shared`]): its buffers,
    /// and what the first rank's [`crate::Engine::shared_end`] needs of this rank.
    fn close_shared(self: Box<Self>) -> io::Result<(SlotBuffers, Vec<u8>)> {
        self.close().map(|b| (b, Vec::new()))
    }
}

/// The error of a push beyond the depth.
pub fn queue_full(depth: usize) -> io::Error {
    io::Error::new(
        io::ErrorKind::WouldBlock,
        format!("{depth} requests are in flight already: the queue is full"),
    )
}

/// Whether `req` may be pushed on a queue of `spec` with `in_flight` requests pushed and not
/// completed: it fits in its slot's buffer (`InvalidInput` otherwise) and the queue has room
/// (`WouldBlock`, [`queue_full`]).
pub fn admit(req: &Request, spec: QueueSpec, in_flight: usize) -> io::Result<()> {
    check_request(req, spec.depth, spec.buf_len)?;
    if in_flight >= spec.depth {
        return Err(queue_full(spec.depth));
    }
    Ok(())
}

/// Whether `req` fits in buffers of `buf_len` bytes; the error names what does not.
pub fn check_request(req: &Request, depth: usize, buf_len: usize) -> io::Result<()> {
    let (slot, at, len) = match *req {
        Request::Write { slot, at, len, .. } | Request::Read { slot, at, len, .. } => {
            (slot, at, len)
        }
        Request::Sync => return Ok(()),
    };
    if slot >= depth || at.checked_add(len).is_none_or(|end| end > buf_len) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "slot {slot}, bytes {at}..{} of a {buf_len}-byte buffer: outside the {depth} \
                 slots",
                at.saturating_add(len)
            ),
        ));
    }
    Ok(())
}
