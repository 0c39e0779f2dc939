//! `iogauge find`: parse, check the paths and the reference before walking, walk on the
//! ranks with work stealing (`workload::find::run`), then print pfind's result lines (last:
//! `MATCHED <found>/<examined>`) and write the result document.

pub mod cli;
mod listing;
pub mod output;

use std::path::PathBuf;

use engine::PosixEngine;
use results::{FindParameters, Parameters, RunResult};
use workload::find::{self, Lister};
use workload::session::Session;

use crate::world::{Global, RankSetup};
use cli::FindCommand;
use listing::Listing;
use output::FindReport;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Bad input: message and status 2, agreed with the other MPI ranks (`world::bad_input`).
fn usage(message: impl std::fmt::Display) -> u8 {
    crate::world::bad_input(format!("iogauge {message}"))
}

pub fn main(args: &[String], global: &Global) -> u8 {
    let cmd = match cli::parse(args) {
        Ok(c) => c,
        Err(e) => return usage(e),
    };
    if cmd.help {
        print!("{}", cli::HELP);
        return crate::world::exit_early(0);
    }
    let setup = RankSetup {
        tasks: cmd.tasks,
        ..RankSetup::default()
    }
    .or(global.setup);
    if let Err(e) = setup.check() {
        return usage(format!("find: {e}"));
    }
    if let Err(e) = find::preflight::preflight(&cmd.params, &PosixEngine::new(false)) {
        return usage(e);
    }
    if let Err(e) = crate::outputs::check_dirs_exist(&[("--json", cmd.json.as_deref())]) {
        return usage(format!("find: {e}"));
    }
    if let Err(code) = crate::world::proceed(global) {
        return code;
    }
    run(&cmd, &setup, global)
}

/// The document of a find before it starts.
pub fn document(p: &find::FindParams, setup: &RankSetup) -> RunResult {
    let params = Parameters::Find(FindParameters {
        plan: p.clone(),
        newer_ctime: None,
    });
    let mut doc = RunResult::new(params, std::env::args().collect(), VERSION);
    doc.environment = results::capture(
        Some(&PosixEngine::new(false) as &dyn engine::Engine)
            .zip(p.paths.first().map(|p| p.as_path())),
    );
    doc.ranks = setup.result_ranks();
    doc
}

fn run(cmd: &FindCommand, setup: &RankSetup, global: &Global) -> u8 {
    let p = &cmd.params;
    let report = FindReport::new(Box::new(std::io::stdout()), p.per_rank, true);
    let json: Vec<PathBuf> = cmd.json.iter().cloned().collect();
    let fanout = crate::sinks::choose(vec![Box::new(report)], json, global);
    let ranks = setup.into_ranks();
    let session =
        Session::new(document(p, setup), fanout, ranks.local()).with_checks(crate::checks::get());
    let listing = Listing::new();
    let list: Option<&dyn Lister> = if p.count_only { None } else { Some(&listing) };
    // SIGINT/SIGTERM from here: every rank's walk stops (docs/safety.md).
    exec::interrupt::install();
    let done = find::run(p, &ranks, &session, list);
    if let Some(msg) = &done.failure {
        eprintln!("iogauge find: {msg}");
    }
    if let Some(line) = done.interrupted_line() {
        eprintln!("{line}");
    }
    done.exit_code()
}
