//! One file open on its own ring: a buffer per slot (registered with the kernel under
//! `fixed-bufs`), requests built as submission entries at `push`, handed over at `submit` in
//! batches of `batch` (one `io_uring_enter` each; all at once by default) and reaped from the
//! completion queue. A short transfer is returned as it came: the caller pushes the rest.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::{AsRawFd, IntoRawFd, RawFd};
use std::path::Path;

use io_uring::{opcode, squeue, types, IoUring};

use super::UringOpts;
use crate::queue::{admit, Completion, QueueSpec, QueuedFile, Request, SlotBuffers};
use crate::OpenMode;

/// `io_uring_enter`'s flag asking for completions (linux/io_uring.h; the crate keeps its
/// own copy private).
const IORING_ENTER_GETEVENTS: u32 = 1;

/// Mode of files the benchmark creates (as POSIX's, IOR's 0664).
const FILE_MODE: u32 = 0o664;

pub struct UringFile {
    // Declared first, so dropped before the buffers the kernel may still use (`Drop` drains
    // what is in flight first in any case).
    ring: IoUring,
    file: Option<File>,
    fd: RawFd,
    /// The caller's, lent until `close` hands them back.
    bufs: SlotBuffers,
    spec: QueueSpec,
    fixed_bufs: bool,
    fixed_file: bool,
    sqpoll: bool,
    /// Requests per `io_uring_enter`; 0: all pushed.
    batch: usize,
    /// A wait is for at least this many completions (or all in flight, if fewer).
    complete_min: usize,
    /// Built at `push`, handed to the kernel at `submit`.
    pushed: Vec<squeue::Entry>,
    /// Handed to the kernel and not yet reaped.
    submitted: usize,
}

impl UringFile {
    pub fn open(
        path: &Path,
        mode: OpenMode,
        mut bufs: SlotBuffers,
        o: &UringOpts,
    ) -> io::Result<Self> {
        let spec = bufs.spec();
        let mut opts = OpenOptions::new();
        match mode {
            OpenMode::CreateTruncate => opts.read(true).write(true).create(true).truncate(true),
            OpenMode::CreateKeep => opts.read(true).write(true).create(true),
            OpenMode::ReadOnly => opts.read(true),
        };
        opts.mode(FILE_MODE)
            .custom_flags(if o.odirect { libc::O_DIRECT } else { 0 });
        let file = opts.open(path)?;
        let fd = file.as_raw_fd();
        let ring = super::probe::new_ring(spec.depth.max(1) as u32, o.sqpoll, o.taskrun)?;
        if o.fixed_bufs {
            let iovecs: Vec<libc::iovec> = bufs
                .regions()
                .map(|(ptr, len)| libc::iovec {
                    iov_base: ptr as *mut libc::c_void,
                    iov_len: len,
                })
                .collect();
            // SAFETY: the buffers outlive every request (`close` hands them back only with
            // none in flight, `Drop` drains first) and are not moved: each is a heap
            // allocation of its own.
            unsafe { ring.submitter().register_buffers(&iovecs)? };
        }
        if o.register_files {
            ring.submitter().register_files(&[fd])?;
        }
        Ok(UringFile {
            ring,
            file: Some(file),
            fd,
            bufs,
            spec,
            fixed_bufs: o.fixed_bufs,
            fixed_file: o.register_files,
            sqpoll: o.sqpoll,
            batch: o.batch as usize,
            complete_min: o.complete_min.max(1) as usize,
            pushed: Vec::with_capacity(spec.depth),
            submitted: 0,
        })
    }

    /// The submission entry of a read or write of `len` bytes of `slot`'s buffer from `at`.
    fn transfer(
        &mut self,
        write: bool,
        slot: usize,
        at: usize,
        len: usize,
        offset: u64,
    ) -> squeue::Entry {
        // SAFETY: `admit` (at the push) keeps `at + len` within the slot's buffer.
        let ptr = unsafe { self.bufs.slot(slot).as_mut_ptr().add(at) };
        let len = len as u32;
        let index = slot as u16;
        macro_rules! build {
            ($fd:expr) => {
                match (write, self.fixed_bufs) {
                    (true, false) => opcode::Write::new($fd, ptr, len).offset(offset).build(),
                    (false, false) => opcode::Read::new($fd, ptr, len).offset(offset).build(),
                    (true, true) => opcode::WriteFixed::new($fd, ptr, len, index)
                        .offset(offset)
                        .build(),
                    (false, true) => opcode::ReadFixed::new($fd, ptr, len, index)
                        .offset(offset)
                        .build(),
                }
            };
        }
        if self.fixed_file {
            build!(types::Fixed(0))
        } else {
            build!(types::Fd(self.fd))
        }
    }

