//! The bracket around every phase on one rank, and the reduction of every rank's report into
//! rank 0's [`PhaseOutcome`].
//!
//! md-workbench's bracket: barrier, the phase start, the operations, the phase end (this
//! rank's `t`), then `end_phase`'s barrier and reductions. Per operation the loop does one
//! clock read (`Recorder::record`): the end of one operation is the start of the next, so
//! latencies include the loop's own bookkeeping (the object's name, the data stamp).

use measure::{now_ns, secs, IntervalSeries, LatencyHistogram, Recorder};
use results::mdworkbench::{Counts, OpCount, Quantiles, RankOutcome, StonewallOutcome, KINDS};
use results::sink::Expect;
use results::{Operation, PageCache};

use super::ctx::Ctx;
use super::error::MdwbError;
use super::outcome::{PhaseOutcome, VerifyOutcome};
use crate::bracket;
use crate::cache::{before_phase, ReadSet};
use crate::reduce::{self, RankFigures, Verify, WireError};
use crate::requests;

/// A phase in progress on this rank.
pub(crate) struct Open {
    /// Rank 0: what the page cache held before the phase, or what `--drop-caches` did.
    page_cache: Option<PageCache>,
    pub op: Operation,
    pub iteration: u32,
    pub waiting_factor: f64,
    pub start: u64,
    pub rec: Recorder,
    pub counts: Counts,
}

/// Opens a phase: the page-cache step (`--drop-caches`, and how much of `reads`, the objects
/// the phase reads, is resident), rank 0 reports it, rank 0's clock becomes the series
/// epoch, then the phase start.
pub(crate) fn open(
    ctx: &Ctx,
    op: Operation,
    iteration: u32,
    waiting_factor: f64,
    reads: Option<&ReadSet>,
) -> Result<Open, MdwbError> {
    let session = ctx.events.session;
    // Not for the removal after a failure, which is neither timed nor reported.
    let page_cache = match ctx.failing.get() {
        true => None,
        false => before_phase(session, ctx.comm, ctx.engine.caps(), reads, true)?,
    };
    // Only the benchmark phase stops at the stonewall (-w).
    let wall = if op == Operation::Benchmark {
        ctx.params.stonewall_s
    } else {
        0.0
    };
    let event = bracket::start(op, iteration, ctx.ranks() as usize, expect(wall));
    // The removal after a failure is neither timed nor reported.
    let event = (!ctx.failing.get()).then_some(event);
    // The requests before this phase are not its own.
    ctx.engine.take_requests();
    let mut rec = bracket::prepare(session, ctx.comm, ctx.slot, KINDS.len(), event);
    bracket::epoch(ctx.comm, &mut rec)?;
    let start = now_ns();
    rec.start(start);
    Ok(Open {
        page_cache,
        op,
        iteration,
        waiting_factor,
        start,
        rec,
        counts: Counts::default(),
    })
}

/// Names that a phase could not handle as planned, counted with the first one.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub count: u64,
    pub first: Option<String>,
}

impl Tally {
    pub fn note(&mut self, path: &std::path::Path) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some(path.display().to_string());
        }
    }

    fn add(&mut self, o: Tally) {
        self.count += o.count;
        if self.first.is_none() {
            self.first = o.first;
        }
    }
}

/// What a phase adds to its timings.
#[derive(Default)]
pub(crate) struct Extra {
    pub stonewall: Option<StonewallOutcome>,
    pub verify: Option<VerifyOutcome>,
    /// Cleanup: objects that were not there to remove.
    pub missing: Tally,
    /// Cleanup: data-set directories that could not be removed.
    pub kept: Tally,
}

