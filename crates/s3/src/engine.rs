//! The S3 engine: `engine::Engine` over [`Client`] for object targets
//! (`Target::Object { bucket, key }`); a workload's names become keys in the engine's bucket
//! (`--s3.bucket`, [`Engine::target`]). Registered from the binary as `-a S3` (`register.rs`).
//!
//! Files: an object written by one transfer that is the whole object is one PUT; otherwise a
//! multipart upload, each transfer a part, in any order (its number: one more than the offset
//! over the first transfer's length), completed by `sync` or `close` (aborted after a failure,
//! and when the file is dropped unfinished). A shared object (IOR without `-F`) is one upload
//! for all ranks: the first begins it ([`Engine::shared_begin`]), every rank adds its parts
//! and hands their ETags back at its close, and the first completes it ([`Engine::shared_end`]).
//! Reads are ranged GETs. An object is always written whole: `CreateKeep` (ior's write mode,
//! after it removed the old file) writes a new one, and the workload refuses IOR's `-E`; no
//! rename. Directories: a key prefix, made
//! visible by a marker object `<key>/` (what S3 consoles make for a folder): `mkdir` PUTs it,
//! `rmdir` DELETEs it when nothing else is under the prefix, `stat` finds it, `read_dir` lists
//! the prefix with delimiter `/`.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;
use std::sync::Arc;

use engine::{
    Caps, DirEntry, Engine, EngineFile, FileKind, FileStat, MultipartLimits, ObjectCaps, OpenHints,
    OpenMode, QueuedFile, SlotBuffers, Target, TargetInfo,
};

use crate::client::{Bucket, Client};
use crate::error::S3Error;
use crate::queued;
use crate::upload::{decode_parts, encode_parts, finish_upload, part_number};

const API: &str = "S3";

/// What the S3 engine can do.
pub const CAPS: Caps = Caps {
    does_io: true,
    metadata: true,
    alignment: 1,
    needs_file_size: false,
    page_cache: false,
    api_name: API,
    collective: false,
    container: false,
    queued: false,
    object: Some(ObjectCaps {
        ranged_get: true,
        multipart: Some(MultipartLimits::S3),
        listing: true,
        transfer_objects: false,
    }),
};

/// One rank's engine: a client (its connection pool) shared with the files it opens, and the
/// bucket its targets name.
pub struct S3Engine {
    client: Arc<Client>,
    bucket: String,
    /// An object written in one call (mdtest `-w`, md-workbench) larger than this goes up in
    /// parts of this size (`--s3.multipart-size`).
    multipart_size: u64,
    /// Requests in flight per open object (`--s3.depth`); above 1 the engine is queued.
    depth: usize,
}

/// `--s3.multipart-size`'s default: the AWS CLI's threshold and part size.
pub const MULTIPART_SIZE: u64 = 8 << 20;

fn unsupported(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, format!("S3: {what}"))
}

fn io(e: S3Error) -> io::Error {
    e.into_io()
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

impl S3Engine {
    /// An engine whose workloads' names are keys in `bucket`.
    pub fn new(client: Client, bucket: &str) -> Self {
        S3Engine {
            client: Arc::new(client),
            bucket: bucket.to_string(),
            multipart_size: MULTIPART_SIZE,
            depth: 1,
        }
    }

    /// With `depth` requests in flight per open object (queued above 1); the client's pool
    /// should hold as many connections.
    pub fn with_depth(mut self, depth: usize) -> Self {
        self.depth = depth.max(1);
        self
    }

    /// The queue of an object, with its upload begun here when it is written in parts.
    fn queue(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        hints: &OpenHints,
        bufs: SlotBuffers,
        shared: Option<&[u8]>,
    ) -> io::Result<Box<dyn QueuedFile>> {
        let (bucket, key) = target.object(API)?;
        let b = Self::bucket(&self.client, bucket)?;
        let part = bufs.spec().buf_len as u64;
        let (expected, upload) = match (mode, shared) {
            (_, Some(token)) => {
                let id = String::from_utf8(token.to_vec())
                    .map_err(|_| invalid("S3: an upload ID that is not text".into()))?;
                (Some(hints.file_size), Some(id))
            }
            (OpenMode::ReadOnly, None) => {
                b.size(key).map_err(io)?;
                (None, None)
            }
            (_, None) if hints.file_size > part => {
                let id = b.start_upload(key).map_err(io)?;
                (Some(hints.file_size), Some(id))
            }
            (_, None) => (Some(hints.file_size), None),
        };
        let open = queued::Open {
            client: &self.client,
            bucket,
            key,
            expected,
            upload,
            shared: shared.is_some(),
        };
        Ok(Box::new(queued::S3Queue::new(open, bufs)))
    }

    /// With objects written in one call uploaded in parts of `size` bytes when larger.
    pub fn with_multipart_size(mut self, size: u64) -> Self {
        self.multipart_size = size.max(1);
        self
    }

    /// Requests the server throttled so far (retried).
    pub fn throttled(&self) -> u64 {
        self.client.throttled()
    }

    fn bucket<'c>(client: &'c Client, name: &str) -> io::Result<Bucket<'c>> {
        client.bucket(name).map_err(invalid)
    }

    /// The marker of directory `key`.
    fn marker(key: &str) -> String {
        format!("{}/", key.trim_end_matches('/'))
    }
}

