//! The bracket around every phase on one rank, and the reduction of every rank's report into
//! rank 0's [`PhaseOutcome`]: barrier and the phase start; the operations; this rank's end;
//! barrier, then each rank's counts and histograms gathered to rank 0, which judges a step
//! against the latency limit and reports the phase.

use measure::{now_ns, secs, IntervalSeries, LatencyHistogram, Recorder};
use results::mix::{judge, RankStep, Verdict, KINDS};
use results::sink::Expect;
use results::{Operation, PageCache};

use super::ctx::Ctx;
use super::error::MixError;
use super::PhaseOutcome;
use crate::bracket;
use crate::cache::{before_phase, ReadSet};
use crate::reduce::{self, RankFigures};

/// A phase in progress on this rank.
pub(crate) struct Open {
    /// Rank 0: what the page cache held before the phase, or what `--drop-caches` did.
    page_cache: Option<PageCache>,
    pub op: Operation,
    pub step: u32,
    pub requested: u64,
    pub start: u64,
    pub rec: Recorder,
    pub tally: Tally,
    /// The waits of the operations never started, ns (lower bounds of their latency).
    pub waits: LatencyHistogram,
    /// Issue to end of every completed operation, ns.
    pub service: LatencyHistogram,
}

/// What a rank counts besides the recorder's latencies.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub done: [u64; KINDS],
    pub scheduled: u64,
    pub not_started: u64,
    pub substituted: u64,
}

/// Opens a phase: the page-cache step (`--drop-caches`, and how much of `reads`, the files the
/// phase may read, is resident), rank 0 reports it, then the barrier (rank 0's clock becomes
/// the series epoch), then the phase start.
pub(crate) fn open(
    ctx: &Ctx,
    op: Operation,
    step: u32,
    requested: u64,
    reads: Option<&ReadSet>,
) -> Result<Open, MixError> {
    let session = ctx.events.session;
    let page_cache = before_phase(session, ctx.comm, ctx.engine.caps(), reads, true)?;
    let window = (op == Operation::MixStep).then_some(ctx.params.step_seconds);
    let expect = Expect {
        deadline_s: window,
        ..Expect::default()
    };
    let event = bracket::start(op, step, ctx.ranks() as usize, expect);
    let mut rec = bracket::prepare(session, ctx.comm, ctx.slot, KINDS, Some(event));
    // Made before the clock starts too, as the recorder's.
    let (waits, service) = (LatencyHistogram::new(), LatencyHistogram::new());
    // A broadcast is no barrier under MPI (the root may leave it first): the barrier makes
    // every rank's window start together.
    ctx.comm.barrier()?;
    bracket::epoch(ctx.comm, &mut rec)?;
    let start = now_ns();
    rec.start(start);
    Ok(Open {
        page_cache,
        op,
        step,
        requested,
        start,
        rec,
        tally: Tally::default(),
        waits,
        service,
    })
}

/// Closes a phase that ended on this rank at `end` (`now_ns`): barrier, then this rank's
/// report to rank 0, which reports the phase with every rank's `notes` among its warnings.
/// Rank 0 gets a step's verdict; the others `None` (and every rank `None` once a rank failed).
pub(crate) fn close(
    ctx: &Ctx,
    open: Open,
    end: u64,
    notes: Vec<String>,
) -> Result<Option<Verdict>, MixError> {
    ctx.comm.barrier()?;
    // Did a rank fail? Then the phase is not reported (its figures cover a cut run), the
    // steps left are skipped and the clean-up runs unreported (`run`).
    if crate::stop::any_failed(ctx.comm, ctx.failed_here())? {
        ctx.failing.set(true);
        return Ok(None);
    }
    // One agreement per phase: was it cut by a signal, and does the run stop?
    let (cut, stop) = crate::stop::after_phase(ctx.comm, exec::interrupt::requested())?;
    if stop.is_some() {
        ctx.stopped.set(stop);
        // The cleanup runs to its end; a second signal still exits at once.
        exec::interrupt::resume();
    }
    let m = open.rec.finish();
    let epoch = m.series.epoch_ns();
    let t = &open.tally;
    let mut counts = vec![m.bytes, t.scheduled, t.not_started, t.substituted];
    counts.extend(t.done);
    let mut latency = m.latency;
    latency.extend([open.waits, open.service]);
    // The clock readings go as read: rank 0 turns them into seconds.
    let report = RankFigures {
        stamps_ns: vec![open.start, end],
        counts,
        latency,
        series: Some(m.series),
        notes,
        ..RankFigures::default()
    };
    let Some(all) = reduce::gather(Some(ctx.events.session), ctx.comm, &report)? else {
        return Ok(None);
    };
    // The operation kinds' histograms, then the waits and the service times.
    let mut latency: Vec<LatencyHistogram> =
        (0..KINDS + 2).map(|_| LatencyHistogram::new()).collect();
    let mut series = IntervalSeries::new(ctx.events.session.interval_ns(), epoch);
    let mut ranks = Vec::with_capacity(all.len());
    let mut warnings = Vec::new();
    for r in all.reports() {
        let (rank, r) = r?;
        let [start, end] = r.stamps_n()?;
        let [bytes, scheduled, not_started, substituted, done @ ..] =
            r.counts_n::<{ 4 + KINDS }>()?;
        r.merge_latency(&mut latency)?;
        series.merge(r.series()?);
        warnings.extend(r.notes.iter().map(|n| format!("rank {rank}: {n}")));
        ranks.push(RankStep {
            start: secs(start),
            end: secs(end),
            done: done.to_vec(),
            bytes,
            scheduled,
            not_started,
            substituted,
        });
    }
    let service = latency.pop().unwrap_or_default();
    let waits = latency.pop().unwrap_or_default();
    let mut outcome = PhaseOutcome {
        phase: open.op,
        step: open.step,
        requested_ops_s: open.requested,
        ranks,
        latency,
        not_started: waits,
        service,
        series,
        window_s: if open.op == Operation::MixStep {
            ctx.params.step_seconds
        } else {
            0.0
        },
        verdict: None,
        warnings,
    };
    // A cut step is not judged: its window did not run to the end.
    if open.op == Operation::MixStep && !cut {
        let v = judge(
            &ctx.params.latency_limit,
            &outcome.merged(),
            &outcome.not_started,
        );
        outcome.verdict = Some(v);
    }
    let verdict = outcome.verdict;
    ctx.events.phase(outcome, open.page_cache, cut);
    Ok(verdict)
}

/// Waits until `due` on the `now_ns` clock and returns the clock then: sleeps while more than
/// 200 us remain (the ranks may share cores), then spins; a signal ends the wait early.
pub(crate) fn wait_until(due: u64) -> u64 {
    exec::interrupt::wait_until(due, now_ns, 200_000)
}
