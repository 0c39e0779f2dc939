//! One training epoch on one rank as a timed phase, and the reduction of every rank's block
//! into rank 0's `EpochOutcome`.
//!
//! The emulated loader (`train::run_epoch`) reads through `FileSource`; each step's wait for
//! its batch is recorded as the phase's latency (one operation per step, with the bytes the
//! reader threads read since the previous step), so progress and the metrics endpoint follow
//! the rank's steps and bytes live, and its samples and compute time (live samples/s and AU). DLIO's per-step barrier is an all-reduce of "stop" (the
//! session's stop flag), so every rank ends at the same step; one more barrier ends the epoch.

use std::cell::{Cell, RefCell};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use engine::cache::Strided;
use exec::ReduceOp;
use measure::{now_ns, IntervalSeries, LatencyHistogram};
use results::dlio::{
    block_figures, dlio_result, BlockTimes, EpochOutcome, EpochRank, Figures, MetricSteps,
    PhaseOutcome, EPOCH_KINDS,
};
use results::sink::Expect;
use results::Operation;

use super::error::DlioError;
use super::run_ctx::{Ctx, TrainFiles};
use super::run_source::FileSource;
use super::train::{epoch_schedule, run_epoch, steps, ComputeDraws, TrainParams};
use crate::bracket;
use crate::cache::{before_phase, first_on_node, ReadSet};
use crate::reduce::{self, RankFigures};

const WAIT: usize = 0;
/// Figures before the per-step lists in a rank's report.
const HEAD: usize = 6;

/// The files of the epoch for the page-cache checks and drops: every training file, this
/// rank's share of the bytes.
fn read_set(files: &TrainFiles, drops: bool, ranks: u64) -> ReadSet {
    let list: Vec<_> = files
        .paths
        .iter()
        .zip(&files.sizes)
        .map(|(p, s)| (p.clone(), Strided::whole(0, *s), drops))
        .collect();
    let bytes = files.sizes.iter().sum::<u64>() / ranks.max(1);
    ReadSet {
        check_every: (list.len() / 64).max(1),
        files: list,
        bytes,
        complete: true,
    }
}

fn unix_s(t: SystemTime) -> f64 {
    t.duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs_f64()
}

