//! The runner (`main.c`): walks the phase table in order, reports result.txt and
//! result_summary.txt as phases finish (through the session: the binary's result-directory sink
//! writes them), and cleans up. Parsing a phase's argv into its plan and running that plan on
//! the ranks is the [`Driver`]'s job (the binary parses with the `iogauge ior`, `mdtest` and
//! `find` parsers and calls the same workload `run` functions as those commands); everything
//! IO500-specific is here.

use results::io500::{Io500Phase, Io500Score, ScoreUnit};
use results::sink::Detail;
use results::PhaseResult;

use super::argv::{self, Built, Where};
use super::config::Config;
use super::format::{self, cf, pair};
use super::hash;
use super::layout::{Layout, Wrote};
use super::measured::Measured;
use super::phases::MdStep;
use super::phases::{Family, How, Mode, Phase, PHASES, REMOVE};
use super::plan::{MdWorkbenchPlan, Planned};
use super::score::{aggregate, Scored, Scores};
use super::validity::{self, Validity};
use crate::find::FindOutcome;
use crate::session::Session;
use measure::{local_now, IO500_DATE_FORMAT};
use text::Text;

/// Everything a run needs besides the driver.
#[derive(Debug, Clone)]
pub struct Settings {
    pub config: Config,
    pub mode: Mode,
    pub ranks: usize,
    pub timestamp: String,
    pub dry_run: bool,
    /// `--cleanup`: only the delete phases and the clean-up of an earlier run's data.
    pub cleanup_only: bool,
    /// `[global] verbosity`, or `-v` / `--verbose=N`.
    pub verbosity: u32,
    /// result.txt's `version`, hashed into the score hash.
    pub version: String,
    /// What `config-orig.ini` holds: the file as given.
    pub original_ini: String,
}

/// Turns a phase's argv into its plan and runs that plan on the ranks.
pub trait Driver {
    /// Parses and checks a phase's command without I/O into its typed plan; an error is bad
    /// input (status 2). Called once per phase, before the first phase runs.
    fn plan(&mut self, phase: &Phase, built: &Built) -> Result<Planned, String>;
    /// Checks a write phase against the file system once `$D` exists (its files must not exist
    /// yet); an error is bad input (status 2).
    fn preflight(&mut self, phase: &Phase, planned: &Planned) -> Result<(), String>;
    /// Runs the plan on `built.ranks` ranks, recording on `suite`'s live counters; its text
    /// output and per-rank CSV go to `result_dir/<phase>.txt|.csv`. An error means the phase
    /// could not run to its end.
    fn run(
        &mut self,
        phase: &Phase,
        built: &Built,
        planned: &Planned,
        result_dir: &str,
        suite: &Session,
    ) -> Result<PhaseRun, String>;
    /// A phase is on record (every phase in the run, whether its tool ran or not).
    fn done(&mut self, record: &Record);
}

/// What a phase's tool measured: the IO500's figures, and the document's phases (md-workbench's
/// benchmark has two) with the tool's own outcome of the scored one when the tool is one of
/// iogauge's workloads.
#[derive(Debug)]
pub struct PhaseRun {
    pub measured: Measured,
    pub results: Vec<PhaseResult>,
    pub outcome: ToolOutcome,
    /// The signal that cut the tool's phase short (its ranks agreed), if any.
    pub interrupted: Option<i32>,
}

/// The tool's own view of the phase, for the sinks.
#[derive(Debug)]
pub enum ToolOutcome {
    Ior(crate::ior::PhaseOutcome),
    Mdtest(crate::mdtest::PhaseOutcome),
    Find(FindOutcome),
    MdWorkbench(crate::mdworkbench::PhaseOutcome),
    External,
}

impl ToolOutcome {
    pub fn detail(&self) -> Detail<'_> {
        match self {
            ToolOutcome::Ior(o) => Detail::of(o),
            ToolOutcome::Mdtest(o) => Detail::of(o),
            ToolOutcome::Find(o) => Detail::of(o),
            ToolOutcome::MdWorkbench(o) => Detail::of(o),
            ToolOutcome::External => Detail::External,
        }
    }
}

/// A phase's command and, when it will run, its plan.
pub struct Ready {
    pub built: Built,
    pub planned: Option<Planned>,
}

