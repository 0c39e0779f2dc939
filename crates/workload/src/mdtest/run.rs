//! The iteration loop of an mdtest run (`mdtest_iteration`): tree create, directory phases,
//! file phases, tree remove, with mdtest's barriers and its stonewall agreement.

use exec::{CommError, Ranks, ReduceOp};
use results::mdtest::summaries;
use results::Operation;

use super::ctx::{Ctx, Seeds};
use super::error::MdError;
use super::events::Events;
use super::failure;
use super::items::{no_bytes, timed_pass, Sweep};
use super::leftover::{self, Leftover, Tally};
use super::naming::{tree_base, Kind, PathBuilder, Step};
use super::outcome::PhaseOutcome;
use super::phase::{close, open, work, Extra};
use super::tree::Shape;
use super::{files, items};
use crate::mdtest::MdtestParams;
use crate::session::{Collected, Finished, Session};
use crate::skeleton::{self, Engines, RankError, RunTotals};

/// An mdtest run as its checks prepared it: the plan (parameters), the item layout `validate` resolved, and
/// the items per task a stonewall status file imposes on a run without a create phase (read by
/// `preflight`; rank 0's value is used on every rank).
#[derive(Debug, Clone, Copy)]
pub struct Prepared<'a> {
    pub params: &'a MdtestParams,
    pub shape: Shape,
    pub status_items: Option<u64>,
}

/// Runs an mdtest plan on `ranks`, reporting through `session` from start to end (also when a
/// rank fails: the phases that finished stay in the document).
pub fn run(prepared: Prepared<'_>, ranks: &Ranks, session: &Session) -> Finished<PhaseOutcome> {
    let phases = Collected::new();
    let events = Events {
        session,
        phases: &phases,
        write_bytes: prepared.params.write_bytes,
    };
    let engines = Engines::Plan(&prepared.params.engine, MdError::Engine);
    let ended = skeleton::run(session, ranks, engines, |r| {
        const NONE: u64 = u64::MAX;
        let status = r
            .comm
            .broadcast_u64(prepared.status_items.unwrap_or(NONE), 0)?;
        let status_items = (status != NONE).then_some(status);
        let ctx = Ctx::new(
            prepared.params,
            prepared.shape,
            r.comm,
            r.engine,
            status_items,
            &events,
            r.slot,
        );
        run_rank(&ctx)
    });
    let phases = phases.into_inner();
    let summary = summaries(&phases);
    ended.finish(session, phases, summary)
}

impl RankError for MdError {
    fn is_peer(&self) -> bool {
        matches!(self, MdError::Comm(CommError::PeerFailed { .. }))
    }
}

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The benchmark on this rank; rank 0 reports as results arrive.
fn run_rank(ctx: &Ctx) -> Result<RunTotals, MdError> {
    let p = ctx.params;
    let is_root = ctx.rank() == 0;
    let data = match p.seed {
        Some(g) => g,
        None => ctx
            .comm
            .broadcast_u64(unix_seconds() as i32 as i64 as u64, 0)? as i64,
    };
    let random = if p.random {
        let shared = match p.random_seed.filter(|&s| s != 0) {
            Some(s) => s,
            None => ctx.comm.broadcast_u64(unix_seconds(), 0)?,
        };
        Some(shared.wrapping_add(ctx.rank()))
    } else {
        None
    };
    if is_root {
        ctx.events.begin(data, random, ctx.status_items);
        if p.verify_read && !ctx.engine.caps().does_io {
            ctx.events.warning(&format!(
                "the {} engine moves no data: -X checks are skipped",
                p.engine.api
            ));
        }
    }
    let seeds = Seeds { data, random };
    let created_root = ctx.absorb(make_root(ctx))?.unwrap_or(false);
    let mut errors = 0;
    for iteration in 0..p.iterations {
        if ctx.cleaning() {
            break;
        }
        errors += iterate(ctx, &seeds, iteration)?;
    }
    if created_root && p.phases.remove {
        let root = p.dir_of(ctx.rank());
        let removed = ctx.engine.rmdir(ctx.engine.target(root));
        if ctx.cleaning() && removed.is_err() {
            // Not empty after a cut run: what is left stays, said once.
            ctx.events.warning(&format!(
                "could not remove the test directory {} the run made: it is not empty",
                root.display()
            ));
        } else {
            ctx.absorb(removed.map_err(|e| MdError::io("rmdir", root, e)))?;
        }
    }
    let errors = ctx.comm.all_reduce_u64(errors, ReduceOp::Sum)?;
    let failure = failure::first(ctx)?;
    Ok(RunTotals {
        errors,
        interrupted: ctx.stopped.get(),
        failure,
    })
}

