//! One phase on one rank: open, transfers, close, with IOR's barriers and six timestamps,
//! then the reduction that turns every rank's report into rank 0's [`PhaseOutcome`].
//!
//! The per-transfer loop itself is `mover`.

use std::path::PathBuf;
use std::time::Duration;

use engine::{AlignedBuf, OpenHints, OpenMode, QueueSpec, SlotBuffers};
use exec::interrupt::Stop;
use exec::ReduceOp;
use measure::{now_ns, secs, IntervalSeries, LatencyHistogram};
use results::sink::Expect;
use results::PageCache;

use crate::bracket;
use crate::cache::{before_phase, first_on_node, ReadSet};
use crate::ior::agreed;
use crate::ior::cleanup;
use crate::ior::ctx::Ctx;
use crate::ior::data::{Checker, DataPattern};
use crate::ior::error::IorError;
use crate::ior::mover::Mover;
use crate::ior::movers::{Movers, QueueUse};
use crate::ior::naming;
use crate::ior::outcome::{Access, PhaseOutcome, RankTimes, StonewallOutcome, VerifyOutcome};
use crate::ior::pattern::AccessPattern;
use crate::ior::queued::QueuedMover;
use crate::ior::shared_object;
use crate::ior::IorParams;
use crate::reduce::{self, RankFigures, Verify};
use crate::requests;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Write,
    Read,
    /// `-W`: the untimed read-back after a write.
    Check,
}

pub(crate) struct PhasePlan {
    pub mode: Mode,
    pub iteration: u32,
    pub seed: i64,
    pub rank_offset: u64,
    pub verify: bool,
    /// Stop after this many transfers (status file or the write before); 0 = all.
    pub pair_limit: u64,
    /// Seed of the `-z` permutation (same on every rank).
    pub offset_seed: u64,
}

/// What one rank measured in a phase.
pub(crate) struct RankPhase {
    pub times: RankTimes,
    pub latency: LatencyHistogram,
    pub series: IntervalSeries,
    pub verify: VerifyOutcome,
    pub stonewall: Option<StonewallOutcome>,
    pub stat_size: u64,
    /// What the page cache held before the phase (rank 0 of a read, or after a drop).
    pub page_cache: Option<PageCache>,
    /// A signal stopped this rank's transfers before their end.
    pub interrupted: bool,
    /// A queued engine's depth and requests in flight.
    pub queue: Option<QueueUse>,
    /// An object engine's requests in the phase.
    pub requests: Option<engine::RequestTally>,
    /// What the engine's library put in effect on this rank's file (MPI-IO hints).
    pub in_effect: Vec<(String, String)>,
}

/// What a phase of `p` on `tasks` ranks moves if it runs to the end (`pair_limit` transfers
/// per rank when not 0), and its stonewall: for a progress display.
pub fn expect(p: &IorParams, tasks: u64, pair_limit: u64) -> Expect {
    let mut per_rank = p.transfers_per_rank();
    if pair_limit > 0 {
        per_rank = per_rank.min(pair_limit);
    }
    let d = p.deadline_for_stonewalling_s;
    Expect {
        bytes: Some(per_rank * p.transfer_size * tasks),
        ops: Some(per_rank * tasks),
        deadline_s: (d > 0.0).then_some(d),
    }
}

