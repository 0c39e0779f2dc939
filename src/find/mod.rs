//! `iogauge find`: parse, check the paths and the reference before walking, walk on the
//! ranks with work stealing (`workload::find::run`), then print pfind's result lines (last:
//! `MATCHED <found>/<examined>`) and write the result document.

pub mod cli;
mod listing;
pub mod output;

use results::{FindParameters, Parameters, RunResult, Sink};
use workload::find::{self, Lister};
use workload::session::{Finished, Session};

use crate::command::{Checked, Context, Invocation, Launch, Supports, Workload};
use crate::world::RankSetup;
use cli::FindCommand;
use listing::Listing;
use output::FindOutput;

/// `iogauge find`, as the command path runs it.
pub struct Find;

impl Invocation for FindCommand {
    fn launch(&self) -> Launch {
        Launch {
            tasks: self.tasks,
            json: self.json.clone(),
            help: self.help,
            ..Launch::default()
        }
    }
}

impl Workload for Find {
    const NAME: &'static str = "find";
    const ABOUT: &'static str =
        "Parallel find with pfind's semantics, as the IO500 runs it (see `iogauge find --help`)";
    const ARGS: &'static str = "PATH... [-newer FILE] [-size Nc] [-name GLOB] [-C] [--tasks N]";
    const EXAMPLES: &'static [(&'static str, &'static str)] = &[(
        "iogauge find --tasks 2 /data -newer /r/ts -size 3901c -name '*01*' -C",
        "IO500 find (pfind semantics)",
    )];
    // It walks trees others made and reads no file data: only the node's caches can be
    // dropped for it (`--drop-caches=files` has nothing to drop, which its phase records).
    const SUPPORTS: Supports = Supports {
        drop_caches: true,
        root_target: false,
        dry_run: false,
    };
    type Command = FindCommand;
    type Prepared = ();
    type Outcome = find::FindOutcome;

    fn parse(args: &[String]) -> Result<FindCommand, String> {
        cli::parse(args)
    }

    fn help() -> String {
        cli::HELP.to_string()
    }

    fn check(cmd: &FindCommand, ctx: &Context) -> Result<Checked<()>, String> {
        find::preflight::preflight(&cmd.params, &*ctx.engine)?;
        Ok(Checked {
            prepared: (),
            warnings: Vec::new(),
        })
    }

    fn document(cmd: &FindCommand, _prepared: &(), ctx: &Context) -> RunResult {
        document(&cmd.params, &ctx.setup)
    }

    fn sinks(
        cmd: &FindCommand,
        _prepared: &(),
        _ctx: &Context,
        _doc: &RunResult,
    ) -> Result<Vec<Box<dyn Sink>>, String> {
        let p = &cmd.params;
        Ok(vec![Box::new(FindOutput::new(
            Box::new(std::io::stdout()),
            p.per_rank,
            true,
        ))])
    }

    fn run(
        cmd: &FindCommand,
        _prepared: &(),
        ranks: &exec::Ranks,
        session: &Session,
    ) -> Finished<find::FindOutcome> {
        let p = &cmd.params;
        let listing = Listing::new();
        let list: Option<&dyn Lister> = if p.count_only { None } else { Some(&listing) };
        find::run(p, ranks, session, list)
    }
}

/// The document of a find before it starts.
pub fn document(p: &find::FindParams, setup: &RankSetup) -> RunResult {
    let params = Parameters::Find(FindParameters {
        plan: p.clone(),
        newer_ctime: None,
    });
    let mut doc = RunResult::new(params, std::env::args().collect(), crate::VERSION);
    // A find walks on the default engine (POSIX).
    let engine = engine::for_target(&engine::EngineConfig::default());
    doc.environment = results::capture(p.paths.first().map(|p| (&*engine, p.as_path())));
    doc.ranks = setup.result_ranks();
    doc
}