/// Every selected phase that has a command, ready: what [`check`] returns and [`run`] walks.
pub struct Prepared {
    pub phases: Vec<Option<Ready>>,
}

/// One finished phase, as result.txt has it.
#[derive(Debug, Clone)]
pub struct Record {
    pub phase: &'static Phase,
    pub score: f64,
    /// The IO500's wall time around the phase (result.txt's `t_delta`).
    pub runtime_s: f64,
    pub valid: bool,
    /// Why the phase is invalid (result.txt's `; ERROR INVALID` lines).
    pub invalid: Vec<String>,
    pub warnings: Vec<String>,
    /// `exe` (None for phases without a command).
    pub exe: Option<String>,
    /// The tool ran (not disabled, not a dry run).
    pub ran: bool,
    /// The tool failed with this error.
    pub error: Option<String>,
}

/// The whole run.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub records: Vec<Record>,
    pub scores: Scores,
    pub validity: Validity,
    pub hash: u32,
    /// `[SCOREX]` and its hash in extended mode.
    pub extended: Option<(Scores, u32)>,
    pub config_hash: u32,
    /// Why the whole run is invalid (dry run, stonewall setting, ...).
    pub run_invalid: Vec<String>,
    pub data_dir: String,
    pub result_dir: String,
    /// What the clean-up left behind.
    pub cleanup_warnings: Vec<String>,
    /// md-workbench's counts as derived from mdtest-easy-write (extended mode).
    pub mdworkbench: MdWorkbenchPlan,
    /// The signal that stopped the run (the phases after the cut one did not run).
    pub interrupted: Option<i32>,
}

impl Outcome {
    /// Phases whose tool failed.
    pub fn failures(&self) -> impl Iterator<Item = (&str, &str)> {
        self.records
            .iter()
            .filter_map(|r| Some((r.phase.name, r.error.as_deref()?)))
    }
}

/// The phases this run walks, in order.
fn selected(s: &Settings) -> impl Iterator<Item = &'static Phase> + '_ {
    PHASES.iter().filter(move |p| {
        p.runnable() && p.in_mode(s.mode) && (!s.cleanup_only || p.kind & REMOVE != 0)
    })
}