impl Engine for S3Engine {
    fn caps(&self) -> Caps {
        Caps {
            collective: false,
            container: false,
            queued: self.depth > 1,
            ..CAPS
        }
    }

    fn depth(&self) -> usize {
        self.depth
    }

    fn take_requests(&self) -> Option<engine::RequestTally> {
        Some(self.client.take_requests())
    }

    fn open_queued(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        hints: &OpenHints,
        bufs: SlotBuffers,
    ) -> io::Result<Box<dyn QueuedFile>> {
        self.queue(target, mode, hints, bufs, None)
    }

    fn open_queued_shared(
        &self,
        target: Target<'_>,
        hints: &OpenHints,
        bufs: SlotBuffers,
        token: &[u8],
    ) -> io::Result<Box<dyn QueuedFile>> {
        self.queue(target, OpenMode::CreateKeep, hints, bufs, Some(token))
    }

    fn target<'a>(&'a self, name: &'a Path) -> Target<'a> {
        Target::named(&self.bucket, name)
    }

    fn shared_begin(&self, target: Target<'_>) -> io::Result<Option<Vec<u8>>> {
        let (bucket, key) = target.object(API)?;
        let id = Self::bucket(&self.client, bucket)?
            .start_upload(key)
            .map_err(io)?;
        Ok(Some(id.into_bytes()))
    }

    fn open_shared(
        &self,
        target: Target<'_>,
        hints: &OpenHints,
        token: &[u8],
    ) -> io::Result<Box<dyn EngineFile>> {
        let (bucket, key) = target.object(API)?;
        let id = String::from_utf8(token.to_vec())
            .map_err(|_| invalid("S3: an upload ID that is not text".into()))?;
        let mut file = S3File::new(&self.client, bucket, key, Some(hints.file_size));
        file.upload = Some(Upload {
            id,
            part: 0,
            etags: BTreeMap::new(),
        });
        file.shared = true;
        Ok(Box::new(file))
    }

    fn shared_end(&self, target: Target<'_>, token: &[u8], parts: &[Vec<u8>]) -> io::Result<()> {
        let (bucket, key) = target.object(API)?;
        let mut etags = BTreeMap::new();
        for rank in parts {
            etags.extend(decode_parts(rank)?);
        }
        let id = String::from_utf8_lossy(token).into_owned();
        let mut file = S3File::new(&self.client, bucket, key, None);
        file.upload = Some(Upload { id, part: 0, etags });
        file.complete()
    }

    fn shared_abort(&self, target: Target<'_>, token: &[u8]) -> io::Result<()> {
        let (bucket, key) = target.object(API)?;
        Self::bucket(&self.client, bucket)?
            .abort_upload(key, &String::from_utf8_lossy(token))
            .map_err(io)
    }

    fn open(
        &self,
        target: Target<'_>,
        mode: OpenMode,
        hints: &OpenHints,
    ) -> io::Result<Box<dyn EngineFile>> {
        let (bucket, key) = target.object(API)?;
        let b = Self::bucket(&self.client, bucket)?;
        match mode {
            OpenMode::ReadOnly => {
                b.size(key).map_err(io)?;
                Ok(Box::new(S3File::new(&self.client, bucket, key, None)))
            }
            OpenMode::CreateTruncate | OpenMode::CreateKeep => Ok(Box::new(S3File::new(
                &self.client,
                bucket,
                key,
                Some(hints.file_size),
            ))),
        }
    }