/// mdtest creates the last component of `-d` when it is missing (the checks before the run
/// made sure the parent exists); returns whether this rank created it.
fn make_root(ctx: &Ctx) -> Result<bool, MdError> {
    if !ctx.owns_path() {
        return Ok(false);
    }
    let root = ctx.params.dir_of(ctx.rank());
    if ctx.engine.stat(ctx.engine.target(root)).is_ok() {
        return Ok(false);
    }
    ctx.engine
        .mkdir(ctx.engine.target(root))
        .map_err(|e| MdError::io("mkdir", root, e))?;
    Ok(true)
}

/// One iteration; returns this rank's data errors.
fn iterate(ctx: &Ctx, seeds: &Seeds, iteration: u32) -> Result<u64, MdError> {
    let p = ctx.params;
    if p.phases.create {
        // mdtest makes a test directory only where none is (an earlier run's is used as is).
        let mut existing = Tally::default();
        if ctx.owns_path() {
            for l in 0..ctx.shape.loops {
                let dir = ctx.test_dir(ctx.rank(), iteration, l);
                if ctx
                    .absorb(leftover::mkdir(ctx.engine, &dir, &mut existing))?
                    .is_none()
                {
                    break;
                }
            }
        }
        leftover::report(ctx, Leftover::TestDirExists, iteration, existing)?;
        ctx.comm.barrier()?;
        tree_phase(ctx, iteration, true)?;
    }
    // After a signal only the remove phases run (each phase below checks `cleaning`).
    if p.dirs_too {
        ctx.comm.barrier()?;
        dir_phases(ctx, iteration, seeds)?;
    }
    let mut errors = 0;
    if p.files {
        ctx.comm.barrier()?;
        errors = files::file_phases(ctx, iteration, seeds)?;
    }
    ctx.comm.barrier()?;
    if p.phases.remove {
        tree_phase(ctx, iteration, false)?;
        let mut kept = Tally::default();
        if ctx.owns_path() {
            for l in 0..ctx.shape.loops {
                let dir = ctx.test_dir(ctx.rank(), iteration, l);
                ctx.absorb(leftover::rmdir(ctx.engine, &dir, &mut kept))?;
            }
        }
        leftover::report(ctx, Leftover::TestDirKept, iteration, kept)?;
    }
    Ok(errors)
}

