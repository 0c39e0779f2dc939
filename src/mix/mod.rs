//! `iogauge mix`: parse the command line and the mix file, check everything before any I/O,
//! run the ranks, and feed rank 0's results to the terminal report and the result document.

pub use cmdline::mix as cli;
pub mod output;

use plan::mix::MixParams;
use results::{MixParameters, MixResolved, Parameters, RunResult, Sink};
use workload::mix::validate::{preflight, validate};
use workload::session::{Finished, Session};

use crate::command::{Checked, Context, Supports, Workload};
use crate::sweep::names::Knob;
use crate::world::RankSetup;
use cli::MixCommand;
use output::{plan_lines, MixOutput};

/// `iogauge mix`, as the command path runs it.
pub struct Mix;

/// What the checks found: `--dir` does not exist yet, so rank 0 makes it and the cleanup
/// removes it.
pub struct Prepared {
    made_dir: bool,
}

crate::command::ior_style_invocation!(MixCommand, dry_run);

impl Workload for Mix {
    const NAME: &'static str = "mix";
    const ABOUT: &'static str =
        "A metadata mix, open-loop at a rising rate until a latency limit (see `iogauge mix --help`)";
    const ARGS: &'static str =
        "--dir DIR [--mix FILE] [--ramp START:STEP:MAX] [--latency-limit 10ms] ...";
    const EXAMPLES: &'static [(&'static str, &'static str)] = &[(
        "iogauge mix --tasks 4 --dir /tmp/mix --ramp 500:500:5000",
        "a metadata mix under a rising load; the knee",
    )];
    const SUPPORTS: Supports = Supports {
        drop_caches: true,
        root_target: true,
        dry_run: true,
    };
    type Command = MixCommand;
    type Prepared = Prepared;
    type Outcome = workload::mix::PhaseOutcome;

    fn parse(args: &[String]) -> Result<MixCommand, String> {
        cli::parse(args).map_err(|e| e.0)
    }

    fn help() -> String {
        cli::help_text()
    }

    fn knob(name: &str) -> Result<Knob, String> {
        crate::sweep::names::in_table(&cli::options::TABLE, name)
    }

    fn check(cmd: &MixCommand, ctx: &Context) -> Result<Checked<Prepared>, String> {
        let p = &cmd.params;
        let ranks = ctx.setup.ranks();
        let warnings = validate(p, ranks)?;
        engine::lookup(&p.engine.api)
            .and_then(|i| i.for_metadata())
            .map_err(|e| e.to_string())?;
        workload::target::check_tree_root("--dir", &p.dir, ctx.allow_root_target, &*ctx.engine)?;
        let made_dir = preflight(&p.dir, ranks, &*ctx.engine)?;
        Ok(Checked {
            prepared: Prepared { made_dir },
            warnings,
        })
    }

    fn dry_run(cmd: &MixCommand, checked: &Checked<Prepared>, ctx: &Context) -> String {
        let mut out = String::new();
        for l in plan_lines(&cmd.params, ctx.setup.ranks()) {
            out += &format!("{l}\n");
        }
        for w in &checked.warnings {
            out += &format!("WARNING: {w}\n");
        }
        out + "dry run: nothing was created\n"
    }

    fn document(cmd: &MixCommand, _prepared: &Prepared, ctx: &Context) -> RunResult {
        document(&cmd.params, &ctx.setup)
    }

    fn sinks(
        cmd: &MixCommand,
        _prepared: &Prepared,
        ctx: &Context,
        _doc: &RunResult,
    ) -> Result<Vec<Box<dyn Sink>>, String> {
        Ok(vec![Box::new(MixOutput {
            out: Box::new(std::io::stdout()),
            params: cmd.params.clone(),
            ranks: ctx.setup.ranks(),
        })])
    }

    fn run(
        cmd: &MixCommand,
        prepared: &Prepared,
        ranks: &exec::Ranks,
        session: &Session,
    ) -> Finished<workload::mix::PhaseOutcome> {
        workload::mix::run(&cmd.params, prepared.made_dir, ranks, session)
    }
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
    let mut doc = RunResult::new(params, std::env::args().collect(), crate::VERSION);
    let at = crate::outputs::existing_dir_or_parent(&p.dir);
    doc.environment = results::capture(Some((&*engine::for_target(&p.engine), &at)));
    doc.ranks = setup.result_ranks();
    doc
}
