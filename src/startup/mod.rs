//! `iogauge startup`: parse, check the paths before any I/O, then run the start-up on the
//! ranks (`workload::startup::run`) with the terminal report and the result document; or,
//! with `--dry-run`, show what would run.

pub mod cli;
pub mod output;
mod preflight;

use results::{Parameters, RunResult, Sink, StartupParameters, StartupResolved};
use workload::session::{Finished, Session};
use workload::startup::{self, StartupParams};

use crate::command::{Checked, Context, Invocation, Launch, Supports, Workload};
use crate::sweep::names::Knob;
use crate::world::RankSetup;
use cli::StartupCommand;
use output::StartupOutput;

/// `iogauge startup`, as the command path runs it.
pub struct Startup;

impl Invocation for StartupCommand {
    fn launch(&self) -> Launch {
        Launch {
            tasks: self.tasks,
            json: self.json.clone(),
            help: self.help,
            ..Launch::default()
        }
    }
    fn dry_run(&self) -> bool {
        self.dry_run
    }
}

impl Workload for Startup {
    const NAME: &'static str = "startup";
    const ABOUT: &'static str = "An application's start on every rank: a tree of small files and/or a large file (see `iogauge startup --help`)";
    const ARGS: &'static str =
        "--dir DIR | --tree DIR, [--common-size SIZE] [--stagger D] [--ranks-per-node N] ...";
    const EXAMPLES: &'static [(&'static str, &'static str)] = &[(
        "iogauge startup --tasks 8 --dir /scratch/me --common-size 256m",
        "an application's start-up on every rank",
    )];
    const SUPPORTS: Supports = Supports {
        drop_caches: true,
        root_target: true,
        dry_run: true,
    };
    type Command = StartupCommand;
    type Prepared = ();
    type Outcome = results::startup::PhaseOutcome;

    fn parse(args: &[String]) -> Result<StartupCommand, String> {
        cli::parse(args)
    }

    fn help() -> String {
        cli::HELP.to_string()
    }

    /// Long options only; its flags (`--keep`, `--per-rank`) say nothing about the storage,
    /// so they are not varied.
    fn knob(name: &str) -> Result<Knob, String> {
        crate::sweep::names::long_option(Self::NAME, name, &cli::KNOWN, &cli::FLAGS)
    }

    fn check(cmd: &StartupCommand, ctx: &Context) -> Result<Checked<()>, String> {
        preflight::preflight(&cmd.params, &*ctx.engine)?;
        if let Some(dir) = &cmd.params.dir {
            workload::target::check_tree_root("--dir", dir, ctx.allow_root_target, &*ctx.engine)?;
        }
        Ok(Checked {
            prepared: (),
            warnings: Vec::new(),
        })
    }

    fn dry_run(cmd: &StartupCommand, _checked: &Checked<()>, ctx: &Context) -> String {
        dry_run(&cmd.params, &ctx.setup)
    }

    fn document(cmd: &StartupCommand, _prepared: &(), ctx: &Context) -> RunResult {
        document(&cmd.params, &ctx.setup)
    }

    fn sinks(
        cmd: &StartupCommand,
        _prepared: &(),
        _ctx: &Context,
        _doc: &RunResult,
    ) -> Result<Vec<Box<dyn Sink>>, String> {
        let output = StartupOutput::new(Box::new(std::io::stdout()), cmd.per_rank);
        Ok(vec![Box::new(output)])
    }

    fn run(
        cmd: &StartupCommand,
        _prepared: &(),
        ranks: &exec::Ranks,
        session: &Session,
    ) -> Finished<results::startup::PhaseOutcome> {
        startup::run(&cmd.params, ranks, session)
    }
}

/// The document of a start-up before it starts (rank 0 fills in what it lists).
pub fn document(p: &StartupParams, setup: &RankSetup) -> RunResult {
    let params = Parameters::Startup(StartupParameters {
        plan: p.clone(),
        resolved: StartupResolved::default(),
    });
    let mut doc = RunResult::new(params, std::env::args().collect(), crate::VERSION);
    let at = p
        .dir
        .as_deref()
        .or(p.tree.as_deref())
        .or(p.common_file.as_deref());
    // A start-up runs on the default engine (POSIX).
    let engine = engine::for_target(&engine::EngineConfig::default());
    doc.environment = results::capture(at.map(|at| (&*engine, at)));
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
