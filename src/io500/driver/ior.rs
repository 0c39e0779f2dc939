//! An IOR phase of the IO500: the IO500 argv through `iogauge ior`'s parser (once, into the
//! plan), the checks against the file system, and the run through `workload::ior::run` with
//! IOR's text output in `<phase>.txt` and the per-rank CSV the argv asks for.

use workload::io500::measured::{IorWall, Measured};
use workload::io500::plan::{PhasePlan, Planned};
use workload::io500::run::{PhaseRun, ToolOutcome};
use workload::ior::{self, validate::validate, IorParams};

use results::{Parameters, RunResult};

use super::PhaseFiles;
use crate::world::RankSetup;

/// Parses and validates the argv (no I/O); the parser's warnings go with the plan.
pub fn plan(args: &[String], ranks: usize) -> Result<Planned, String> {
    let cmd = crate::ior::cli::parse(args).map_err(|e| e.to_string())?;
    validate(&cmd.params, ranks).map_err(|e| format!("ior: {e}"))?;
    Ok(Planned {
        plan: PhasePlan::Ior(cmd.params),
        warnings: cmd.warnings,
    })
}

/// The checks against the file system (`iogauge ior`'s preflight); Ok carries its warnings.
pub fn preflight(p: &IorParams, ranks: usize) -> Result<Vec<String>, String> {
    let info = engine::lookup(&p.engine.api).map_err(|e| format!("ior: {e}"))?;
    let existing = ior::preflight::Existing::Refuse;
    let pre = ior::preflight::preflight(p, ranks as u64, existing, &*info.make(&p.engine, 0))
        .map_err(|e| format!("ior: {e}"))?;
    Ok(pre.warnings)
}

/// Runs the plan; `files` is `None` on the ranks that only take part (MPI ranks other than 0).
pub fn run(
    p: &IorParams,
    setup: &RankSetup,
    files: Option<&PhaseFiles>,
) -> Result<PhaseRun, String> {
    let mut warnings = Vec::new();
    let mut own = Vec::new();
    if let Some(f) = files {
        // Other MPI ranks follow rank 0's decision, so only it checks.
        warnings.extend(f.warnings.iter().cloned());
        warnings.extend(preflight(p, setup.ranks())?);
        let env = results::capture(None);
        let engine = engine::for_target(&p.engine);
        let header = crate::ior::header(p, setup, f.equivalent.clone(), &env, &*engine);
        own = crate::ior::sinks(p, header, f.text_output()?);
    }
    let mut doc = RunResult::new(
        Parameters::Ior(p.clone()),
        std::env::args().collect(),
        crate::VERSION,
    );
    doc.warnings = warnings;
    let session = PhaseFiles::session(files, doc, own, setup);
    let done = ior::run(p, &setup.into_ranks(), &session);
    if let Some(msg) = done.failure {
        return Err(msg);
    }
    let o = done.outcomes.last().ok_or("ior reported no phase")?.clone();
    Ok(PhaseRun {
        measured: Measured::Ior {
            bytes: o.bytes,
            time_s: o.total_s,
            errors: done.errors,
            wall: o.stonewall.map(|s| IorWall {
                time_s: s.time_s,
                bytes_mean: s.bytes_mean,
                pairs: s.pairs_max,
            }),
        },
        results: done.doc.phases.last().cloned().into_iter().collect(),
        outcome: ToolOutcome::Ior(o),
        interrupted: done.interrupted,
    })
}
