//! The phases of an md-workbench run (`md_workbench_run`): precreate, the benchmark
//! iterations (each followed by the `-T` ones), then the cleanup, or the position stored in
//! the run-info file for a later run.

use exec::{CommError, Ranks, ReduceOp};
use results::mdworkbench::summaries;

use super::benchmark::{benchmark, Buffers, Iteration};
use super::cleanup::cleanup;
use super::ctx::Ctx;
use super::error::MdwbError;
use super::events::Events;
use super::failure;
use super::outcome::PhaseOutcome;
use super::precreate::precreate;
use super::status::{self, Position};
use crate::session::{Collected, Finished, Session};
use crate::skeleton::{self, Engines, RankError, RunTotals};
use plan::mdworkbench::MdWorkbenchParams;

/// A run as its checks prepared it: the plan (parameters) and where it starts (rank 0's preflight read
/// the run-info file; its value is used on every rank).
#[derive(Debug, Clone, Copy)]
pub struct Prepared<'a> {
    pub params: &'a MdWorkbenchParams,
    pub start: Position,
}

/// Runs a plan on `ranks`, reporting through `session` from start to end (also when a rank
/// fails: the phases that finished stay in the document).
pub fn run(prepared: Prepared<'_>, ranks: &Ranks, session: &Session) -> Finished<PhaseOutcome> {
    let phases = Collected::new();
    let events = Events {
        session,
        phases: &phases,
    };
    let engines = Engines::Plan(&prepared.params.engine, MdwbError::Engine);
    let ended = skeleton::run(session, ranks, engines, |r| {
        let comm = r.comm;
        // md-workbench's `time(NULL)` as a C int, broadcast from rank 0.
        let clock = (measure::wall_clock_ns() / 1_000_000_000) as i32 as i64;
        let seed = match prepared.params.seed {
            Some(g) => g,
            None => comm.broadcast_u64(clock as u64, 0)? as i64,
        };
        let ctx = Ctx {
            params: prepared.params,
            comm,
            engine: r.engine,
            seed,
            events: &events,
            slot: r.slot,
            stopped: std::cell::Cell::new(None),
            failed: std::cell::RefCell::new(None),
            failing: std::cell::Cell::new(false),
        };
        let start = Position {
            pos: comm.broadcast_u64(prepared.start.pos, 0)?,
            made_dir: prepared.start.made_dir,
        };
        run_rank(&ctx, start)
    });
    let phases = phases.into_inner();
    let summary = summaries(&phases);
    ended.finish(session, phases, summary)
}

impl RankError for MdwbError {
    fn is_peer(&self) -> bool {
        matches!(self, MdwbError::Comm(CommError::PeerFailed { .. }))
    }
}

/// The run on this rank.
fn run_rank(ctx: &Ctx, start: Position) -> Result<RunTotals, MdwbError> {
    let p = ctx.params;
    let is_root = ctx.rank() == 0;
    if is_root {
        ctx.events.begin(ctx.seed, start.pos);
        if p.verify_read && !ctx.engine.caps().does_io {
            ctx.events.warning(&format!(
                "the {} engine moves no data: -X checks are skipped",
                p.engine.api
            ));
        }
    }
    let mut pos = start;
    let mut errors = 0;
    if p.phases.precreate {
        if is_root && ctx.engine.stat(ctx.engine.target(&p.dir)).is_err() {
            let made = ctx.engine.mkdir(ctx.engine.target(&p.dir));
            pos.made_dir = ctx.absorb(made.map_err(|e| MdwbError::io("mkdir", &p.dir, e)))?;
        }
        precreate(ctx, pos.pos)?;
    }
    if p.phases.benchmark {
        let mut buffers = Buffers::new(ctx);
        let mut number = 0;
        'iterations: for _ in 0..p.iterations {
            for factor in p.waiting_factors() {
                if ctx.stopped.get().is_some() || ctx.failing.get() {
                    break 'iterations;
                }
                let it = Iteration {
                    number,
                    start: pos.pos,
                    factor,
                };
                let moved = benchmark(ctx, &it, &mut buffers)?;
                if !p.read_only {
                    pos.pos += moved;
                }
                number += 1;
            }
        }
        errors = read_errors(ctx)?;
    }
    if ctx.failing.get() {
        failure::clean(ctx, start.pos, pos)?;
    } else {
        finish(ctx, pos)?;
    }
    Ok(RunTotals {
        errors,
        interrupted: ctx.stopped.get(),
        failure: failure::first(ctx)?,
    })
}

/// The end of a run no rank failed in (before it): the cleanup phase, or the position stored
/// in the run-info file for a later run.
fn finish(ctx: &Ctx, pos: Position) -> Result<(), MdwbError> {
    let p = ctx.params;
    let is_root = ctx.rank() == 0;
    // After a signal the ranks moved their data sets unevenly: the clean-up covers every
    // index any rank may have made (missing objects are skipped).
    let (from, count) = match ctx.stopped.get() {
        Some(_) => {
            let from = ctx.comm.all_reduce_u64(pos.pos, ReduceOp::Min)?;
            let to = ctx.comm.all_reduce_u64(pos.pos, ReduceOp::Max)?;
            (from, to - from + p.precreate_per_set)
        }
        None => (pos.pos, p.precreate_per_set),
    };
    if p.phases.cleanup {
        cleanup(ctx, from, count, true)?;
        if is_root && pos.made_dir && !ctx.failing.get() {
            // Every rank's data sets are gone (the cleanup's closing barrier): -o is empty
            // unless something else is in it, which stays.
            if ctx.engine.rmdir(ctx.engine.target(&p.dir)).is_err() {
                ctx.events
                    .warning(&format!("Unable to remove directory {}", p.dir.display()));
            }
        }
    } else if is_root && ctx.stopped.get().is_some() {
        ctx.events.warning(
            "interrupted: the data sets stay as the signal left them; the run-info file is not \
             updated",
        );
    } else if is_root {
        status::write(&p.run_info_file, pos)
            .map_err(|e| MdwbError::io("write run-info file", &p.run_info_file, e))?;
    }
    Ok(())
}

/// Reads that failed their check or came back short, over all ranks and iterations (the
/// document's count, which rank 0 has; shared so every rank ends alike).
fn read_errors(ctx: &Ctx) -> Result<u64, MdwbError> {
    let mine = if ctx.rank() == 0 {
        ctx.events.session.hub().doc().verification_errors
    } else {
        0
    };
    Ok(ctx.comm.all_reduce_u64(mine, ReduceOp::Sum)?)
}