/// Runs the IO500 with the plans [`check`] made, reporting through `session` from start to
/// end. `Err` is bad input or an unusable directory found before any benchmark I/O (the
/// session has not started then).
pub fn run(
    s: &Settings,
    prepared: &Prepared,
    driver: &mut dyn Driver,
    session: &Session,
) -> Result<Outcome, String> {
    let cfg = &s.config;
    let mut layout = Layout::resolve(cfg, &s.timestamp);
    let stonewall = cfg.i64("debug", "stonewall-time").unwrap_or(300);
    let minwrite = validity::minwrite(cfg.bool("global", "scc"));
    let w = where_(s, &layout);
    let built = &prepared.phases;
    if !s.dry_run && !s.cleanup_only {
        make_data_dirs(s, &mut layout, built, driver)?;
    }
    if !s.dry_run {
        make_result_dir(s, &mut layout)?;
    }
    session.hub().start();
    let mut out = Text { session };
    let config_hash = cfg.hash();
    out.txt("[run]\n");
    out.txt(&pair("procs", s.ranks));
    out.txt(&pair("version", &s.version));
    out.txt(&pair("config-hash", format!("{config_hash:X}")));
    out.txt(&pair("result-dir", &layout.result));
    out.txt(&pair("mode", s.mode.label()));
    let mut validity = Validity::default();
    let mut run_invalid = Vec::new();
    let mut invalid_run = |out: &mut Text, reason: &str| {
        out.invalid("run", reason);
        run_invalid.push(reason.to_string());
    };
    if s.dry_run {
        invalid_run(&mut out, validity::DRY_RUN);
    }
    if cfg.get("debug", "pause-dir").is_some() {
        invalid_run(&mut out, validity::PAUSING);
    }
    if s.verbosity > 0 {
        out.txt(&format!("; START {}\n", local_now(IO500_DATE_FORMAT)));
    }
    out.summary(&format::summary_header(&s.version, s.mode.label()));
    // What the IO500's validate() functions report.
    if let Some(r) = validity::stonewall_setting(stonewall, minwrite) {
        invalid_run(&mut out, &r);
    }
    if argv::files_per_dir(cfg).is_some() && !s.cleanup_only {
        invalid_run(&mut out, validity::FILES_PER_DIR);
    }
    if !run_invalid.is_empty() {
        validity.invalidate_run();
    }
    for r in built.iter().flatten() {
        for e in &r.built.early_warnings {
            out.warning(e);
        }
    }
    out.txt("\n");

    let mut records = Vec::new();
    let mut wrote = Wrote::default();
    let mut mdworkbench = MdWorkbenchPlan::from_config(cfg);
    let mut warned = false;
    let mut stop = interrupt::Stop::default();
    // One sampler for the whole suite: the phases' tools record on this session's counters.
    session.sampled(|| {
        for (phase, b) in selected(s).zip(built) {
            let counted;
            let b = match (phase.how, b) {
                (How::MdWorkbench(step), Some(r)) => {
                    let (plan, warned) = (&mut mdworkbench, &mut warned);
                    counted = mdwb::ready(s, phase, step, r, &w, plan, warned);
                    Some(&counted)
                }
                (_, b) => b.as_ref(),
            };
            let b = b.map(|r| (&r.built, r.planned.as_ref()));
            if stop.before(phase, &wrote) {
                stop.clean_up(phase, b, &w, driver, session);
                continue;
            }
            let (mut rec, ran) = run_phase(s, phase, b, &w, minwrite, &mut out, driver);
            stop.after(&mut rec, ran.as_ref(), &mut out);
            if phase.how == How::Mdtest(Family::Easy, MdStep::Create) && rec.ran {
                mdworkbench.derive_once(rec.score, stonewall, s.ranks);
            }
            if rec.ran {
                note_write(phase, &mut wrote);
            }
            if !rec.valid {
                validity.invalid_phase(phase);
            }
            record(session, &rec, ran);
            driver.done(&rec);
            records.push(rec);
        }
    });

    if let Some(reason) = stop.reason() {
        out.invalid("run", &reason);
        out.summary(&format!("\n[INTERRUPTED] {reason}\n"));
        run_invalid.push(reason);
        validity.invalidate_run();
    }
    let scored: Vec<Scored> = records
        .iter()
        .map(|r| Scored {
            phase: r.phase,
            score: r.score,
        })
        .collect();
    let scores = aggregate(&scored, false);
    let hash = hash::standard(&s.version, &scored, &scores, validity.run);
    out.txt(&format::score_section(false, &scores, validity.run, hash));
    out.summary(&format::score_line(false, &scores, validity.run));
    let extended = (s.mode == Mode::Extended).then(|| {
        let x = aggregate(&scored, true);
        let hx = hash::extended(&scored, &x, validity.extended);
        out.txt(&format::score_section(true, &x, validity.extended, hx));
        out.summary(&format::score_line(true, &x, validity.extended));
        (x, hx)
    });

    let cleanup_warnings = if s.dry_run {
        Vec::new()
    } else {
        if s.cleanup_only {
            layout.adopt_existing();
            wrote = Wrote {
                ior_easy: true,
                ior_hard: true,
                mdtest_easy: true,
                mdtest_hard: true,
            };
        }
        layout.cleanup(cfg, s.ranks, wrote)
    };
    if s.verbosity > 0 {
        out.txt(&format!("; END {}\n", local_now(IO500_DATE_FORMAT)));
    }
    let outcome = Outcome {
        records,
        scores,
        validity,
        hash,
        extended,
        config_hash,
        run_invalid,
        data_dir: layout.data.clone(),
        result_dir: layout.result.clone(),
        cleanup_warnings,
        mdworkbench,
        interrupted: stop.signal,
    };
    finish(session, &outcome);
    Ok(outcome)
}

/// `$D`, `$R`, the timestamp, the stonewall and the ranks the phases' commands are built with.
fn where_(s: &Settings, layout: &Layout) -> Where {
    Where {
        data: layout.data.clone(),
        result: layout.result.clone(),
        timestamp: s.timestamp.clone(),
        stonewall: s.config.i64("debug", "stonewall-time").unwrap_or(300),
        ranks: s.ranks,
    }
}

