//! What every workload does before a timed phase, outside its window: `--drop-caches`, and
//! for a phase that reads file data, how much of it the readers' page cache already holds
//! (`engine::cache`). Every rank calls [`before_phase`] at the same point of the same phase,
//! so its collectives match; rank 0 gets the phase's [`PageCache`] for the document.

use std::path::PathBuf;

use engine::cache::{self, Residency, Strided};
use engine::Caps;
use exec::{Comm, CommError, ReduceOp};
use results::{Alert, AlertId, CacheDrop, CacheStatus, DropMethod, PageCache};

use crate::session::{DropCaches, Session};

/// The file data one rank will read in a phase.
#[derive(Debug, Clone)]
pub struct ReadSet {
    /// Each file with the part this rank reads, and whether this rank drops the whole file
    /// for its node (`--drop-caches` per file).
    pub files: Vec<(PathBuf, Strided, bool)>,
    /// Bytes this rank will read.
    pub bytes: u64,
    /// The residency check looks at every n-th file of `files` (1: all).
    pub check_every: usize,
    /// `files` are all the files read, not a sample: the per-file drop needs them all.
    pub complete: bool,
}

impl ReadSet {
    /// One file, all of it this rank's to check.
    pub fn one(path: PathBuf, part: Strided, drops: bool) -> ReadSet {
        ReadSet {
            bytes: part.bytes(),
            files: vec![(path, part, drops)],
            check_every: 1,
            complete: true,
        }
    }
}

/// Whether a read phase's drop will go file by file (so a workload with many files lists
/// them all): `--drop-caches=files`, or the automatic choice without root.
pub fn drops_files(session: &Session) -> bool {
    match session.drop_caches() {
        DropCaches::Off => false,
        DropCaches::Files => true,
        DropCaches::Auto | DropCaches::System => !cache::may_drop_system(),
    }
}

/// Whether this rank is the first of its node (the one that drops the node's caches).
pub fn first_on_node(comm: &dyn Comm) -> bool {
    comm.node_map().first_on_node(comm.rank())
}

/// Before a phase: drops caches as `--drop-caches` asks, then measures the residency of
/// `reads` (a phase that reads file data). `metadata`: the phase looks up names (mdtest,
/// find), whose dentry and inode caches only the whole node's drop empties. Rank 0 gets the
/// phase's facts (`None` when there are none: a phase that neither reads nor was asked to
/// drop); the others always `None`. A phase that reads no file data and whose drop asked for
/// files only records that there was nothing to drop, so no drop goes unsaid.
pub fn before_phase(
    session: &Session,
    comm: &dyn Comm,
    caps: Caps,
    reads: Option<&ReadSet>,
    metadata: bool,
) -> Result<Option<PageCache>, CommError> {
    let policy = session.drop_caches();
    let root = comm.rank() == 0;
    let limits = &Limits { session, metadata };
    if caps.object.is_some() && (reads.is_some() || policy != DropCaches::Off) {
        // An object store's data and names live on its servers: no cache of this node's
        // holds them, so nothing is dropped or measured (`--drop-caches` included).
        let data = comm.all_reduce_u64(reads.map_or(0, |r| r.bytes), ReduceOp::Sum)?;
        return Ok(root.then(|| PageCache::not_applicable(data)));
    }
    let Some(reads) = reads else {
        // Only the whole node's caches can be dropped for a phase that reads no file data.
        let drop = match system_drop(limits, comm, policy)? {
            _ if policy == DropCaches::Off => None,
            SystemDrop::Done => Some(system()),
            SystemDrop::NotAsked => Some(nothing(NO_FILE_DATA.to_string())),
            SystemDrop::Failed(why) => Some(nothing(format!("{why}; {NO_FILE_DATA}"))),
        };
        return Ok(drop.filter(|_| root).map(not_measured));
    };
    let data = comm.all_reduce_u64(reads.bytes, ReduceOp::Sum)?;
    if !(caps.page_cache && caps.does_io) {
        return Ok(root.then(|| PageCache::not_applicable(data)));
    }
    let mut drop = None;
    if policy != DropCaches::Off {
        let (before, _, _) = residency(comm, reads)?;
        let mut d = match system_drop(limits, comm, policy)? {
            SystemDrop::Done => system(),
            SystemDrop::NotAsked => files_drop(comm, reads, None)?,
            SystemDrop::Failed(why) => files_drop(comm, reads, Some(why))?,
        };
        d.resident_fraction_before = before.fraction();
        if root && cache::in_memory_fs(first_file(reads)) {
            d.note = Some(IN_MEMORY.to_string());
            session.hub().alert(limited(IN_MEMORY));
        }
        drop = Some(d);
    }
    let (seen, failures, sampled) = residency(comm, reads)?;
    if !root {
        return Ok(None);
    }
    let mut pc = PageCache {
        status: CacheStatus::Measured,
        resident_fraction: seen.fraction(),
        resident_bytes: seen.resident_bytes,
        checked_bytes: seen.checked_bytes,
        data_bytes: data,
        sampled,
        note: None,
        drop,
    };
    if failures > 0 {
        pc.note = Some(format!("{failures} file(s) could not be checked"));
        if seen.checked_bytes == 0 {
            pc.status = CacheStatus::Failed;
        }
    } else if pc.drop.is_none() && cache::in_memory_fs(first_file(reads)) {
        // (After a drop, the drop's note says it.)
        pc.note = Some(ALWAYS_RESIDENT.to_string());
    }
    Ok(Some(pc))
}

/// The session, and whether the phase would need the whole node's drop.
struct Limits<'a> {
    session: &'a Session,
    metadata: bool,
}

