//! From DLIO's command-line words to [`DlioParams`]: the config (a shipped name or a YAML
//! file), Hydra's overrides on its tree, then one walk of the tree through the key table.

use std::path::{Path, PathBuf};

use yaml_rust2::yaml::Hash;
use yaml_rust2::{Yaml, YamlLoader};

use super::error::{ConfigError, ErrorKind};
use super::keys::{self, Handling};
use super::overrides::{self, Override, Word};
use super::{rules, shipped, value, DataLoader, DlioParams, Framework};

/// Where the config came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A config shipped in the binary (`workloads/dlio/NAME.yaml`).
    Shipped(String),
    /// A DLIO workload YAML file.
    File(PathBuf),
}

/// A loaded config: the resolved parameters, where the config came from, and the key
/// overrides applied to it, as given.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded {
    pub params: DlioParams,
    pub source: Source,
    pub overrides: Vec<String>,
}

/// Loads the config that `words` name: one workload (a shipped name, a path to a YAML file,
/// or `workload=NAME`) and any number of Hydra overrides, in any order.
pub fn load(words: &[String]) -> Result<Loaded, ConfigError> {
    let mut selected: Option<String> = None;
    let mut sets: Vec<Override> = Vec::new();
    for w in words {
        let choice = if overrides::is_override(w) {
            match overrides::parse(w)? {
                Word::Set(o) => {
                    sets.push(o);
                    continue;
                }
                Word::Select(name) => name,
            }
        } else {
            w.clone()
        };
        match &selected {
            Some(first) if *first != choice => {
                return Err(ConfigError::general(
                    ErrorKind::Override,
                    format!("two workloads given: {first} and {choice}; give one"),
                ))
            }
            _ => selected = Some(choice),
        }
    }
    let Some(selected) = selected else {
        return Err(ConfigError::general(
            ErrorKind::NotFound,
            format!(
                "no workload given: one of {}, or a path to a DLIO workload YAML",
                list()
            ),
        ));
    };
    let (text, source) = read(&selected)?;
    let name = match &source {
        Source::Shipped(n) => n.clone(),
        Source::File(p) => p.display().to_string(),
    };
    let params = resolve(&text, &name, &sets)?;
    Ok(Loaded {
        params,
        source,
        overrides: sets.into_iter().map(|o| o.text).collect(),
    })
}

/// The parameters of one workload YAML text (a DLIO workload file, or a resolved
/// `config.yaml` under `workload:`), without overrides.
pub fn parse_yaml(text: &str) -> Result<DlioParams, ConfigError> {
    resolve(text, "the workload YAML", &[])
}

fn resolve(text: &str, name: &str, sets: &[Override]) -> Result<DlioParams, ConfigError> {
    let mut tree = parse_tree(text, name)?;
    for o in sets {
        overrides::apply(&mut tree, o)?;
    }
    let mut params = DlioParams::default();
    walk(&tree, "", &mut params)?;
    // DLIO's default loader is a plain string that its framework check never matches, so a
    // config without one (MLPerf Storage's datagen files) passes; here it is the framework's.
    let reader = tree.get(&Yaml::String("reader".into()));
    let has_loader = matches!(reader, Some(Yaml::Hash(r)) if r.contains_key(&Yaml::String("data_loader".into())));
    if !has_loader {
        params.reader.data_loader = match params.framework {
            Framework::Pytorch => DataLoader::Pytorch,
            Framework::Tensorflow => DataLoader::Tensorflow,
        };
    }
    rules::check_values(&params)?;
    Ok(params)
}

fn list() -> String {
    shipped::names().collect::<Vec<_>>().join(", ")
}

/// A path is a word with a `/` or a YAML extension; anything else is a shipped name.
fn read(selected: &str) -> Result<(String, Source), ConfigError> {
    let is_path =
        selected.contains('/') || selected.ends_with(".yaml") || selected.ends_with(".yml");
    if !is_path {
        if let Some(text) = shipped::get(selected) {
            return Ok((text.to_string(), Source::Shipped(selected.to_string())));
        }
        if let Some(why) = shipped::refused(selected) {
            return Err(ConfigError::general(ErrorKind::Unsupported, why));
        }
        let hint = text::suggest(selected, shipped::names())
            .map(|n| format!("did you mean {n}? "))
            .unwrap_or_default();
        let message = format!(
            "{selected}: not a shipped workload; {hint}shipped: {}; or give a path to a DLIO \
             workload YAML",
            list()
        );
        return Err(ConfigError::general(ErrorKind::NotFound, message));
    }
    let path = Path::new(selected);
    if let Some(why) = path
        .file_stem()
        .and_then(|s| shipped::refused_file(&s.to_string_lossy()))
    {
        return Err(ConfigError::general(ErrorKind::Unsupported, why));
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        ConfigError::general(
            ErrorKind::NotFound,
            format!("{selected}: cannot read it: {e}"),
        )
    })?;
    Ok((text, Source::File(path.to_path_buf())))
}