pub(crate) fn run_phase(
    ctx: &Ctx,
    plan: &PhasePlan,
    buf: &mut AlignedBuf,
) -> Result<RankPhase, IorError> {
    let p = ctx.params;
    let comm = ctx.comm;
    let rank = comm.rank() as u64;
    let tasks = comm.size() as u64;
    let pretend = (rank + plan.rank_offset) % tasks;
    let path: PathBuf = naming::test_file_path(p, pretend, plan.iteration);

    let mut pattern = AccessPattern::sequential(
        p.block_size,
        p.transfer_size,
        p.segment_count,
        tasks,
        p.file_per_proc,
        pretend,
    );
    if p.random_offset == 1 {
        pattern = pattern.shuffled(plan.offset_seed);
    } else if p.random_offset >= 2 {
        let size = ctx
            .engine
            .file_size(ctx.engine.target(&path))
            .map_err(|e| IorError::io("stat", &path, None, e))?;
        pattern = pattern.random_blocks(plan.offset_seed, size);
    }
    let data = DataPattern::new(p.data_packet, plan.seed, pretend);
    let checker = plan
        .verify
        .then(|| Checker::new(data, p.transfer_size as usize));
    if plan.mode == Mode::Write {
        data.fill(buf);
        prepare_write_target(ctx, &path, pretend)?;
    }
    if plan.mode != Mode::Check && rank == 0 && p.inter_test_delay_s > 0.0 {
        // A signal ends the delay at once: the phase then stops after its first transfer.
        exec::interrupt::sleep(Duration::from_secs_f64(p.inter_test_delay_s));
    }
    let session = ctx.events.session;
    let page_cache = match plan.mode {
        Mode::Check => None,
        Mode::Write => before_phase(session, comm, ctx.engine.caps(), None, false)?,
        Mode::Read => {
            // A shared file is dropped whole by one rank per node.
            let drops = p.file_per_proc || first_on_node(comm);
            let mut reads = ReadSet::one(path.clone(), pattern.part(), drops);
            reads.bytes = expect(p, 1, plan.pair_limit).bytes.unwrap_or(0);
            before_phase(session, comm, ctx.engine.caps(), Some(&reads), false)?
        }
    };

    let access = match plan.mode {
        Mode::Write => Some(Access::Write),
        Mode::Read => Some(Access::Read),
        Mode::Check => None,
    };
    let start = access.map(|a| {
        let ex = expect(p, tasks, plan.pair_limit);
        bracket::start(a.operation(), plan.iteration, tasks as usize, ex)
    });
    // A queued engine's buffers, one per slot: made before IOR's barrier and the timed open,
    // as the one buffer of the synchronous mover is (and as fio makes its buffers before its
    // clock starts), so that no rank's allocation lands in another's open window.
    let spec = QueueSpec {
        depth: ctx.engine.depth().max(1),
        buf_len: p.transfer_size as usize,
    };
    let slot_bufs = ctx.engine.caps().queued.then(|| SlotBuffers::new(spec));
    // The requests before this phase (the checks, the last phase's stat) are not its own.
    ctx.engine.take_requests();
    let mut rec = bracket::prepare(session, comm, ctx.slot, 1, start);
    // IOR's barrier before open; rank 0's clock becomes the epoch of the interval series.
    bracket::epoch(comm, &mut rec)?;
    let mode = if plan.mode == Mode::Write {
        OpenMode::CreateKeep
    } else {
        OpenMode::ReadOnly
    };
    let hints = OpenHints {
        file_size: p.file_size(tasks),
        rank: rank as usize,
        layout: Some(engine::IorLayout {
            block: p.block_size,
            transfer: p.transfer_size,
            segments: p.segment_count,
            tasks,
            pretend,
            file_per_proc: p.file_per_proc,
            collective: p.collective,
        }),
    };
    let write = plan.mode == Mode::Write;
    let target = ctx.engine.target(&path);
    let shared = shared_object::applies(ctx, write, tasks);
    let open_start = now_ns();
    let shared_token = match shared {
        true => Some(shared_object::begin(ctx, &path, target)?),
        false => None,
    };
    // The engine's model chooses the mover: one transfer at a time, or many in flight.
    let mut mover = if let Some(bufs) = slot_bufs {
        let file = match &shared_token {
            Some(token) => ctx.engine.open_queued_shared(target, &hints, bufs, token),
            None => ctx.engine.open_queued(target, mode, &hints, bufs),
        }
        .map_err(|e| IorError::io("open", &path, None, e))?;
        let mut q = QueuedMover::new(file, spec.depth, spec.buf_len, data);
        q.checker = checker;
        q.write = write;
        q.quit_on_error = p.quit_on_error;
        q.path = &path;
        q.rank = rank;
        Movers::Queued(q)
    } else {
        let file = match &shared_token {
            Some(token) => ctx.engine.open_shared(target, &hints, token),
            None => ctx.engine.open(target, mode, &hints),
        }
        .map_err(|e| IorError::io("open", &path, None, e))?;
        Movers::Sync(Mover {
            file,
            buf: &mut buf[..],
            data,
            checker,
            write,
            fsync_per_write: p.fsync_per_write,
            quit_on_error: p.quit_on_error,
            path: &path,
            verify: VerifyOutcome::default(),
            rank,
        })
    };
    let open_stop = now_ns();
    if p.intra_test_barriers {
        comm.barrier()?;
    }
    if let Movers::Queued(q) = &mut mover {
        q.prepare();
    }

    let total = pattern.transfers();
    let end = if plan.pair_limit > 0 {
        total.min(plan.pair_limit)
    } else {
        total
    };
    // At least 1 ns when set: 0 means no deadline.
    let d = p.deadline_for_stonewalling_s;
    let deadline_ns = if d > 0.0 {
        ((d * 1e9) as u64).max(1)
    } else {
        0
    };
    let xfer_start = now_ns();
    rec.start(xfer_start);
    // Collective transfers stop together (`agreed`); otherwise each rank looks for itself.
    let (mut done, mut stop) = if p.collective && deadline_ns > 0 {
        let m = &mut mover;
        agreed::drive(m, &pattern, &mut rec, 0, end, xfer_start, deadline_ns, comm)?
    } else {
        mover.drive(&pattern, &mut rec, 0, end, xfer_start, deadline_ns)?
    };

    // A signal cut this rank's write of its own file: the file goes now, before the
    // collectives below (cleanup::remove_own_file says why); the run stops after this phase
    // anyway. Only a file-per-process write: a shared file, or a read (with -C another rank's
    // file), may still be opened by a rank that has not got this far.
    let mut removed = stop == Some(Stop::Interrupted)
        && plan.mode == Mode::Write
        && p.file_per_proc
        && cleanup::removes(p, 0);
    if removed {
        cleanup::remove_own_file(p, ctx.engine, rank, plan.iteration)?;
    }
    let mut stonewall = None;
    if p.stonewall_wear_out && p.deadline_for_stonewalling_s > 0.0 {
        let pairs_max = comm.all_reduce_u64(done, ReduceOp::Max)?;
        let time_s = secs(now_ns() - xfer_start);
        let pairs_min = comm.all_reduce_u64(done, ReduceOp::Min)?;
        let bytes_min = comm.all_reduce_u64(rec.bytes(), ReduceOp::Min)?;
        let bytes_sum = comm.all_reduce_u64(rec.bytes(), ReduceOp::Sum)?;
        stonewall = Some(StonewallOutcome {
            deadline_s: p.deadline_for_stonewalling_s,
            time_s,
            pairs_min,
            pairs_max,
            bytes_min,
            bytes_mean: bytes_sum as f64 / tasks as f64,
            bytes_sum,
        });
        // Wear-out: everyone continues (wrapping segments) to the largest count, unless a
        // signal stopped this rank.
        if stop != Some(Stop::Interrupted) {
            rec.restart(now_ns());
            (done, stop) = mover.drive(&pattern, &mut rec, done, pairs_max, xfer_start, 0)?;
        }
    }
    if plan.mode == Mode::Write && p.fsync {
        mover.sync(&path)?;
    }
    let xfer_stop = now_ns();
    if p.intra_test_barriers {
        comm.barrier()?;
    }
    let queue = mover.queue();
    let verify = mover.take_verify();
    let close_start = now_ns();
    let slot_bufs = match &shared_token {
        Some(token) => {
            let (bufs, mine) = mover
                .close_shared()
                .map_err(|e| IorError::io("close", &path, None, e))?;
            // Aborted after a signal: there is no object to stat.
            removed |= shared_object::end(ctx, &path, target, token, &mine)?;
            bufs
        }
        None => mover
            .close()
            .map_err(|e| IorError::io("close", &path, None, e))?,
    };
    let close_stop = now_ns();
    // Freed outside the timed close.
    drop(slot_bufs);
    if plan.mode == Mode::Write {
        comm.barrier()?;
    }
    let requests = ctx.engine.take_requests();
    let in_effect = ctx.engine.take_in_effect();
    let stat_size = if ctx.engine.caps().does_io && !removed {
        ctx.engine
            .file_size(target)
            .map_err(|e| IorError::io("stat", &path, None, e))?
    } else {
        0
    };

    let mut record = rec.finish();
    Ok(RankPhase {
        times: RankTimes {
            open_start: secs(open_start),
            open_stop: secs(open_stop),
            xfer_start: secs(xfer_start),
            xfer_stop: secs(xfer_stop),
            close_start: secs(close_start),
            close_stop: secs(close_stop),
            bytes: record.bytes,
            ops: done,
        },
        latency: record.latency.swap_remove(0),
        series: record.series,
        verify,
        stonewall,
        stat_size,
        page_cache,
        interrupted: stop == Some(Stop::Interrupted),
        queue,
        requests,
        in_effect,
    })
}

