//! The checkpoint workload on the ranks, as DLIO's `_checkpoint_write` and `_checkpoint_read`
//! run it: per checkpoint, `time_between_checkpoints` of emulated training, a barrier, then
//! the clock: every rank writes (or reads) its shards one after the other, a barrier after them
//! with `rank_sync`, the clock again. Each checkpoint is a timed phase; rank 0 gathers every
//! rank's time and reports the slowest. Writes come first, then reads (of the checkpoints
//! just written, or left by an earlier run with `--keep`).

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use engine::cache::Strided;
use engine::Engine;
use measure::{now_ns, secs, IntervalSeries, LatencyHistogram};
use results::dlio::{
    checkpoint_entry, checkpoint_metric, CheckpointFigures, CheckpointOutcome, CheckpointRank,
    Direction, DlioResult, PhaseOutcome, CHECKPOINT_KINDS,
};
use results::sink::Expect;

use super::io::{ShardIo, SHARD};
use super::shards::{checkpoint_dir, recovery_source, Shape, Shard};
use super::tidy::Written;
use crate::bracket;
use crate::cache::{before_phase, ReadSet};
use crate::dlio::config;
use crate::dlio::error::DlioError;
use crate::dlio::run_ctx::Ctx;
use crate::reduce::{self, RankFigures};

/// DLIO numbers every checkpoint of this workload epoch 1, step = its index.
const EPOCH: u64 = 1;

/// What the ranks share for the run's checkpoints.
struct Job<'a> {
    ctx: &'a Ctx<'a>,
    folder: PathBuf,
    shape: Shape,
    /// Rank 0: the document's checkpoints so far.
    done: Vec<CheckpointFigures>,
    /// Rank 0: a checkpoint's bytes and files, for the phase-start event (every rank's shards
    /// listed once per run, not per checkpoint).
    expect: Expect,
}

/// The checkpoints' folder for checkpoint `index`.
fn dir_of(folder: &std::path::Path, index: u64) -> PathBuf {
    folder.join(checkpoint_dir(EPOCH, index))
}

/// Runs the checkpoint workload on this rank. `Some(signal)`: a signal stopped it. The
/// files it wrote are removed at the end unless `--keep`, and always after a failure or a
/// signal (`tidy`).
pub(crate) fn run_checkpoints(ctx: &Ctx) -> Result<Option<i32>, DlioError> {
    let p = ctx.p;
    let comm = ctx.comm;
    let c = &p.checkpoint;
    let (writes, reads) = (
        c.num_checkpoints_write.max(0) as u64,
        c.num_checkpoints_read.max(0) as u64,
    );
    let mut job = Job {
        ctx,
        folder: config::checkpoint_folder(p),
        shape: Shape::of(p, comm.size() as u64),
        done: Vec::new(),
        expect: Expect::default(),
    };
    if comm.rank() == 0 {
        let ranks = comm.size() as u64;
        let files = (0..ranks)
            .map(|r| job.shape.rank_shards(r).len() as u64)
            .sum();
        job.expect = Expect {
            bytes: Some(job.shape.checkpoint_bytes(ranks)),
            ops: Some(files),
            deadline_s: None,
        };
    }
    let randomize = c
        .randomize_tensor
        .then_some(0xc4ec_0000 ^ comm.rank() as u64);
    let mut io = ShardIo::new(
        config::checkpoint_odirect(p),
        c.fsync,
        randomize,
        p.model.model_datatype,
        comm.rank(),
    );
    let mut written = Written::new(job.folder.clone());
    let ran = (|| {
        if writes > 0 {
            written.make_dirs(comm, (1..=writes).map(|i| dir_of(&job.folder, i)))?;
        }
        let mine = job.shape.rank_shards(comm.rank() as u64);
        for index in 1..=writes {
            if let Some(sig) = save_phase(&mut job, &mut io, index, &mine, &mut written)? {
                return Ok(Some(sig));
            }
        }
        let map = comm.node_map();
        let node_of: Vec<usize> = (0..comm.size()).map(|r| map.node_of(r)).collect();
        let source = if c.recovery_rank_shift {
            recovery_source(&node_of, comm.rank())
        } else {
            comm.rank()
        };
        let theirs = job.shape.rank_shards(source as u64);
        for index in 1..=reads {
            let read = (source, &theirs[..]);
            if let Some(sig) = load_phase(&mut job, &mut io, index, read, &mut written)? {
                return Ok(Some(sig));
            }
        }
        Ok(None)
    })();
    let keep = ctx.keep && matches!(ran, Ok(None));
    written.tidy(comm, &job.shape, keep, ran.is_ok())?;
    ran
}

/// A read: the shards it reads are what `--drop-caches` drops and whose residency is measured.
fn load_phase(
    job: &mut Job,
    io: &mut ShardIo,
    index: u64,
    (source, shards): (usize, &[Shard]),
    written: &mut Written,
) -> Result<Option<i32>, DlioError> {
    let dir = dir_of(&job.folder, index);
    let files: Vec<(PathBuf, Strided, bool)> = shards
        .iter()
        .map(|s| (dir.join(&s.name), Strided::whole(0, s.bytes()), true))
        .collect();
    let set = ReadSet {
        bytes: shards.iter().map(Shard::bytes).sum(),
        check_every: (files.len() / 64).max(1),
        files,
        complete: true,
    };
    let cache = before_phase(
        job.ctx.session,
        job.ctx.comm,
        io.engine().caps(),
        Some(&set),
        false,
    )?;
    run_phase(
        job,
        io,
        Direction::Load,
        index,
        (source, shards),
        cache,
        written,
    )
}