/// The workload's top mapping. A resolved `config.yaml` (ours or DLIO's Hydra output) holds
/// it under `workload:`; that form is read too.
fn parse_tree(text: &str, name: &str) -> Result<Hash, ConfigError> {
    let syntax = |m: String| ConfigError::general(ErrorKind::Syntax, format!("{name}: {m}"));
    let mut docs = YamlLoader::load_from_str(text).map_err(|e| syntax(e.to_string()))?;
    let doc = match docs.len() {
        0 => Yaml::Hash(Hash::new()),
        1 => docs.remove(0),
        n => return Err(syntax(format!("{n} YAML documents; a workload is one"))),
    };
    let Yaml::Hash(mut top) = doc else {
        return Err(syntax(
            "not a mapping of DLIO's sections (model:, dataset:, ...)".into(),
        ));
    };
    let wrapper = Yaml::String("workload".into());
    if top.len() == 1 && matches!(top.get(&wrapper), Some(Yaml::Hash(_))) {
        if let Some(Yaml::Hash(inner)) = top.remove(&wrapper) {
            top = inner;
        }
    }
    Ok(top)
}

/// Sets `p` from the mapping at `prefix` ("" for the top), key by key.
fn walk(node: &Hash, prefix: &str, p: &mut DlioParams) -> Result<(), ConfigError> {
    let mut seen: Vec<&'static str> = Vec::new();
    for (k, v) in node {
        let name = value::text(prefix, k).map_err(|_| {
            ConfigError::general(
                ErrorKind::Syntax,
                format!(
                    "workload.{prefix}: a key that is not text ({})",
                    value::shown(k)
                ),
            )
        })?;
        let path = match prefix {
            "" => name.clone(),
            _ => format!("{prefix}.{name}"),
        };
        if let Some(key) = keys::find(&path) {
            if seen.contains(&key.path) {
                let both = [Some(key.path), key.alias].into_iter().flatten();
                let both: Vec<String> = both.map(|p| format!("workload.{p}")).collect();
                return Err(ConfigError::at(
                    ErrorKind::BadValue,
                    &path,
                    format!("given twice, as {}; give one", both.join(" and ")),
                ));
            }
            seen.push(key.path);
            apply(&key.handling, &path, v, p)?;
        } else if keys::is_section(&path) {
            match v {
                Yaml::Hash(h) => walk(h, &path, p)?,
                Yaml::Null => {}
                v => {
                    return Err(ConfigError::at(
                        ErrorKind::Syntax,
                        &path,
                        format!("a section of keys, not {}", value::shown(v)),
                    ))
                }
            }
        } else {
            let hint = match text::suggest(&name, keys::children(prefix)) {
                Some(s) => format!("; did you mean {s}?"),
                None => String::new(),
            };
            return Err(ConfigError::at(
                ErrorKind::UnknownKey,
                &path,
                format!("not a key of DLIO's workload config{hint}"),
            ));
        }
    }
    Ok(())
}

fn apply(h: &Handling, path: &str, v: &Yaml, p: &mut DlioParams) -> Result<(), ConfigError> {
    match h {
        Handling::Refused(why) => Err(ConfigError::at(ErrorKind::Unsupported, path, why)),
        Handling::Set(_) if matches!(v, Yaml::Hash(_) | Yaml::Array(_)) => Err(ConfigError::at(
            ErrorKind::Unsupported,
            path,
            format!("{} is not supported here; give one value", value::shown(v)),
        )),
        Handling::Set(set) => set(p, path, v),
        Handling::DefaultOnly(default) if is_default(v, default) => Ok(()),
        Handling::DefaultOnly(default) => Err(ConfigError::at(
            ErrorKind::Unsupported,
            path,
            format!(
                "{}: iogauge dlio does not emulate this DLIO setting; only DLIO's default \
                 ({default}) is accepted",
                value::shown(v)
            ),
        )),
    }
}

/// `v` is DLIO's default `default` (YAML text), read as that default's type.
fn is_default(v: &Yaml, default: &str) -> bool {
    match Yaml::from_str(default) {
        Yaml::Boolean(b) => value::boolean("", v).is_ok_and(|x| x == b),
        d @ (Yaml::Integer(_) | Yaml::Real(_)) => {
            value::real("", v).is_ok_and(|x| Some(x) == value::real("", &d).ok())
        }
        Yaml::Null => matches!(v, Yaml::Null),
        d => value::text("", v).is_ok_and(|x| value::text("", &d).is_ok_and(|y| x == y)),
    }
}
