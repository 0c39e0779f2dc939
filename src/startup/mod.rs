//! `iogauge startup`: parse, check the paths before any I/O, then run the start-up on the
//! ranks (`workload::startup::run`) with the terminal report and the result document; or,
//! with `--dry-run`, show what would run.

pub mod cli;
pub mod output;
mod preflight;

use std::path::PathBuf;

use results::{Parameters, RunResult, StartupParameters, StartupResolved};
use workload::session::Session;
use workload::startup::{self, StartupParams};

use crate::world::{Global, RankSetup};
use cli::StartupCommand;
use output::StartupReport;

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
        return usage(format!("startup: {e}"));
    }
    if let Err(e) = preflight::preflight(&cmd.params, &engine::PosixEngine::new(false)) {
        return usage(e);
    }
    if let Some(dir) = &cmd.params.dir {
        if let Err(e) = workload::target::check_tree_root(
            "--dir",
            dir,
            global.allow_root_target,
            &engine::PosixEngine::new(false),
        ) {
            return usage(format!("startup: {e}"));
        }
    }
    if let Err(e) = crate::outputs::check_dirs_exist(&[("--json", cmd.json.as_deref())]) {
        return usage(format!("startup: {e}"));
    }
    if cmd.dry_run {
        if crate::world::is_root() {
            print!("{}", dry_run(&cmd.params, &setup));
        }
        return crate::world::exit_early(0);
    }
    if let Err(code) = crate::world::proceed(global) {
        return code;
    }
    run(&cmd, &setup, global)
}

/// The document of a start-up before it starts (rank 0 fills in what it lists).
pub fn document(p: &StartupParams, setup: &RankSetup) -> RunResult {
    let params = Parameters::Startup(StartupParameters {
        plan: p.clone(),
        resolved: StartupResolved::default(),
    });
    let mut doc = RunResult::new(params, std::env::args().collect(), VERSION);
    let at = p
        .dir
        .as_deref()
        .or(p.tree.as_deref())
        .or(p.common_file.as_deref());
    doc.environment =
        results::capture(Some(&engine::PosixEngine::new(false) as &dyn engine::Engine).zip(at));
    doc.ranks = setup.result_ranks();
    doc
}

/// What `--dry-run` shows: the ranks, what would be made and removed, and what read.
fn dry_run(p: &StartupParams, setup: &RankSetup) -> String {
    let ranks = setup.ranks() as u64;
    let nodes = setup.node_map().num_nodes() as u64;
    let readers = p.ranks_per_node.map_or(ranks, |n| ranks.min(n * nodes));
    let mut s = format!(
        "iogauge startup --dry-run: nothing is made or read.\n\
         ranks: {ranks} on {nodes} node(s), {readers} reading; stagger {} s; {} iteration(s)\n",
        p.stagger_s, p.iterations
    );
    if let Some(dir) = p.run_dir() {
        s += &format!(
            "would make {} and remove exactly what it makes{}\n",
            dir.display(),
            if p.keep { " (not: --keep)" } else { "" }
        );
    }
    if let Some(root) = p.tree_root() {
        if p.generates_tree() {
            let l = startup::shape::generate(p.files, p.seed);
            s += &format!(
                "tree:   {} (generated, seed {}): {} file(s) in {} director(ies), {:.2} MiB\n",
                root.display(),
                p.seed,
                l.files.len(),
                l.dirs.len() + 1,
                l.bytes() as f64 / 1_048_576.0
            );
        } else {
            s += &format!(
                "tree:   {} (existing, read only; listed when the run starts)\n",
                root.display()
            );
        }
    }
    if let Some(path) = p.common_path() {
        let size = if p.generates_common() {
            format!("{} bytes, generated", p.common_size)
        } else {
            "existing, read only".to_string()
        };
        s += &format!(
            "common: {} ({size}) in reads of {} bytes\n",
            path.display(),
            p.transfer_size
        );
    }
    s
}

fn run(cmd: &StartupCommand, setup: &RankSetup, global: &Global) -> u8 {
    let p = &cmd.params;
    let report = StartupReport::new(Box::new(std::io::stdout()), cmd.per_rank);
    let json: Vec<PathBuf> = cmd.json.iter().cloned().collect();
    let fanout = crate::sinks::choose(vec![Box::new(report)], json, global);
    let ranks = setup.into_ranks();
    let session =
        Session::new(document(p, setup), fanout, ranks.local()).with_checks(crate::checks::get());
    // SIGINT/SIGTERM from here: the ranks stop and rank 0 removes what it made (docs/safety.md).
    exec::interrupt::install();
    let done = startup::run(p, &ranks, &session);
    if let Some(msg) = &done.failure {
        eprintln!("iogauge startup: {msg}");
    }
    if let Some(line) = done.interrupted_line() {
        eprintln!("{line}");
    }
    done.exit_code()
}
