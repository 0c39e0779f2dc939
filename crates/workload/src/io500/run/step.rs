//! One phase of the run (the loop body of `main.c`): drop caches, pause, the section header,
//! the tool, the checks after it, and the phase's lines in result.txt and the summary.

use std::path::Path;
use std::time::{Duration, Instant};

use results::sink::PhaseStart;

use super::text::Text;
use super::{Driver, PhaseRun, Record, Settings};
use crate::io500::argv::{Built, Where};
use crate::io500::format::{cf, pair, result_line};
use crate::io500::measured::{self, Line, Step};
use crate::io500::phases::{How, Phase};
use crate::io500::plan::Planned;
use crate::io500::validity;
use measure::{local_now, IO500_DATE_FORMAT};

/// One phase; returns its record and, when its tool ran, what the tool measured.
pub(super) fn run_phase(
    s: &Settings,
    phase: &'static Phase,
    built: Option<(&Built, Option<&Planned>)>,
    w: &Where,
    minwrite: i64,
    out: &mut Text,
    driver: &mut dyn Driver,
) -> (Record, Option<PhaseRun>) {
    let cfg = &s.config;
    if cfg.bool("global", "drop-caches") && !phase.dummy() && !s.dry_run {
        drop_caches(cfg.get("global", "drop-caches-cmd").unwrap_or(""), out);
    }
    out.txt(&format!("\n[{}]\n", phase.name));
    if let Some(dir) = cfg.get("debug", "pause-dir") {
        if s.verbosity > 0 {
            out.txt(&pair("t_pause", local_now(IO500_DATE_FORMAT)));
        }
        let path = format!("{dir}/{}", phase.name);
        out.txt(&format!("; Checking for pause file {path}\n"));
        // A signal ends the pause: the phase then takes its tool's interrupt path.
        while !s.dry_run && Path::new(&path).exists() {
            if !exec::interrupt::sleep(Duration::from_secs(1)) {
                break;
            }
        }
    }
    if s.verbosity > 0 {
        out.txt(&pair("t_start", local_now(IO500_DATE_FORMAT)));
    }
    let mut rec = Record {
        phase,
        score: 0.0,
        runtime_s: 0.0,
        valid: true,
        invalid: Vec::new(),
        warnings: Vec::new(),
        exe: None,
        ran: false,
        error: None,
    };
    let start = Instant::now();
    let mut lines = Vec::new();
    let mut ran = None;
    let score = match (phase.how, built) {
        (How::Timestamp, _) => timestamp(s, w, &mut lines, &mut rec),
        (_, Some((b, planned))) => {
            let t = Tool {
                built: b,
                planned,
                w,
            };
            let (score, r) = tool(s, phase, &t, out, driver, &mut lines, &mut rec);
            ran = r;
            score
        }
        _ => 0.0,
    };
    let runtime = start.elapsed().as_secs_f64();
    for r in validity::after_phase(phase, runtime, score, w.stonewall, minwrite, s.dry_run) {
        lines.push(Line::Invalid(r));
    }
    for l in lines {
        match l {
            Line::Pair(k, v) => out.txt(&pair(&k, v)),
            Line::Invalid(r) => {
                out.invalid(phase.name, &r);
                rec.invalid.push(r);
            }
            Line::Warning(t) => {
                out.warning(&t);
                rec.warnings.push(t);
            }
        }
    }
    if !phase.dummy() {
        out.txt(&pair("score", cf(score)));
    }
    rec.valid = rec.invalid.is_empty();
    rec.score = score;
    rec.runtime_s = runtime;
    out.summary(&result_line(phase, score, runtime, rec.valid));
    if s.verbosity > 0 {
        out.txt(&pair("t_delta", format!("{runtime:.4}")));
        out.txt(&pair("t_end", local_now(IO500_DATE_FORMAT)));
    }
    (rec, ran)
}

