//! The presets: plain TOML files under `presets/` in the repository, compiled in, so `preset
//! show` prints exactly the file a user copies and changes (`docs/presets.md`).

use std::collections::BTreeMap;

use serde::Deserialize;

/// Every preset file (`presets/*.toml`), in the order of their names, which `preset list`
/// keeps (`build.rs`).
const FILES: &[&str] = include!(concat!(env!("OUT_DIR"), "/presets.rs"));

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Preset {
    pub name: String,
    pub summary: String,
    /// The benchmark, rules or report the preset follows.
    pub source: String,
    /// What it measures, in a paragraph (read in the file itself: `preset show`).
    #[allow(dead_code)]
    pub about: String,
    /// Ranks unless `--tasks` says otherwise; none: the workload's default.
    pub tasks: Option<usize>,
    #[serde(default)]
    pub vars: BTreeMap<String, Var>,
    #[serde(rename = "step")]
    pub steps: Vec<Step>,
    #[serde(default)]
    pub cleanup: Cleanup,
}

/// A value the commands use as `{name}`: the full size, the small one (`--small`), or a
/// multiple of the node's memory.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Var {
    pub full: Option<String>,
    pub small: String,
    /// Bytes per rank: this many times MemTotal, shared by the ranks, in whole MiB.
    pub memory: Option<f64>,
    pub about: String,
}

/// One command of the preset: a run, or a sweep when it varies something.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub name: String,
    pub command: Vec<String>,
    #[serde(default)]
    pub vary: Vec<String>,
    pub repeat: Option<u32>,
}

/// Test files the steps keep (`-k`) and the preset removes at its end: exact paths.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cleanup {
    #[serde(default)]
    pub remove: Vec<String>,
}

/// The presets with their file text.
pub fn all() -> Vec<(Preset, &'static str)> {
    FILES
        .iter()
        .map(|text| {
            let p: Preset = toml::from_str(text)
                .unwrap_or_else(|e| panic!("a preset file under presets/ does not parse: {e}"));
            (p, *text)
        })
        .collect()
}

pub fn find(name: &str) -> Result<(Preset, &'static str), String> {
    let all = all();
    let names: Vec<String> = all.iter().map(|(p, _)| p.name.clone()).collect();
    all.into_iter()
        .find(|(p, _)| p.name == name)
        .ok_or_else(|| {
            let hint = text::suggest(name, names.iter().map(String::as_str))
                .map(|s| format!("; did you mean {s}?"))
                .unwrap_or_default();
            format!("no preset {name} (iogauge preset list names them){hint}")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_parses_and_names_itself_uniquely() {
        let all = all();
        assert_eq!(all.len(), FILES.len());
        let mut names: Vec<&str> = all.iter().map(|(p, _)| p.name.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all.len());
        for (p, _) in &all {
            assert!(
                !p.source.trim().is_empty() && !p.steps.is_empty(),
                "{}",
                p.name
            );
            for v in p.vars.values() {
                assert!(
                    v.full.is_some() != v.memory.is_some(),
                    "{}: full or memory",
                    p.name
                );
            }
            for step in &p.steps {
                let tool = step.command.first().map(String::as_str).unwrap_or("");
                assert!(
                    crate::command::registry::find(tool).is_some(),
                    "{}: `{tool}` is no workload",
                    p.name
                );
            }
        }
        assert!(find("ior-esay")
            .unwrap_err()
            .contains("did you mean ior-easy"));
    }
}
