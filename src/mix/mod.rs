//! `iogauge mix`: parse the command line and the mix file, check everything before any I/O,
//! run the ranks, and feed rank 0's results to the terminal report and the result document.

pub mod cli;
pub mod mixfile;
pub mod output;

use std::path::PathBuf;

use plan::mix::MixParams;
use results::{MixParameters, MixResolved, Parameters, RunResult};
use workload::mix::validate::{preflight, validate};
use workload::session::Session;

use crate::world::{Global, RankSetup};
use cli::MixCommand;
use output::{plan_lines, MixReport};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Bad input: message and status 2, agreed with the other MPI ranks (`world::bad_input`).
fn usage(message: impl std::fmt::Display) -> u8 {
    crate::world::bad_input(format!("iogauge mix: {message}"))
}

pub fn main(args: &[String], global: &Global) -> u8 {
    let (cmd, setup) = match crate::optparse::start::<MixCommand>(args, global) {
        Ok(started) => started,
        Err(code) => return code,
    };
    let p = &cmd.params;
    let ranks = setup.ranks();
    let warnings = match validate(p, ranks) {
        Ok(w) => w,
        Err(e) => return usage(e),
    };
    if let Err(e) = engine::lookup(&p.engine.api).and_then(|i| i.for_metadata()) {
        return usage(e);
    }
    if let Err(e) = workload::target::check_tree_root(
        "--dir",
        &p.dir,
        global.allow_root_target,
        &*engine::for_target(&p.engine),
    ) {
        return usage(e);
    }
    let made_dir = match preflight(&p.dir, ranks, &*engine::for_target(&p.engine)) {
        Ok(m) => m,
        Err(e) => return usage(e),
    };
    let json = [("--json", cmd.launch.json.as_deref())];
    if let Err(e) = crate::outputs::check_dirs_exist(&json) {
        return usage(e);
    }
    if cmd.dry_run {
        if crate::world::is_root() {
            for l in plan_lines(p, ranks) {
                println!("{l}");
            }
            for w in &warnings {
                println!("WARNING: {w}");
            }
            println!("dry run: nothing was created");
        }
        return crate::world::exit_early(0);
    }
    if let Err(code) = crate::world::proceed(global) {
        return code;
    }
    run(&cmd, &setup, made_dir, warnings, global)
}

/// The document of a run before it starts: the plan and what it resolved to.
pub fn document(p: &MixParams, setup: &RankSetup) -> RunResult {
    let ranks = setup.ranks() as u64;
    let resolved = MixResolved {
        rates: p.ramp.rates(),
        files: p.mix.tree.files() * ranks,
        max_seconds: p.max_seconds(),
    };
    let params = Parameters::Mix(MixParameters {
        plan: p.clone(),
        resolved,
    });
    let mut doc = RunResult::new(params, std::env::args().collect(), VERSION);
    doc.environment = results::capture(Some((
        &*engine::for_target(&p.engine),
        &crate::outputs::existing_dir_or_parent(&p.dir),
    )));
    doc.ranks = setup.result_ranks();
    doc
}

fn run(
    cmd: &MixCommand,
    setup: &RankSetup,
    made_dir: bool,
    warnings: Vec<String>,
    global: &Global,
) -> u8 {
    let p = &cmd.params;
    let mut doc = document(p, setup);
    doc.warnings = warnings;
    let json: Vec<PathBuf> = cmd.launch.json.iter().cloned().collect();
    let own: Box<dyn results::Sink> = Box::new(MixReport {
        out: Box::new(std::io::stdout()),
        params: p.clone(),
        ranks: setup.ranks(),
    });
    let fanout = crate::sinks::choose(vec![own], json, global);
    let ranks = setup.into_ranks();
    // SIGINT/SIGTERM from here: the ranks stop and remove their trees (docs/safety.md).
    exec::interrupt::install();
    let done = workload::mix::run(
        p,
        made_dir,
        &ranks,
        &Session::new(doc, fanout, ranks.local()),
    );
    if let Some(msg) = &done.failure {
        eprintln!("iogauge: {msg}");
    }
    if let Some(line) = done.interrupted_line() {
        eprintln!("{line}");
    }
    done.exit_code()
}