    fn remove(&self, target: Target<'_>) -> io::Result<()> {
        let (bucket, key) = target.object(API)?;
        Self::bucket(&self.client, bucket)?.remove(key).map_err(io)
    }

    fn file_size(&self, target: Target<'_>) -> io::Result<u64> {
        let (bucket, key) = target.object(API)?;
        Self::bucket(&self.client, bucket)?.size(key).map_err(io)
    }

    fn target_info(&self, target: Target<'_>) -> io::Result<TargetInfo> {
        let st = self.stat(target);
        let found = st.as_ref().ok();
        Ok(TargetInfo {
            kind: found.map(|s| s.kind),
            exists: found.is_some(),
            is_dir: found.is_some_and(|s| s.is_dir),
            is_file: found.is_some_and(|s| !s.is_dir),
            writable: true,
            fs_type: Some("s3".into()),
            mount_source: Some(self.client.endpoint().url.clone()),
            ..TargetInfo::default()
        })
    }

    fn mkdir(&self, target: Target<'_>) -> io::Result<()> {
        let (bucket, key) = target.object(API)?;
        let b = Self::bucket(&self.client, bucket)?;
        if b.size(&Self::marker(key)).is_ok() {
            return Err(io::Error::from_raw_os_error(libc::EEXIST));
        }
        b.put(&Self::marker(key), &[]).map_err(io)
    }

    fn rmdir(&self, target: Target<'_>) -> io::Result<()> {
        let (bucket, key) = target.object(API)?;
        let b = Self::bucket(&self.client, bucket)?;
        let marker = Self::marker(key);
        let (under, _) = b.list(&marker, None).map_err(io)?;
        if under.iter().any(|o| o.key != marker) {
            return Err(io::Error::from_raw_os_error(libc::ENOTEMPTY));
        }
        if under.is_empty() {
            return Err(io::Error::from_raw_os_error(libc::ENOENT));
        }
        b.remove(&marker).map_err(io)
    }

    fn stat(&self, target: Target<'_>) -> io::Result<FileStat> {
        let (bucket, key) = target.object(API)?;
        let b = Self::bucket(&self.client, bucket)?;
        let (size, is_dir) = match b.size(key) {
            Ok(n) => (n, false),
            Err(e) if e.status() == Some(404) => {
                b.size(&Self::marker(key)).map_err(io)?;
                (0, true)
            }
            Err(e) => return Err(io(e)),
        };
        Ok(FileStat {
            size,
            is_dir,
            kind: if is_dir {
                FileKind::Dir
            } else {
                FileKind::File
            },
            ctime_sec: 0,
            ctime_nsec: 0,
        })
    }

    fn lstat(&self, target: Target<'_>) -> io::Result<FileStat> {
        self.stat(target)
    }

    /// One PUT, or parts of `--s3.multipart-size` for a larger object.
    fn create_file(&self, target: Target<'_>, data: &[u8]) -> io::Result<()> {
        let (bucket, key) = target.object(API)?;
        if data.len() as u64 <= self.multipart_size {
            return Self::bucket(&self.client, bucket)?
                .put(key, data)
                .map_err(io);
        }
        let size = data.len() as u64;
        let mut f = S3File::new(&self.client, bucket, key, Some(size));
        for (i, part) in data.chunks(self.multipart_size as usize).enumerate() {
            f.write_at(part, i as u64 * self.multipart_size)?;
        }
        f.complete()
    }

    /// A PUT is durable when it is answered.
    fn create_file_synced(&self, target: Target<'_>, data: &[u8]) -> io::Result<()> {
        self.create_file(target, data)
    }

    fn rename(&self, _from: Target<'_>, _to: Target<'_>) -> io::Result<()> {
        Err(unsupported("objects are not renamed"))
    }

    fn sync_all(&self) -> io::Result<()> {
        Ok(())
    }

    fn read_file(&self, target: Target<'_>, buf: &mut [u8]) -> io::Result<usize> {
        let (bucket, key) = target.object(API)?;
        Self::bucket(&self.client, bucket)?
            .get_range(key, 0, buf)
            .map_err(io)
    }

