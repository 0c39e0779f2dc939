//! The bracket around every phase on one rank, and the reduction of every rank's report into
//! rank 0's [`PhaseOutcome`].
//!
//! md-workbench's bracket: barrier, the phase start, the operations, the phase end (this
//! rank's `t`), then `end_phase`'s barrier and reductions. Per operation the loop does one
//! clock read (`Recorder::record`): the end of one operation is the start of the next, so
//! latencies include the loop's own bookkeeping (the object's name, the data stamp).

use measure::{now_ns, secs, IntervalSeries, LatencyHistogram, Recorder};
use results::mdworkbench::{Counts, Quantiles, RankOutcome, StonewallOutcome, KINDS};
use results::Operation;
use serde::{Deserialize, Serialize};

use super::ctx::Ctx;
use super::error::MdwbError;
use super::outcome::{ErrorAt, PhaseOutcome, VerifyOutcome};

/// A phase in progress on this rank.
pub(crate) struct Open {
    pub op: Operation,
    pub iteration: u32,
    pub waiting_factor: f64,
    pub start: u64,
    pub rec: Recorder,
    pub counts: Counts,
}

/// Opens a phase: rank 0 reports it, then the barrier (rank 0's clock becomes the series
/// epoch), then the phase start.
pub(crate) fn open(
    ctx: &Ctx,
    op: Operation,
    iteration: u32,
    waiting_factor: f64,
) -> Result<Open, MdwbError> {
    // Made before the clock starts: new histograms write their whole count arrays.
    let mut rec = ctx.report.session.recorder(ctx.slot, KINDS.len());
    // The removal after a failure is neither timed nor reported.
    if ctx.rank() == 0 && !ctx.failing.get() {
        // Before the barrier, so no sink runs while other ranks are in the timed window.
        // Only the benchmark phase stops at the stonewall (-w).
        let wall = if op == Operation::Benchmark {
            ctx.params.stonewall_s
        } else {
            0.0
        };
        ctx.report
            .phase_start(op, iteration, ctx.ranks() as usize, wall);
    }
    let epoch = ctx.comm.broadcast_u64(now_ns(), 0)?;
    rec.set_epoch(epoch);
    let start = now_ns();
    rec.start(start);
    Ok(Open {
        op,
        iteration,
        waiting_factor,
        start,
        rec,
        counts: Counts::default(),
    })
}

/// Names that a phase could not handle as planned, counted with the first one.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
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

#[derive(Serialize, Deserialize)]
struct RankReport {
    start: u64,
    end: u64,
    counts: Counts,
    kinds: Vec<Option<Quantiles>>,
    bytes: u64,
    checked: u64,
    bad: u64,
    first_error: Option<(String, u64)>,
    missing: Tally,
    kept: Tally,
    latency: Vec<Vec<u8>>,
    series: Vec<u8>,
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
    let kinds = m
        .latency
        .iter()
        .map(|h| Quantiles::of(&h.summary()))
        .collect();
    let v = extra.verify.clone().unwrap_or_default();
    let report = RankReport {
        start: open.start,
        end,
        counts: open.counts,
        kinds,
        bytes: m.bytes,
        checked: v.checked,
        bad: v.errors,
        first_error: v.first_error.map(|e| (e.file, e.offset)),
        missing: extra.missing,
        kept: extra.kept,
        latency: m.latency.iter().map(LatencyHistogram::to_bytes).collect(),
        series: m.series.to_bytes(),
    };
    let bytes = serde_json::to_vec(&report).map_err(|e| MdwbError::Wire(e.to_string()))?;
    let Some(all) = ctx.comm.gather_bytes(&bytes, 0)? else {
        return Ok(());
    };
    let wire = |e: String| MdwbError::Wire(e);
    let mut ranks = Vec::with_capacity(all.len());
    let mut latency: Vec<LatencyHistogram> =
        KINDS.iter().map(|_| LatencyHistogram::new()).collect();
    let mut series = IntervalSeries::new(ctx.report.session.interval_ns(), m.series.epoch_ns());
    let mut verify = VerifyOutcome::default();
    let (mut missing, mut kept) = (Tally::default(), Tally::default());
    for (rank, raw) in all.iter().enumerate() {
        let r: RankReport = serde_json::from_slice(raw).map_err(|e| wire(e.to_string()))?;
        for (h, b) in latency.iter_mut().zip(&r.latency) {
            h.merge(&LatencyHistogram::from_bytes(b).map_err(wire)?);
        }
        series.merge(&IntervalSeries::from_bytes(&r.series).map_err(wire)?);
        verify.errors += r.bad;
        verify.checked += r.checked;
        if let (Some((file, offset)), None) = (r.first_error, &verify.first_error) {
            verify.first_error = Some(ErrorAt {
                rank: rank as u64,
                file,
                offset,
            });
        }
        missing.add(r.missing);
        kept.add(r.kept);
        ranks.push(RankOutcome {
            start: secs(r.start),
            end: secs(r.end),
            counts: r.counts,
            kinds: r.kinds,
            bytes: r.bytes,
        });
    }
    let p = ctx.params;
    ctx.report.phase(
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
        },
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

/// Waits `ns` (md-workbench's `mdw_wait`): spins below 10 ms, sleeps above; a signal ends a
/// sleep early.
pub(crate) fn wait(ns: u64) {
    exec::interrupt::wait_until(now_ns().saturating_add(ns), now_ns, 10_000_000);
}
