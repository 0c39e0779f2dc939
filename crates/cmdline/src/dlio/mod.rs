//! `iogauge dlio`'s command line: `iogauge dlio WORKLOAD [OVERRIDES...] [OPTIONS]` runs a
//! DLIO workload; `iogauge dlio datasize WORKLOAD --accelerators N --hosts H --host-memory
//! SIZE` sizes MLPerf Storage's minimum data set for a system being planned. The words that
//! are not options are DLIO's own (the workload and Hydra's overrides, `plan::dlio::load`);
//! the options are iogauge's. The help texts are in `help.rs`, the datasize report in
//! `datasize.rs`.

mod datasize;
mod help;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

use plan::dlio::datasize::System;
use plan::dlio::{ConfigError, DlioParams, Source};

pub use crate::optparse::UsageError;
use crate::Launch;
pub use datasize::report as datasize_report;
pub use help::{DATASIZE_HELP, HELP};

/// A parsed `iogauge dlio` line: a run, or the data set calculator.
#[derive(Debug, Clone, PartialEq)]
pub enum DlioLine {
    Run(DlioCommand),
    Datasize(DatasizeCommand),
}

/// `iogauge dlio WORKLOAD [OVERRIDES...]`: the resolved config and iogauge's options.
#[derive(Debug, Clone, PartialEq)]
pub struct DlioCommand {
    /// With `--data-dir` in `dataset.data_folder` and `--output` in `output.folder`.
    pub params: DlioParams,
    /// Where the config came from; `None` with `--help` alone.
    pub source: Option<Source>,
    /// The Hydra overrides, as given.
    pub overrides: Vec<String>,
    /// `--tasks` (the emulated accelerators), `--fake-nodes`, `--fake-placement`, `--json`,
    /// `--help`.
    pub launch: Launch,
    /// `--keep`: a checkpoint run leaves the checkpoint files it wrote (for a later run that
    /// reads them, as MLPerf Storage's submissions split write and read).
    pub keep: bool,
}

/// `iogauge dlio datasize WORKLOAD --accelerators N --hosts H --host-memory SIZE`.
#[derive(Debug, Clone, PartialEq)]
pub struct DatasizeCommand {
    pub params: DlioParams,
    /// `None` with `--help`.
    pub source: Option<Source>,
    pub overrides: Vec<String>,
    /// Zero with `--help`.
    pub system: System,
    pub help: bool,
}

/// Every option of a run, for suggestions.
pub const RUN_OPTIONS: [&str; 9] = [
    "--output",
    "--data-dir",
    "--keep",
    "--tasks",
    "--fake-nodes",
    "--fake-placement",
    "--json",
    "--help",
    "-h",
];
/// Every option of `datasize`.
pub const DATASIZE_OPTIONS: [&str; 5] =
    ["--accelerators", "--hosts", "--host-memory", "--help", "-h"];

fn usage(message: impl std::fmt::Display) -> UsageError {
    UsageError(format!("dlio: {message}"))
}

fn config(e: ConfigError) -> UsageError {
    usage(e)
}

/// An option and its value, and the words that are not options.
struct Split {
    options: Vec<(String, Option<String>)>,
    words: Vec<String>,
}

/// Takes the options out (`--name value`, `--name=value`; `-h`/`--help` take none); every
/// other word is DLIO's. An option of another mode is named as such.
fn split(args: &[String], known: &[&str], other: (&str, &[&str])) -> Result<Split, UsageError> {
    let mut s = Split {
        options: Vec::new(),
        words: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if !arg.starts_with('-') {
            s.words.push(arg.clone());
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        if name == "-h" || name == "--help" || name == "--keep" {
            if inline.is_some() {
                return Err(usage(format!("{name} takes no value")));
            }
            let flag = if name == "--keep" { name } else { "--help" };
            s.options.push((flag.into(), None));
            continue;
        }
        if !known.contains(&name) {
            let (mode, theirs) = other;
            let hint = if theirs.contains(&name) {
                format!("; {name} is an option of {mode}")
            } else {
                match text::suggest(name, known.iter().copied()) {
                    Some(k) => format!("; did you mean {k}?"),
                    None => "; see iogauge dlio --help".into(),
                }
            };
            return Err(usage(format!("unknown option {arg}{hint}")));
        }
        let value = match inline.or_else(|| it.next().cloned()) {
            Some(v) if !v.is_empty() => v,
            _ => return Err(usage(format!("{name} needs a value"))),
        };
        if s.options.iter().any(|(n, _)| n == name) {
            return Err(usage(format!("{name} is given twice")));
        }
        s.options.push((name.to_string(), Some(value)));
    }
    Ok(s)
}

fn whole(name: &str, v: &str) -> Result<u64, UsageError> {
    match v.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(usage(format!(
            "{name} {v}: expected a whole number of 1 or more"
        ))),
    }
}

/// Parses the words after `dlio`.
pub fn parse(args: &[String]) -> Result<DlioLine, UsageError> {
    if args.first().map(String::as_str) == Some("datasize") {
        return parse_datasize(&args[1..]).map(DlioLine::Datasize);
    }
    parse_run(args).map(DlioLine::Run)
}