const IN_MEMORY: &str = "the files are on tmpfs, whose pages are the data: nothing can be dropped";
const ALWAYS_RESIDENT: &str = "the files are on tmpfs, whose pages are the data: always resident";

fn first_file(reads: &ReadSet) -> &std::path::Path {
    reads
        .files
        .first()
        .map_or(std::path::Path::new("/"), |f| f.0.as_path())
}

fn not_measured(drop: CacheDrop) -> PageCache {
    PageCache {
        status: CacheStatus::NotMeasured,
        resident_fraction: None,
        resident_bytes: 0,
        checked_bytes: 0,
        data_bytes: 0,
        sampled: false,
        note: Some("the phase reads no file data".to_string()),
        drop: Some(drop),
    }
}

fn limited(why: &str) -> Alert {
    Alert::new(
        AlertId::CacheDropLimited,
        format!("--drop-caches could not drop everything the phases may hit: {why}"),
    )
}

/// Residency of the ranks' reads summed over the ranks, the files that could not be
/// checked, and whether any rank checked a sample.
fn residency(comm: &dyn Comm, reads: &ReadSet) -> Result<(Residency, u64, bool), CommError> {
    let page = cache::page_size();
    let mut mine = Residency::default();
    let mut failed = 0;
    let every = reads.check_every.max(1);
    let mut sampled = every > 1 || !reads.complete;
    for (path, part, _) in reads.files.iter().step_by(every) {
        let (windows, part_sampled) = cache::plan_windows(part, page);
        sampled |= part_sampled;
        match cache::residency(path, &windows) {
            Ok(r) => mine.add(r),
            Err(_) => failed += 1,
        }
    }
    let all = Residency {
        resident_bytes: comm.all_reduce_u64(mine.resident_bytes, ReduceOp::Sum)?,
        checked_bytes: comm.all_reduce_u64(mine.checked_bytes, ReduceOp::Sum)?,
    };
    let failed = comm.all_reduce_u64(failed, ReduceOp::Sum)?;
    let sampled = comm.all_reduce_u64(u64::from(sampled), ReduceOp::Max)? == 1;
    Ok((all, failed, sampled))
}

/// How the whole node's drop went.
#[derive(Debug, PartialEq)]
enum SystemDrop {
    /// Not asked for, or not possible (no root) where the policy allows the per-file drop.
    NotAsked,
    Done,
    /// Asked for and not done, with the reason.
    Failed(String),
}

const NO_FILE_DATA: &str = "the phase reads no file data: there is nothing to drop per file";

/// A drop that did not happen, and why.
fn nothing(why: String) -> CacheDrop {
    CacheDrop {
        method: DropMethod::None,
        resident_fraction_before: None,
        note: Some(why),
    }
}

fn system() -> CacheDrop {
    CacheDrop {
        method: DropMethod::System,
        resident_fraction_before: None,
        note: None,
    }
}

/// The whole node's drop, when the policy asks for it and every rank may: the first rank of
/// each node drops, all wait. Rank 0 raises `cache-drop-limited` when only files can be.
fn system_drop(
    limits: &Limits,
    comm: &dyn Comm,
    policy: DropCaches,
) -> Result<SystemDrop, CommError> {
    let limited_here = || {
        if comm.rank() == 0 && limits.metadata {
            limits.session.hub().alert(limited(NO_SYSTEM_DROP));
        }
    };
    match policy {
        DropCaches::Off => return Ok(SystemDrop::NotAsked),
        DropCaches::Files => {
            limited_here();
            return Ok(SystemDrop::NotAsked);
        }
        DropCaches::Auto | DropCaches::System => {}
    }
    let may = comm.all_reduce_u64(u64::from(cache::may_drop_system()), ReduceOp::Min)? == 1;
    if !may {
        limited_here();
        return Ok(if policy == DropCaches::System {
            SystemDrop::Failed("not root on every node: drop_caches cannot be written".into())
        } else {
            SystemDrop::NotAsked
        });
    }
    let mut error = None;
    if first_on_node(comm) {
        error = cache::drop_system().err();
    }
    let failed = comm.all_reduce_u64(u64::from(error.is_some()), ReduceOp::Max)? == 1;
    comm.barrier()?;
    if !failed {
        return Ok(SystemDrop::Done);
    }
    limited_here();
    Ok(SystemDrop::Failed(format!(
        "writing /proc/sys/vm/drop_caches failed{}",
        error.map(|e| format!(": {e}")).unwrap_or_default()
    )))
}

const NO_SYSTEM_DROP: &str = "without the whole node's drop (root) only the files read are \
    dropped, per file; the dentry and inode caches that stat, find and remove phases use stay";

/// The per-file drop of a read phase: each file by the rank that owns it for its node.
fn files_drop(
    comm: &dyn Comm,
    reads: &ReadSet,
    why_not_system: Option<String>,
) -> Result<CacheDrop, CommError> {
    let mut failed = 0;
    for (path, _, owner) in &reads.files {
        if *owner && cache::drop_file(path).is_err() {
            failed += 1;
        }
    }
    let failed = comm.all_reduce_u64(failed, ReduceOp::Sum)?;
    let partial = comm.all_reduce_u64(u64::from(!reads.complete), ReduceOp::Max)? == 1;
    comm.barrier()?;
    let mut notes: Vec<String> = why_not_system.into_iter().collect();
    if failed > 0 {
        notes.push(format!("{failed} file(s) could not be dropped"));
    }
    if partial {
        notes.push("only the files sampled for the residency check were dropped".into());
    }
    Ok(CacheDrop {
        method: DropMethod::Files,
        resident_fraction_before: None,
        note: (!notes.is_empty()).then(|| notes.join("; ")),
    })
}
