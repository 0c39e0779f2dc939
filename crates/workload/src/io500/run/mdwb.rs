//! Before an mdworkbench phase (`mdworkbench_add_params` in `phase_mdworkbench.c`): its object
//! counts, from the `.ini`, or derived once from mdtest-easy-write's rate, or from the rate the
//! create phase stored in `$R/mdworkbench-size` (a `--cleanup` run), or the rate the IO500
//! assumes (with its warning); then the phase's command and plan with those counts.

use std::path::Path;

use super::{Ready, Settings};
use crate::io500::argv::{self, Where};
use crate::io500::phases::{MdwbStep, Phase};
use crate::io500::plan::{MdWorkbenchPlan, PhasePlan};
use crate::io500::validity::MDWORKBENCH_ASSUMED;

/// The rate as the IO500 stores it: one native-endian double (`fwrite`).
fn read_rate(path: &Path) -> Option<f64> {
    let bytes = std::fs::read(path).ok()?;
    Some(f64::from_ne_bytes(bytes.get(..8)?.try_into().ok()?))
}

/// The phase's command and plan with its counts; `warned` keeps the assumed-rate warning to
/// the first phase that assumes it, as the IO500's.
pub(super) fn ready(
    s: &Settings,
    phase: &Phase,
    step: MdwbStep,
    ready: &Ready,
    w: &Where,
    plan: &mut MdWorkbenchPlan,
    warned: &mut bool,
) -> Ready {
    let size_file = Path::new(&w.result).join("mdworkbench-size");
    let mut warnings = Vec::new();
    if !plan.configured() {
        if step == MdwbStep::Create && !s.dry_run {
            // What a later `--cleanup` derives the same counts from (rank 0; a failure only
            // costs that later run the right counts).
            let _ = std::fs::write(&size_file, plan.rate_kiops.to_ne_bytes());
        }
        let stored = if step == MdwbStep::Create {
            None
        } else {
            read_rate(&size_file)
        };
        plan.derive_once(stored.unwrap_or(0.0), w.stonewall, w.ranks);
        if plan.assumed_rate && !*warned {
            *warned = true;
            warnings.push(MDWORKBENCH_ASSUMED.to_string());
        }
    }
    let (precreate, files) = plan.counts();
    let mut built = argv::mdworkbench(phase.name, step, &s.config, w, (precreate, files));
    warnings.append(&mut built.warnings);
    built.warnings = warnings;
    let planned = ready.planned.clone().map(|mut p| {
        if let PhasePlan::MdWorkbench(m) = &mut p.plan {
            m.precreate_per_set = precreate;
            m.objects_per_set = files;
        }
        p
    });
    Ready { built, planned }
}
