//! What an IOR run leaves when a rank fails mid-repetition: the ranks never reach the
//! removal at the end of the repetition, so the process removes the repetition's test files
//! afterwards, by name, as that removal would have (not with `-k` or `-E`, and not when the
//! repetition did not write them: a failed read keeps the files it read): this
//! process's ranks' own files (file per process) or the shared file (rank 0), then the `-u`
//! directories the run created, only if empty. Nothing is removed recursively.
//!
//! With thread ranks that is every file of the run. Under MPI a rank other than 0 that fails
//! ends the job at once (MPI cannot wake its peers), so only a failure on rank 0 is cleaned,
//! and only rank 0's files (docs/safety.md).

use std::io::ErrorKind;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Mutex;

use exec::Ranks;

use crate::ior::error::IorError;
use crate::ior::{naming, IorParams};

const NONE: u32 = u32::MAX;

/// What the ranks of this process made, kept outside them so a failure loses nothing: the
/// repetition whose files are on disk, whether it wrote them, and the `-u` directories
/// created.
#[derive(Debug)]
pub(crate) struct Made {
    repetition: AtomicU32,
    wrote: AtomicBool,
    dirs: Mutex<Vec<PathBuf>>,
    /// A shared write rank 0 began and has not ended (an object's multipart upload): its file
    /// and token, given up after a failure.
    shared: Mutex<Option<(PathBuf, Vec<u8>)>>,
}

impl Default for Made {
    fn default() -> Self {
        Made {
            repetition: AtomicU32::new(NONE),
            wrote: AtomicBool::new(false),
            dirs: Mutex::new(Vec::new()),
            shared: Mutex::new(None),
        }
    }
}

impl Made {
    /// Repetition `rep` starts: its files may exist from here on.
    pub fn repetition(&self, rep: u32) {
        self.wrote.store(false, Ordering::Release);
        self.repetition.store(rep, Ordering::Release);
    }

    /// The repetition's write phase starts: the files are this run's from here on.
    pub fn writing(&self) {
        self.wrote.store(true, Ordering::Release);
    }

    /// The repetition's files were removed (or kept on purpose).
    pub fn repetition_done(&self) {
        self.repetition.store(NONE, Ordering::Release);
    }

    /// A `-u` directory this run created.
    pub fn dir(&self, dir: PathBuf) {
        self.dirs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(dir);
    }

    /// Rank 0 began a shared write of `file` ([`engine::Engine::shared_begin`]).
    pub fn shared(&self, file: PathBuf, token: Vec<u8>) {
        *self.shared.lock().unwrap_or_else(|e| e.into_inner()) = Some((file, token));
    }

    /// ... and ended it.
    pub fn shared_done(&self) {
        *self.shared.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    fn current(&self) -> Option<u32> {
        match self.repetition.load(Ordering::Acquire) {
            NONE => None,
            r => Some(r),
        }
    }
}

/// Removes the files of the repetition a failure cut short; `Some` warning names what could
/// not be removed.
pub(crate) fn after_failure(p: &IorParams, ranks: &Ranks, made: &Made) -> Option<String> {
    let shared = made.shared.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some((file, token)) = shared {
        // Nothing of an unfinished shared write stays (an upload's parts take space).
        if let Ok(engine) = engine::build(&p.engine, ranks.first_local()) {
            let _ = engine.shared_abort(engine.target(&file), &token);
        }
    }
    let rep = made.current()?;
    // A repetition that only read keeps its files: they were there before the run, and IOR,
    // which aborts on a failure, keeps them too.
    if !made.wrote.load(Ordering::Acquire) || !removes(p, 0) || ranks.local() == 0 {
        return None;
    }
    let engine = engine::build(&p.engine, ranks.first_local()).ok()?;
    if !engine.caps().does_io {
        return None;
    }
    let mut left = Vec::new();
    let first = ranks.first_local();
    for rank in first..first + ranks.local() {
        if !(p.file_per_proc || rank == 0) {
            continue;
        }
        let path = naming::test_file_path(p, rank as u64, rep);
        match engine.remove(engine.target(&path)) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => left.push(format!(
                "{}: {}",
                path.display(),
                engine::errno::describe(&e)
            )),
        }
    }
    let dirs = std::mem::take(&mut *made.dirs.lock().unwrap_or_else(|e| e.into_inner()));
    for dir in dirs.iter().rev() {
        // Only if empty: a file in it is not this run's to delete.
        let _ = engine.rmdir(engine.target(dir));
    }
    (!left.is_empty()).then(|| {
        format!(
            "after the failure, could not remove the test files {}",
            left.join("; ")
        )
    })
}

/// Whether the test files go at the end of a repetition: not with `-k`, not with `-E` (the
/// files were there before the run), not after data errors with `keepFileWithError`.
pub(crate) fn removes(p: &IorParams, rep_errors: u64) -> bool {
    !(p.keep_file || p.use_existing_test_file || (rep_errors > 0 && p.keep_file_with_error))
}

/// This rank's test file of repetition `rep` (its own with `-F`, the shared one on rank 0),
/// removed by name; a missing one is fine. The end of a repetition calls it, and so does a
/// rank whose file-per-process write a signal cut, at once, before the phase's collectives:
/// under MPI a rank that died (mpirun then sends the others SIGTERM) makes those wait until
/// mpirun's SIGKILL, and the survivors' files would stay. Whether to remove at all is
/// [`removes`]'s answer.
pub(crate) fn remove_own_file(
    p: &IorParams,
    engine: &dyn engine::Engine,
    rank: u64,
    rep: u32,
) -> Result<(), IorError> {
    if !engine.caps().does_io || !(p.file_per_proc || rank == 0) {
        return Ok(());
    }
    let path = naming::test_file_path(p, rank, rep);
    match engine.remove(engine.target(&path)) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(IorError::io("remove", &path, None, e)),
    }
}