/// Tree create or remove between two barriers: rank 0 makes the shared tree, or every rank
/// its own with `-u`. The rate counts one tree (rank 0's), as mdtest.
fn tree_phase(ctx: &Ctx, iteration: u32, create: bool) -> Result<(), MdError> {
    let p = ctx.params;
    let order: Vec<u64> = if create {
        ctx.shape.tree.pre_order().collect()
    } else {
        ctx.shape.tree.post_order()
    };
    let op = if create {
        Operation::TreeCreate
    } else {
        Operation::TreeRemove
    };
    // Rank 0 handles the one tree, or every rank its own with -u.
    let trees = if p.unique_dir { ctx.tasks() } else { 1 };
    let mut expect = work(ctx, 0);
    expect.ops = Some(trees * ctx.shape.loops * order.len() as u64);
    let mut o = open(ctx, op, iteration, false, expect)?;
    let mut left = Tally::default();
    // A rank that failed before the phase makes nothing more; the clean-up removes.
    let works = !ctx.failed_here() || ctx.cleaning();
    if works && (p.unique_dir || ctx.rank() == 0) {
        let owner = if p.unique_dir { ctx.rank() } else { 0 };
        let base = tree_base(p.unique_dir, owner);
        'loops: for l in 0..ctx.shape.loops {
            let test_dir = ctx.test_dir(owner, iteration, l);
            let mut paths = PathBuilder::new(&test_dir, ctx.shape.tree, &base, "");
            for &d in &order {
                let dir = paths.dir(d);
                let done = if create {
                    leftover::mkdir(ctx.engine, dir, &mut left)
                } else {
                    leftover::rmdir(ctx.engine, dir, &mut left)
                };
                if ctx.absorb(done)?.is_none() {
                    if !ctx.cleaning() {
                        break 'loops;
                    }
                    continue;
                }
                o.rec.record(0, 0);
            }
        }
    }
    let mut extra = Extra::default();
    if p.unique_dir {
        extra.warnings.push(format!(
            "with -u each of the {} task(s) handled its own tree of {} directories; the rate \
             counts one tree, as mdtest does",
            ctx.tasks(),
            ctx.shape.num_dirs
        ));
    }
    close(ctx, op, iteration, o, extra)?;
    let kind = if create {
        Leftover::TreeDirExists
    } else {
        Leftover::TreeDirKept
    };
    leftover::report(ctx, kind, iteration, left)
}

/// mdtest's `directory_test`: create, stat, rename, remove (the directory "read" phase of
/// mdtest does nothing and is not printed, so it is left out).
fn dir_phases(ctx: &Ctx, iteration: u32, seeds: &Seeds) -> Result<(), MdError> {
    let p = ctx.params;
    let full = ctx.items_per_rank();
    let mut count = full;
    let dirs = ctx.shape.creation_dirs();
    let creation = items::Order::Creation(&dirs);
    let numbered = items::Order::Numbered {
        shuffle: seeds.random,
    };
    let e = ctx.engine;
    let sweep = |step, order, count| Sweep::new(iteration, Kind::Dir, step, order, count);
    if p.phases.create && ctx.cleaning() {
        // Stopped before this create: none of its directories exist.
        count = 0;
    } else if p.phases.create {
        let s = sweep(Step::Create, creation, count);
        let mut existing = Tally::default();
        let reached = timed_pass(ctx, Operation::DirCreate, &s, p.unique_dir, |path, _| {
            leftover::mkdir(e, path, &mut existing).map(|()| 0)
        })?;
        leftover::report(ctx, Leftover::DirExists, iteration, existing)?;
        if ctx.cleaning() {
            count = crate::mdtest::files::made_limit(ctx, reached, full)?;
        }
    }
    if p.phases.stat && !ctx.cleaning() {
        let s = sweep(Step::Stat, numbered, count);
        timed_pass(ctx, Operation::DirStat, &s, false, |path, _| {
            no_bytes("stat", path, e.stat(e.target(path)))
        })?;
    }
    if p.phases.rename && count > 1 && !ctx.cleaning() {
        let expect = work(ctx, count);
        let mut o = open(ctx, Operation::DirRename, iteration, false, expect)?;
        items::rename_rotation(ctx, iteration, count, &mut o.rec)?;
        close(ctx, Operation::DirRename, iteration, o, Extra::default())?;
    }
    if p.phases.remove {
        let s = sweep(Step::Remove, creation, count);
        let mut kept = Tally::default();
        // As for files: a cut remove phase is followed by the clean-up pass.
        let passes = if ctx.cleaning() { 1 } else { 2 };
        for _ in 0..passes {
            timed_pass(ctx, Operation::DirRemove, &s, false, |path, _| {
                leftover::rmdir(e, path, &mut kept).map(|()| 0)
            })?;
            if !ctx.cleaning() {
                break;
            }
        }
        leftover::report(ctx, Leftover::DirKept, iteration, kept)?;
    }
    Ok(())
}
