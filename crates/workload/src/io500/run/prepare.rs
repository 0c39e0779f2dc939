//! Before any benchmark I/O: every phase's command built and parsed, the write phases checked
//! against the data directory once it exists. Every error here is bad input (exit status 2).

use super::{selected, where_, Driver, Prepared, Ready, Settings};
use crate::io500::argv::{self, Where};
use crate::io500::config::Config;
use crate::io500::layout::{Layout, Wrote};
use crate::io500::phases::{How, Mode, Phase, WRITE};

/// Checks before any I/O, builds every command and lets the driver parse it into its plan, once.
/// Errors are bad input (exit status 2).
fn prepare(s: &Settings, w: &Where, driver: &mut dyn Driver) -> Result<Vec<Option<Ready>>, String> {
    let cfg = &s.config;
    if w.stonewall < 1 {
        return Err(format!(
            "[debug] stonewall-time = {}: must be at least 1 s (0 would let every write phase run until its data is exhausted)",
            w.stonewall
        ));
    }
    if s.mode == Mode::Extended
        && cfg.get("mdworkbench", "precreatePerSet").is_some()
            != cfg.get("mdworkbench", "filesPerProc").is_some()
    {
        return Err("[mdworkbench]: set both or none of filesPerProc and precreatePerSet".into());
    }
    let mut built = Vec::new();
    for p in selected(s) {
        let Some(b) = argv::build(p, cfg, w).map_err(|e| format!("io500: {e}"))? else {
            built.push(None);
            continue;
        };
        let will_run = match p.how {
            How::Find(_) => cfg.bool(p.name, "run"),
            _ => cfg.runs(p.name),
        };
        let planned = if will_run {
            let planned = driver.plan(p, &b).map_err(|e| {
                format!(
                    "io500: [{}] {e}{} (from: {})",
                    p.name,
                    api_hint(cfg, p, &e),
                    b.command.exe()
                )
            })?;
            Some(planned)
        } else {
            None
        };
        built.push(Some(Ready { built: b, planned }));
    }
    Ok(built)
}

/// When a tool refused an option of the phase's `API`, where that API came from and how to
/// give this phase a plain one.
fn api_hint(cfg: &Config, p: &Phase, error: &str) -> String {
    let api = cfg.api_for(p.name);
    let mut options = api.split(' ').filter(|t| !t.is_empty()).skip(1);
    if !options.any(|o| error.contains(o.split('=').next().unwrap_or(o))) {
        return String::new();
    }
    let own = [Some(p.name), p.parent]
        .into_iter()
        .flatten()
        .find(|sec| cfg.get(sec, "API").is_some());
    let from = own.map_or("[global] api".to_string(), |sec| format!("[{sec}] API"));
    let name = api.split(' ').next().unwrap_or("POSIX");
    let target = own.unwrap_or(p.parent.unwrap_or(p.name));
    format!(
        "\n  (the option comes from {from} = {api}; to run {} without it, set API = {name} in [{target}])",
        p.name
    )
}

/// The checks before [`super::run`] (no I/O): every phase's command built, parsed into its plan
/// and checked, once.
pub fn check(s: &Settings, driver: &mut dyn Driver) -> Result<Prepared, String> {
    let layout = Layout::resolve(&s.config, &s.timestamp);
    let phases = prepare(s, &where_(s, &layout), driver)?;
    Ok(Prepared { phases })
}

/// Creates `$D` and its phase directories, then lets the write phases check that nothing of
/// theirs exists yet: the clean-up may then remove what they write. A refusal removes the
/// directories again and is bad input (exit status 2), before any file is written.
pub(super) fn make_data_dirs(
    s: &Settings,
    layout: &mut Layout,
    built: &[Option<Ready>],
    driver: &mut dyn Driver,
) -> Result<(), String> {
    let made = layout.make_data_dirs();
    layout.note_mdtest_dirs();
    let mut result = made.map_err(|e| format!("io500: datadir: {e}"));
    for (p, b) in selected(s).zip(built) {
        let Some(Ready {
            planned: Some(planned),
            ..
        }) = b.as_ref().filter(|_| result.is_ok())
        else {
            continue;
        };
        if p.kind & WRITE != 0 && s.config.runs(p.name) {
            result = driver
                .preflight(p, planned)
                .map_err(|e| format!("io500: [{}] {e}", p.name));
        }
    }
    if result.is_err() {
        layout.cleanup(&s.config, s.ranks, Wrote::default());
    }
    result
}
