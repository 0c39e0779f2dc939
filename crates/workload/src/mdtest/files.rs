//! mdtest's `file_test`: create (with `-w` data, `-y` fsync and the `-W` stonewall), stat,
//! read (`-e` bytes, `-X` check), remove.

use std::path::Path;

use engine::cache::Strided;
use exec::ReduceOp;
use measure::{now_ns, Recorder};

use super::ctx::{Ctx, Seeds};
use super::error::MdError;
use super::items::{no_bytes, run_items, timed_pass, Order, Sweep};
use super::naming::{name_rank, Kind, Step};
use results::Operation;

use super::outcome::{ErrorAt, StonewallOutcome, VerifyOutcome};
use super::phase::{close, open, open_with, work, Extra};
use crate::cache::{drops_files, ReadSet};
use crate::ior::data::{Checker, DataPattern};

/// The file phases of one iteration; returns this rank's data errors.
pub(crate) fn file_phases(ctx: &Ctx, iteration: u32, seeds: &Seeds) -> Result<u64, MdError> {
    let p = ctx.params;
    let e = ctx.engine;
    let full = ctx.items_per_rank();
    let dirs = ctx.shape.creation_dirs();
    let creation = Order::Creation(&dirs);
    // Items the later phases use: the status file's count, or what the create agreed on.
    let mut limit = ctx.status_items.map_or(full, |n| n.min(full));
    if p.phases.create {
        // Stopped before this iteration's create: it made no files, so the clean-up has none
        // of its names to try (a plan without a create removes an earlier run's files).
        limit = if ctx.cleaning() {
            0
        } else {
            create(ctx, iteration, seeds, creation, full)?
        };
    }
    let sweep = |step, order, count| Sweep::new(iteration, Kind::File, step, order, count);
    if p.phases.stat && !ctx.cleaning() {
        let order = Order::Numbered {
            shuffle: seeds.random,
        };
        let s = sweep(Step::Stat, order, limit);
        timed_pass(ctx, Operation::FileStat, &s, false, |path, _| {
            no_bytes("stat", path, e.stat(e.target(path)))
        })?;
    }
    let mut errors = 0;
    if p.phases.read && !ctx.cleaning() {
        errors = read(ctx, iteration, seeds, limit)?;
    }
    if p.phases.remove {
        let s = sweep(Step::Remove, creation, limit);
        // A signal that cuts the remove phase itself: the clean-up pass that follows (untimed,
        // missing names skipped) removes the rest.
        let passes = if ctx.cleaning() { 1 } else { 2 };
        for _ in 0..passes {
            timed_pass(ctx, Operation::FileRemove, &s, false, |path, _| {
                no_bytes("remove", path, e.remove(e.target(path)))
            })?;
            if !ctx.cleaning() {
                break;
            }
        }
    }
    Ok(errors)
}

/// The create phase; returns the items per rank the later phases use.
fn create(
    ctx: &Ctx,
    iteration: u32,
    seeds: &Seeds,
    order: Order,
    full: u64,
) -> Result<u64, MdError> {
    let p = ctx.params;
    let e = ctx.engine;
    let w = p.write_bytes;
    // The buffer is filled once; each file gets its item number stamped (mdtest's
    // update_write_memory_pattern), so the check can tell files apart.
    let pattern = DataPattern::new(p.data_packet, seeds.data, ctx.rank());
    let mut data = vec![0u8; w as usize];
    pattern.fill(&mut data);
    let synced = p.sync_file && w > 0;
    let mut make = |path: &Path, k: u64| {
        if w > 0 {
            pattern.stamp(&mut data, k);
        }
        let made = if synced {
            e.create_file_synced(e.target(path), &data)
        } else {
            e.create_file(e.target(path), &data)
        };
        made.map_err(|err| MdError::io("create", path, err))
            .map(|_| w)
    };

    let mut expect = work(ctx, full);
    expect.deadline_s = (p.stonewall_s > 0.0).then_some(p.stonewall_s);
    let mut o = open(ctx, Operation::FileCreate, iteration, p.unique_dir, expect)?;
    let deadline =
        (p.stonewall_s > 0.0).then(|| o.start.saturating_add((p.stonewall_s * 1e9) as u64));
    let mut sweep = Sweep::new(iteration, Kind::File, Step::Create, order, full);
    sweep.deadline = deadline;
    let done = run_items(ctx, &sweep, &mut o.rec, &mut make)?;
    let mut reached = done;
    let mut extra = Extra::default();
    let mut limit = full;
    if p.stonewall_s > 0.0 {
        let comm = ctx.comm;
        let max = comm.all_reduce_u64(done, ReduceOp::Max)?;
        let time_s = (now_ns() - o.start) as f64 / 1e9;
        let min = comm.all_reduce_u64(done, ReduceOp::Min)?;
        let sum = comm.all_reduce_u64(done, ReduceOp::Sum)?;
        let tasks = ctx.tasks();
        let sw = StonewallOutcome {
            deadline_s: p.stonewall_s,
            time_s,
            items_min: min,
            items_max: max,
            items_sum: sum,
            tasks,
            // mdtest's test: the average differs from the planned count.
            hit: sum / tasks != full,
        };
        if sw.hit {
            if ctx.rank() == 0 {
                ctx.events.stonewall(&sw);
            }
            // Wear-out: everyone continues to the largest count, without a deadline.
            o.rec.restart(now_ns());
            let wear_out = Sweep {
                from: done,
                to: max,
                deadline: None,
                ..sweep
            };
            reached = run_items(ctx, &wear_out, &mut o.rec, &mut make)?;
        }
        limit = max;
        extra.stonewall = Some(sw);
    }
    close(ctx, Operation::FileCreate, iteration, o, extra)?;
    if ctx.cleaning() {
        limit = made_limit(ctx, reached, full)?;
    }
    // A create cut by a signal or a failure records how far the ranks got, as a stonewall
    // does: the remove run that follows with the same status file (the IO500's delete phase
    // after an interrupt) then tries those names, not the planned count.
    let written = p.stonewall_s > 0.0;
    if let (Some(path), 0, true) = (&p.status_file, ctx.rank(), written) {
        // A bare decimal, as mdtest's StoreStoneWallingIterations.
        std::fs::write(path, limit.to_string())
            .map_err(|err| MdError::io("write stonewall status file", path, err))?;
    }
    Ok(limit)
}

