//! `--s3.depth N`: an object open for queued I/O (`engine::QueuedFile`), N requests in flight
//! over the client's pool of kept-alive connections, as warp's concurrency does. N worker
//! threads each send one request at a time; `submit` hands them the pushed requests in push
//! order and collects their completions, out of order. A write is a part of the object's
//! multipart upload (begun at the open, or the shared one whose token it was given) or, for a
//! transfer that is the whole object, one PUT; a read a ranged GET into the slot's buffer; a
//! sync (pushed once the queue has drained) completes the upload. A worker's failure is a
//! completion with its errno; the first one's full message (status, S3 code, key, endpoint) is
//! printed once, since a completion carries only the errno.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use engine::{Completion, QueueSpec, QueuedFile, Request, SlotBuffers};

use crate::client::{Bucket, Client};
use crate::error::S3Error;
use crate::upload::{encode_parts, finish_upload, part_number};

/// The object a queue works on, shared with its workers.
struct Object {
    client: Arc<Client>,
    bucket: String,
    key: String,
    /// Its size when written whole: a write of that many bytes at 0 is one PUT.
    expected: Option<u64>,
    /// The multipart upload's ID, when it is written in parts.
    upload: Option<String>,
    /// Part number -> ETag of the parts uploaded.
    etags: Mutex<BTreeMap<u16, String>>,
    /// Every part's size but the last's: the slots' (the transfer size).
    part: u64,
    reported: AtomicBool,
}

impl Object {
    /// The errno of a failed request; the first failure's message goes to standard error.
    fn failed(&self, e: S3Error) -> i32 {
        let errno = e.errno();
        if !self.reported.swap(true, Ordering::Relaxed) {
            eprintln!("iogauge: S3: {e}");
        }
        errno
    }

    fn invalid(&self, e: io::Error) -> i32 {
        if !self.reported.swap(true, Ordering::Relaxed) {
            eprintln!("iogauge: {e}");
        }
        e.raw_os_error().unwrap_or(libc::EINVAL)
    }

    /// One request, on a worker with its handle `b` of the bucket: the bytes moved or the
    /// errno.
    fn run(&self, b: &Bucket<'_>, job: &Job) -> Result<usize, i32> {
        // SAFETY: the slot's buffer is the engine's while its request is in flight (the
        // queue's contract), the file keeps the buffers alive until every worker has joined,
        // and no two requests in flight name the same slot.
        let buf = unsafe { std::slice::from_raw_parts_mut(job.ptr.0, job.len) };
        match job.kind {
            Kind::Read => b
                .get_range(&self.key, job.offset, buf)
                .map_err(|e| self.failed(e)),
            Kind::Write => {
                let Some(id) = &self.upload else {
                    return b
                        .put(&self.key, buf)
                        .map(|()| job.len)
                        .map_err(|e| self.failed(e));
                };
                let number = part_number(
                    (&self.bucket, &self.key),
                    job.offset,
                    job.len as u64,
                    self.part,
                )
                .map_err(|e| self.invalid(e))?;
                let etag = b
                    .upload_part(&self.key, id, number, buf)
                    .map_err(|e| self.failed(e))?;
                self.etags
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(number, etag);
                Ok(job.len)
            }
        }
    }
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Read,
    Write,
}

/// A slot's buffer, lent to a worker for one request.
#[derive(Debug, Clone, Copy)]
struct SlotPtr(*mut u8);

// SAFETY: see `Object::run`: one request at a time uses a slot, and the buffers outlive the
// workers.
unsafe impl Send for SlotPtr {}

#[derive(Debug, Clone, Copy)]
struct Job {
    token: u64,
    kind: Kind,
    ptr: SlotPtr,
    len: usize,
    offset: u64,
}

/// One object open for queued I/O.
pub struct S3Queue {
    spec: QueueSpec,
    bufs: SlotBuffers,
    object: Arc<Object>,
    jobs: Option<Sender<Job>>,
    done: Receiver<Completion>,
    workers: Vec<JoinHandle<()>>,
    pending: Vec<(Request, u64)>,
    /// Completions made here (a sync), handed out with the next ones.
    ready: Vec<Completion>,
    in_flight: usize,
    /// A rank's share of a shared object: the first rank completes it.
    shared: bool,
    /// The upload was completed or given up: nothing is left to do at the close.
    finished: bool,
}

/// How a queue is opened.
pub struct Open<'a> {
    pub client: &'a Arc<Client>,
    pub bucket: &'a str,
    pub key: &'a str,
    /// The object's size for a write, `None` for a read.
    pub expected: Option<u64>,
    /// The upload the object is written in (begun by the caller: its own, or a shared one).
    pub upload: Option<String>,
    pub shared: bool,
}

