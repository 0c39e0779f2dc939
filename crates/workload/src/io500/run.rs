//! The runner (`main.c`): walks the phase table in order, writes result.txt and
//! result_summary.txt as phases finish, and cleans up. Running one ior/mdtest/find phase on
//! the ranks is the [`Driver`]'s job (the binary parses the IO500 argv with the `iogauge ior`,
//! `mdtest` and `find` parsers and runs the workloads); everything IO500-specific is here.

use std::io::Write;

use super::argv::{self, Built, Where};
use super::clock::{local_now, DATE};
use super::config::Config;
use super::format::{self, pair};
use super::hash;
use super::layout::{Layout, Wrote};
use super::measured::Measured;
use super::phases::{Family, How, Mode, Phase, PHASES, REMOVE};
use super::score::{aggregate, Scored, Scores};
use super::validity::{self, Validity};

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

/// Runs one phase's tool on the ranks.
pub trait Driver {
    /// Parses and checks a phase's command without I/O; an error is bad input (status 2).
    fn check(&mut self, phase: &Phase, built: &Built) -> Result<(), String>;
    /// Checks a write phase against the file system once `$D` exists (its files must not exist
    /// yet); an error is bad input (status 2).
    fn preflight(&mut self, phase: &Phase, built: &Built) -> Result<(), String>;
    /// Runs the phase on `built.ranks` ranks; its text output and per-rank CSV go to
    /// `result_dir/<phase>.txt|.csv`. An error means the phase could not run to its end.
    fn run(&mut self, phase: &Phase, built: &Built, result_dir: &str) -> Result<Measured, String>;
    /// A phase is finished (every phase in the run, whether its tool ran or not).
    fn done(&mut self, record: &Record);
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
}

impl Outcome {
    /// Phases whose tool failed.
    pub fn failures(&self) -> impl Iterator<Item = (&str, &str)> {
        self.records
            .iter()
            .filter_map(|r| Some((r.phase.name, r.error.as_deref()?)))
    }
}

/// result.txt, result_summary.txt and the console. In a dry run nothing is written to disk:
/// result.txt's text goes to the console and the summary follows it at the end.
struct Out<'a> {
    txt: Option<std::fs::File>,
    summary: Option<std::fs::File>,
    console: &'a mut dyn Write,
    dry: bool,
    held_summary: String,
}

impl Out<'_> {
    fn txt(&mut self, s: &str) {
        match &mut self.txt {
            Some(f) => drop(f.write_all(s.as_bytes())),
            None if self.dry => drop(self.console.write_all(s.as_bytes())),
            None => {}
        }
    }
    /// `dupprintf`: result_summary.txt and stdout.
    fn summary(&mut self, s: &str) {
        if let Some(f) = &mut self.summary {
            let _ = f.write_all(s.as_bytes());
        }
        if self.dry {
            self.held_summary.push_str(s);
        } else {
            self.console(s);
        }
    }
    fn console(&mut self, s: &str) {
        let _ = self.console.write_all(s.as_bytes());
        let _ = self.console.flush();
    }
    fn invalid(&mut self, context: &str, reason: &str) {
        self.txt(&format::invalid_comment(reason));
        if !self.dry {
            self.console(&format!("ERROR INVALID ({context}) {reason}\n"));
        }
    }
    fn warning(&mut self, text: &str) {
        self.txt(&format::warning_comment(text));
        if !self.dry {
            self.console(&format!("WARNING {text}\n"));
        }
    }
}

/// The phases this run walks, in order.
fn selected(s: &Settings) -> impl Iterator<Item = &'static Phase> + '_ {
    PHASES.iter().filter(move |p| {
        p.runnable() && p.in_mode(s.mode) && (!s.cleanup_only || p.kind & REMOVE != 0)
    })
}

/// Runs the IO500. `Err` is bad input or an unusable directory found before any benchmark I/O.
pub fn run(
    s: &Settings,
    driver: &mut dyn Driver,
    console: &mut dyn Write,
) -> Result<Outcome, String> {
    let cfg = &s.config;
    let mut layout = Layout::resolve(cfg, &s.timestamp);
    let stonewall = cfg.i64("debug", "stonewall-time").unwrap_or(300);
    let minwrite = validity::minwrite(cfg.bool("global", "scc"));
    let w = Where {
        data: layout.data.clone(),
        result: layout.result.clone(),
        timestamp: s.timestamp.clone(),
        stonewall,
        ranks: s.ranks,
    };
    let built = prepare(s, &w, driver)?;
    let mut out = Out {
        txt: None,
        summary: None,
        console,
        dry: s.dry_run,
        held_summary: String::new(),
    };
    if !s.dry_run && !s.cleanup_only {
        make_data_dirs(s, &mut layout, &built, driver)?;
    }
    if !s.dry_run {
        open_result_files(s, &mut layout, &mut out)?;
    }
    let config_hash = cfg.hash();
    out.txt("[run]\n");
    out.txt(&pair("procs", s.ranks));
    out.txt(&pair("version", &s.version));
    out.txt(&pair("config-hash", format!("{config_hash:X}")));
    out.txt(&pair("result-dir", &layout.result));
    out.txt(&pair("mode", s.mode.label()));
    let mut validity = Validity::default();
    let mut run_invalid = Vec::new();
    let mut invalid_run = |out: &mut Out, reason: &str| {
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
        out.txt(&format!("; START {}\n", local_now(DATE)));
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
    for b in built.iter().flatten() {
        for e in &b.early_warnings {
            out.warning(e);
        }
    }
    out.txt("\n");

    let mut records = Vec::new();
    let mut wrote = Wrote::default();
    for (phase, b) in selected(s).zip(&built) {
        let rec = run_phase(s, phase, b.as_ref(), &w, minwrite, &mut out, driver);
        if rec.ran {
            note_write(phase, &mut wrote);
        }
        if !rec.valid {
            validity.invalid_phase(phase);
        }
        driver.done(&rec);
        records.push(rec);
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
        out.txt(&format!("; END {}\n", local_now(DATE)));
    }
    if s.dry_run {
        let held = std::mem::take(&mut out.held_summary);
        out.console(&format!("\n{held}"));
    }
    Ok(Outcome {
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
    })
}

/// Creates `$R`, opens the result files, writes `config-orig.ini` and `config.ini` (in
/// `--cleanup` mode only `$R`: the delete phases' own files are all that is written).
fn open_result_files(s: &Settings, layout: &mut Layout, out: &mut Out) -> Result<(), String> {
    layout
        .make_result_dir()
        .map_err(|e| format!("io500: resultdir: {e}"))?;
    if s.cleanup_only {
        // The earlier run's result files stay as they are; the summary goes to the console.
        return Ok(());
    }
    let create = |name: &str| {
        let path = layout.result_path(name);
        std::fs::File::create(&path)
            .map_err(|e| format!("io500: cannot write {}: {e}", path.display()))
    };
    out.summary = Some(create("result_summary.txt")?);
    out.txt = Some(create("result.txt")?);
    create("config-orig.ini")?
        .write_all(s.original_ini.as_bytes())
        .map_err(|e| format!("io500: config-orig.ini: {e}"))?;
    create("config.ini")?
        .write_all(s.config.resolved_ini().as_bytes())
        .map_err(|e| format!("io500: config.ini: {e}"))?;
    Ok(())
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

mod prepare;
mod step;
pub use prepare::check;
use prepare::{make_data_dirs, prepare};
use step::run_phase;
