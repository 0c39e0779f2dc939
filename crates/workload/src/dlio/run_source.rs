//! The training files as the emulated loader's `SampleSource`: real reads through the POSIX
//! engine, with O_DIRECT when `reader.odirect` (one aligned buffer per reader thread). The
//! bytes read so far are also counted here, for the live counters the training thread
//! publishes after each step.

use std::io;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use engine::{AlignedBuf, Engine, EngineFile, OpenHints, OpenMode, PosixEngine, Target};

use super::train::SampleSource;

/// A reader thread's buffer holds at most this much; larger reads go in pieces of it.
const BUFFER: usize = 4 << 20;

/// One reader thread's engine and buffer (each thread locks only its own).
struct Reader {
    engine: PosixEngine,
    buf: AlignedBuf,
}

pub(crate) struct FileSource<'a> {
    files: &'a [PathBuf],
    sizes: &'a [u64],
    rank: usize,
    readers: Vec<Mutex<Reader>>,
    /// Bytes read so far, all threads.
    pub read: AtomicU64,
}

impl<'a> FileSource<'a> {
    /// A source over `files` (DLIO's order) of `sizes` bytes for `threads` reader threads.
    pub fn new(
        files: &'a [PathBuf],
        sizes: &'a [u64],
        threads: usize,
        odirect: bool,
        rank: usize,
    ) -> Self {
        let readers = (0..threads.max(1))
            .map(|_| {
                let engine = PosixEngine::new(odirect);
                let buf = engine.alloc_buffer(BUFFER);
                Mutex::new(Reader { engine, buf })
            })
            .collect();
        FileSource {
            files,
            sizes,
            rank,
            readers,
            read: AtomicU64::new(0),
        }
    }

    fn path(&self, file: u64) -> &PathBuf {
        &self.files[file as usize]
    }
}

/// An open training file and its index.
pub(crate) struct Open {
    file: u64,
    handle: Box<dyn EngineFile>,
}

fn at(e: io::Error, op: &str, path: &std::path::Path) -> io::Error {
    io::Error::new(
        e.kind(),
        format!("{op} {}: {}", path.display(), engine::errno::describe(&e)),
    )
}

impl SampleSource for FileSource<'_> {
    type Handle = Open;

    fn open(&self, thread: usize, file: u64) -> io::Result<Open> {
        let reader = self.readers[thread].lock().expect("reader");
        let path = self.path(file);
        let hints = OpenHints {
            file_size: self.sizes[file as usize],
            rank: self.rank,
            layout: None,
        };
        let handle = reader
            .engine
            .open(Target::from(path), OpenMode::ReadOnly, &hints)
            .map_err(|e| at(e, "open", path))?;
        Ok(Open { file, handle })
    }

    fn read(&self, thread: usize, open: &mut Open, range: Range<u64>) -> io::Result<u64> {
        let mut reader = self.readers[thread].lock().expect("reader");
        let buf = reader.buf.as_mut_slice();
        let mut at_offset = range.start;
        while at_offset < range.end {
            let want = ((range.end - at_offset) as usize).min(buf.len());
            let n = open
                .handle
                .read_at(&mut buf[..want], at_offset)
                .map_err(|e| at(e, "read", &self.files[open.file as usize]))?;
            if n == 0 {
                break;
            }
            at_offset += n as u64;
            self.read.fetch_add(n as u64, Ordering::Relaxed);
        }
        Ok(at_offset - range.start)
    }
}
