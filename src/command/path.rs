//! The command path, written once: parse → checks (ranks, global options, engine, the
//! workload's own) → `--dry-run` → outputs and store (`world::proceed`) → document → sinks →
//! interrupt handler → session → run → closing lines. Every stop before the run is bad input
//! (exit 2) agreed with the other MPI ranks (`world::bad_input`, `world::exit_early`).

use std::path::PathBuf;

use results::{Fanout, RunResult, Sink};
use workload::session::Session;

use super::{Context, Invocation, Workload};
use crate::world::{self, prefixed, Global, RankSetup};

/// Runs workload `W` with `args`, the words after its name; returns the exit status.
pub fn run<W: Workload>(args: &[String], global: &Global) -> u8 {
    let bad = |message: &str| world::bad_input(format!("iogauge {}", prefixed(W::NAME, message)));
    let cmd = match W::parse(args) {
        Ok(c) => c,
        Err(e) => return bad(&e),
    };
    let launch = cmd.launch();
    if launch.help {
        if world::is_root() {
            crate::out!("{}", W::help());
        }
        return world::exit_early(0);
    }
    let setup = RankSetup::of(&launch).or(global.setup);
    let early = setup
        .check()
        .and_then(|()| W::SUPPORTS.check(W::NAME, global))
        .and_then(|()| match cmd.engine() {
            Some(cfg) => engine::check_fault_rank(cfg, setup.ranks()),
            None => Ok(()),
        })
        .and_then(|()| {
            let json = [("--json", launch.json.as_deref())];
            crate::outputs::check_dirs_exist(&json)
        });
    if let Err(e) = early {
        return bad(&e);
    }
    let code = checked_run::<W>(&cmd, setup, args, global);
    // What the engine's checks made (the S3 engine's bucket) goes, whatever ended the run.
    if let Some(warning) = cmd.engine().and_then(engine::finish) {
        eprintln!("iogauge: {warning}");
    }
    code
}

/// The command path from the checks on (the engine's questions to its target among them).
fn checked_run<W: Workload>(
    cmd: &W::Command,
    setup: RankSetup,
    args: &[String],
    global: &Global,
) -> u8 {
    let bad = |message: &str| world::bad_input(format!("iogauge {}", prefixed(W::NAME, message)));
    let launch = cmd.launch();
    let engine = match cmd.engine() {
        Some(cfg) => engine::for_target(cfg),
        None => engine::for_target(&engine::EngineConfig::default()),
    };
    let ctx = Context {
        setup,
        engine,
        allow_root_target: global.allow_root_target,
        args,
    };
    let checked = match W::check(cmd, &ctx) {
        Ok(c) => c,
        Err(e) => return bad(&e),
    };
    if cmd.dry_run() {
        if !W::SUPPORTS.dry_run {
            return bad(&format!("--dry-run: {} has no dry run", W::NAME));
        }
        if world::is_root() {
            crate::out!("{}", W::dry_run(cmd, &checked, &ctx));
        }
        return world::exit_early(0);
    }
    let mut doc = W::document(cmd, &checked.prepared, &ctx);
    doc.warnings = checked.warnings;
    // Only the reporting process prints and writes results.
    let own = match world::is_root() {
        true => match W::sinks(cmd, &checked.prepared, &ctx, &doc) {
            Ok(s) => s,
            Err(e) => return bad(&e),
        },
        false => Vec::new(),
    };
    if let Err(code) = world::proceed(global) {
        return code;
    }
    if world::is_root() {
        W::announce(cmd, &checked.prepared);
    }
    let json: Vec<PathBuf> = launch.json.into_iter().collect();
    let fanout = crate::sinks::choose(own, json, global);
    let ranks = ctx.setup.into_ranks();
    // From here SIGINT/SIGTERM stop the ranks, which keep what they measured and remove
    // what they made (docs/safety.md).
    exec::interrupt::install();
    let session = new_session(doc, fanout, ranks.local());
    // `iogauge mark` reaches the run through its control socket while it runs.
    let done = crate::control::during(&session, || {
        W::run(cmd, &checked.prepared, &ranks, &session)
    });
    // The failure names the rank and the call (`docs/errors.md`).
    if let Some(msg) = &done.failure {
        eprintln!("iogauge: {msg}");
    }
    W::after(&done);
    if let Some(line) = done.interrupted_line() {
        eprintln!("{line}");
    }
    done.exit_code()
}

/// The session of a run (or of an IO500 phase on a rank that only takes part): `--warn`'s
/// thresholds and `--drop-caches` in force. The one place a session is made.
pub fn new_session(doc: RunResult, sinks: Fanout, local_ranks: usize) -> Session {
    Session::new(doc, sinks, local_ranks).with_policy(crate::policy::get())
}

/// The sinks of a run that is not a workload's own command (the IO500): the common ones
/// around `own`.
pub fn fanout(own: Vec<Box<dyn Sink>>, json: Vec<PathBuf>, global: &Global) -> Fanout {
    crate::sinks::choose(own, json, global)
}