/// A write: `--drop-caches` applies as before any phase that reads no file data.
fn save_phase(
    job: &mut Job,
    io: &mut ShardIo,
    index: u64,
    shards: &[Shard],
    written: &mut Written,
) -> Result<Option<i32>, DlioError> {
    let cache = before_phase(
        job.ctx.session,
        job.ctx.comm,
        io.engine().caps(),
        None,
        false,
    )?;
    let rank = job.ctx.comm.rank();
    run_phase(
        job,
        io,
        Direction::Save,
        index,
        (rank, shards),
        cache,
        written,
    )
}

/// Sleeps `seconds` (DLIO's emulated training between checkpoints) in short naps, so that a
/// signal ends it at once.
fn pause(seconds: f64) {
    if seconds.is_nan() || seconds <= 0.0 {
        return;
    }
    let end = std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds);
    while !exec::interrupt::requested() {
        let left = end.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(std::time::Duration::from_millis(50)));
    }
}

fn unix_s(t: SystemTime) -> f64 {
    t.duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs_f64()
}

#[allow(clippy::too_many_arguments)]
fn run_phase(
    job: &mut Job,
    io: &mut ShardIo,
    direction: Direction,
    index: u64,
    (source, shards): (usize, &[Shard]),
    page_cache: Option<results::PageCache>,
    written: &mut Written,
) -> Result<Option<i32>, DlioError> {
    let ctx = job.ctx;
    let comm = ctx.comm;
    let p = ctx.p;
    let dir = dir_of(&job.folder, index);
    pause(p.checkpoint.time_between_checkpoints);
    // A signal during the pause ends the run before this checkpoint starts.
    if let Some(sig) = crate::stop::agreed(comm)? {
        return Ok(Some(sig));
    }
    let event = bracket::start(direction.operation(), index as u32, comm.size(), job.expect);
    let mut rec = bracket::prepare(
        ctx.session,
        comm,
        ctx.slot,
        CHECKPOINT_KINDS.len(),
        Some(event),
    );
    let series_epoch = bracket::epoch(comm, &mut rec)?;
    comm.barrier()?;
    let wall = SystemTime::now();
    let t0 = now_ns();
    rec.start(t0);
    let (mut bytes, mut count, mut cut) = (0u64, 0u64, false);
    for shard in shards {
        let path = dir.join(&shard.name);
        // No clock read of its own: the previous record's end starts the shard.
        let start = rec.prev();
        let moved = match direction {
            Direction::Save => {
                written.created(&path);
                io.write(&path, shard.bytes(), &mut rec)?
            }
            Direction::Load => io.read(&path, shard.bytes(), &mut rec)?,
        };
        bytes += moved.bytes;
        if moved.cut {
            cut = true;
            break;
        }
        rec.record_since(SHARD, start, 0);
        count += 1;
    }
    if p.checkpoint.rank_sync && !cut {
        comm.barrier()?;
    }
    let seconds = secs(now_ns().saturating_sub(t0));
    let (stopped, stop) = crate::stop::after_phase(comm, cut)?;
    let m = rec.finish();
    let start_unix = unix_s(wall);
    let report = RankFigures {
        seconds: vec![start_unix, start_unix + seconds, seconds],
        counts: vec![
            comm.rank() as u64,
            source as u64,
            comm.node_map().node_of(comm.rank()) as u64,
            bytes,
            count,
        ],
        latency: m.latency,
        series: Some(m.series),
        ..RankFigures::default()
    };
    let Some(gathered) = reduce::gather(Some(ctx.session), comm, &report)? else {
        return Ok(stop);
    };
    let mut latency = vec![LatencyHistogram::new(), LatencyHistogram::new()];
    let mut series = IntervalSeries::new(ctx.session.interval_ns(), series_epoch);
    let mut ranks = Vec::new();
    for r in gathered.reports() {
        let (_, r) = r?;
        r.merge_latency(&mut latency)?;
        series.merge(r.series()?);
        let [start_unix_s, end_unix_s, seconds] = r.seconds_n()?;
        let [rank, source_rank, node, bytes, files] = r.counts_n()?;
        ranks.push(CheckpointRank {
            rank,
            source_rank,
            node,
            start_unix_s,
            end_unix_s,
            seconds,
            bytes,
            files,
        });
    }
    let transfer_latency = latency.pop().unwrap_or_default();
    let o = CheckpointOutcome {
        direction,
        index,
        ranks,
        latency: latency.pop().unwrap_or_default(),
        transfer_latency,
        series,
        page_cache,
        fsync: p.checkpoint.fsync,
        odirect: config::checkpoint_odirect(p),
        stopped,
    };
    if !stopped {
        job.done.push(checkpoint_entry(&o));
    }
    let block = DlioResult {
        au_threshold_percent: p.metric.au * 100.0,
        checkpoints: job.done.clone(),
        checkpoint_metric: checkpoint_metric(&job.done),
        ..DlioResult::default()
    };
    ctx.end_phase(PhaseOutcome::Checkpoint(o), block);
    Ok(stop)
}
