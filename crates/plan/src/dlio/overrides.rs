//! Hydra's overrides as DLIO's command line takes them, and what they do to the YAML tree:
//! `++workload.k=v` sets (adding the key if needed), `+workload.k=v` adds a key that must not
//! be there yet, `workload.k=v` replaces a key that must be there, `workload=NAME` selects the
//! config. Hydra refuses the other two cases; so does iogauge, with the fix.

use yaml_rust2::yaml::Hash;
use yaml_rust2::{Yaml, YamlLoader};

use super::error::{ConfigError, ErrorKind};
use super::keys;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverrideKind {
    /// `+key=value`: adds a key that is not in the config.
    Add,
    /// `++key=value`: sets a key, present or not.
    Force,
    /// `key=value`: replaces a key that is in the config.
    Replace,
}

/// One key override: `path` is inside the workload (`dataset.num_files_train`).
#[derive(Debug, Clone, PartialEq)]
pub struct Override {
    pub kind: OverrideKind,
    pub path: String,
    pub value: Yaml,
    /// The word as given.
    pub text: String,
}

/// A word of DLIO's command line after the program: a key override or the config's choice.
#[derive(Debug, Clone, PartialEq)]
pub enum Word {
    Select(String),
    Set(Override),
}

/// A word is an override (rather than a workload name or path) when it has Hydra's form.
pub fn is_override(word: &str) -> bool {
    word.contains('=') || word.starts_with('+') || word.starts_with('~')
}

/// Parses one override word.
pub fn parse(word: &str) -> Result<Word, ConfigError> {
    let err = |m: String| ConfigError::general(ErrorKind::Override, format!("{word}: {m}"));
    if word.starts_with('~') {
        return Err(err(
            "deleting a key (~) is not supported; set it with ++".into()
        ));
    }
    let (kind, rest) = if let Some(r) = word.strip_prefix("++") {
        (OverrideKind::Force, r)
    } else if let Some(r) = word.strip_prefix('+') {
        (OverrideKind::Add, r)
    } else {
        (OverrideKind::Replace, word)
    };
    let Some((key, text)) = rest.split_once('=') else {
        return Err(err(
            "expected key=value (++workload.reader.read_threads=8)".into()
        ));
    };
    if key == "workload" {
        return match kind {
            OverrideKind::Replace if !text.is_empty() => Ok(Word::Select(text.to_string())),
            _ => Err(err("select the config with workload=NAME".into())),
        };
    }
    if key == "hydra" || key.starts_with("hydra.") {
        return Err(err(
            "Hydra's own settings are not used; the output directory is --output DIR".into(),
        ));
    }
    let Some(path) = key.strip_prefix("workload.") else {
        return Err(err(format!(
            "DLIO's keys are under workload. (++workload.{key}={text})"
        )));
    };
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(err("an empty key".into()));
    }
    Ok(Word::Set(Override {
        kind,
        path: path.to_string(),
        value: scalar(text),
        text: word.to_string(),
    }))
}

/// The value as Hydra reads it: YAML's scalars (`True`, `64`, `1.0`, `null`, quoted text);
/// empty text is an empty string.
fn scalar(text: &str) -> Yaml {
    if text.is_empty() {
        return Yaml::String(String::new());
    }
    match YamlLoader::load_from_str(text) {
        Ok(mut docs) if docs.len() == 1 => docs.remove(0),
        _ => Yaml::String(text.to_string()),
    }
}

/// Applies `o` to the workload's tree (the YAML's top mapping).
pub(super) fn apply(tree: &mut Hash, o: &Override) -> Result<(), ConfigError> {
    let parts: Vec<&str> = o.path.split('.').collect();
    let (leaf, sections) = parts.split_last().expect("a path has a key");
    let mut node = tree;
    let mut walked = String::new();
    for part in sections {
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(part);
        let k = Yaml::String(part.to_string());
        if !node.contains_key(&k) {
            if o.kind == OverrideKind::Replace {
                return Err(absent(o));
            }
            node.insert(k.clone(), Yaml::Hash(Hash::new()));
        }
        // `reader:` with nothing under it is an empty section.
        if let Some(v @ Yaml::Null) = node.get_mut(&k) {
            *v = Yaml::Hash(Hash::new());
        }
        match node.get_mut(&k) {
            Some(Yaml::Hash(h)) => node = h,
            _ => {
                return Err(ConfigError::at(
                    ErrorKind::Override,
                    &walked,
                    format!("{} sets a key under a value that is not a section", o.text),
                ))
            }
        }
    }
    // The key in the spelling the config already uses, so both spellings name one key.
    let prefix = sections.join(".");
    let full = |name: &str| match prefix.as_str() {
        "" => name.to_string(),
        p => format!("{p}.{name}"),
    };
    let spellings: Vec<&str> = keys::find(&o.path)
        .map(|k| {
            [Some(k.path), k.alias]
                .into_iter()
                .flatten()
                .map(|p| p.rsplit('.').next().unwrap_or(p))
                .collect()
        })
        .unwrap_or_default();
    let target = spellings
        .into_iter()
        .find(|name| node.contains_key(&Yaml::String(name.to_string())))
        .unwrap_or(leaf)
        .to_string();
    let is_there = node.contains_key(&Yaml::String(target.clone()));
    match (o.kind, is_there) {
        (OverrideKind::Add, true) => Err(ConfigError::general(
            ErrorKind::Override,
            format!(
                "{}: workload.{} is already in the config (Hydra refuses +); use +{}",
                o.text,
                full(&target),
                o.text
            ),
        )),
        (OverrideKind::Replace, false) => Err(absent(o)),
        _ => {
            node.insert(Yaml::String(target), o.value.clone());
            Ok(())
        }
    }
}

fn absent(o: &Override) -> ConfigError {
    ConfigError::general(
        ErrorKind::Override,
        format!(
            "{}: workload.{} is not in the config (Hydra refuses to replace it); add it with ++{}",
            o.text, o.path, o.text
        ),
    )
}
