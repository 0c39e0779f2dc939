//! One timed read phase on one rank, and the reduction of every rank's report into rank 0's
//! [`PhaseOutcome`].
//!
//! The bracket: caches dropped and checked (outside the window), rank 0 reports the phase,
//! the barrier every rank leaves together is the phase start, each reader sleeps its stagger
//! and reads; its start and finish are taken on its own clock from that barrier, so no clocks
//! of different nodes are compared. Per operation one clock read and one histogram record
//! (`Recorder::record`): the end of one operation is the start of the next.

use engine::Target;
use std::path::PathBuf;
use std::time::Duration;

use engine::cache::Strided;
use engine::{Engine, OpenHints, OpenMode};
use exec::Comm;
use measure::{now_ns, secs, IntervalSeries, LatencyHistogram, Recorder};
use plan::startup::StartupParams;
use results::sink::{Detail, Expect};
use results::startup::{
    kinds, phase_result, PhaseOutcome, RankOutcome, CLOSE, LOAD, OPEN, READ, STAT,
};
use results::Operation;

use super::error::StartupError;
use super::manifest::Manifest;
use crate::bracket;
use crate::cache::{before_phase, ReadSet};
use crate::reduce::{self, RankFigures};
use crate::session::{Collected, Session};

/// What a rank carries through the run.
pub(crate) struct Ctx<'a> {
    pub p: &'a StartupParams,
    pub comm: &'a dyn Comm,
    pub engine: &'a dyn Engine,
    pub session: &'a Session,
    pub phases: &'a Collected<PhaseOutcome>,
    /// This rank's slot on the session's live counters.
    pub slot: usize,
    /// Its place among the readers (its stagger), `None` when it does not read.
    pub index: Option<u64>,
    /// It drops the files' caches for its node (`--drop-caches` per file).
    pub drops: bool,
}

/// What every reader reads.
pub(crate) struct Reads<'a> {
    pub tree: Option<&'a Manifest>,
    pub common: Option<(PathBuf, u64)>,
}

impl Reads<'_> {
    /// The files of `op` for the page-cache checks and drops.
    fn set(&self, op: Operation, reader: bool, drops: bool) -> ReadSet {
        let files: Vec<(PathBuf, Strided, bool)> = match op {
            Operation::TreeRead => self.tree.map_or(Vec::new(), |m| {
                let to = |(p, s): &(PathBuf, u64)| (p.clone(), Strided::whole(0, *s), drops);
                m.files.iter().map(to).collect()
            }),
            _ => self
                .common
                .iter()
                .map(|(p, s)| (p.clone(), Strided::whole(0, *s), drops))
                .collect(),
        };
        let bytes = if reader {
            files.iter().map(|f| f.1.bytes()).sum()
        } else {
            0
        };
        ReadSet {
            files,
            bytes,
            check_every: 1,
            complete: true,
        }
    }

    /// Operations and bytes of one reader, for a progress display.
    fn expect(&self, op: Operation) -> (u64, u64) {
        match (op, self.tree, &self.common) {
            (Operation::TreeRead, Some(m), _) => (2 * m.files.len() as u64, m.bytes()),
            (Operation::CommonRead, _, Some((_, size))) => (0, *size),
            _ => (0, 0),
        }
    }
}

