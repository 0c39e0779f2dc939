//! An mdtest phase of the IO500: the IO500 argv through `iogauge mdtest`'s parser (once, into
//! the plan), the checks against the file system, and the run through `workload::mdtest::run`
//! with mdtest's text output in `<phase>.txt` and its per-rank CSV.

use workload::io500::measured::{MdWall, Measured};
use workload::io500::phases::{How, MdStep, Phase};
use workload::io500::plan::{PhasePlan, Planned};
use workload::io500::run::{PhaseRun, ToolOutcome};
use workload::mdtest::{self, preflight::Preflight, validate::validate, MdtestParams, Shape};

use super::PhaseFiles;
use crate::mdtest::output::quote_args;
use crate::world::RankSetup;

/// Parses and validates the argv (no I/O); validation's warnings go with the plan.
pub fn plan(args: &[String], ranks: usize) -> Result<Planned, String> {
    let cmd = crate::mdtest::cli::parse(args).map_err(|e| e.to_string())?;
    let (shape, warnings) = validate(&cmd.params, ranks).map_err(|e| format!("mdtest: {e}"))?;
    Ok(Planned {
        plan: PhasePlan::Mdtest {
            params: cmd.params,
            shape,
        },
        warnings,
    })
}

/// The checks against the file system (`iogauge mdtest`'s preflight).
pub fn preflight(p: &MdtestParams, shape: &Shape) -> Result<Preflight, String> {
    let info = engine::lookup(&p.engine.api).map_err(|e| format!("mdtest: {e}"))?;
    mdtest::preflight::preflight(p, shape, &*info.make(&p.engine, 0))
        .map_err(|e| format!("mdtest: {e}"))
}

/// The operation whose rate is the phase's score.
fn scored_op(phase: &Phase) -> results::Operation {
    use results::Operation;
    match phase.how {
        How::Mdtest(_, MdStep::Create) => Operation::FileCreate,
        How::Mdtest(_, MdStep::Stat) => Operation::FileStat,
        How::Mdtest(_, MdStep::Read) => Operation::FileRead,
        _ => Operation::FileRemove,
    }
}

/// Runs the plan; `files` is `None` on the ranks that only take part (MPI ranks other than 0),
/// which use rank 0's reading of the status file.
pub fn run(
    phase: &Phase,
    p: &MdtestParams,
    shape: Shape,
    setup: &RankSetup,
    files: Option<&PhaseFiles>,
) -> Result<PhaseRun, String> {
    let tasks = setup.ranks();
    let engine = engine::for_target(&p.engine);
    let mut warnings = Vec::new();
    let mut own = Vec::new();
    let mut status_items = None;
    if let Some(f) = files {
        let pre = preflight(p, &shape)?;
        status_items = pre.status_items;
        warnings.extend(f.warnings.iter().cloned());
        warnings.extend(pre.warnings);
        let quoted = format!("--tasks {tasks} {}", quote_args(&f.args));
        let header = crate::mdtest::header(p, &shape, setup, quoted, &*engine);
        own = crate::mdtest::sinks(p, header, f.text_output()?);
        if let Some(path) = &p.rank_details_csv {
            crate::mdtest::output::csv::write_header(path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    let header_doc = crate::mdtest::header(p, &shape, setup, String::new(), &*engine);
    let mut doc = crate::mdtest::document(p, &header_doc, &shape, status_items, setup, &*engine);
    doc.warnings = warnings;
    let prepared = mdtest::Prepared {
        params: p,
        shape,
        status_items,
    };
    let session = PhaseFiles::session(files, doc, own, setup);
    let done = mdtest::run(prepared, &setup.into_ranks(), &session);
    if let Some(msg) = done.failure {
        return Err(msg);
    }
    let op = scored_op(phase);
    let o = done
        .outcomes
        .iter()
        .find(|o| o.op == op)
        .ok_or_else(|| format!("mdtest reported no {} phase", op.label()))?
        .clone();
    let results = done.doc.phases.iter().filter(|r| r.operation == op).take(1);
    Ok(PhaseRun {
        measured: Measured::Mdtest {
            items: o.items(),
            time_s: o.time(),
            errors: done.errors,
            wall: o.stonewall.map(|s| MdWall {
                time_s: s.time_s,
                items_sum: s.items_sum,
            }),
        },
        results: results.cloned().collect(),
        outcome: ToolOutcome::Mdtest(o),
        interrupted: done.interrupted,
    })
}