fn parse_run(args: &[String]) -> Result<DlioCommand, UsageError> {
    let s = split(args, &RUN_OPTIONS, ("datasize", &DATASIZE_OPTIONS))?;
    let mut launch = Launch::default();
    let (mut output, mut data_dir, mut keep) = (None, None, false);
    for (name, value) in s.options {
        let v = value.unwrap_or_default();
        match name.as_str() {
            "--help" => launch.help = true,
            "--keep" => keep = true,
            "--tasks" => launch.tasks = Some(whole(&name, &v)? as usize),
            "--fake-nodes" => launch.fake_nodes = Some(whole(&name, &v)? as usize),
            "--fake-placement" => {
                launch.round_robin = match v.to_ascii_lowercase().as_str() {
                    "block" => false,
                    "round-robin" | "roundrobin" => true,
                    _ => return Err(usage(format!("{name} {v}: expected block or round-robin"))),
                }
            }
            "--json" => launch.json = Some(PathBuf::from(v)),
            "--output" => output = Some(v),
            _ => data_dir = Some(v),
        }
    }
    if launch.help {
        let params = DlioParams::default();
        return Ok(DlioCommand {
            params,
            source: None,
            overrides: Vec::new(),
            launch,
            keep,
        });
    }
    for (given, key, option) in [
        (&data_dir, "dataset.data_folder", "--data-dir"),
        (&output, "output.folder", "--output"),
    ] {
        if given.is_some() && overrides_key(&s.words, key) {
            return Err(usage(format!(
                "{option} and an override of workload.{key} are both given; give one"
            )));
        }
    }
    let loaded = plan::dlio::load(&s.words).map_err(config)?;
    let mut params = loaded.params;
    if let Some(d) = data_dir {
        let stripped = d.trim_end_matches('/');
        params.dataset.data_folder = if stripped.is_empty() {
            "/".into()
        } else {
            stripped.into()
        };
    }
    if output.is_some() {
        params.output.folder = output;
    }
    params.check_runnable().map_err(config)?;
    if keep && !params.is_checkpoint_run() {
        return Err(usage(
            "--keep applies to a checkpoint run (workflow.checkpoint True, train False): \
             training and generation leave their data set in place anyway",
        ));
    }
    Ok(DlioCommand {
        params,
        source: Some(loaded.source),
        overrides: loaded.overrides,
        launch,
        keep,
    })
}

/// One of `words` is an override of `key` (`dataset.data_folder`).
fn overrides_key(words: &[String], key: &str) -> bool {
    words
        .iter()
        .filter(|w| plan::dlio::is_override(w))
        .any(|w| {
            let k = w.trim_start_matches('+').split('=').next().unwrap_or("");
            k.strip_prefix("workload.") == Some(key)
        })
}

fn parse_datasize(args: &[String]) -> Result<DatasizeCommand, UsageError> {
    let s = split(args, &DATASIZE_OPTIONS, ("a run", &RUN_OPTIONS))?;
    let mut system = System {
        accelerators: 0,
        hosts: 0,
        host_memory_bytes: 0,
    };
    let mut help = false;
    for (name, value) in s.options {
        let v = value.unwrap_or_default();
        match name.as_str() {
            "--help" => help = true,
            "--accelerators" => system.accelerators = whole(&name, &v)?,
            "--hosts" => system.hosts = whole(&name, &v)?,
            _ => system.host_memory_bytes = host_memory(&v)?,
        }
    }
    if help {
        let params = DlioParams::default();
        return Ok(DatasizeCommand {
            params,
            source: None,
            overrides: Vec::new(),
            system,
            help,
        });
    }
    for (n, name) in [
        (
            system.accelerators,
            "--accelerators N (the emulated accelerators of all hosts)",
        ),
        (system.hosts, "--hosts H (the client hosts)"),
        (
            system.host_memory_bytes,
            "--host-memory SIZE (each host's memory, e.g. 512g)",
        ),
    ] {
        if n == 0 {
            return Err(usage(format!("datasize needs {name}")));
        }
    }
    let loaded = plan::dlio::load(&s.words).map_err(config)?;
    Ok(DatasizeCommand {
        params: loaded.params,
        source: Some(loaded.source),
        overrides: loaded.overrides,
        system,
        help,
    })
}

/// A host's memory with its unit: a bare number would be bytes, never what is meant
/// (mlpstorage's `--client-host-memory-in-gb 512` is `512g` here).
fn host_memory(v: &str) -> Result<u64, UsageError> {
    if v.trim().ends_with(|c: char| c.is_ascii_digit()) {
        return Err(usage(format!(
            "--host-memory {v}: give the unit (512g is 512 GiB, as mlpstorage's \
             --client-host-memory-in-gb 512)"
        )));
    }
    match text::parse_size(v) {
        Ok(0) => Err(usage(format!("--host-memory {v}: a host has some memory"))),
        Ok(n) => Ok(n),
        Err(e) => Err(usage(format!("--host-memory {v}: {e}"))),
    }
}
