//! An mdworkbench phase of the IO500: the IO500 argv through `iogauge md-workbench`'s parser
//! (once, into the plan; the counts are filled in when the phase runs), the checks, and the
//! run through `workload::mdworkbench::run` with md-workbench's text output in `<phase>.txt`.

use workload::io500::measured::Measured;
use workload::io500::plan::{PhasePlan, Planned};
use workload::io500::run::{PhaseRun, ToolOutcome};
use workload::mdworkbench::{self, validate::validate, MdWorkbenchParams};

use super::PhaseFiles;
use crate::mdworkbench::output::quote_args;
use crate::world::RankSetup;

/// Parses and validates the argv (no I/O); validation's warnings go with the plan.
pub fn plan(args: &[String], ranks: usize) -> Result<Planned, String> {
    let cmd = crate::mdworkbench::cli::parse(args).map_err(|e| e.to_string())?;
    let warnings = validate(&cmd.params, ranks).map_err(|e| format!("md-workbench: {e}"))?;
    Ok(Planned {
        plan: PhasePlan::MdWorkbench(cmd.params),
        warnings,
    })
}

/// Before the suite: the precreate's checks against the data directory. The run-info file
/// goes to `$R`, made later, and the benchmark and the cleanup start from what the precreate
/// writes there, so they are checked when they run.
pub fn preflight(p: &MdWorkbenchParams, ranks: usize) -> Result<(), String> {
    if !p.phases.precreate {
        return Ok(());
    }
    let info = engine::lookup(&p.engine.api).map_err(|e| format!("md-workbench: {e}"))?;
    workload::mdworkbench::preflight::preflight(p, ranks as u64, &*info.make(&p.engine, 0))
        .map(drop)
        .map_err(|e| format!("md-workbench: {e}"))
}

/// Runs the plan; `files` is `None` on the ranks that only take part (MPI ranks other than 0).
pub fn run(
    p: &MdWorkbenchParams,
    setup: &RankSetup,
    files: Option<&PhaseFiles>,
) -> Result<PhaseRun, String> {
    let checked =
        crate::mdworkbench::check(p, setup.ranks()).map_err(|e| format!("md-workbench: {e}"))?;
    // The checks repeat validation, so its warnings are among theirs.
    let mut own = Vec::new();
    if let Some(f) = files {
        let header = crate::mdworkbench::header(setup, quote_args(&f.args));
        own.push(crate::mdworkbench::sinks(p, header, f.text_output()?));
    }
    let engine = engine::for_target(&p.engine);
    let mut doc = crate::mdworkbench::document(p, checked.start, setup, &*engine);
    doc.warnings = checked.warnings;
    let prepared = mdworkbench::Prepared {
        params: p,
        start: checked.start,
    };
    let session = PhaseFiles::session(files, doc, own, setup);
    let done = mdworkbench::run(prepared, &setup.into_ranks(), &session);
    if let Some(msg) = done.failure {
        return Err(msg);
    }
    let results = done
        .outcomes
        .iter()
        .map(|o| (o.rate(), o.op_max()))
        .collect();
    let errors = done.outcomes.iter().map(|o| o.errors()).sum();
    let o = done
        .outcomes
        .last()
        .ok_or("md-workbench reported no phase")?
        .clone();
    Ok(PhaseRun {
        measured: Measured::MdWorkbench { results, errors },
        results: done.doc.phases.clone(),
        outcome: ToolOutcome::MdWorkbench(o),
        interrupted: done.interrupted,
    })
}
