//! The phases of a mix run: the prepare, the steps of the ramp while each stays within the
//! latency limit (rank 0 judges, every rank hears), then the cleanup, also after a signal
//! (the ranks agree after each phase; the cut one is marked interrupted, the steps left are
//! skipped). After an I/O error on any rank the ranks agree at the phase's end, skip the
//! phases left and remove the run's tree unreported (`cleanup::after_failure`); the run ends
//! with "rank N: <error>" and status 1.

use engine::OpenHints;
use engine::Target;
use exec::{CommError, Ranks};
use plan::mix::{show_ns, MixParams};
use results::mix::summaries;

use super::cleanup::{after_failure, cleanup};
use super::ctx::Ctx;
use super::error::MixError;
use super::events::Events;
use super::ops::Buffers;
use super::prepare::prepare;
use super::step::step;
use super::tree::RankTree;
use super::PhaseOutcome;
use crate::session::{Collected, Finished, Session};
use crate::skeleton::{self, Engines, RankError, RunTotals};

/// Runs the plan on `ranks`, reporting through `session` from start to end (also when a rank
/// fails: the phases that finished stay in the document). `made_dir`: the checks before the
/// run found no `--dir`, so rank 0 makes it and the cleanup removes it.
pub fn run(
    params: &MixParams,
    made_dir: bool,
    ranks: &Ranks,
    session: &Session,
) -> Finished<PhaseOutcome> {
    let phases = Collected::new();
    let events = Events {
        session,
        phases: &phases,
        limit: params.latency_limit,
    };
    let engines = Engines::Plan(&params.engine, MixError::Engine);
    let ended = skeleton::run(session, ranks, engines, |r| {
        let ctx = Ctx {
            params,
            comm: r.comm,
            engine: r.engine,
            events: &events,
            slot: r.slot,
            stopped: std::cell::Cell::new(None),
            failed: std::cell::RefCell::new(None),
            failing: std::cell::Cell::new(false),
        };
        run_rank(&ctx, made_dir)
    });
    if let Some(f) = &ended.failure {
        events.stopped(format!("a rank failed: {f}"));
    }
    let phases = phases.into_inner();
    let summary = summaries(&phases);
    ended.finish(session, phases, summary)
}

impl RankError for MixError {
    fn is_peer(&self) -> bool {
        matches!(self, MixError::Comm(CommError::PeerFailed { .. }))
    }
}

fn run_rank(ctx: &Ctx, made_dir: bool) -> Result<RunTotals, MixError> {
    let p = ctx.params;
    let is_root = ctx.rank() == 0;
    if is_root && made_dir {
        let made = ctx.engine.mkdir(Target::from(&p.dir));
        ctx.absorb(made.map_err(|e| MixError::io("mkdir", &p.dir, e)))?;
    }
    let mut tree = RankTree::new(&p.dir, ctx.rank(), &p.mix.tree);
    prepare(ctx, &mut tree)?;
    let shape = p.mix.tree;
    let mut buffers = Buffers {
        file: vec![0x5a; shape.file_size as usize],
        io: vec![0xa5; shape.io_size as usize],
        hints: OpenHints {
            file_size: shape.file_size.max(shape.io_size),
            rank: ctx.comm.rank(),
            layout: None,
        },
    };
    let rates = if ctx.stopped.get().is_some() || ctx.failing.get() {
        Vec::new()
    } else {
        p.ramp.rates()
    };
    let mut why = "the ramp reached its maximum with every step within the limit".to_string();
    for (i, &rate) in rates.iter().enumerate() {
        let verdict = step(ctx, &mut tree, &mut buffers, i as u32 + 1, rate)?;
        if ctx.failing.get() {
            break;
        }
        if let Some(sig) = ctx.stopped.get() {
            why = format!(
                "interrupted by {} during the step at {rate} ops/s",
                exec::interrupt::signal_name(sig)
            );
            break;
        }
        let over = verdict.is_some_and(|v| !v.within);
        if over {
            why = format!(
                "the step at {rate} ops/s exceeded the limit ({} {} > {})",
                p.latency_limit.statistic_name(),
                show_ns(verdict.map_or(0.0, |v| v.value_ns)),
                show_ns(p.latency_limit.limit_ns as f64)
            );
        }
        // Rank 0 judged; every rank follows its word.
        if ctx.comm.broadcast_u64(u64::from(over), 0)? == 1 {
            break;
        }
    }
    if let Some(sig) = ctx.stopped.get().filter(|_| rates.is_empty()) {
        why = format!(
            "interrupted by {} during the prepare",
            exec::interrupt::signal_name(sig)
        );
    }
    if is_root && !ctx.failing.get() {
        ctx.events.stopped(why);
    }
    // The cleanup's closing barrier: every rank's tree is gone before rank 0 removes DIR.
    if !ctx.failing.get() {
        cleanup(ctx, &mut tree)?;
    }
    let mut failure = None;
    if ctx.failing.get() {
        let notes = after_failure(ctx, &mut tree)?;
        ctx.comm.barrier()?;
        for n in notes {
            ctx.events.warning(&n);
        }
        let mine = ctx.failed.borrow().as_ref().map(|e| e.to_string());
        failure = Some(crate::stop::first_failure(
            ctx.comm,
            &mine.unwrap_or_default(),
        )?);
    }
    if is_root && made_dir {
        if let Err(e) = ctx.engine.rmdir(Target::from(&p.dir)) {
            // NotFound: the mkdir of DIR itself failed.
            if e.kind() != std::io::ErrorKind::NotFound {
                ctx.events.warning(&format!(
                    "Unable to remove directory {}: {} (something else is in it)",
                    p.dir.display(),
                    engine::errno::describe(&e)
                ));
            }
        }
    }
    // A mix checks no data.
    Ok(RunTotals {
        errors: 0,
        interrupted: ctx.stopped.get(),
        failure,
    })
}
