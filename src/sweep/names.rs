//! What a name in `--vary` means for the workload after `--`: one of its options as typed
//! there without dashes (`t`, `transferSize` for ior; `n`, `z` for mdtest), or one of
//! iogauge's own (`tasks`, `fake-nodes`). A point's value is appended to the workload's
//! command line, where the last occurrence of an option wins; a flag takes `on` or `off`
//! (written `-F=1`, `-F=0`).

use crate::optparse::{Arg, Table};

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

/// The knob `name` turns for `tool`; Err names the problem (bad usage).
pub fn resolve(tool: &str, name: &str) -> Result<Knob, String> {
    match tool {
        "ior" => in_table(&crate::ior::cli::options::TABLE, name),
        "mdtest" => in_table(&crate::mdtest::cli::options::TABLE, name),
        "md-workbench" => in_table(&crate::mdworkbench::cli::options::TABLE, name),
        "mix" => in_table(&crate::mix::cli::options::TABLE, name),
        "startup" => startup_knob(name),
        "find" | "io500" => match name {
            "tasks" => Ok(Knob {
                option: "--tasks".into(),
                identity: "--tasks".into(),
                flag: false,
                global: false,
            }),
            "fake-nodes" => Ok(Knob {
                option: "--fake-nodes".into(),
                identity: "--fake-nodes".into(),
                flag: false,
                global: true,
            }),
            _ => Err(format!(
                "--vary {name}: {tool} runs are varied over tasks and fake-nodes only"
            )),
        },
        other => Err(format!(
            "the command after -- is `{other}`; a sweep runs ior, mdtest, md-workbench, mix, startup, find or io500"
        )),
    }
}

/// `iogauge startup` has long options only; its flags (`--keep`, `--per-rank`) say nothing
/// about the storage, so they are not varied.
fn startup_knob(name: &str) -> Result<Knob, String> {
    use crate::startup::cli::{FLAGS, KNOWN};
    let option = format!("--{name}");
    if name == "fake-nodes" {
        return Ok(Knob {
            identity: option.clone(),
            option,
            flag: false,
            global: true,
        });
    }
    if KNOWN.contains(&option.as_str()) && !FLAGS.contains(&option.as_str()) {
        return Ok(Knob {
            identity: option.clone(),
            option,
            flag: false,
            global: false,
        });
    }
    let names = KNOWN
        .iter()
        .filter(|k| !FLAGS.contains(k))
        .map(|k| k.trim_start_matches('-'))
        .chain(["fake-nodes"]);
    let hint = text::suggest(name, names)
        .map(|s| format!("; did you mean {s}?"))
        .unwrap_or_default();
    Err(format!(
        "--vary {name}: startup has no option --{name} that takes a value (`iogauge startup --help` lists them){hint}"
    ))
}

fn in_table<T: Copy + PartialEq, G>(table: &Table<T, G>, name: &str) -> Result<Knob, String> {
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
mod tests {
    use super::*;

    #[test]
    fn options_as_typed() {
        let t = resolve("ior", "t").unwrap();
        assert_eq!((t.option.as_str(), t.flag), ("-t", false));
        assert_eq!(t.words("t", "64k").unwrap(), ["-t", "64k"]);
        assert_eq!(
            resolve("ior", "transferSize").unwrap().option,
            "--transferSize"
        );
        let f = resolve("ior", "F").unwrap();
        assert!(f.flag);
        assert_eq!(f.words("F", "on").unwrap(), ["-F=1"]);
        assert_eq!(f.words("F", "off").unwrap(), ["-F=0"]);
        assert!(f.words("F", "maybe").unwrap_err().contains("on and off"));
        assert_eq!(resolve("mdtest", "n").unwrap().option, "-n");
        assert!(resolve("mdtest", "u").unwrap().flag);
        assert_eq!(resolve("ior", "tasks").unwrap().option, "--tasks");
        assert_eq!(resolve("ior", "fake-nodes").unwrap().option, "--fake-nodes");
        assert!(resolve("find", "fake-nodes").unwrap().global);
        assert_eq!(
            resolve("mix", "step-seconds").unwrap().option,
            "--step-seconds"
        );
        assert_eq!(
            resolve("startup", "common-size").unwrap().option,
            "--common-size"
        );
        assert_eq!(resolve("startup", "tasks").unwrap().option, "--tasks");
        assert!(resolve("startup", "fake-nodes").unwrap().global);
    }

    #[test]
    fn unknown_names_are_refused_by_name() {
        let e = resolve("ior", "transfersize").unwrap_err();
        assert!(e.contains("ior has no option -transfersize"), "{e}");
        assert!(e.contains("did you mean transferSize"), "{e}");
        assert!(resolve("ior", "c")
            .unwrap_err()
            .contains("does not take it"));
        assert!(resolve("find", "name")
            .unwrap_err()
            .contains("tasks and fake-nodes only"));
        let e = resolve("startup", "keep").unwrap_err();
        assert!(e.contains("no option --keep that takes a value"), "{e}");
        assert!(resolve("startup", "comon-size")
            .unwrap_err()
            .contains("did you mean common-size"));
        assert!(resolve("fio", "t")
            .unwrap_err()
            .contains("a sweep runs ior"));
    }
}
