//! The repetition loop of an IOR run (IOR's `TestIoSys`): write, write check, read, remove,
//! once per repetition, with the data signature, stonewall counts and reordering of IOR.

use exec::{CommError, Ranks, ReduceOp};
use measure::now_ns;
use results::ior::summaries;
use results::{Alert, AlertId};

use crate::ior::cleanup::{self, removes, Made};
use crate::ior::ctx::Ctx;
use crate::ior::error::IorError;
use crate::ior::events::{Events, PhaseFacts};
use crate::ior::outcome::{Access, CheckOutcome, PhaseOutcome};
use crate::ior::phase::{reduce, run_phase, Mode, PhasePlan};
use crate::ior::reorder::{self, Pass, ReorderSpec};
use crate::ior::IorParams;
use crate::session::{Collected, Finished, Session};
use crate::skeleton::{self, Engines, RankError, RunTotals};
use crate::stop;

fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// Runs an IOR plan on `ranks`, reporting through `session` from start to end (also when a
/// rank fails: the phases that finished stay in the document, and the test files of the
/// repetition go unless the plan keeps them). The plan was validated and the file system
/// checked before.
pub fn run(p: &IorParams, ranks: &Ranks, session: &Session) -> Finished<PhaseOutcome> {
    let phases = Collected::new();
    let events = Events {
        session,
        phases: &phases,
    };
    let made = Made::default();
    let engines = Engines::Plan(&p.engine, IorError::Engine);
    let ended = skeleton::run(session, ranks, engines, |r| {
        run_rank(&Ctx::new(p, r.comm, r.engine, &events, r.slot, &made))
    });
    if ended.failure.is_some() {
        if let Some(w) = cleanup::after_failure(p, ranks, &made) {
            session.hub().warning(&w);
        }
    }
    let phases = phases.into_inner();
    let summary = summaries(&phases);
    ended.finish(session, phases, summary)
}

impl RankError for IorError {
    fn is_peer(&self) -> bool {
        matches!(self, IorError::Comm(CommError::PeerFailed { .. }))
    }
}

/// The benchmark on this rank; rank 0 reports as results arrive.
fn run_rank(ctx: &Ctx) -> Result<RunTotals, IorError> {
    let p = ctx.params;
    let comm = ctx.comm;
    let is_root = comm.rank() == 0;
    let run_start = now_ns();
    let time_up = || {
        p.max_time_duration_min > 0.0
            && now_ns() - run_start >= (p.max_time_duration_min * 60e9) as u64
    };
    let verify_possible = ctx.engine.caps().does_io;
    let spec = ReorderSpec {
        constant: p.reorder_tasks,
        random: p.reorder_tasks_random,
        task_per_node_offset: p.task_per_node_offset,
        seed: p.reorder_tasks_random_seed,
    };
    if is_root {
        run_warnings(ctx, &spec, verify_possible);
    }

    let mut buf = ctx.engine.alloc_buffer(p.transfer_size as usize);
    let mut errors = 0;
    // A signal before the first phase stops the run before any I/O of it.
    let mut stopped = stop::agreed(comm)?;
    for rep in 0..p.repetitions {
        if stopped.is_some() {
            break;
        }
        ctx.made.repetition(rep);
        // IOR: -G, or rank 0's clock as an unsigned int, new every repetition.
        let seed = match p.time_stamp_signature {
            Some(g) => g,
            None => comm.broadcast_u64(unix_seconds() as u32 as u64, 0)? as i64,
        };
        let offset_seed = match (p.random_offset, p.random_offset_seed) {
            (0, _) => 0,
            (_, Some(s)) => s as u64,
            (_, None) => comm.broadcast_u64(unix_seconds(), 0)?,
        };
        if is_root {
            ctx.events.repetition(rep, seed);
        }
        let plan = |mode, rank_offset, verify, pair_limit| PhasePlan {
            mode,
            iteration: rep,
            seed,
            rank_offset,
            verify: verify && verify_possible,
            pair_limit,
            offset_seed,
        };
        let mut rep_errors = 0;
        let mut wrote = false;
        let mut read = false;
        let mut write_pairs = None;

        if p.write_file && !time_up() {
            ctx.made.writing();
            let plan = plan(Mode::Write, 0, false, p.stonewall_wear_out_iterations);
            let mut mine = run_phase(ctx, &plan, &mut buf)?;
            let cache = mine.page_cache.take();
            wrote = true;
            let (cut, sig) = stop::after_phase(comm, mine.interrupted)?;
            stopped = sig;
            if p.deadline_for_stonewalling_s > 0.0 {
                // Later reads stop after the same count (IOR's pairs_accessed).
                let pairs = mine.stonewall.map_or(mine.times.ops, |s| s.pairs_max);
                write_pairs = Some(pairs);
                if rep == 0 && p.stonewall_wear_out && !cut {
                    store_status(ctx, pairs)?;
                }
            }
            if let Some(o) = reduce(ctx, Access::Write, &plan, mine)? {
                // Whether the window included the flush, where there is a page cache to flush.
                let caps = ctx.engine.caps();
                let flushed =
                    (caps.page_cache && caps.does_io).then_some(p.fsync || p.fsync_per_write);
                let facts = PhaseFacts {
                    page_cache: cache,
                    flushed,
                    interrupted: cut,
                };
                ctx.events.phase(o, facts);
            }
        }

        if p.check_write && stopped.is_none() && !time_up() {
            comm.barrier()?;
            let off = reorder::rank_offset(
                &spec,
                Pass::WriteCheck,
                comm.rank() as u64,
                comm.node_map(),
                rep,
            );
            let plan = plan(
                Mode::Check,
                off,
                true,
                write_pairs.unwrap_or(p.stonewall_wear_out_iterations),
            );
            let mine = run_phase(ctx, &plan, &mut buf)?;
            let (_, sig) = stop::after_phase(comm, mine.interrupted)?;
            stopped = sig;
            rep_errors += comm.all_reduce_u64(mine.verify.errors, ReduceOp::Sum)?;
            if let Some(o) = reduce(ctx, Access::Read, &plan, mine)? {
                let c = CheckOutcome {
                    iteration: rep,
                    verification: o.verification.unwrap_or_default(),
                };
                ctx.events.check(&c);
            }
        }

        if (p.read_file || p.check_read) && stopped.is_none() && !time_up() {
            let pair_limit = match write_pairs {
                Some(n) => n,
                None => read_status(ctx)?,
            };
            let off =
                reorder::rank_offset(&spec, Pass::Read, comm.rank() as u64, comm.node_map(), rep);
            let plan = plan(Mode::Read, off, p.check_read, pair_limit);
            let mut mine = run_phase(ctx, &plan, &mut buf)?;
            let cache = mine.page_cache.take();
            read = true;
            let (cut, sig) = stop::after_phase(comm, mine.interrupted)?;
            stopped = sig;
            rep_errors += comm.all_reduce_u64(mine.verify.errors, ReduceOp::Sum)?;
            // The measured residency (`read-cached`) says what the page cache held.
            if let Some(o) = reduce(ctx, Access::Read, &plan, mine)? {
                let facts = PhaseFacts {
                    page_cache: cache,
                    flushed: None,
                    interrupted: cut,
                };
                ctx.events.phase(o, facts);
            }
        }

        errors += rep_errors;
        // As IOR: without -k the test files go after the repetition, also after a read of
        // files an earlier run wrote (preflight made sure they are regular files), and also
        // when a signal stopped the run. -E never deletes: the files were there before.
        if (wrote || read) && removes(p, rep_errors) {
            let start = now_ns();
            comm.barrier()?;
            remove_test_files(ctx, rep)?;
            comm.barrier()?;
            if is_root {
                ctx.events.remove(rep, (now_ns() - start) as f64 / 1e9);
            }
        } else {
            comm.barrier()?;
        }
        ctx.made.repetition_done();
    }
    // A rank's I/O error ends an IOR run at once (`failure` stays none).
    Ok(RunTotals {
        errors,
        interrupted: stopped,
        failure: None,
    })
}

