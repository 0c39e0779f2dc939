//! The only code that runs once per transfer: the I/O call, one clock read (the end of one
//! transfer is the start of the next), one histogram record and one series record through the
//! recorder, the next offset from a cursor (no division for sequential access), and one
//! comparison of the clock with the next time to look at the stonewall deadline and the stop
//! flag (`exec::interrupt::Watch`). The loop is compiled once for writes and once for reads,
//! so that choice is not tested per transfer.

use engine::EngineFile;
use exec::interrupt::{Stop, Watch};
use measure::Recorder;

use crate::ior::data::{Checker, DataPattern};
use crate::ior::error::IorError;
use crate::ior::outcome::{ErrorAt, VerifyOutcome};
use crate::ior::pattern::AccessPattern;

/// IOR's limit on the attempts to finish one partial transfer (`MAX_RETRY`, iordef.h).
const MAX_RETRY: u32 = 10000;

/// One rank's open file and what its transfers need.
pub(crate) struct Mover<'a> {
    pub file: Box<dyn EngineFile>,
    /// The transfer buffer, as a slice once (not dereferenced per transfer).
    pub buf: &'a mut [u8],
    pub data: DataPattern,
    pub checker: Option<Checker>,
    pub write: bool,
    pub fsync_per_write: bool,
    pub quit_on_error: bool,
    pub path: &'a std::path::Path,
    pub verify: VerifyOutcome,
    pub rank: u64,
}

impl Mover<'_> {
    // Inlined into the loop: a call would pass the large `Result` through memory.
    #[inline(always)]
    fn write_one(&mut self, offset: u64) -> Result<u64, IorError> {
        self.data.stamp(self.buf, offset);
        let mut n = self
            .file
            .write_at(self.buf, offset)
            .map_err(|e| IorError::io("write", self.path, Some(offset), e))?;
        if n < self.buf.len() {
            n = self.rest("write", offset, n)?;
        }
        if self.fsync_per_write {
            self.file
                .sync()
                .map_err(|e| IorError::io("fsync", self.path, None, e))?;
        }
        Ok(n as u64)
    }

    /// One read; a data error is counted on `rec`'s live counters too.
    #[inline(always)]
    fn read_one(&mut self, offset: u64, rec: &mut Recorder) -> Result<u64, IorError> {
        let want = self.buf.len() as u64;
        if self.checker.is_some() {
            // Make sure the read really lands in the buffer (IOR's invalidate_buffer_pattern).
            self.buf[0] = !self.buf[0];
        }
        let mut n = self
            .file
            .read_at(self.buf, offset)
            .map_err(|e| IorError::io("read", self.path, Some(offset), e))?;
        if n < self.buf.len() && n > 0 {
            n = self.rest("read", offset, n)?;
        }
        let n = n as u64;
        if n < want {
            return Err(IorError::ShortRead {
                path: self.path.display().to_string(),
                offset,
                got: n,
                want,
            });
        }
        if self.checker.is_some() {
            self.check(offset, rec)?;
        }
        Ok(n)
    }

    /// A transfer that moved `done` of its bytes: warn as IOR does ("partial write") and
    /// move the rest, up to IOR's `MAX_RETRY` attempts; returns the bytes moved in all. A
    /// write that moves nothing is an error; a read that gets nothing is end of file (the
    /// caller's short read).
    #[cold]
    #[inline(never)]
    fn rest(&mut self, op: &'static str, offset: u64, mut done: usize) -> Result<usize, IorError> {
        let len = self.buf.len();
        let mut tries = 0;
        while done < len {
            eprintln!(
                "WARNING: rank {}, partial {op} of {}, {done} of {len} bytes at offset {offset}; \
                 retrying the rest",
                self.rank,
                self.path.display()
            );
            tries += 1;
            if tries > MAX_RETRY {
                return Err(IorError::io(
                    op,
                    self.path,
                    Some(offset + done as u64),
                    std::io::Error::other(format!("still partial after {MAX_RETRY} retries")),
                ));
            }
            let at = offset + done as u64;
            let n = if self.write {
                self.file.write_at(&self.buf[done..], at)
            } else {
                self.file.read_at(&mut self.buf[done..], at)
            }
            .map_err(|e| IorError::io(op, self.path, Some(at), e))?;
            if n == 0 && self.write {
                return Err(IorError::io(
                    op,
                    self.path,
                    Some(at),
                    std::io::Error::new(std::io::ErrorKind::WriteZero, "write moved 0 bytes"),
                ));
            }
            if n == 0 {
                break;
            }
            done += n;
        }
        Ok(done)
    }

    #[cold]
    fn check(&mut self, offset: u64, rec: &mut Recorder) -> Result<(), IorError> {
        let Some(checker) = &mut self.checker else {
            return Ok(());
        };
        self.verify.checked += 1;
        let Some(i) = checker.check(self.buf, offset) else {
            return Ok(());
        };
        rec.error();
        mismatch(
            &mut self.verify,
            self.rank,
            self.path,
            offset + i as u64,
            self.quit_on_error,
        )
    }
}

/// Transfers `from..to`, stopping early once `deadline_ns` after `start` has passed (when
/// non-zero) or when a signal asks the ranks to stop; returns the transfer count reached and
/// why it stopped short, if it did.
pub(crate) fn drive(
    m: &mut Mover,
    pattern: &AccessPattern,
    rec: &mut Recorder,
    from: u64,
    to: u64,
    start: u64,
    deadline_ns: u64,
) -> Result<(u64, Option<Stop>), IorError> {
    let deadline = (deadline_ns != 0).then(|| start.saturating_add(deadline_ns));
    let mut watch = Watch::new(rec.prev(), deadline);
    if m.write {
        transfers::<true>(m, pattern, rec, from, to, &mut watch)
    } else {
        transfers::<false>(m, pattern, rec, from, to, &mut watch)
    }
}

fn transfers<const WRITE: bool>(
    m: &mut Mover,
    pattern: &AccessPattern,
    rec: &mut Recorder,
    from: u64,
    to: u64,
    watch: &mut Watch,
) -> Result<(u64, Option<Stop>), IorError> {
    let mut offsets = pattern.offsets(from);
    let mut k = from;
    while k < to {
        let offset = offsets.next();
        let n = if WRITE {
            m.write_one(offset)?
        } else {
            m.read_one(offset, rec)?
        };
        let now = rec.record(0, n);
        k += 1;
        // The one test per transfer: the stonewall and the stop flag are looked at when due.
        if watch.due(now) {
            if let Some(why) = watch.check(now) {
                return Ok((k, Some(why)));
            }
        }
    }
    Ok((k, None))
}

/// A transfer that did not check out, its first bad byte at `at` of `path`: counted, the
/// first one kept for the report; with `-q` the phase ends (both movers).
pub(crate) fn mismatch(
    verify: &mut VerifyOutcome,
    rank: u64,
    path: &std::path::Path,
    at: u64,
    quit: bool,
) -> Result<(), IorError> {
    verify.errors += 1;
    if verify.first_error.is_none() {
        verify.first_error = Some(ErrorAt {
            rank,
            file: path.display().to_string(),
            offset: at,
        });
    }
    if quit {
        return Err(IorError::QuitOnError {
            path: path.display().to_string(),
            offset: at,
        });
    }
    Ok(())
}