/// Runs phase `op` of `iteration` on this rank; rank 0 reports its outcome. `Some(signal)`:
/// a signal stopped the run (every rank agrees; the phase is recorded as interrupted).
pub(crate) fn read_phase(
    ctx: &Ctx,
    op: Operation,
    iteration: u32,
    reads: &Reads,
) -> Result<Option<i32>, StartupError> {
    let comm = ctx.comm;
    let set = reads.set(op, ctx.index.is_some(), ctx.drops);
    let page_cache = before_phase(ctx.session, comm, ctx.engine.caps(), Some(&set), true)?;
    let kinds = kinds(op);
    let mut buf = ctx.engine.alloc_buffer(ctx.p.transfer_size as usize);
    let readers = comm.all_reduce_u64(u64::from(ctx.index.is_some()), exec::ReduceOp::Sum)?;
    let (ops, bytes) = reads.expect(op);
    let expect = Expect {
        bytes: Some(bytes * readers),
        ops: (ops > 0).then_some(ops * readers),
        deadline_s: None,
    };
    let event = bracket::start(op, iteration, readers as usize, expect);
    let mut rec = bracket::prepare(ctx.session, comm, ctx.slot, kinds.len(), Some(event));
    let epoch = bracket::epoch(comm, &mut rec)?;
    comm.barrier()?;
    let t0 = now_ns();
    let mut outcome = None;
    if let Some(index) = ctx.index {
        let delay = ctx.p.stagger_s * index as f64;
        if delay > 0.0 {
            exec::interrupt::sleep(Duration::from_secs_f64(delay));
        }
        let start = now_ns();
        rec.start(start);
        let mut r = RankOutcome {
            rank: comm.rank() as u64,
            start_s: secs(start - t0),
            ..RankOutcome::default()
        };
        match op {
            Operation::TreeRead => read_tree(ctx, reads, &mut rec, &mut buf, &mut r)?,
            _ => read_common(ctx, reads, &mut rec, &mut buf, &mut r)?,
        }
        r.done_s = secs(rec.prev().saturating_sub(t0));
        outcome = Some(r);
    }
    // One agreement per phase: was it cut by a signal, and does the run stop?
    let (cut, stop) = crate::stop::after_phase(comm, exec::interrupt::requested())?;
    if stop.is_some() {
        // Rank 0's removal of the files runs to its end; a second signal still exits at once.
        exec::interrupt::resume();
    }
    let m = rec.finish();
    // A reader's start and end go as the seconds it took them in; a rank that does not read
    // sends neither.
    let (seconds, counts) = match outcome {
        Some(r) => (
            vec![r.start_s, r.done_s],
            vec![r.rank, r.files, r.stats, r.opens, r.bytes],
        ),
        None => (Vec::new(), Vec::new()),
    };
    let report = RankFigures {
        seconds,
        counts,
        latency: m.latency,
        series: Some(m.series),
        ..RankFigures::default()
    };
    let Some(all) = reduce::gather(Some(ctx.session), comm, &report)? else {
        return Ok(stop);
    };
    let mut latency: Vec<LatencyHistogram> =
        kinds.iter().map(|_| LatencyHistogram::new()).collect();
    let mut series = IntervalSeries::new(ctx.session.interval_ns(), epoch);
    let mut ranks = Vec::new();
    for r in all.reports() {
        let (_, r) = r?;
        r.merge_latency(&mut latency)?;
        series.merge(r.series()?);
        if r.counts.is_empty() {
            continue;
        }
        let [start_s, done_s] = r.seconds_n()?;
        let [rank, files, stats, opens, bytes] = r.counts_n()?;
        ranks.push(RankOutcome {
            rank,
            start_s,
            done_s,
            files,
            stats,
            opens,
            bytes,
        });
    }
    let o = PhaseOutcome {
        phase: op,
        iteration,
        stagger_s: ctx.p.stagger_s,
        ranks,
        latency,
        series,
        page_cache,
    };
    let mut result = phase_result(&o);
    result.interrupted = cut;
    ctx.session.hub().phase_end(result, Detail::of(&o));
    ctx.phases.push(o);
    Ok(stop)
}

/// Every file of the tree: a stat, then open, read to the end, close (an import).
fn read_tree(
    ctx: &Ctx,
    reads: &Reads,
    rec: &mut Recorder,
    buf: &mut [u8],
    r: &mut RankOutcome,
) -> Result<(), StartupError> {
    let Some(m) = reads.tree else {
        return Ok(());
    };
    for (path, _) in &m.files {
        // One relaxed load per file, beside its four system calls.
        if exec::interrupt::requested() {
            break;
        }
        ctx.engine
            .stat(Target::from(path))
            .map_err(|e| StartupError::io("stat", path, e))?;
        rec.record(STAT, 0);
        let n = ctx
            .engine
            .read_whole(Target::from(path), buf)
            .map_err(|e| StartupError::io("read", path, e))?;
        rec.record(LOAD, n);
        r.files += 1;
        r.bytes += n;
    }
    r.stats = r.files;
    r.opens = r.files;
    Ok(())
}

/// The common file: a stat, the open, reads of `--transfer` bytes to the size the stat gave
/// (as `dd` reads), the close.
fn read_common(
    ctx: &Ctx,
    reads: &Reads,
    rec: &mut Recorder,
    buf: &mut [u8],
    r: &mut RankOutcome,
) -> Result<(), StartupError> {
    let Some((path, _)) = &reads.common else {
        return Ok(());
    };
    let e = ctx.engine;
    let size = e
        .stat(Target::from(path))
        .map_err(|err| StartupError::io("stat", path, err))?
        .size;
    rec.record(STAT, 0);
    let hints = OpenHints {
        file_size: size,
        rank: ctx.comm.rank(),
        layout: None,
    };
    let mut f = e
        .open(Target::from(path), OpenMode::ReadOnly, &hints)
        .map_err(|err| StartupError::io("open", path, err))?;
    rec.record(OPEN, 0);
    let mut at = 0;
    while at < size && !exec::interrupt::requested() {
        let want = (size - at).min(buf.len() as u64) as usize;
        let n = f
            .read_at(&mut buf[..want], at)
            .map_err(|err| StartupError::io_at("read", path, at, err))?;
        rec.record(READ, n as u64);
        if n == 0 {
            break;
        }
        at += n as u64;
    }
    f.close()
        .map_err(|err| StartupError::io("close", path, err))?;
    rec.record(CLOSE, 0);
    *r = RankOutcome {
        files: 1,
        stats: 1,
        opens: 1,
        bytes: at,
        ..*r
    };
    Ok(())
}
