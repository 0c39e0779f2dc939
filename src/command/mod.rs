//! The one command path every workload runs through, and the registry of workloads.
//!
//! A workload is its own folders (`src/<tool>/`: parser, checks, terminal and file formats;
//! `crates/workload/src/<tool>/`: the run) plus one [`Workload`] implementation and one row
//! in [`registry::WORKLOADS`]. [`path::run`] does everything around it once: parse, `--help`,
//! the ranks, the global options against what the workload supports, the engine, the
//! workload's checks, `--dry-run`, the outputs and the store (`world::proceed`), the
//! document, the sinks, the interrupt handler, the session with `--warn` and
//! `--drop-caches`, the run, and the closing lines.

pub mod global;
mod path;
pub mod registry;

use results::{RunResult, Sink};
use workload::session::{Finished, Session};

use crate::sweep::names::Knob;
use crate::world::{Global, RankSetup};

pub use global::Supports;
pub use path::{fanout, new_session, run};

/// One row of the workload table.
pub struct WorkloadInfo {
    /// The command word: `ior`.
    pub name: &'static str,
    pub about: &'static str,
    pub args: &'static str,
    pub examples: &'static [(&'static str, &'static str)],
    /// The command: parse, check and run `args` (the words after the name); the exit status.
    pub main: fn(&[String], &Global) -> u8,
    pub supports: Supports,
    /// What `sweep --vary NAME` turns ([`Workload::knob`]).
    pub knob: fn(&str) -> Result<Knob, String>,
}

/// The row of a workload that runs through the command path.
pub const fn row<W: Workload>() -> WorkloadInfo {
    WorkloadInfo {
        name: W::NAME,
        about: W::ABOUT,
        args: W::ARGS,
        examples: W::EXAMPLES,
        main: run::<W>,
        supports: W::SUPPORTS,
        knob: W::knob,
    }
}

pub use cmdline::Launch;

/// A parsed command line of a workload.
pub trait Invocation {
    fn launch(&self) -> Launch;
    /// The engine the workload's I/O goes through (`-a`, `--posix.*`, `--dummy.*`); `None`
    /// for a workload that always runs on the default engine.
    fn engine(&self) -> Option<&engine::EngineConfig> {
        None
    }
    /// `--dry-run`: check and show what would run; touch nothing.
    fn dry_run(&self) -> bool {
        false
    }
}

/// `Invocation` of a command parsed by `cmdline` (IOR's option rules): its `launch`, its
/// plan's engine and, with `dry_run`, its `--dry-run` flag.
macro_rules! ior_style_invocation {
    ($command:ty $(, $dry_run:ident)?) => {
        impl $crate::command::Invocation for $command {
            fn launch(&self) -> $crate::command::Launch {
                self.launch.clone()
            }
            fn engine(&self) -> Option<&engine::EngineConfig> {
                Some(&self.params.engine)
            }
            $(fn dry_run(&self) -> bool {
                self.$dry_run
            })?
        }
    };
}
pub(crate) use ior_style_invocation;

/// What the command path needs of the workload once its checks passed.
pub struct Checked<P> {
    /// What the checks prepared for the run: the facts they resolved that the run needs.
    pub prepared: P,
    /// Warnings of the checks, the document's first.
    pub warnings: Vec<String>,
}

/// The ranks a run was checked for, the engine that answers for its target before the run,
/// and the options the checks read.
pub struct Context<'a> {
    pub setup: RankSetup,
    /// Rank 0's engine for the checks and the facts the document and headers record
    /// (`engine::for_target`): the workload's own engine, or the default one.
    pub engine: Box<dyn engine::Engine>,
    /// `--allow-root-target` (`workload::target::check_tree_root`).
    pub allow_root_target: bool,
    /// The command's arguments as given, after the workload's name.
    pub args: &'a [String],
}

/// One workload as the command path runs it. Implemented in the workload's own folder;
/// [`registry::row`] makes its registry row from it.
pub trait Workload: 'static {
    /// The command word, and the workload's name in documents: `ior`, `md-workbench`.
    const NAME: &'static str;
    /// One line for `iogauge --help`.
    const ABOUT: &'static str;
    /// One line for its arguments in `iogauge --help <name>`.
    const ARGS: &'static str;
    /// Lines of `iogauge --help`'s examples: the command, what it does.
    const EXAMPLES: &'static [(&'static str, &'static str)];
    /// What it does with the global options (refused by name otherwise).
    const SUPPORTS: Supports;

    /// The parsed command line.
    type Command: Invocation;
    /// What the checks prepared for the run (the plan itself is in the command).
    type Prepared;
    /// The workload's own outcome of a phase.
    type Outcome: 'static;

    /// The command line after the workload's name; Err is the message of bad usage.
    fn parse(args: &[String]) -> Result<Self::Command, String>;
    fn help() -> String;
    /// The checks before any I/O: cross-option rules, the engine's, the file system's and
    /// the output files'. Err is one line for the user (exit 2).
    fn check(cmd: &Self::Command, ctx: &Context) -> Result<Checked<Self::Prepared>, String>;
    /// What `--dry-run` prints (workloads whose `SUPPORTS.dry_run` is set).
    fn dry_run(_cmd: &Self::Command, _checked: &Checked<Self::Prepared>, _ctx: &Context) -> String {
        String::new()
    }
    /// Lines on the reporting process just before the run (IOR's note on replaced files).
    fn announce(_cmd: &Self::Command, _prepared: &Self::Prepared) {}
    /// The document before the run: parameters, ranks, environment.
    fn document(cmd: &Self::Command, prepared: &Self::Prepared, ctx: &Context) -> RunResult;
    /// The workload's own outputs (its terminal and file formats), on the reporting process;
    /// Err (an output file that cannot be made) is bad input.
    fn sinks(
        cmd: &Self::Command,
        prepared: &Self::Prepared,
        ctx: &Context,
        doc: &RunResult,
    ) -> Result<Vec<Box<dyn Sink>>, String>;
    /// The run on `ranks`, reporting through `session`.
    fn run(
        cmd: &Self::Command,
        prepared: &Self::Prepared,
        ranks: &exec::Ranks,
        session: &Session,
    ) -> Finished<Self::Outcome>;
    /// Lines after the run besides the failure and the interruption (a verification's).
    fn after(_done: &Finished<Self::Outcome>) {}
    /// How `sweep --vary NAME` writes NAME into this workload's command line; the default
    /// varies the ranks only (`tasks`, `fake-nodes`).
    fn knob(name: &str) -> Result<Knob, String> {
        crate::sweep::names::ranks_knob(Self::NAME, name)
    }
}