/// Runs epoch `epoch` on this rank; rank 0 reports it and keeps it in `done`. `Some(signal)`:
/// a signal stopped the run.
pub(crate) fn epoch_phase(
    ctx: &Ctx,
    tp: &TrainParams,
    files: &TrainFiles,
    epoch: u64,
    draws: &mut ComputeDraws,
    done: &mut Vec<EpochOutcome>,
) -> Result<Option<i32>, DlioError> {
    let comm = ctx.comm;
    let ranks = comm.size() as u64;
    let schedule =
        epoch_schedule(tp, epoch, &|f| files.sizes[f as usize]).map_err(DlioError::Prepare)?;
    let source = FileSource::new(
        &files.paths,
        &files.sizes,
        schedule.threads.len(),
        tp.odirect,
        comm.rank(),
    );
    let set = read_set(files, first_on_node(comm), ranks);
    let page_cache = before_phase(ctx.session, comm, ctx.engine.caps(), Some(&set), false)?;
    let expect = Expect {
        bytes: None,
        ops: Some(steps::steps_per_epoch(tp) * ranks),
        deadline_s: None,
    };
    let event = bracket::start(Operation::DlioEpoch, epoch as u32, comm.size(), expect);
    let mut rec = bracket::prepare(ctx.session, comm, ctx.slot, EPOCH_KINDS.len(), Some(event));
    let series_epoch = bracket::epoch(comm, &mut rec)?;
    comm.barrier()?;
    let (before, wall) = (Instant::now(), SystemTime::now());
    let step_start = Cell::new(now_ns());
    rec.start(step_start.get());
    let rec = RefCell::new(rec);
    let read_before = Cell::new(0u64);
    let computing = Cell::new(0u64);
    let comm_error = Cell::new(None);
    let run = run_epoch(
        &source,
        &schedule,
        &mut || {
            let read = source.read.load(std::sync::atomic::Ordering::Relaxed);
            let mut rec = rec.borrow_mut();
            rec.record_since(WAIT, step_start.get(), read - read_before.replace(read));
            let compute = draws.next_step();
            // Live samples/s and AU: this batch is delivered; the previous step's compute is
            // over (counted once done, so the live AU never runs ahead of the clock).
            rec.add_work(tp.batch_size, computing.replace((compute * 1e9) as u64));
            compute
        },
        &mut |stop| {
            let any = comm.all_reduce_u64(u64::from(stop), ReduceOp::Max);
            step_start.set(now_ns());
            any.map(|n| n != 0).unwrap_or_else(|e| {
                comm_error.set(Some(e));
                true
            })
        },
        exec::interrupt::flag(),
    );
    rec.borrow_mut().add_work(0, computing.take());
    if let Some(e) = comm_error.take() {
        return Err(e.into());
    }
    let run = run.map_err(|e| DlioError::Io {
        op: "read",
        path: String::new(),
        source: e,
    })?;
    // DLIO's barrier at the end of the epoch, outside the block.
    comm.barrier()?;
    let secs = |t: Instant| t.duration_since(before).as_secs_f64();
    let list = |f: fn(&super::train::StepTimes) -> std::time::Duration| -> Vec<f64> {
        run.steps.iter().map(|s| f(s).as_secs_f64()).collect()
    };
    let (load, proc, compute) = (list(|s| s.wait), list(|s| s.proc), list(|s| s.compute));
    let metric = MetricSteps {
        expected: steps::steps_per_epoch(tp),
        exclude_start: tp.metric_exclude_start_steps,
        exclude_end: tp.metric_exclude_end_steps,
    };
    let block = BlockTimes {
        seconds: (run.end - run.start).as_secs_f64(),
        compute: &compute,
        proc: &proc,
    };
    let figures = block_figures(block, metric, tp.batch_size);
    let (cut, stop) = crate::stop::after_phase(comm, run.stopped)?;
    if stop.is_some() {
        exec::interrupt::resume();
    }
    let m = rec.into_inner().finish();
    let start_s = secs(run.start);
    let end_s = secs(run.end);
    let mut seconds = vec![
        unix_s(wall) + start_s,
        unix_s(wall) + end_s,
        start_s,
        end_s,
        figures.au_percent,
        figures.samples_per_second,
    ];
    seconds.extend(&load);
    seconds.extend(&proc);
    seconds.extend(&compute);
    let report = RankFigures {
        seconds,
        counts: vec![
            comm.rank() as u64,
            run.samples,
            run.bytes_read,
            run.steps.len() as u64,
            comm.node_map().node_of(comm.rank()) as u64,
            ctx.host.0,
            ctx.host.1,
        ],
        latency: m.latency,
        series: Some(m.series),
        ..RankFigures::default()
    };
    let Some(all) = reduce::gather(Some(ctx.session), comm, &report)? else {
        return Ok(stop);
    };
    let mut latency = vec![LatencyHistogram::new()];
    let mut series = IntervalSeries::new(ctx.session.interval_ns(), series_epoch);
    let mut out = Vec::new();
    for r in all.reports() {
        let (_, r) = r?;
        r.merge_latency(&mut latency)?;
        series.merge(r.series()?);
        let [rank, samples, bytes_read, steps, node, host_cpus, host_memory_bytes] =
            r.counts_n()?;
        let n = steps as usize;
        if r.seconds.len() != HEAD + 3 * n {
            return Err(DlioError::Wire(format!(
                "rank {rank}: {} figures for {n} steps",
                r.seconds.len()
            )));
        }
        let s = &r.seconds;
        out.push(EpochRank {
            rank,
            start_unix_s: s[0],
            end_unix_s: s[1],
            start_s: s[2],
            end_s: s[3],
            figures: Figures {
                au_percent: s[4],
                samples_per_second: s[5],
            },
            samples,
            bytes_read,
            load: s[HEAD..HEAD + n].to_vec(),
            proc: s[HEAD + n..HEAD + 2 * n].to_vec(),
            compute: s[HEAD + 2 * n..].to_vec(),
            node,
            host_cpus,
            host_memory_bytes,
        });
    }
    let o = EpochOutcome {
        epoch,
        ranks: out,
        latency: latency.remove(0),
        series,
        page_cache,
        record_length: ctx.p.dataset.record_length_bytes,
        au_threshold: ctx.p.metric.au,
        stopped: cut,
    };
    done.push(o.clone());
    let all: Vec<&EpochOutcome> = done.iter().collect();
    let block = dlio_result(&all, ctx.p.metric.au, ctx.p.dataset.record_length_bytes);
    ctx.end_phase(PhaseOutcome::Epoch(o), block);
    Ok(stop)
}