/// A finished phase in the document: its IO500 figures, and its measured phase (if its tool is
/// one of iogauge's workloads) as the phase's event.
fn record(session: &Session, r: &Record, ran: Option<PhaseRun>) {
    let unit = if r.phase.unit() == ScoreUnit::GibPerS.label() {
        ScoreUnit::GibPerS
    } else {
        ScoreUnit::Kiops
    };
    let mut hub = session.hub();
    hub.doc_mut()
        .io500
        .get_or_insert_with(Default::default)
        .phases
        .push(Io500Phase {
            phase: r.phase.name.to_string(),
            score: r.score,
            unit,
            time_s: r.runtime_s,
            valid: r.valid,
            invalid: r.invalid.clone(),
            ran: r.ran,
            error: r.error.clone(),
        });
    let Some(PhaseRun {
        results, outcome, ..
    }) = ran
    else {
        return;
    };
    for mut p in results {
        p.io500_phase = Some(r.phase.name.to_string());
        // The suite's hub checks the phase again, under its IO500 name and against the
        // suite's other phases (a read against its write).
        p.alerts.clear();
        p.warnings
            .extend(r.invalid.iter().map(|w| format!("INVALID: {w}")));
        p.warnings.extend(r.warnings.iter().cloned());
        hub.phase_end(p, outcome.detail());
    }
}

/// The scores into the document; the run ends with status 1 when a phase's tool failed or data
/// did not verify.
fn finish(session: &Session, o: &Outcome) {
    let agg = |sc: &Scores, valid: bool, hash: u32| Io500Score {
        bandwidth_gib_s: sc.bw,
        iops_kiops: sc.md,
        total: sc.total,
        valid,
        hash: format!("{hash:X}"),
        text: [cf(sc.bw), cf(sc.md), cf(sc.total)],
    };
    let mut hub = session.hub();
    let doc = hub.doc_mut();
    let io500 = doc.io500.get_or_insert_with(Default::default);
    io500.score = Some(agg(&o.scores, o.validity.run, o.hash));
    io500.scorex = o
        .extended
        .as_ref()
        .map(|(x, hx)| agg(x, o.validity.extended, *hx));
    io500.run_invalid = o.run_invalid.clone();
    doc.warnings
        .extend(o.run_invalid.iter().map(|r| format!("INVALID run: {r}")));
    doc.warnings.extend(o.cleanup_warnings.iter().cloned());
    let failed = o.failures().next().is_some();
    let code = crate::session::exit_code(failed, doc.verification_errors, o.interrupted);
    if let Some(sig) = o.interrupted {
        let name = exec::interrupt::signal_name(sig);
        doc.mark_invalid(format!("interrupted by {name}"));
    }
    hub.end(i32::from(code), None);
}

/// Creates `$R`, the result files (so that a directory that cannot be written is bad input,
/// before any benchmark I/O), `config-orig.ini` and `config.ini` (in `--cleanup` mode only `$R`:
/// the delete phases' own files are all that is written; the earlier run's result files stay).
fn make_result_dir(s: &Settings, layout: &mut Layout) -> Result<(), String> {
    layout
        .make_result_dir()
        .map_err(|e| format!("io500: resultdir: {e}"))?;
    if s.cleanup_only {
        return Ok(());
    }
    let write = |name: &str, text: &str| {
        let path = layout.result_path(name);
        std::fs::write(&path, text)
            .map_err(|e| format!("io500: cannot write {}: {e}", path.display()))
    };
    write("result_summary.txt", "")?;
    write("result.txt", "")?;
    write("config-orig.ini", &s.original_ini)?;
    write("config.ini", &s.config.resolved_ini())
}

/// The write phases own the files the clean-up removes.
fn note_write(phase: &Phase, wrote: &mut Wrote) {
    use super::phases::{IorStep, MdStep};
    match phase.how {
        How::Ior(Family::Easy, IorStep::Write) => wrote.ior_easy = true,
        How::Ior(Family::Hard, IorStep::Write) => wrote.ior_hard = true,
        How::Mdtest(Family::Easy, MdStep::Create) => wrote.mdtest_easy = true,
        How::Mdtest(Family::Hard, MdStep::Create) => wrote.mdtest_hard = true,
        _ => {}
    }
}

mod interrupt;
mod mdwb;
mod prepare;
mod step;
mod text;
pub use prepare::check;
use prepare::make_data_dirs;
use step::run_phase;