    fn read_dir(&self, target: Target<'_>) -> io::Result<Vec<DirEntry>> {
        let (bucket, key) = target.object(API)?;
        let b = Self::bucket(&self.client, bucket)?;
        let prefix = if key.is_empty() {
            String::new()
        } else {
            Self::marker(key)
        };
        let (files, dirs) = b.list_level(&prefix).map_err(io)?;
        let name = |k: &str| k[prefix.len()..].trim_end_matches('/').to_string();
        let mut out: Vec<DirEntry> = files
            .iter()
            .filter(|k| **k != prefix)
            .map(|k| DirEntry {
                name: name(k).into(),
                is_dir: Some(false),
            })
            .collect();
        out.extend(dirs.iter().map(|d| DirEntry {
            name: name(d).into(),
            is_dir: Some(true),
        }));
        Ok(out)
    }
}

/// An object open for writing (`expected` its final size) or reading.
struct S3File {
    client: Arc<Client>,
    bucket: String,
    key: String,
    expected: Option<u64>,
    /// Written with one PUT.
    whole: bool,
    upload: Option<Upload>,
    /// One rank's share of a shared object's upload: the first rank completes it.
    shared: bool,
}

struct Upload {
    id: String,
    /// The first transfer's length: every part's but the last.
    part: u64,
    etags: BTreeMap<u16, String>,
}

impl S3File {
    fn new(client: &Arc<Client>, bucket: &str, key: &str, expected: Option<u64>) -> Self {
        S3File {
            client: Arc::clone(client),
            bucket: bucket.to_string(),
            key: key.to_string(),
            expected,
            whole: false,
            upload: None,
            shared: false,
        }
    }

    fn bucket(&self) -> io::Result<Bucket<'_>> {
        S3Engine::bucket(&self.client, &self.bucket)
    }

    /// Completes the upload, if one is open; aborts it when that fails.
    fn complete(&mut self) -> io::Result<()> {
        let Some(up) = self.upload.take() else {
            return Ok(());
        };
        finish_upload(&self.bucket()?, &self.key, &up.id, up.etags)
    }
}

impl EngineFile for S3File {
    fn write_at(&mut self, buf: &[u8], offset: u64) -> io::Result<usize> {
        let Some(expected) = self.expected else {
            return Err(io::Error::from_raw_os_error(libc::EBADF));
        };
        if self.whole {
            return Err(unsupported(
                "a second write to an object written in one PUT",
            ));
        }
        let len = buf.len() as u64;
        if self.upload.is_none() && offset == 0 && (len == expected || expected == 0) {
            self.bucket()?.put(&self.key, buf).map_err(io)?;
            self.whole = true;
            return Ok(buf.len());
        }
        if self.upload.is_none() {
            let id = self.bucket()?.start_upload(&self.key).map_err(io)?;
            self.upload = Some(Upload {
                id,
                part: 0,
                etags: BTreeMap::new(),
            });
        }
        let up = self.upload.as_mut().expect("started above");
        if up.part == 0 {
            up.part = len.max(1);
        }
        let number = part_number((&self.bucket, &self.key), offset, len, up.part)?;
        // The fields apart, so that no per-transfer copy of the upload's ID is needed.
        let b = S3Engine::bucket(&self.client, &self.bucket)?;
        let etag = b.upload_part(&self.key, &up.id, number, buf).map_err(io)?;
        up.etags.insert(number, etag);
        Ok(buf.len())
    }

    fn read_at(&mut self, buf: &mut [u8], offset: u64) -> io::Result<usize> {
        self.bucket()?.get_range(&self.key, offset, buf).map_err(io)
    }

    /// Completes a multipart upload: the object exists from here. A rank's share of a
    /// shared object has nothing to complete: the first rank completes the whole.
    fn sync(&mut self) -> io::Result<()> {
        if self.shared {
            return Ok(());
        }
        self.complete()
    }

    fn close(mut self: Box<Self>) -> io::Result<()> {
        if self.shared {
            self.upload = None;
            return Ok(());
        }
        self.complete()
    }

    /// The parts this rank added, for the first rank's completion.
    fn close_shared(mut self: Box<Self>) -> io::Result<Vec<u8>> {
        let up = self.upload.take();
        Ok(up.map_or_else(Vec::new, |up| encode_parts(&up.etags)))
    }
}

/// An upload left unfinished (a failure or a signal cut the writes) is aborted, so that its
/// parts do not stay on the server, invisible and taking space. A shared one is the first
/// rank's to abort.
impl Drop for S3File {
    fn drop(&mut self) {
        if self.shared {
            return;
        }
        if let Some(up) = self.upload.take() {
            if let Ok(b) = self.bucket() {
                let _ = b.abort_upload(&self.key, &up.id);
            }
        }
    }
}