    /// Hands `entries` to the kernel's submission queue; it has room, since no more than
    /// `depth` requests are in flight and the queue holds `depth` entries. Under SQPOLL the
    /// kernel's thread publishes what it took at the end of its batch, possibly after their
    /// completions: until it has, wait for the room (`IORING_ENTER_SQ_WAIT`).
    fn enqueue(&mut self, entries: &[squeue::Entry]) -> io::Result<()> {
        loop {
            // SAFETY: every entry points into a buffer of this file, which outlives the request.
            let pushed = unsafe { self.ring.submission().push_multiple(entries) };
            match pushed {
                Ok(()) => break,
                Err(_) if self.sqpoll => {
                    self.ring.submitter().squeue_wait()?;
                }
                Err(_) => return Err(io::Error::other("the io_uring submission queue is full")),
            }
        }
        self.submitted += entries.len();
        Ok(())
    }

    /// `io_uring_enter`, submitting what is queued and waiting for `want` completions;
    /// a signal or a busy completion queue is asked again once. Without SQPOLL every enter
    /// asks for completions (GETEVENTS, with `want` 0 too, as fio's io_uring engine does):
    /// that runs the deferred completion work, so what finished meanwhile is in the
    /// completion queue when it is next reaped and the rank sleeps only when nothing has.
    fn enter(&mut self, want: usize) -> io::Result<()> {
        let entered = if self.sqpoll {
            self.ring.submit_and_wait(want)
        } else {
            let queued = self.ring.submission().len() as u32;
            let flags = IORING_ENTER_GETEVENTS;
            // SAFETY: no argument is passed; the entries queued point into this file's
            // buffers, which outlive the requests.
            unsafe {
                self.ring
                    .submitter()
                    .enter::<libc::sigset_t>(queued, want as u32, flags, None)
            }
        };
        match entered {
            Ok(_) => Ok(()),
            Err(e)
                if matches!(
                    e.raw_os_error(),
                    Some(libc::EINTR | libc::EBUSY | libc::EAGAIN)
                ) =>
            {
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// Moves the completions ready to `out`; returns how many.
    fn reap(&mut self, out: &mut Vec<Completion>) -> usize {
        let before = out.len();
        out.extend(self.ring.completion().map(|c| Completion {
            token: c.user_data(),
            result: match c.result() {
                r if r < 0 => Err(-r),
                r => Ok(r as usize),
            },
        }));
        let n = out.len() - before;
        self.submitted -= n;
        n
    }

    fn drain(&mut self) {
        let mut sink = Vec::new();
        let _ = self.submit(self.in_flight(), &mut sink);
    }
}

impl QueuedFile for UringFile {
    fn buffer(&mut self, slot: usize) -> &mut [u8] {
        self.bufs.slot(slot)
    }

    fn push(&mut self, req: Request, token: u64) -> io::Result<()> {
        admit(&req, self.spec, self.in_flight())?;
        let entry = match req {
            Request::Write {
                slot,
                at,
                len,
                offset,
            } => self.transfer(true, slot, at, len, offset),
            Request::Read {
                slot,
                at,
                len,
                offset,
            } => self.transfer(false, slot, at, len, offset),
            Request::Sync if self.fixed_file => opcode::Fsync::new(types::Fixed(0)).build(),
            Request::Sync => opcode::Fsync::new(types::Fd(self.fd)).build(),
        };
        self.pushed.push(entry.user_data(token));
        Ok(())
    }

    fn submit(&mut self, wait: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        let mut pushed = std::mem::take(&mut self.pushed);
        let chunk = if self.batch == 0 {
            pushed.len().max(1)
        } else {
            self.batch
        };
        for c in pushed.chunks(chunk) {
            self.enqueue(c)?;
            self.enter(0)?;
        }
        pushed.clear();
        self.pushed = pushed;
        // Waiting is an enter of its own, only when the submissions' enters left fewer
        // completions than asked: the time between lets more finish (fio's order too). A
        // wait is for `complete_min` at least (fio's iodepth_batch_complete_min).
        let wait = if wait > 0 {
            wait.max(self.complete_min)
        } else {
            0
        };
        let mut got = self.reap(out);
        loop {
            let want = wait.saturating_sub(got).min(self.submitted);
            // Under SQPOLL the kernel's thread takes the queue; without it, what is queued
            // waits for an enter.
            let queued = !self.sqpoll && !self.ring.submission().is_empty();
            if want == 0 && !queued {
                return Ok(());
            }
            self.enter(want)?;
            got += self.reap(out);
        }
    }

    fn in_flight(&self) -> usize {
        self.pushed.len() + self.submitted
    }

    fn close(mut self: Box<Self>) -> io::Result<SlotBuffers> {
        if self.in_flight() > 0 {
            let left = self.in_flight();
            self.drain();
            return Err(io::Error::other(format!(
                "closed with {left} requests in flight"
            )));
        }
        let fd = self.file.take().expect("open until closed").into_raw_fd();
        // SAFETY: `fd` was just released from its `File`; closed once, its error checked
        // (a network file system reports a failed write-back here).
        if unsafe { libc::close(fd) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(std::mem::take(&mut self.bufs))
    }
}

impl Drop for UringFile {
    /// The kernel may still write into the buffers of requests in flight: wait for them.
    fn drop(&mut self) {
        if self.submitted > 0 {
            self.pushed.clear();
            self.drain();
        }
    }
}