fn run_warnings(ctx: &Ctx, spec: &ReorderSpec, verify_possible: bool) {
    let p = ctx.params;
    let map = ctx.comm.node_map();
    if (p.read_file || p.check_read)
        && p.reorder_tasks
        && reorder::is_identity(spec, Pass::Read, map, 0)
    {
        let text = format!(
            "-C has no effect: with {} task(s) on {} node(s) every task reads the data it wrote itself \
             (use more nodes, or --fake-nodes to exercise the reordering)",
            map.ranks(),
            map.num_nodes()
        );
        ctx.events.alert(
            Alert::new(AlertId::ReadSameNode, text)
                .with("tasks", map.ranks())
                .with("nodes", map.num_nodes()),
        );
    }
    if !verify_possible && (p.check_read || p.check_write) {
        ctx.events.warning(&format!(
            "the {} engine moves no data: -W/-R checks are skipped",
            p.engine.api
        ));
    }
}

/// Rank 0 writes the stonewall pair count as a bare decimal (IOR's status file format).
fn store_status(ctx: &Ctx, pairs: u64) -> Result<(), IorError> {
    if let (Some(path), 0) = (&ctx.params.stonewall_status_file, ctx.comm.rank()) {
        std::fs::write(path, pairs.to_string())
            .map_err(|e| IorError::io("write stonewall status file", path, None, e))?;
    }
    Ok(())
}

/// The pair count a read must stop at: from the status file (rank 0 reads, all agree), or the
/// manual `stoneWallingWearOutIterations`, or 0 (everything).
fn read_status(ctx: &Ctx) -> Result<u64, IorError> {
    let p = ctx.params;
    let Some(path) = &p.stonewall_status_file else {
        return Ok(p.stonewall_wear_out_iterations);
    };
    const UNREADABLE: u64 = u64::MAX;
    let mine = if ctx.comm.rank() == 0 {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|s| s.trim().parse::<u64>().ok())
            .unwrap_or(UNREADABLE)
    } else {
        0
    };
    let pairs = ctx.comm.broadcast_u64(mine, 0)?;
    if pairs == UNREADABLE {
        if ctx.comm.rank() == 0 {
            ctx.events.warning(&format!(
                "could not read back the stonewall status from {}: reading everything",
                path.display()
            ));
        }
        return Ok(0);
    }
    Ok(pairs)
}

/// Removes the test files of repetition `rep`: this rank's own file (file per process) or the
/// shared file (rank 0), then any `-u` directory it created, if empty.
fn remove_test_files(ctx: &Ctx, rep: u32) -> Result<(), IorError> {
    if !ctx.engine.caps().does_io {
        return Ok(());
    }
    cleanup::remove_own_file(ctx.params, ctx.engine, ctx.comm.rank() as u64, rep)?;
    for dir in ctx.created_dirs.borrow_mut().drain(..) {
        // Only if empty: another file (e.g. a kept one) means it is not ours to delete.
        let _ = ctx.engine.rmdir(ctx.engine.target(&dir));
    }
    Ok(())
}
