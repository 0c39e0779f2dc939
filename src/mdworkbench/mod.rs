//! `iogauge md-workbench`: parse md-workbench's command line, check everything before any
//! I/O, run the ranks, and feed rank 0's results to the md-workbench-format printer and the
//! result document.

pub use cmdline::mdworkbench as cli;
pub mod output;

use std::io::Write;

use results::{MdWorkbenchParameters, MdWorkbenchResolved, Parameters, RunResult, Sink};
use workload::mdworkbench::preflight::preflight;
use workload::mdworkbench::status::Position;
use workload::mdworkbench::validate::validate;
use workload::mdworkbench::{self, MdWorkbenchParams};
use workload::session::{Finished, Session};

use crate::command::{Checked, Context, Supports, Workload};
use crate::sweep::names::Knob;
use crate::world::RankSetup;
use cli::MdWorkbenchCommand;
use output::{quote_args, Header, MdWorkbenchOutput, MdWorkbenchPrinter};

/// What the checks before the run found: where it starts and what to warn about.
pub struct Preflight {
    pub start: Position,
    pub warnings: Vec<String>,
}

/// The checks before any I/O (`iogauge md-workbench` and the IO500's phases): the rules
/// across options on `ranks`, the engine, and the file system.
pub fn check(p: &MdWorkbenchParams, ranks: usize) -> Result<Preflight, String> {
    let mut warnings = validate(p, ranks)?;
    let info = engine::lookup(&p.engine.api).map_err(|e| e.to_string())?;
    workload::mdworkbench::preflight::run_info_dir(p)?;
    let pre = preflight(p, ranks as u64, &*info.make(&p.engine, 0))?;
    warnings.extend(pre.warnings);
    Ok(Preflight {
        start: pre.start,
        warnings,
    })
}

/// `iogauge md-workbench`, as the command path runs it.
pub struct MdWorkbench;

crate::command::ior_style_invocation!(MdWorkbenchCommand, dry_run);

impl Workload for MdWorkbench {
    const NAME: &'static str = "md-workbench";
    const ABOUT: &'static str = "md-workbench-compatible metadata and small-object benchmark (see `iogauge md-workbench --help`)";
    const ARGS: &'static str = "md-workbench options, e.g. -o /tmp/mdwb -P 2000 -I 1000 -D 10 -R 2";
    const EXAMPLES: &'static [(&'static str, &'static str)] = &[(
        "iogauge md-workbench --tasks 4 -o /tmp/mdwb -P 2000 -I 1000",
        "md-workbench-compatible small-object test",
    )];
    const SUPPORTS: Supports = Supports {
        drop_caches: true,
        root_target: true,
        dry_run: true,
    };
    type Command = MdWorkbenchCommand;
    type Prepared = Position;
    type Outcome = mdworkbench::PhaseOutcome;

    fn parse(args: &[String]) -> Result<MdWorkbenchCommand, String> {
        cli::parse(args).map_err(|e| e.0)
    }

    fn help() -> String {
        cli::help_text()
    }

    fn knob(name: &str) -> Result<Knob, String> {
        crate::sweep::names::in_table(&cli::options::TABLE, name)
    }

    fn check(cmd: &MdWorkbenchCommand, ctx: &Context) -> Result<Checked<Position>, String> {
        let checked = check(&cmd.params, ctx.setup.ranks())?;
        workload::target::check_tree_root(
            "-o",
            &cmd.params.dir,
            ctx.allow_root_target,
            &*ctx.engine,
        )?;
        Ok(Checked {
            prepared: checked.start,
            warnings: checked.warnings,
        })
    }

    fn dry_run(cmd: &MdWorkbenchCommand, checked: &Checked<Position>, ctx: &Context) -> String {
        dry_run(&cmd.params, checked.prepared, &ctx.setup)
    }

    fn document(cmd: &MdWorkbenchCommand, start: &Position, ctx: &Context) -> RunResult {
        document(&cmd.params, *start, &ctx.setup, &*ctx.engine)
    }

    fn sinks(
        cmd: &MdWorkbenchCommand,
        _start: &Position,
        ctx: &Context,
        _doc: &RunResult,
    ) -> Result<Vec<Box<dyn Sink>>, String> {
        let header = header(&ctx.setup, quote_args(ctx.args));
        Ok(vec![sinks(
            &cmd.params,
            header,
            Box::new(std::io::stdout()),
        )])
    }

    fn run(
        cmd: &MdWorkbenchCommand,
        start: &Position,
        ranks: &exec::Ranks,
        session: &Session,
    ) -> Finished<mdworkbench::PhaseOutcome> {
        let run = mdworkbench::Prepared {
            params: &cmd.params,
            start: *start,
        };
        mdworkbench::run(run, ranks, session)
    }

    fn after(done: &Finished<mdworkbench::PhaseOutcome>) {
        if done.errors > 0 {
            let checks = done.outcomes.iter().map(|o| o.verification.as_ref());
            crate::outputs::verification_failed(done.errors, checks, "object(s)");
        }
    }
}

