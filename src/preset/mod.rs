//! `iogauge preset list | show NAME | run NAME [--dir D]`: named workloads from the field
//! (`docs/presets.md`). A preset is a TOML file under `presets/`; running it runs each of its
//! steps as this program again (a plain run, or a sweep when the step varies something), in a
//! directory the preset makes for the run, labelled `preset=NAME`.

mod catalog;
mod vars;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cli::PresetAction;
use crate::world::{usage, Global};
use catalog::{Preset, Step};

pub fn main(action: PresetAction, global: &Global) -> u8 {
    // Under mpirun every task would run the whole preset, and its points would inherit the
    // launcher's environment: it starts its runs itself, once.
    if let Some(l) = crate::launcher::detect(|k| std::env::var(k).ok()) {
        return usage(
            "preset",
            format!(
                "started by {} as one of {} tasks: a preset starts its runs itself; run it once, \
             without mpirun or srun",
                l.launcher, l.tasks
            ),
        );
    }
    match action {
        PresetAction::List => {
            for (p, _) in catalog::all() {
                crate::outln!("{:<18} {}", p.name, p.summary);
                crate::outln!("{:<18} follows: {}", "", first_sentence(&p.source));
            }
            crate::outln!("\n`iogauge preset show NAME` prints a preset's file; `iogauge preset run NAME --dir D` runs it.");
            0
        }
        PresetAction::Show { name } => {
            match catalog::find(&name) {
                Ok((p, text)) => {
                    crate::out!("{text}");
                    let given = global.setup.tasks.or(p.tasks);
                    let ranks = rank_words(given, global.setup.fake_nodes);
                    let tasks = given.unwrap_or(1);
                    match vars::resolve(&p, false, &[], tasks, vars::mem_total()) {
                        Ok(values) => {
                            crate::outln!("\n# On this machine, with {tasks} ranks (DIR: the run's directory):");
                            for (k, v) in &values {
                                crate::outln!("#   {{{k}}} = {v}: {}", p.vars[k].about);
                            }
                            for s in &p.steps {
                                match step_line(s, &values, Path::new("DIR")) {
                                    Ok(line) => crate::outln!("#   iogauge {ranks}{line}"),
                                    Err(e) => return usage("preset", e),
                                }
                            }
                        }
                        Err(e) => crate::outln!("\n# {e}"),
                    }
                    0
                }
                Err(e) => usage("preset", e),
            }
        }
        PresetAction::Run {
            name,
            dir,
            small,
            set,
            dry_run,
        } => run(global, &name, dir.as_deref(), small, &set, dry_run),
    }
}

/// The source up to its first colon or parenthesis: the name of what a preset follows.
fn first_sentence(source: &str) -> &str {
    source.split([':', '(']).next().unwrap_or(source).trim()
}

/// A step's arguments after `iogauge`: `sweep --vary ... -- COMMAND` or the command itself.
fn step_args(
    s: &Step,
    values: &BTreeMap<String, String>,
    dir: &Path,
) -> Result<Vec<String>, String> {
    let mut values = values.clone();
    values.insert("dir".into(), dir.to_string_lossy().into_owned());
    let command = s
        .command
        .iter()
        .map(|w| vars::substitute(w, &values))
        .collect::<Result<Vec<_>, _>>()?;
    if s.vary.is_empty() {
        return Ok(command);
    }
    let mut out = vec!["sweep".to_string()];
    for v in &s.vary {
        out.push(format!("--vary={}", vars::substitute(v, &values)?));
    }
    if let Some(r) = s.repeat {
        out.push(format!("--repeat={r}"));
    }
    out.push("--".into());
    out.extend(command);
    Ok(out)
}

fn step_line(s: &Step, values: &BTreeMap<String, String>, dir: &Path) -> Result<String, String> {
    Ok(step_args(s, values, dir)?
        .iter()
        .map(|a| text::shell_quote(a))
        .collect::<Vec<_>>()
        .join(" "))
}

/// The ranks a step runs with: `--tasks N --fake-nodes K` (each when set), the arguments
/// `run_steps` passes.
fn rank_args(tasks: Option<usize>, fake_nodes: Option<usize>) -> Vec<String> {
    let mut a = Vec::new();
    if let Some(t) = tasks {
        a.extend(["--tasks".to_string(), t.to_string()]);
    }
    if let Some(k) = fake_nodes {
        a.extend(["--fake-nodes".to_string(), k.to_string()]);
    }
    a
}

/// [`rank_args`] as the start of a printed command line (`--tasks 4 `), so a printed line is
/// the command that runs.
fn rank_words(tasks: Option<usize>, fake_nodes: Option<usize>) -> String {
    rank_args(tasks, fake_nodes)
        .iter()
        .map(|w| format!("{w} "))
        .collect()
}

fn parse_sets(set: &[String]) -> Result<Vec<(String, String)>, String> {
    set.iter()
        .map(|s| {
            s.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .filter(|(k, v)| !k.is_empty() && !v.is_empty())
                .ok_or_else(|| format!("--set {s}: expected NAME=VALUE"))
        })
        .collect()
}

