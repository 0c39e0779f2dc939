//! A sweep's design, stored with it as its `plan`: the workload's command line, the axes, the repeats and
//! the shuffle seed. The key (command, axes, repeats) is what `--resume` matches: the same
//! command line finds the sweep it started.

use serde::{Deserialize, Serialize};
use sweep::Axis;

use super::names::Knob;
use crate::command::registry::knob as resolve;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Design {
    /// The workload's command line after `--`: the tool's name, then its arguments.
    pub command: Vec<String>,
    pub axes: Vec<Axis>,
    pub repeats: u32,
    /// `--shuffle`: the order's seed; None for the plan's order.
    pub seed: Option<u64>,
}

impl Design {
    /// What `--resume` matches.
    pub fn key(&self) -> String {
        serde_json::json!({
            "command": self.command,
            "axes": self.axes,
            "repeats": self.repeats,
        })
        .to_string()
    }

    pub fn tool(&self) -> &str {
        &self.command[0]
    }

    /// Each axis' knob; Err is bad usage naming the first name or value that does not fit.
    pub fn knobs(&self) -> Result<Vec<Knob>, String> {
        let knobs: Vec<Knob> = self
            .axes
            .iter()
            .map(|a| resolve(self.tool(), &a.name))
            .collect::<Result<_, _>>()?;
        for (a, k) in self.axes.iter().zip(&knobs) {
            for v in &a.values {
                k.words(&a.name, v)?;
            }
        }
        let mut seen = std::collections::HashMap::new();
        for (a, k) in self.axes.iter().zip(&knobs) {
            if let Some(first) = seen.insert(&k.identity, &a.name) {
                return Err(format!(
                    "--vary {}: {} is varied twice (also as --vary {first})",
                    a.name, k.option
                ));
            }
        }
        Ok(knobs)
    }

    /// The command line of one point: before the tool's name the global knobs, after its
    /// arguments the others (the last occurrence of an option wins).
    pub fn point_args(&self, knobs: &[Knob], values: &[String]) -> Vec<String> {
        let mut before = Vec::new();
        let mut after = Vec::new();
        for ((a, k), v) in self.axes.iter().zip(knobs).zip(values) {
            let words = k.words(&a.name, v).expect("checked by knobs()");
            if k.global {
                before.extend(words);
            } else {
                after.extend(words);
            }
        }
        let mut out = before;
        out.extend(self.command.iter().cloned());
        out.extend(after);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design(command: &str, axes: &[(&str, &[&str])]) -> Design {
        Design {
            command: command.split_whitespace().map(String::from).collect(),
            axes: axes
                .iter()
                .map(|(n, v)| Axis {
                    name: n.to_string(),
                    values: v.iter().map(|s| s.to_string()).collect(),
                })
                .collect(),
            repeats: 2,
            seed: None,
        }
    }

    #[test]
    fn point_command_lines() {
        let p = design(
            "ior -w -t 1m -o f",
            &[("tasks", &["1", "2"]), ("F", &["on", "off"])],
        );
        let k = p.knobs().unwrap();
        let args = p.point_args(&k, &["2".into(), "off".into()]);
        assert_eq!(args.join(" "), "ior -w -t 1m -o f --tasks 2 -F=0");
        let f = design("find /d", &[("fake-nodes", &["2"])]);
        let k = f.knobs().unwrap();
        assert_eq!(
            f.point_args(&k, &["2".into()]).join(" "),
            "--fake-nodes 2 find /d"
        );
    }

    #[test]
    fn bad_plans() {
        let p = design("ior -w", &[("F", &["on", "sometimes"])]);
        assert!(p.knobs().unwrap_err().contains("on and off"));
        let p = design("ior -w", &[("t", &["1k"]), ("t", &["2k"])]);
        assert!(p.knobs().unwrap_err().contains("varied twice"));
        // Two spellings of one option.
        let p = design("ior -w", &[("b", &["1m"]), ("blockSize", &["2m"])]);
        let e = p.knobs().unwrap_err();
        assert!(
            e.contains("--blockSize is varied twice (also as --vary b)"),
            "{e}"
        );
        let p = design("ior -w", &[("zz9", &["1"])]);
        assert!(p.knobs().unwrap_err().contains("no option -zz9"));
    }

    #[test]
    fn the_key_ignores_the_seed() {
        let a = design("ior -w", &[("t", &["1k"])]);
        let mut b = a.clone();
        b.seed = Some(7);
        assert_eq!(a.key(), b.key());
    }
}