/// Closes a phase that ended on this rank at `end` (`now_ns`): barrier, then this rank's
/// report to rank 0, which reports the phase outcome.
pub(crate) fn close(ctx: &Ctx, open: Open, end: u64, extra: Extra) -> Result<(), MdwbError> {
    ctx.comm.barrier()?;
    // Did a rank fail? Then the phase is not reported (its figures cover a cut run), nor
    // is the clean-up after it.
    if crate::stop::any_failed(ctx.comm, ctx.failed_here())? {
        ctx.failing.set(true);
        return Ok(());
    }
    // One agreement per phase: was it cut by a signal, and does the run stop?
    let (cut, sig) = crate::stop::after_phase(ctx.comm, exec::interrupt::requested())?;
    if let Some(sig) = sig {
        ctx.stopped.set(Some(sig));
        // The clean-up runs to its end; a second signal still exits at once.
        exec::interrupt::resume();
    }
    let m = open.rec.finish();
    let epoch = m.series.epoch_ns();
    let c = &open.counts;
    let mut counts: Vec<u64> = [
        c.dset_create,
        c.dset_delete,
        c.obj_create,
        c.obj_read,
        c.obj_stat,
        c.obj_delete,
    ]
    .iter()
    .flat_map(|k| [k.ok, k.err])
    .collect();
    counts.extend([m.bytes, extra.missing.count, extra.kept.count]);
    let sent = ctx.engine.take_requests();
    counts.extend(requests::counts(sent.as_ref()));
    let mut kinds = m.latency;
    kinds.push(requests::ttfb(sent.as_ref()));
    // The clock readings go as read: rank 0 turns them into seconds.
    let report = RankFigures {
        stamps_ns: vec![open.start, end],
        counts,
        verify: Verify::of(extra.verify.clone().unwrap_or_default()),
        // The kinds', then the times to first byte.
        latency: kinds,
        series: Some(m.series),
        // The first name of each tally ("": none; a name is never empty).
        notes: vec![
            extra.missing.first.unwrap_or_default(),
            extra.kept.first.unwrap_or_default(),
        ],
        ..RankFigures::default()
    };
    let Some(all) = reduce::gather(Some(ctx.events.session), ctx.comm, &report)? else {
        return Ok(());
    };
    let mut ranks = Vec::with_capacity(all.len());
    let mut latency: Vec<LatencyHistogram> =
        (0..=KINDS.len()).map(|_| LatencyHistogram::new()).collect();
    let mut sent = [0u64; requests::COUNTS];
    let mut series = IntervalSeries::new(ctx.events.session.interval_ns(), epoch);
    let mut verify = VerifyOutcome::default();
    let (mut missing, mut kept) = (Tally::default(), Tally::default());
    for r in all.reports() {
        let (rank, r) = r?;
        let [start, end] = r.stamps_n()?;
        let all_counts = r.counts_n::<{ 15 + requests::COUNTS }>()?;
        let (mine, rest) = all_counts.split_at(15);
        for (sum, n) in sent.iter_mut().zip(rest) {
            *sum += n;
        }
        let [c @ .., bytes, missing_n, kept_n]: [u64; 15] = mine.try_into().expect("split at 15");
        let [missing_first, kept_first] = notes(&r.notes)?;
        r.merge_latency(&mut latency)?;
        series.merge(r.series()?);
        r.verify.add_to(rank, &mut verify);
        missing.add(Tally {
            count: missing_n,
            first: missing_first,
        });
        kept.add(Tally {
            count: kept_n,
            first: kept_first,
        });
        let count = |i: usize| OpCount {
            ok: c[2 * i],
            err: c[2 * i + 1],
        };
        ranks.push(RankOutcome {
            start: secs(start),
            end: secs(end),
            counts: Counts {
                dset_create: count(0),
                dset_delete: count(1),
                obj_create: count(2),
                obj_read: count(3),
                obj_stat: count(4),
                obj_delete: count(5),
            },
            // The rank's own distributions, from its histograms as it recorded them.
            kinds: r
                .latency
                .iter()
                .take(KINDS.len())
                .map(|h| Quantiles::of(&h.summary()))
                .collect(),
            bytes,
        });
    }
    let p = ctx.params;
    let ttfb = latency.pop().unwrap_or_default();
    let object = ctx.engine.caps().object.is_some();
    ctx.events.phase(
        PhaseOutcome {
            phase: open.op,
            iteration: open.iteration,
            waiting_factor: open.waiting_factor,
            read_only: p.read_only,
            object_size: p.object_size,
            ranks,
            latency,
            series,
            stonewall: extra.stonewall,
            verification: extra.verify.map(|_| verify),
            warnings: tally_warnings(&missing, &kept),
            requests: object.then(|| requests::figures(&sent, ttfb)),
        },
        open.page_cache,
        cut,
    );
    Ok(())
}

fn tally_warnings(missing: &Tally, kept: &Tally) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(first) = &missing.first {
        out.push(format!(
            "{} object(s) to remove did not exist (the first: {first}); md-workbench counts \
             them as removed, iogauge does not",
            missing.count
        ));
    }
    if let Some(first) = &kept.first {
        out.push(format!(
            "Unable to remove directory {first} ({} in all): it is not empty or not there; \
             iogauge removes only the objects of the run",
            kept.count
        ));
    }
    out
}

/// The two first names of a report's tallies ("": none).
fn notes(n: &[String]) -> Result<[Option<String>; 2], WireError> {
    match n {
        [a, b] => Ok([a, b].map(|s| (!s.is_empty()).then(|| s.clone()))),
        _ => Err(WireError::Shape(format!("{} notes, expected 2", n.len()))),
    }
}

fn expect(deadline_s: f64) -> Expect {
    // The counts are left unknown: the benchmark's depend on waiting and the stonewall.
    Expect {
        deadline_s: (deadline_s > 0.0).then_some(deadline_s),
        ..Expect::default()
    }
}

/// Waits `ns` (md-workbench's `mdw_wait`): spins below 10 ms, sleeps above; a signal ends a
/// sleep early.
pub(crate) fn wait(ns: u64) {
    exec::interrupt::wait_until(now_ns().saturating_add(ns), now_ns, 10_000_000);
}