/// Rank 0 creates the empty `$R/timestampfile` that find's `-newer` compares against.
fn timestamp(s: &Settings, w: &Where, lines: &mut Vec<Line>, rec: &mut Record) -> f64 {
    let file = format!("{}/timestampfile", w.result);
    if s.verbosity > 1 {
        lines.push(Line::Pair("timestamp-file".into(), file.clone()));
    }
    if !s.dry_run {
        rec.ran = true;
        if let Err(e) = std::fs::File::create(&file) {
            let msg = format!("Couldn't open timestampfile: {file} ({e})");
            lines.push(Line::Invalid(validity::failed(&msg)));
            rec.error = Some(msg);
        }
    }
    0.0
}

/// What an ior, mdtest, find or md-workbench phase runs: its command, its plan (`None` when
/// disabled) and where.
struct Tool<'a> {
    built: &'a Built,
    planned: Option<&'a Planned>,
    w: &'a Where,
}

/// A tool's phase: its `exe`, then (unless disabled or a dry run) the tool.
fn tool(
    s: &Settings,
    phase: &'static Phase,
    t: &Tool,
    out: &mut Text,
    driver: &mut dyn Driver,
    lines: &mut Vec<Line>,
    rec: &mut Record,
) -> (f64, Option<PhaseRun>) {
    let (built, w) = (t.built, t.w);
    let cfg = &s.config;
    let step = match phase.how {
        How::Ior(_, st) => Step::Ior(st),
        How::Mdtest(_, st) => Step::Mdtest(st),
        How::MdWorkbench(st) => Step::MdWorkbench(st),
        _ => Step::Find,
    };
    // find checks its own `run` first and then prints nothing (it has no parent).
    if step == Step::Find && !cfg.bool(phase.name, "run") {
        return (0.0, None);
    }
    for t in &built.warnings {
        out.warning(t);
        rec.warnings.push(t.clone());
    }
    for (k, v) in &built.pairs {
        out.txt(&pair(k, v));
    }
    let exe = built.command.exe();
    out.txt(&pair("exe", &exe));
    rec.exe = Some(exe);
    if s.dry_run {
        let eq = phase
            .tool()
            .and_then(|tool| built.command.iogauge(tool, built.ranks));
        if let Some(eq) = eq {
            out.txt(&format!("; {eq}\n"));
        }
    }
    if let Some(n) = built.nproc_pair {
        out.txt(&pair("nproc", n));
    }
    let Some(planned) = t.planned.filter(|_| !s.dry_run) else {
        return (0.0, None);
    };
    if s.verbosity > 1 && step != Step::Find {
        out.txt(&pair(
            "result-file",
            format!("{}/{}.txt", w.result, phase.name),
        ));
    }
    rec.ran = true;
    if let Some(operation) = phase.operation() {
        out.session.hub().phase_start(&PhaseStart {
            operation,
            iteration: 0,
            io500_phase: Some(phase.name.to_string()),
            ranks: built.ranks,
            expect: planned.plan.expect(built.ranks),
        });
    }
    match driver.run(phase, built, planned, &w.result, out.session) {
        Ok(r) => {
            let info = s.verbosity > 1;
            let (l, score) = measured::lines(&r.measured, step, w.stonewall, built.ranks, info);
            lines.extend(l);
            (score, Some(r))
        }
        Err(e) => {
            lines.push(Line::Invalid(validity::failed(&e)));
            rec.error = Some(e);
            (0.0, None)
        }
    }
}

/// `drop-caches`: `free -m`, the command, `free -m`; a failing command is a warning.
fn drop_caches(cmd: &str, out: &mut Text) {
    use std::os::unix::process::ExitStatusExt;
    for c in ["LANG=C free -m", cmd, "LANG=C free -m"] {
        let status = std::process::Command::new("sh").arg("-c").arg(c).status();
        match status {
            Ok(st) if st.success() => {}
            Ok(st) => out.warning(&format!("Calling \"{c}\" returned {}", st.into_raw())),
            Err(e) => out.warning(&format!("Calling \"{c}\" failed: {e}")),
        }
    }
}