/// What `--dry-run` shows: the phases that would run and what they would make, read and
/// remove, in md-workbench's terms.
fn dry_run(p: &MdWorkbenchParams, start: Position, setup: &RankSetup) -> String {
    let ranks = setup.ranks() as u64;
    let ph = p.phases;
    let phases: Vec<&str> = [
        (ph.precreate, "precreate"),
        (ph.benchmark, "benchmark"),
        (ph.cleanup, "cleanup"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    let sets = ranks.saturating_mul(p.data_sets);
    let mut s = format!(
        "iogauge md-workbench --dry-run: nothing is made, read or removed.\n\
         ranks: {ranks} on {} node(s); phases: {}\n\
         data sets: {} per rank, {sets} in all, as {}/<rank>_<set>{}\n\
         objects: {} bytes each; {} precreated per set ({} in all, {})\n",
        setup.node_map().num_nodes(),
        phases.join(", "),
        p.data_sets,
        p.dir.display(),
        if p.dir.is_dir() {
            ""
        } else {
            " (the run makes -o)"
        },
        p.object_size,
        p.precreate_per_set,
        sets.saturating_mul(p.precreate_per_set),
        text::human_size(p.working_set_bytes(ranks)),
    );
    if ph.benchmark {
        let per_it = sets.saturating_mul(p.objects_per_set);
        let what = if p.read_only {
            "stat and read"
        } else {
            "stat, read, delete and create"
        };
        s += &format!(
            "benchmark: {} iteration(s){} of {} objects per set ({per_it} in all per iteration): {what}, \
             reader {} rank(s) from the writer\n",
            p.iterations,
            if p.adaptive_waiting {
                ", each followed by 7 with waiting factors 0.0625 to 4"
            } else {
                ""
            },
            p.objects_per_set,
            p.offset,
        );
    }
    s += &format!(
        "start: object index {}; total objects (md-workbench's count): {}\n",
        start.pos,
        p.total_objects(ranks)
    );
    if !ph.cleanup {
        s += &format!(
            "without the cleanup the run stores its position in {}\n",
            p.run_info_file.display()
        );
    }
    s
}

/// md-workbench's header lines; `quoted_args` is the command line as md-workbench prints it.
pub fn header(setup: &RankSetup, quoted_args: String) -> Header {
    Header {
        version: crate::VERSION.to_string(),
        quoted_args,
        ranks: setup.ranks() as u64,
        nodemap: setup.nodemap(),
    }
}

/// The md-workbench report.
pub fn sinks(p: &MdWorkbenchParams, header: Header, out: Box<dyn Write + Send>) -> Box<dyn Sink> {
    Box::new(MdWorkbenchOutput {
        printer: MdWorkbenchPrinter::new(out, p, header),
    })
}

/// The document of a run before it starts: the plan and what it resolved to.
pub fn document(
    p: &MdWorkbenchParams,
    start: Position,
    setup: &RankSetup,
    engine: &dyn engine::Engine,
) -> RunResult {
    let ranks = setup.ranks() as u64;
    let resolved = MdWorkbenchResolved {
        data_seed: None,
        start_position: start.pos,
        total_objects: p.total_objects(ranks),
        working_set_bytes: p.working_set_bytes(ranks),
    };
    let params = Parameters::MdWorkbench(MdWorkbenchParameters {
        plan: p.clone(),
        resolved,
    });
    let mut doc = RunResult::new(params, std::env::args().collect(), crate::VERSION);
    let at = crate::outputs::existing_dir_or_parent(&p.dir);
    doc.environment = results::capture(Some((engine, &at)));
    doc.ranks = setup.result_ranks();
    doc
}
