//! A whole find on one rank: agree on the `-newer` reference, walk, combine the counters.

use engine::Target;
use std::path::PathBuf;

use engine::Engine;
use exec::{Comm, CommError};
use measure::{now_ns, LatencyHistogram, Recorder};

use super::counts::Counts;
use super::pool::DirPool;
use super::query::{Matcher, Query};
use super::walk::{Lister, Walker};
use crate::bracket;
use crate::reduce::{self, RankFigures, WireError};
use crate::session::{Session, INTERVAL_NS};
pub use results::find::{FindOutcome, RankCounts};
use results::Operation;

/// What a rank needs to take part.
pub struct FindCtx<'a> {
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    pub pool: &'a dyn DirPool,
    pub query: &'a Query,
    /// Where matches are listed; `None` for count only (`-C`).
    pub list: Option<&'a dyn Lister>,
    /// Where rank 0 reports the phase's start and every rank gets its recorder (at `slot` of
    /// the live counters); `None` reports nothing (tests).
    pub session: Option<&'a Session>,
    pub slot: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum FindError {
    #[error("-newer {}: {source}", path.display())]
    Reference {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("rank reports: {0}")]
    Wire(String),
    /// The plan's `-name` pattern (checked when the command line was read; not expected).
    #[error("-name: {0}")]
    Pattern(String),
    #[error(transparent)]
    Comm(#[from] CommError),
}

/// Runs this rank's part of the find. Rank 0 returns the combined outcome, the others `None`.
pub fn run_rank(ctx: &FindCtx<'_>) -> Result<Option<FindOutcome>, FindError> {
    let comm = ctx.comm;
    let rank = comm.rank();
    // pfind: rank 0 lstat's the reference once and broadcasts its ctime.
    let newer_ctime = match &ctx.query.newer {
        None => None,
        Some(path) => {
            let mine = if rank == 0 {
                let st = ctx.engine.lstat(Target::from(path)).map_err(|source| {
                    FindError::Reference {
                        path: path.clone(),
                        source,
                    }
                })?;
                st.ctime_sec as u64
            } else {
                0
            };
            Some(comm.broadcast_u64(mine, 0)? as i64)
        }
    };
    let matcher = Matcher::new(ctx.query, newer_ctime);

    let mut page_cache = None;
    if let Some(session) = ctx.session {
        // A walk reads directories: only the whole node's drop empties their caches.
        let caps = ctx.engine.caps();
        page_cache = crate::cache::before_phase(session, comm, caps, None, true)?;
    }
    let rec = match ctx.session {
        Some(s) => {
            let start = bracket::start(Operation::Find, 0, comm.size(), Default::default());
            bracket::prepare(s, comm, ctx.slot, 1, Some(start))
        }
        None => Recorder::new(1, INTERVAL_NS),
    };
    comm.barrier()?;
    let start_ns = now_ns();
    let mut w = Walker::new(rank, ctx.engine, ctx.pool, &matcher, ctx.list, rec);
    w.run();
    let end_ns = now_ns();
    if let Some(list) = ctx.list {
        list.after_walk(comm)?;
    }
    // A signal stops every rank's walk (`Walker::run`); the ranks agree whether it did.
    let (cut, stop) = crate::stop::after_phase(comm, exec::interrupt::requested())?;
    let interrupted = stop.filter(|_| cut);

    // The clock readings go as read; no series (the find reports none).
    let report = RankFigures {
        stamps_ns: vec![start_ns, end_ns],
        counts: w.counts.fields().to_vec(),
        latency: w.rec.finish().latency,
        notes: w.unreadable,
        ..RankFigures::default()
    };
    let Some(all) = reduce::gather(ctx.session, comm, &report)? else {
        return Ok(None);
    };
    let mut total = Counts::default();
    let mut ranks = Vec::with_capacity(all.len());
    let mut latency = [LatencyHistogram::new()];
    let mut unreadable = Vec::new();
    for r in all.reports() {
        let (_, report) = r?;
        let [start_ns, end_ns] = report.stamps_n()?;
        let c = Counts::from_fields(report.counts_n()?);
        report.merge_latency(&mut latency)?;
        total.add(&c);
        ranks.push(RankCounts {
            counts: c,
            start_ns,
            end_ns,
        });
        unreadable.extend(report.notes);
    }
    let [latency] = latency;
    Ok(Some(FindOutcome {
        total,
        ranks,
        newer_ctime,
        latency,
        unreadable,
        page_cache,
        interrupted,
    }))
}

impl From<WireError> for FindError {
    fn from(e: WireError) -> Self {
        FindError::Wire(e.to_string())
    }
}
