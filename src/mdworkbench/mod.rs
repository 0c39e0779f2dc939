//! `iogauge md-workbench`: parse md-workbench's command line, check everything before any
//! I/O, run the ranks, and feed rank 0's results to the md-workbench-format printer and the
//! result document.

pub mod cli;
pub mod output;

use std::io::Write;
use std::path::PathBuf;

use results::{MdWorkbenchParameters, MdWorkbenchResolved, Parameters, RunResult, Sink};
use workload::mdworkbench::preflight::preflight;
use workload::mdworkbench::status::Position;
use workload::mdworkbench::validate::validate;
use workload::mdworkbench::{self, MdWorkbenchParams};
use workload::session::Session;

use crate::world::{Global, RankSetup};
use cli::MdWorkbenchCommand;
use output::{quote_args, Header, MdWorkbenchPrinter, MdWorkbenchReport};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Bad input: message and status 2, agreed with the other MPI ranks (`world::bad_input`).
fn usage(message: impl std::fmt::Display) -> u8 {
    crate::world::bad_input(format!("iogauge md-workbench: {message}"))
}

/// What the checks before the run found: where it starts and what to warn about.
pub struct Checked {
    pub start: Position,
    pub warnings: Vec<String>,
}

/// The checks before any I/O (`iogauge md-workbench` and the IO500's phases): the rules
/// across options on `ranks`, the engine, and the file system.
pub fn check(p: &MdWorkbenchParams, ranks: usize) -> Result<Checked, String> {
    let mut warnings = validate(p, ranks)?;
    let info = engine::lookup(&p.engine.api).map_err(|e| e.to_string())?;
    workload::mdworkbench::preflight::run_info_dir(p)?;
    let pre = preflight(p, ranks as u64, &*info.make(&p.engine, 0))?;
    warnings.extend(pre.warnings);
    Ok(Checked {
        start: pre.start,
        warnings,
    })
}

pub fn main(args: &[String], global: &Global) -> u8 {
    let (cmd, setup) = match crate::optparse::start::<MdWorkbenchCommand>(args, global) {
        Ok(started) => started,
        Err(code) => return code,
    };
    let checked = match check(&cmd.params, setup.ranks()) {
        Ok(c) => c,
        Err(e) => return usage(e),
    };
    let dir = &cmd.params.dir;
    if let Err(e) = workload::target::check_tree_root(
        "-o",
        dir,
        global.allow_root_target,
        &*engine::for_target(&cmd.params.engine),
    ) {
        return usage(e);
    }
    let json = [("--json", cmd.launch.json.as_deref())];
    if let Err(e) = crate::outputs::check_dirs_exist(&json) {
        return usage(e);
    }
    if cmd.dry_run {
        if crate::world::is_root() {
            print!("{}", dry_run(&cmd.params, checked.start, &setup));
        }
        return crate::world::exit_early(0);
    }
    if let Err(code) = crate::world::proceed(global) {
        return code;
    }
    run(&cmd, &setup, checked, args, global)
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
        version: VERSION.to_string(),
        quoted_args,
        ranks: setup.ranks() as u64,
        nodemap: setup.nodemap(),
    }
}

/// The md-workbench report.
pub fn sinks(p: &MdWorkbenchParams, header: Header, out: Box<dyn Write + Send>) -> Box<dyn Sink> {
    Box::new(MdWorkbenchReport {
        printer: MdWorkbenchPrinter::new(out, p, header),
    })
}

/// The document of a run before it starts: the plan and what it resolved to.
pub fn document(p: &MdWorkbenchParams, start: Position, setup: &RankSetup) -> RunResult {
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
    let mut doc = RunResult::new(params, std::env::args().collect(), VERSION);
    doc.environment = results::capture(Some((
        &*engine::for_target(&p.engine),
        &crate::outputs::existing_dir_or_parent(&p.dir),
    )));
    doc.ranks = setup.result_ranks();
    doc
}

fn run(
    cmd: &MdWorkbenchCommand,
    setup: &RankSetup,
    checked: Checked,
    args: &[String],
    global: &Global,
) -> u8 {
    let p = &cmd.params;
    let mut doc = document(p, checked.start, setup);
    doc.warnings = checked.warnings;
    let json: Vec<PathBuf> = cmd.launch.json.iter().cloned().collect();
    let own = sinks(
        p,
        header(setup, quote_args(args)),
        Box::new(std::io::stdout()),
    );
    let fanout = crate::sinks::choose(vec![own], json, global);
    let plan = mdworkbench::Plan {
        params: p,
        start: checked.start,
    };
    let ranks = setup.into_ranks();
    // SIGINT/SIGTERM from here: the ranks stop and clean up (docs/safety.md).
    exec::interrupt::install();
    let done = mdworkbench::run(plan, &ranks, &Session::new(doc, fanout, ranks.local()));
    if let Some(msg) = &done.failure {
        eprintln!("iogauge: {msg}");
    }
    if done.errors > 0 {
        let checks = done.outcomes.iter().map(|o| o.verification.as_ref());
        crate::outputs::verification_failed(done.errors, checks, "object(s)");
    }
    if let Some(line) = done.interrupted_line() {
        eprintln!("{line}");
    }
    done.exit_code()
}
