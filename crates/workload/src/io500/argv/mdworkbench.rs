//! md-workbench's argv (`src/phase_mdworkbench*.c`): the parent's options, then `-1`,
//! `-2 -R=2 -X` or `-3`. The object counts come from the `.ini` or from mdtest-easy-write's
//! rate, which is known only when that phase has run: the command is built again then.

use super::{push_api, s, verbosity, Built, Command, Where};
use crate::io500::config::Config;
use crate::io500::phases::MdwbStep;
use crate::io500::plan::MdWorkbenchPlan;
use crate::io500::seeds::{phase_seed, MD_WORKBENCH};

/// The command of an mdworkbench phase with `counts` (precreatePerSet, filesPerProc).
pub fn mdworkbench(
    phase: &str,
    step: MdwbStep,
    cfg: &Config,
    w: &Where,
    counts: (u64, u64),
) -> Built {
    let sec = "mdworkbench";
    let packet = cfg.get("global", "dataPacketType").unwrap_or("timestamp");
    let mut a = vec![s("./md-workbench"), format!("--dataPacketType={packet}")];
    a.extend((0..verbosity(cfg, sec)).map(|_| s("-v")));
    if cfg.bool("global", "io-buffers-on-gpu") {
        a.push(s("--allocateBufferOnGPU"));
    }
    a.push(s("--process-reports"));
    let mut warnings = Vec::new();
    push_api(&mut a, &mut warnings, cfg, phase);
    a.push(format!("-o={}/mdworkbench", w.data));
    // The IO500 prints the float with "%f".
    let waiting = cfg.f64(sec, "waitingTime").unwrap_or(0.0) as f32;
    a.push(format!("-t={waiting:.6}"));
    a.extend([
        s("-O=1"),
        format!("--run-info-file={}/mdworkbench.status", w.result),
    ]);
    a.push(s("-D=10"));
    a.push(format!("-G={}", phase_seed(MD_WORKBENCH, &w.timestamp)));
    a.push(format!("-P={}", counts.0));
    a.push(format!("-I={}", counts.1));
    match step {
        MdwbStep::Create => a.push(s("-1")),
        MdwbStep::Bench => a.extend([s("-2"), s("-R=2"), s("-X")]),
        MdwbStep::Delete => a.push(s("-3")),
    }
    Built {
        command: Command::Argv(a),
        ranks: w.ranks,
        nproc_pair: None,
        warnings,
        early_warnings: Vec::new(),
        pairs: vec![
            ("filesPerProc".into(), counts.1.to_string()),
            ("precreatePerSet".into(), counts.0.to_string()),
        ],
    }
}

/// The counts a phase's command is first built with: the `.ini`'s, else those of the rate
/// the IO500 assumes (the real ones replace them when mdtest-easy-write has run).
pub fn first_counts(cfg: &Config, w: &Where) -> (u64, u64) {
    let mut plan = MdWorkbenchPlan::from_config(cfg);
    plan.derive_once(0.0, w.stonewall, w.ranks);
    plan.counts()
}