/// After a create cut by a signal or a rank's failure (every rank calls it): the positions
/// the clean-up tries, up to the furthest any rank reached plus the one a failure may have
/// left half made, not the planned count (a `-n 10000000` run cut early would otherwise try
/// ten million names per rank).
pub(crate) fn made_limit(ctx: &Ctx, reached: u64, full: u64) -> Result<u64, MdError> {
    let furthest = ctx.comm.all_reduce_u64(reached, ReduceOp::Max)?;
    Ok(furthest.saturating_add(1).min(full))
}

/// The read phase: open read-only, read `-e` bytes, close; with `-X` check them against the
/// pattern the writer (the rank two strides back) stamped with the item number.
fn read(ctx: &Ctx, iteration: u32, seeds: &Seeds, limit: u64) -> Result<u64, MdError> {
    let p = ctx.params;
    let e = ctx.engine;
    let len = p.read_bytes as usize;
    let mut buf = vec![0u8; len];
    let writer = name_rank(ctx.rank(), Step::Read, ctx.stride, ctx.tasks());
    // The expected bytes are those of a -w sized file: a shorter -e compares a prefix.
    let pattern_len = len.max(p.write_bytes as usize);
    let mut checker = (p.verify_read && e.caps().does_io).then(|| {
        Checker::new(
            DataPattern::new(p.data_packet, seeds.data, writer),
            pattern_len,
        )
    });
    let mut v = VerifyOutcome::default();
    let rank = ctx.rank();
    let first = |v: &mut VerifyOutcome, path: &Path, offset: u64| {
        v.errors += 1;
        if v.first_error.is_none() {
            v.first_error = Some(ErrorAt {
                rank,
                file: path.display().to_string(),
                offset,
            });
        }
    };
    let order = Order::Numbered {
        shuffle: seeds.random,
    };
    let sweep = Sweep::new(iteration, Kind::File, Step::Read, order, limit);
    let reads = read_set(ctx, &sweep)?;
    let expect = work(ctx, limit);
    let mut o = open_with(
        ctx,
        Operation::FileRead,
        iteration,
        false,
        expect,
        reads.as_ref(),
    )?;
    run_items(ctx, &sweep, &mut o.rec, |path, k| {
        let n = e
            .read_file(e.target(path), &mut buf)
            .map_err(|err| MdError::io("read", path, err))?;
        if n < len {
            // A short file is a data error (mdtest counts it as one too).
            first(&mut v, path, n as u64);
        } else if let Some(c) = &mut checker {
            v.checked += 1;
            if let Some(i) = c.check(&buf, k) {
                first(&mut v, path, i as u64);
            }
        }
        Ok(n as u64)
    })?;
    let errors = v.errors;
    let extra = Extra {
        verify: (len > 0).then_some(v),
        ..Extra::default()
    };
    close(ctx, Operation::FileRead, iteration, o, extra)?;
    Ok(errors)
}

/// Residency checks look at this many files per rank at the most.
const CHECKED_FILES: u64 = 1024;

/// The files the read sweep will read, for the page-cache check: a sample of them, or all
/// when `--drop-caches` drops file by file. `None` when the phase reads no bytes.
fn read_set(ctx: &Ctx, sweep: &Sweep) -> Result<Option<ReadSet>, MdError> {
    let len = ctx.params.read_bytes;
    if len == 0 {
        return Ok(None);
    }
    let count = sweep.to - sweep.from;
    let caps = ctx.engine.caps();
    let all = drops_files(ctx.events.session);
    let every = if all {
        1
    } else {
        count.div_ceil(CHECKED_FILES).max(1)
    };
    let mut files = Vec::new();
    if caps.page_cache && caps.does_io {
        // The same sweep, untimed and unpublished, to learn its paths.
        let mut rec = Recorder::new(1, ctx.interval_ns);
        // Every `every`-th path, from the first.
        let mut skip = 0u64;
        run_items(ctx, sweep, &mut rec, |path, _| {
            if skip == 0 {
                files.push((path.to_path_buf(), Strided::whole(0, len), true));
                skip = every;
            }
            skip -= 1;
            Ok(0)
        })?;
    }
    let check_every = if all {
        files.len().div_ceil(CHECKED_FILES as usize).max(1)
    } else {
        1
    };
    Ok(Some(ReadSet {
        files,
        bytes: count * len,
        check_every,
        complete: all || every == 1,
    }))
}
