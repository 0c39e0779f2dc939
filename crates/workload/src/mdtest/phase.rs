//! The bracket around every timed phase on one rank, and the reduction of every rank's report
//! into rank 0's [`PhaseOutcome`].
//!
//! mdtest's bracket: barrier, `t_start`, the operations, `t_end_before_barrier`, `-Y` sync,
//! barrier, `t_end`. Per operation the loop does one clock read (`Recorder::record`): the end
//! of one operation is the start of the next, so latencies include the loop's own bookkeeping.

use measure::{now_ns, secs, IntervalSeries, LatencyHistogram, Recorder};
use results::sink::Expect;
use results::{Operation, PageCache};

use super::ctx::Ctx;
use super::error::MdError;
use crate::bracket;
use crate::cache::{before_phase, ReadSet};
use crate::reduce::{self, RankFigures, Verify};
use crate::requests;

use super::outcome::{PhaseOutcome, RankTimes, StonewallOutcome, VerifyOutcome};

/// A phase in progress on this rank.
pub(crate) struct Open {
    pub start: u64,
    /// One operation kind: the phase's.
    pub rec: Recorder,
    /// Rank 0: what the page cache held before the phase, or what `--drop-caches` did.
    page_cache: Option<PageCache>,
    /// A remove phase after a signal: run to its end, neither timed nor reported.
    cleanup: bool,
}

/// What a phase of `items` per rank does over all ranks, for the progress display: items
/// (mdtest reports item rates, also where files carry bytes).
pub(crate) fn work(ctx: &Ctx, items: u64) -> Expect {
    Expect {
        ops: Some(items.saturating_mul(ctx.tasks())),
        bytes: None,
        deadline_s: None,
    }
}

/// Opens phase `op`: rank 0 reports it, then the barrier (rank 0's clock becomes the series
/// epoch), then `t_start`. `unique_setup`: a create phase with `-u`, where mdtest's per-task
/// directory set-up has a barrier of its own that `-t` includes in the time and that is
/// excluded otherwise.
pub(crate) fn open(
    ctx: &Ctx,
    op: Operation,
    iteration: u32,
    unique_setup: bool,
    expect: Expect,
) -> Result<Open, MdError> {
    open_with(ctx, op, iteration, unique_setup, expect, None)
}

/// [`open`] for a phase that reads `reads`: their page-cache residency is checked first.
pub(crate) fn open_with(
    ctx: &Ctx,
    op: Operation,
    iteration: u32,
    unique_setup: bool,
    expect: Expect,
    reads: Option<&ReadSet>,
) -> Result<Open, MdError> {
    let session = ctx.events.session;
    let page_cache = before_phase(session, ctx.comm, ctx.engine.caps(), reads, true)?;
    let cleanup = ctx.cleaning();
    let event = bracket::start(op, iteration, ctx.tasks() as usize, expect);
    // The requests before this phase are not its own.
    ctx.engine.take_requests();
    let mut rec = bracket::prepare(session, ctx.comm, ctx.slot, 1, (!cleanup).then_some(event));
    bracket::epoch(ctx.comm, &mut rec)?;
    let mut start = now_ns();
    if unique_setup {
        ctx.comm.barrier()?;
        if !ctx.params.time_unique_dir_overhead {
            start = now_ns();
        }
    }
    rec.start(start);
    Ok(Open {
        start,
        rec,
        page_cache,
        cleanup,
    })
}

/// What a phase adds to its timings.
#[derive(Default)]
pub(crate) struct Extra {
    pub stonewall: Option<StonewallOutcome>,
    pub verify: Option<VerifyOutcome>,
    pub warnings: Vec<String>,
}

