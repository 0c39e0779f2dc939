//! The IO500's find phases: pfind's argv through `iogauge find`'s parser (once, into the plan)
//! and the walk through `workload::find::run` (pfind's lines in `find.txt`, its per-rank
//! columns in `find.csv`), or an external script run by rank 0 through the shell, as the IO500
//! runs `external-script`.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Instant;

use engine::PosixEngine;
use results::Sink;
use workload::find::{self, FindParams};
use workload::io500::measured::{parse_matched, Measured};
use workload::io500::plan::{PhasePlan, Planned};
use workload::io500::run::{PhaseRun, ToolOutcome};

use super::PhaseFiles;
use crate::find::output::{FindCsv, FindOutput};
use crate::world::RankSetup;

/// Parses the argv (no I/O).
pub fn plan(args: &[String]) -> Result<Planned, String> {
    let cmd = crate::find::cli::parse(args)?;
    Ok(Planned {
        plan: PhasePlan::Find(cmd.params),
        warnings: Vec::new(),
    })
}

/// Runs the plan; `files` is `None` on the ranks that only take part (MPI ranks other than 0).
pub fn run(
    p: &FindParams,
    setup: &RankSetup,
    files: Option<&PhaseFiles>,
) -> Result<PhaseRun, String> {
    let mut own: Vec<Box<dyn Sink>> = Vec::new();
    if let Some(f) = files {
        // Other MPI ranks follow rank 0's decision, so only it checks.
        find::preflight::preflight(p, &PosixEngine::new(false))?;
        own.push(Box::new(FindOutput::new(f.text_output()?, false, false)));
        own.push(Box::new(FindCsv {
            path: f.csv.clone(),
        }));
    }
    let doc = crate::find::document(p, setup);
    let session = PhaseFiles::session(files, doc, own, setup);
    let done = find::run(p, &setup.into_ranks(), &session, None);
    if let Some(msg) = done.failure {
        return Err(msg);
    }
    let o = done
        .outcomes
        .into_iter()
        .next()
        .ok_or("find reported no result")?;
    Ok(PhaseRun {
        measured: Measured::Find {
            found: o.total.found,
            examined: o.total.examined,
            runtime_s: o.runtime_s(),
        },
        results: done.doc.phases.first().cloned().into_iter().collect(),
        outcome: ToolOutcome::Find(o),
        interrupted: done.interrupted,
    })
}

/// `external-script`: `popen` through the shell on rank 0, timed from start to exit; the
/// last output line should be `MATCHED <found>/<total>`.
pub fn script(command: &str) -> Result<PhaseRun, String> {
    use std::os::unix::process::ExitStatusExt;
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("Failed to run find command: \"{command}\" error: {e}"))?;
    let (mut lines, mut last) = (0u64, String::new());
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            lines += 1;
            last = line;
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("find command \"{command}\": {e}"))?;
    let runtime_s = start.elapsed().as_secs_f64();
    let mut phase = results::PhaseResult::new(results::Operation::Find, 0);
    phase.times.total_s = runtime_s;
    phase.times.xfer_s = runtime_s;
    if let Some((found, total)) = parse_matched(&last) {
        phase.ops = total;
        phase.iops = results::per_s(total as f64, runtime_s);
        phase.counters.insert("found".into(), found);
        phase.counters.insert("examined".into(), total);
    }
    Ok(PhaseRun {
        measured: Measured::Script {
            command: command.to_string(),
            last_line: last,
            lines,
            status: status.into_raw(),
            runtime_s,
        },
        results: vec![phase],
        outcome: ToolOutcome::External,
        interrupted: None,
    })
}