impl S3Queue {
    /// Starts `bufs.spec().depth` workers on the object `open` names.
    pub fn new(open: Open<'_>, bufs: SlotBuffers) -> S3Queue {
        let spec = bufs.spec();
        let object = Arc::new(Object {
            client: Arc::clone(open.client),
            bucket: open.bucket.to_string(),
            key: open.key.to_string(),
            expected: open.expected,
            upload: open.upload,
            etags: Mutex::new(BTreeMap::new()),
            part: spec.buf_len.max(1) as u64,
            reported: AtomicBool::new(false),
        });
        let (jobs, queue) = mpsc::channel::<Job>();
        let (finished, done) = mpsc::channel();
        let queue = Arc::new(Mutex::new(queue));
        let workers = (0..spec.depth.max(1))
            .map(|_| {
                let (object, queue, finished) =
                    (Arc::clone(&object), Arc::clone(&queue), finished.clone());
                std::thread::spawn(move || {
                    // The bucket's URL parsed once per worker, not per request.
                    let b = object.client.bucket(&object.bucket);
                    loop {
                        let job = queue.lock().unwrap_or_else(|e| e.into_inner()).recv();
                        let Ok(job) = job else { return };
                        let result = match &b {
                            Ok(b) => object.run(b, &job),
                            Err(e) => Err(object
                                .invalid(io::Error::new(io::ErrorKind::InvalidInput, e.clone()))),
                        };
                        let done = Completion {
                            token: job.token,
                            result,
                        };
                        if finished.send(done).is_err() {
                            return;
                        }
                    }
                })
            })
            .collect();
        S3Queue {
            spec,
            bufs,
            object,
            jobs: Some(jobs),
            done,
            workers,
            pending: Vec::with_capacity(spec.depth),
            ready: Vec::new(),
            in_flight: 0,
            shared: open.shared,
            finished: false,
        }
    }

    /// Completes the object's own upload (not a shared one's).
    fn complete(&mut self) -> io::Result<()> {
        if self.finished || self.shared {
            return Ok(());
        }
        self.finished = true;
        let Some(id) = &self.object.upload else {
            return Ok(());
        };
        let etags =
            std::mem::take(&mut *self.object.etags.lock().unwrap_or_else(|e| e.into_inner()));
        let b = self
            .object
            .client
            .bucket(&self.object.bucket)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        finish_upload(&b, &self.object.key, id, etags)
    }

    /// Stops the workers once their requests are done: the buffers may go after this.
    fn stop(&mut self) {
        self.jobs = None;
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }

    /// The parts this rank uploaded, for the first rank's completion of a shared object.
    pub fn parts(&self) -> Vec<u8> {
        encode_parts(&self.object.etags.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl QueuedFile for S3Queue {
    fn buffer(&mut self, slot: usize) -> &mut [u8] {
        self.bufs.slot(slot)
    }

    fn push(&mut self, req: Request, token: u64) -> io::Result<()> {
        engine::queue::admit(&req, self.spec, self.in_flight)?;
        let writes = self.object.expected.is_some();
        if matches!(req, Request::Write { .. }) && !writes {
            return Err(io::Error::from_raw_os_error(libc::EBADF));
        }
        self.pending.push((req, token));
        self.in_flight += 1;
        Ok(())
    }

    fn submit(&mut self, wait: usize, out: &mut Vec<Completion>) -> io::Result<()> {
        for (req, token) in std::mem::take(&mut self.pending) {
            let (kind, slot, at, len, offset) = match req {
                Request::Write {
                    slot,
                    at,
                    len,
                    offset,
                } => (Kind::Write, slot, at, len, offset),
                Request::Read {
                    slot,
                    at,
                    len,
                    offset,
                } => (Kind::Read, slot, at, len, offset),
                Request::Sync => {
                    // Pushed once the queue drained: every part is in.
                    let result = self.complete().map(|()| 0).map_err(|e| {
                        eprintln!("iogauge: {e}");
                        e.raw_os_error().unwrap_or(libc::EIO)
                    });
                    self.ready.push(Completion { token, result });
                    continue;
                }
            };
            let ptr = SlotPtr(self.bufs.slot(slot)[at..].as_mut_ptr());
            let job = Job {
                token,
                kind,
                ptr,
                len,
                offset,
            };
            let sent = self.jobs.as_ref().is_some_and(|j| j.send(job).is_ok());
            if !sent {
                return Err(io::Error::other("S3: the request workers stopped"));
            }
        }
        let mut got = 0;
        for c in self.ready.drain(..) {
            out.push(c);
            got += 1;
        }
        while got < wait {
            let c = self
                .done
                .recv()
                .map_err(|_| io::Error::other("S3: the request workers stopped"))?;
            out.push(c);
            got += 1;
        }
        while let Ok(c) = self.done.try_recv() {
            out.push(c);
            got += 1;
        }
        self.in_flight -= got;
        Ok(())
    }

    fn in_flight(&self) -> usize {
        self.in_flight
    }

    fn close(mut self: Box<Self>) -> io::Result<SlotBuffers> {
        self.stop();
        let done = self.complete();
        done?;
        Ok(std::mem::take(&mut self.bufs))
    }

    fn close_shared(mut self: Box<Self>) -> io::Result<(SlotBuffers, Vec<u8>)> {
        self.stop();
        let parts = self.parts();
        Ok((std::mem::take(&mut self.bufs), parts))
    }
}

/// A queue dropped unfinished (a failure): the workers finish their requests before the
/// buffers go, and the object's own upload is aborted so that no part stays on the server.
impl Drop for S3Queue {
    fn drop(&mut self) {
        self.stop();
        if self.finished || self.shared {
            return;
        }
        if let (Some(id), Ok(b)) = (
            &self.object.upload,
            self.object.client.bucket(&self.object.bucket),
        ) {
            let _ = b.abort_upload(&self.object.key, id);
        }
    }
}