/// Closes a phase (`-Y` sync, barrier) and sends this rank's report to rank 0, which reports
/// the phase outcome.
pub(crate) fn close(
    ctx: &Ctx,
    op: Operation,
    iteration: u32,
    open: Open,
    extra: Extra,
) -> Result<(), MdError> {
    let end_before_barrier = now_ns();
    // mdtest syncs in its phase bracket, which the tree phases do not use.
    if ctx.params.call_sync && !op.is_tree() && !ctx.failed_here() {
        let synced = ctx.engine.sync_all();
        let all = std::path::Path::new("(all file systems)");
        ctx.absorb(synced.map_err(|e| MdError::io("sync", all, e)))?;
    }
    ctx.comm.barrier()?;
    let end = now_ns();
    let sent = ctx.engine.take_requests();
    // Did a rank fail? Then the phase is not reported (its figures cover a cut run) and the
    // ranks go on together to the clean-up.
    if crate::mdtest::failure::agreed(ctx)? || open.cleanup {
        return Ok(());
    }
    // One agreement per phase: was it cut by a signal, and does the run stop?
    let (cut, sig) = crate::stop::after_phase(ctx.comm, exec::interrupt::requested())?;
    if let Some(sig) = sig {
        ctx.stopped.set(Some(sig));
        // The clean-up runs to its end; a second signal still exits at once.
        exec::interrupt::resume();
    }
    let page_cache = open.page_cache;
    let m = open.rec.finish();
    let epoch = m.series.epoch_ns();
    // The clock readings go as read: rank 0 turns them into seconds.
    let report = RankFigures {
        stamps_ns: vec![open.start, end_before_barrier, end],
        counts: [m.ops, m.bytes]
            .into_iter()
            .chain(requests::counts(sent.as_ref()))
            .collect(),
        verify: Verify::of(extra.verify.clone().unwrap_or_default()),
        latency: m
            .latency
            .into_iter()
            .chain([requests::ttfb(sent.as_ref())])
            .collect(),
        series: Some(m.series),
        ..RankFigures::default()
    };
    let Some(all) = reduce::gather(Some(ctx.events.session), ctx.comm, &report)? else {
        return Ok(());
    };
    let mut ranks = Vec::with_capacity(all.len());
    let mut latency = [LatencyHistogram::new(), LatencyHistogram::new()];
    let mut sent = [0u64; requests::COUNTS];
    let mut series = IntervalSeries::new(ctx.interval_ns, epoch);
    let mut verify = VerifyOutcome::default();
    for r in all.reports() {
        let (rank, r) = r?;
        let [start, end_before_barrier, end] = r.stamps_n()?;
        let [items, bytes, rest @ ..]: [u64; 2 + requests::COUNTS] = r.counts_n()?;
        for (sum, n) in sent.iter_mut().zip(rest) {
            *sum += n;
        }
        r.merge_latency(&mut latency)?;
        series.merge(r.series()?);
        r.verify.add_to(rank, &mut verify);
        ranks.push(RankTimes {
            start: secs(start),
            end_before_barrier: secs(end_before_barrier),
            end: secs(end),
            items,
            bytes,
        });
    }
    let [latency, ttfb] = latency;
    let object = ctx.engine.caps().object.is_some();
    let o = PhaseOutcome {
        op,
        iteration,
        ranks,
        tree_dirs: ctx.shape.num_dirs,
        latency,
        series,
        stonewall: extra.stonewall,
        verification: extra.verify.map(|_| verify),
        warnings: extra.warnings,
        requests: object.then(|| requests::figures(&sent, ttfb)),
    };
    ctx.events.phase(o, page_cache, flushed(ctx, op), cut);
    Ok(())
}

/// Whether a create's window included flushing the data it wrote (`-y`, `-Y`); `None` for
/// phases that write no data and engines without a page cache to flush.
fn flushed(ctx: &Ctx, op: Operation) -> Option<bool> {
    let p = ctx.params;
    let caps = ctx.engine.caps();
    let writes = op == Operation::FileCreate && p.write_bytes > 0;
    (writes && caps.page_cache && caps.does_io).then_some(p.sync_file || p.call_sync)
}
