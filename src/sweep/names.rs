//! What a name in `--vary` means for the workload after `--`: one of its options as typed
//! there without dashes (`t`, `transferSize` for ior; `n`, `z` for mdtest), or one of
//! iogauge's own (`tasks`, `fake-nodes`). A point's value is appended to the workload's
//! command line, where the last occurrence of an option wins; a flag takes `on` or `off`
//! (written `-F=1`, `-F=0`).

use cmdline::optparse::{Arg, Table};

/// How one varied name is written into a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Knob {
    /// `-t`, `--transferSize`, `--tasks`.
    pub option: String,
    /// Which option it is, whatever the spelling (`-b` and `--blockSize` are one): a table
    /// entry's letter and long name, or `option`.
    pub identity: String,
    pub flag: bool,
    /// Goes before the tool's name (`iogauge --fake-nodes 2 find ...`): an iogauge option the
    /// tool's own parser does not take.
    pub global: bool,
}

impl Knob {
    /// The words a value adds; Err for a flag value that is neither on nor off.
    pub fn words(&self, name: &str, value: &str) -> Result<Vec<String>, String> {
        if !self.flag {
            return Ok(vec![self.option.clone(), value.to_string()]);
        }
        let n = match value.to_ascii_lowercase().as_str() {
            "on" | "yes" | "true" => "1".to_string(),
            "off" | "no" | "false" => "0".to_string(),
            v if v.parse::<u32>().is_ok() => v.to_string(),
            _ => {
                return Err(format!(
                    "--vary {name}={value}: {} is a flag; its values are on and off",
                    self.option
                ))
            }
        };
        Ok(vec![format!("{}={n}", self.option)])
    }
}

/// The knobs of a workload varied over its ranks only: `tasks` and `fake-nodes`.
pub fn ranks_knob(tool: &str, name: &str) -> Result<Knob, String> {
    match name {
        "tasks" => Ok(Knob {
            option: "--tasks".into(),
            identity: "--tasks".into(),
            flag: false,
            global: false,
        }),
        "fake-nodes" => Ok(fake_nodes()),
        _ => Err(format!(
            "--vary {name}: {tool} runs are varied over tasks and fake-nodes only"
        )),
    }
}

/// `--fake-nodes`, an iogauge option before the workload's name.
pub fn fake_nodes() -> Knob {
    Knob {
        option: "--fake-nodes".into(),
        identity: "--fake-nodes".into(),
        flag: false,
        global: true,
    }
}

/// The knob of a workload whose options are `--name value` words (`known`), `flags` among
/// them, which say nothing about the storage and are not varied.
pub fn long_option(tool: &str, name: &str, known: &[&str], flags: &[&str]) -> Result<Knob, String> {
    let option = format!("--{name}");
    if name == "fake-nodes" {
        return Ok(fake_nodes());
    }
    if known.contains(&option.as_str()) && !flags.contains(&option.as_str()) {
        return Ok(Knob {
            identity: option.clone(),
            option,
            flag: false,
            global: false,
        });
    }
    let names = known
        .iter()
        .filter(|k| !flags.contains(k))
        .map(|k| k.trim_start_matches('-'))
        .chain(["fake-nodes"]);
    let hint = text::suggest(name, names)
        .map(|s| format!("; did you mean {s}?"))
        .unwrap_or_default();
    Err(format!(
        "--vary {name}: {tool} has no option --{name} that takes a value (`iogauge {tool} --help` lists them){hint}"
    ))
}

/// The knob of an IOR-style workload: an option of its table, by letter or long name.
pub fn in_table<T: Copy + PartialEq, G>(table: &Table<T, G>, name: &str) -> Result<Knob, String> {
    let mut chars = name.chars();
    let spec = match (chars.next(), chars.next()) {
        (Some(c), None) => table.by_short(c).map(|s| (s, format!("-{c}"))),
        _ => table.by_long(name).map(|s| (s, format!("--{name}"))),
    };
    if let Some((spec, option)) = spec {
        return Ok(Knob {
            option,
            identity: format!("{:?}/{:?}", spec.short, spec.long),
            flag: spec.arg == Arg::Flag,
            global: false,
        });
    }
    let tool = table.tool;
    let mut letters = name.chars();
    let refused = match (letters.next(), letters.next()) {
        (Some(c), None) => table.refused_short(c),
        _ => table.refused_long(name),
    };
    if let Some(r) = refused {
        return Err(format!(
            "--vary {name}: {tool} does not take it here: {}",
            r.reason
        ));
    }
    let names = table
        .options
        .iter()
        .flat_map(|o| o.long.into_iter())
        .chain(["tasks", "fake-nodes"]);
    let hint = text::suggest(name, names)
        .map(|s| format!("; did you mean {s}?"))
        .unwrap_or_default();
    Err(format!(
        "--vary {name}: {tool} has no option -{name} or --{name} (`iogauge {tool} --help` lists them){hint}"
    ))
}

#[cfg(test)]
#[path = "names_tests.rs"]
mod tests;
