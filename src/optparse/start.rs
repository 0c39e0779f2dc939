//! The start that every IOR-style command's `main` shares: parse, `--help`, the ranks.

use std::path::PathBuf;

use super::UsageError;
use crate::world::{Global, RankSetup};

/// What every IOR-style command line carries besides the tool's plan: iogauge's own options
/// and `--help`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Launch {
    /// `--tasks N` (IOR's `-N`); `None` when not given (`-N -1`, IOR's "all ranks", too).
    pub tasks: Option<usize>,
    /// `--fake-nodes K`: pretend the tasks run on K nodes (like `IOR_FAKE_NODES`).
    pub fake_nodes: Option<usize>,
    /// `--fake-placement round-robin` (default `block`).
    pub round_robin: bool,
    /// `--json PATH`: iogauge's full result document.
    pub json: Option<PathBuf>,
    /// `-h` / `--help`.
    pub help: bool,
}

impl Launch {
    /// The ranks these options ask for (`None` fields fall back to the global options).
    pub fn rank_setup(&self) -> RankSetup {
        RankSetup {
            tasks: self.tasks,
            fake_nodes: self.fake_nodes,
            round_robin: self.round_robin,
        }
    }
}

/// A parsed IOR-style command line, as the start of `main` reads it.
pub trait Command: Sized {
    /// The tool's name, as its messages start: `ior`.
    const TOOL: &'static str;
    fn parse(args: &[String]) -> Result<Self, UsageError>;
    fn help_text() -> String;
    fn launch(&self) -> &Launch;
    /// The engine the command's I/O goes through (`-a`, `--posix.*`, `--dummy.*`).
    fn engine(&self) -> &engine::EngineConfig;
}

/// Parses `args`, prints the help when asked, and resolves the ranks (the command's options
/// over the global ones), checked. `Err` is the exit status: 0 after `--help`, 2 for bad
/// usage (agreed with the other MPI ranks, as every stop before the run).
pub fn start<C: Command>(args: &[String], global: &Global) -> Result<(C, RankSetup), u8> {
    let bad = |message: String| crate::world::bad_input(format!("iogauge {message}"));
    let cmd = C::parse(args).map_err(|e| bad(e.0))?;
    if cmd.launch().help {
        print!("{}", C::help_text());
        return Err(crate::world::exit_early(0));
    }
    let setup = cmd.launch().rank_setup().or(global.setup);
    setup
        .check()
        .and_then(|()| engine::check_fault_rank(cmd.engine(), setup.ranks()))
        .map_err(|e| bad(format!("{}: {e}", C::TOOL)))?;
    Ok((cmd, setup))
}