/// IOR removes the old file before writing (unless `-E`): rank 0 for a shared file, each rank
/// its own otherwise. The run checked before any I/O that whatever is at these names is a
/// regular file, so this removes only test files the command line names.
fn prepare_write_target(ctx: &Ctx, path: &std::path::Path, pretend: u64) -> Result<(), IorError> {
    let p = ctx.params;
    if let Some(dir) = naming::unique_dir(p, pretend) {
        match ctx.engine.mkdir(ctx.engine.target(&dir)) {
            Ok(()) => {
                ctx.made.dir(dir.clone());
                ctx.created_dirs.borrow_mut().push(dir);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(IorError::io("mkdir", &dir, None, e)),
        }
    }
    let owner = p.file_per_proc || ctx.comm.rank() == 0;
    if !p.use_existing_test_file && owner && ctx.engine.caps().does_io {
        match ctx.engine.remove(ctx.engine.target(path)) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(IorError::io("remove", path, None, e)),
        }
    }
    Ok(())
}

/// Every rank sends its report; rank 0 gets the phase outcome, the others `None`. The times
/// travel as the seconds each rank took them in.
pub(crate) fn reduce(
    ctx: &Ctx,
    access: Access,
    plan: &PhasePlan,
    mine: RankPhase,
) -> Result<Option<PhaseOutcome>, IorError> {
    let t = &mine.times;
    let epoch = mine.series.epoch_ns();
    let mut counts = vec![
        t.bytes,
        t.ops,
        mine.stat_size,
        mine.queue.map_or(0, |q| q.depth),
        mine.queue.map_or(0, |q| q.area),
    ];
    counts.extend(requests::counts(mine.requests.as_ref()));
    let ttfb = requests::ttfb(mine.requests.as_ref());
    let report = RankFigures {
        seconds: vec![
            t.open_start,
            t.open_stop,
            t.xfer_start,
            t.xfer_stop,
            t.close_start,
            t.close_stop,
        ],
        // A queued rank's depth and its requests in flight over time (0 and 0 otherwise),
        // then an object engine's requests (zeros otherwise).
        counts,
        verify: Verify::of(mine.verify),
        latency: vec![mine.latency, ttfb],
        series: Some(mine.series),
        ..RankFigures::default()
    };
    let Some(all) = reduce::gather(Some(ctx.events.session), ctx.comm, &report)? else {
        return Ok(None);
    };
    let p = ctx.params;
    let tasks = all.len() as u64;
    let mut ranks = Vec::with_capacity(all.len());
    let mut latency = [LatencyHistogram::new(), LatencyHistogram::new()];
    let mut sent = [0u64; requests::COUNTS];
    let mut series = IntervalSeries::new(ctx.interval_ns, epoch);
    let mut verify = VerifyOutcome::default();
    let (mut size_sum, mut size_min, mut size_max) = (0u64, u64::MAX, 0u64);
    let (mut depth, mut area) = (0u64, 0u64);
    for r in all.reports() {
        let (rank, r) = r?;
        let [open_start, open_stop, xfer_start, xfer_stop, close_start, close_stop] =
            r.seconds_n()?;
        let [bytes, ops, stat_size, rank_depth, rank_area, rest @ ..]: [u64; 5 + requests::COUNTS] =
            r.counts_n()?;
        for (sum, n) in sent.iter_mut().zip(rest) {
            *sum += n;
        }
        depth = depth.max(rank_depth);
        area = area.saturating_add(rank_area);
        r.merge_latency(&mut latency)?;
        series.merge(r.series()?);
        r.verify.add_to(rank, &mut verify);
        size_sum += stat_size;
        size_min = size_min.min(stat_size);
        size_max = size_max.max(stat_size);
        ranks.push(RankTimes {
            open_start,
            open_stop,
            xfer_start,
            xfer_stop,
            close_start,
            close_stop,
            bytes,
            ops,
        });
    }
    let [latency, ttfb] = latency;
    let object = ctx.engine.caps().object.is_some();
    let requests = object.then(|| requests::figures(&sent, ttfb));
    let min = |f: fn(&RankTimes) -> f64| ranks.iter().map(f).fold(f64::INFINITY, f64::min);
    let max = |f: fn(&RankTimes) -> f64| ranks.iter().map(f).fold(f64::NEG_INFINITY, f64::max);
    let mut warnings = Vec::new();
    let stat_size = if p.file_per_proc {
        size_sum
    } else {
        if size_min != size_max {
            warnings.push("inconsistent file size by different tasks".to_string());
        }
        size_min
    };
    let xfer_s = max(|r| r.xfer_stop) - min(|r| r.xfer_start);
    let queue = (depth > 0).then(|| results::QueueFigures {
        depth,
        in_flight_mean: if xfer_s > 0.0 {
            area as f64 / 1e9 / xfer_s
        } else {
            0.0
        },
    });
    let outcome = PhaseOutcome {
        access,
        iteration: plan.iteration,
        transfer_size: p.transfer_size,
        block_size: p.block_size,
        bytes: ranks.iter().map(|r| r.bytes).sum(),
        ops: ranks.iter().map(|r| r.ops).sum(),
        open_s: max(|r| r.open_stop) - min(|r| r.open_start),
        xfer_s: max(|r| r.xfer_stop) - min(|r| r.xfer_start),
        close_s: max(|r| r.close_stop) - min(|r| r.close_start),
        total_s: max(|r| r.close_stop) - min(|r| r.open_start),
        ranks,
        latency,
        series,
        stonewall: mine.stonewall,
        verification: plan.verify.then_some(verify),
        expected_size: p.expected_aggregate_size(tasks),
        stat_size,
        size_checked: !ctx.engine.caps().container,
        warnings,
        queue,
        requests,
        // Rank 0's own, as IOR shows them.
        mpi_hints: mine.in_effect,
    };
    Ok(Some(outcome))
}