fn run(
    global: &Global,
    name: &str,
    dir: Option<&Path>,
    small: bool,
    set: &[String],
    dry_run: bool,
) -> u8 {
    let (preset, _) = match catalog::find(name) {
        Ok(p) => p,
        Err(e) => return usage("preset", e),
    };
    let sets = match parse_sets(set) {
        Ok(s) => s,
        Err(e) => return usage("preset", e),
    };
    let tasks = global.setup.tasks.or(preset.tasks);
    let values = match vars::resolve(&preset, small, &sets, tasks.unwrap_or(1), vars::mem_total()) {
        Ok(v) => v,
        Err(e) => return usage("preset", format!("{name}: {e}")),
    };
    let base = dir
        .map(Path::to_path_buf)
        .unwrap_or_else(std::env::temp_dir);
    if !base.is_dir() {
        return usage(
            "preset",
            format!(
                "--dir {}: no such directory (create it first)",
                base.display()
            ),
        );
    }
    if global.storing.is_off() && preset.steps.iter().any(|s| !s.vary.is_empty()) {
        return usage(
            "preset",
            format!("{name} sweeps, and a sweep is its stored runs: drop --no-store"),
        );
    }
    // Every command is checked for its placeholders before anything runs.
    for s in &preset.steps {
        if let Err(e) = step_args(s, &values, &base) {
            return usage("preset", format!("{name}, step {}: {e}", s.name));
        }
    }
    let ranks = rank_words(tasks, global.setup.fake_nodes);
    if dry_run {
        for s in &preset.steps {
            let line =
                step_line(s, &values, &base.join("iogauge-preset-…")).expect("checked above");
            crate::outln!("{}: iogauge {ranks}{line}", s.name);
        }
        return 0;
    }
    let work = match tempfile::Builder::new()
        .prefix(&format!("iogauge-preset-{name}-"))
        .tempdir_in(&base)
    {
        Ok(d) => d.keep(),
        Err(e) => {
            return usage(
                "preset",
                format!("cannot create a directory in {}: {e}", base.display()),
            )
        }
    };
    crate::outln!("preset {name}: in {}", work.display());
    let code = run_steps(global, &preset, &values, &work, tasks);
    tidy(&preset, &values, &work);
    code
}

fn run_steps(
    global: &Global,
    preset: &Preset,
    values: &BTreeMap<String, String>,
    work: &Path,
    tasks: Option<usize>,
) -> u8 {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("iogauge preset: cannot find this program: {e}");
            return 1;
        }
    };
    let opts = crate::global_opts::extract(std::env::args().skip(1).collect())
        .map(|(_, o)| o)
        .unwrap_or_default();
    for s in &preset.steps {
        let args = step_args(s, values, work).expect("checked before the run");
        let mut cmd = Command::new(&exe);
        match global.storing.path() {
            Ok(db) if !global.storing.is_off() => {
                cmd.arg("--db").arg(db);
            }
            _ => {
                cmd.arg("--no-store");
            }
        }
        for l in &global.storing.labels {
            cmd.arg(format!("--label={l}"));
        }
        cmd.arg(format!("--label=preset={}", preset.name));
        cmd.arg(format!("--label=preset.step={}", s.name));
        if let Some(mode) = &opts.drop_caches {
            cmd.arg(format!("--drop-caches={mode}"));
        }
        for w in &opts.warn {
            cmd.arg(format!("--warn={w}"));
        }
        if opts.quiet {
            cmd.arg("--quiet");
        }
        cmd.args(rank_args(tasks, global.setup.fake_nodes));
        cmd.args(&args);
        crate::outln!(
            "\n== {} / {}: iogauge {}{}",
            preset.name,
            s.name,
            rank_words(tasks, global.setup.fake_nodes),
            step_line(s, values, work).expect("checked")
        );
        let status = match cmd.status() {
            Ok(s) => s,
            Err(e) => {
                eprintln!("iogauge preset: cannot start {}: {e}", exe.display());
                return 1;
            }
        };
        if !status.success() {
            let code = status.code().map_or(130, |c| u8::try_from(c).unwrap_or(1));
            eprintln!(
                "iogauge preset: {} step {} ended with status {code}; the steps after it did not run",
                preset.name, s.name
            );
            return code;
        }
    }
    0
}

/// Removes the files the preset names for removal and the directories the run left empty in
/// its own directory; files a workload kept stay, and the directory with them.
fn tidy(preset: &Preset, values: &BTreeMap<String, String>, work: &Path) {
    let mut values = values.clone();
    values.insert("dir".into(), work.to_string_lossy().into_owned());
    for r in &preset.cleanup.remove {
        if let Ok(path) = vars::substitute(r, &values) {
            let path = PathBuf::from(path);
            if path.starts_with(work) {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
    remove_empty_dirs(work);
    if work.exists() {
        eprintln!(
            "iogauge preset: {} is left: it holds files the workloads kept",
            work.display()
        );
    }
}

/// Depth first, `remove_dir` only: a directory that still holds a file stays.
fn remove_empty_dirs(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                remove_empty_dirs(&e.path());
            }
        }
    }
    let _ = std::fs::remove_dir(dir);
}
