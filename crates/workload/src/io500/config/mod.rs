//! The IO500 configuration: the `.ini` schema, parser, hashes and printed forms, compatible
//! with IO500 HEAD `02091cf` (reference `io500.md` §4.4, §6).
//!
//! * [`SECTIONS`] is the one ordered table of sections and keys (`--list` order).
//! * [`Config::parse`] applies IO500's line rules exactly; errors carry the line number and a
//!   nearest-name suggestion. Values are kept as the strings IO500 keeps (booleans as
//!   `TRUE`/`FALSE`), because the config-hash is computed over those strings.
//! * [`Config::hash`] is the `config-hash` of result.txt; [`fold`] and [`kv`] also serve the
//!   score hash. [`template`] is `io500 --list`, [`Config::resolved_ini`] the `config.ini` of
//!   the result directory.

mod hash;
mod parse;
mod schema;
mod template;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_output;

use std::fmt;

pub use hash::{fold, kv};
pub use schema::{KeySpec, Kind, SectionSpec, SECTIONS};
pub use template::{template, template_mandatory};

use schema::{key_index, section_index};

/// A bad `.ini` line or value: the 1-based line (None for [`Config::set`]) and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    pub line: Option<usize>,
    pub message: String,
}

impl ConfigError {
    /// The message naming the real file: `my.ini:12: unknown key ...`.
    pub fn in_file(&self, file: &str) -> String {
        match self.line {
            Some(n) => format!("{file}:{n}: {}", self.message),
            None => format!("{file}: {}", self.message),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(n) => write!(f, "config.ini:{n}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Resolved values for every key of [`SECTIONS`] (None = unset), and the text they came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    values: Vec<Vec<Option<String>>>,
    raw: String,
}

/// The (section, key) indices of a name pair; an unknown name is a programming error.
fn locate(section: &str, key: &str) -> (usize, usize) {
    let s = section_index(section).unwrap_or_else(|| panic!("no IO500 section [{section}]"));
    let k = key_index(s, key).unwrap_or_else(|| panic!("no key '{key}' in IO500 [{section}]"));
    (s, k)
}

fn phase_index(phase: &str) -> usize {
    section_index(phase).unwrap_or_else(|| panic!("no IO500 section [{phase}]"))
}

impl Config {
    /// Every key at its IO500 default; `raw_text()` is empty.
    pub fn defaults() -> Config {
        let values = SECTIONS
            .iter()
            .map(|s| {
                s.keys
                    .iter()
                    .map(|k| k.default.map(str::to_string))
                    .collect()
            })
            .collect();
        Config {
            values,
            raw: String::new(),
        }
    }

    /// Parses an IO500 `.ini` text (reference §6.1): the defaults, overridden line by line.
    pub fn parse(text: &str) -> Result<Config, ConfigError> {
        let mut config = Config::defaults();
        parse::parse_into(text, &mut config.values)?;
        config.raw = text.to_string();
        Ok(config)
    }

    /// The text given to [`Config::parse`] (IO500's `config-orig.ini`); `""` for defaults.
    pub fn raw_text(&self) -> &str {
        &self.raw
    }

    /// The resolved value, None when unset. Names are case-insensitive.
    ///
    /// # Panics
    /// On a section or key that is not in [`SECTIONS`].
    pub fn get(&self, section: &str, key: &str) -> Option<&str> {
        let (s, k) = locate(section, key);
        self.values[s][k].as_deref()
    }

    /// A boolean key; unset counts as false.
    pub fn bool(&self, section: &str, key: &str) -> bool {
        self.get(section, key) == Some("TRUE")
    }

    /// An integer or size (`2m`, `9920000m`: k/m/g/t/p = powers of 1024, as IOR); None when
    /// unset or not a size. [`Config::try_u64`] says why.
    pub fn u64(&self, section: &str, key: &str) -> Option<u64> {
        self.try_u64(section, key).ok().flatten()
    }

    /// As [`Config::u64`], with an error naming the key when the value is not a size.
    pub fn try_u64(&self, section: &str, key: &str) -> Result<Option<u64>, ConfigError> {
        let Some(value) = self.get(section, key) else {
            return Ok(None);
        };
        parse_size(value).map(Some).map_err(|why| ConfigError {
            line: None,
            message: format!("'{key}' in [{section}]: {why}"),
        })
    }

    /// A signed integer key (`verbosity`, `segmentCount`, ...); None when unset or not one.
    pub fn i64(&self, section: &str, key: &str) -> Option<i64> {
        self.get(section, key)?.parse().ok()
    }

    /// A number; None when unset or not a number.
    pub fn f64(&self, section: &str, key: &str) -> Option<f64> {
        self.get(section, key)?.parse().ok()
    }

    /// Sets a value with the parser's checks. As in a file, an empty value changes nothing.
    pub fn set(&mut self, section: &str, key: &str, value: &str) -> Result<(), ConfigError> {
        let err = |message| ConfigError {
            line: None,
            message,
        };
        let s = section_index(section).ok_or_else(|| err(parse::unknown_section(section)))?;
        let k = key_index(s, key).ok_or_else(|| err(parse::unknown_key(s, key)))?;
        if !value.is_empty() {
            self.values[s][k] = Some(parse::checked(s, k, value).map_err(err)?);
        }
        Ok(())
    }

    /// Puts a key back to its default (which may be unset).
    pub fn reset(&mut self, section: &str, key: &str) {
        let (s, k) = locate(section, key);
        self.values[s][k] = SECTIONS[s].keys[k].default.map(str::to_string);
    }

    /// The API string of a phase: its own `API`, else its parent's, else `[global] api`
    /// (IO500 `u_argv_push_default_if_set_api_options`), e.g. `"POSIX --posix.odirect"`.
    pub fn api_for(&self, phase: &str) -> String {
        let s = phase_index(phase);
        let parent = SECTIONS[s].parent.and_then(section_index);
        for sec in [Some(s), parent].into_iter().flatten() {
            if let Some(k) = key_index(sec, "API") {
                if let Some(api) = &self.values[sec][k] {
                    return api.clone();
                }
            }
        }
        self.get("global", "api").unwrap_or("POSIX").to_string()
    }

    /// Whether a phase runs: its own `run` and its parent's `run` are TRUE (a section without
    /// a `run` key counts as TRUE). Mode (standard/extended) is the caller's business.
    ///
    /// IO500 HEAD itself consults only `[mdworkbench] run` for mdworkbench-create, -bench and
    /// -delete (their own `run` is parsed but ignored); this follows the documented rule.
    pub fn runs(&self, phase: &str) -> bool {
        let s = phase_index(phase);
        let run_of = |sec: usize| match key_index(sec, "run") {
            Some(k) => self.values[sec][k].as_deref() == Some("TRUE"),
            None => true,
        };
        let parent_runs = match SECTIONS[s].parent.and_then(section_index) {
            Some(p) => run_of(p),
            None => true,
        };
        run_of(s) && parent_runs
    }

    /// `config.ini` as IO500 writes it to the result directory: `[section]` and resolved
    /// `key = value` lines (unset as `key = `), a blank line after each section, no help.
    pub fn resolved_ini(&self) -> String {
        template::resolved_ini(self)
    }

    /// Every section's keys with their resolved values (None: unset), in the IO500's order:
    /// the document's `parameters.config`, collected into the caller's map types.
    pub fn resolved_sections<C, S>(&self) -> C
    where
        C: FromIterator<(String, S)>,
        S: FromIterator<(String, Option<String>)>,
    {
        SECTIONS
            .iter()
            .zip(&self.values)
            .map(|(sec, values)| {
                let keys = sec.keys.iter().zip(values);
                let keys = keys.map(|(k, v)| (k.name.to_string(), v.clone())).collect();
                (sec.name.to_string(), keys)
            })
            .collect()
    }

    /// The IO500 `config-hash` (reference §4.4); result.txt prints it as `%X`.
    pub fn hash(&self) -> u32 {
        hash::config_hash(&self.values)
    }
}

/// Splits an API string into the API name and its options, at runs of spaces; `\ ` is a
/// space inside an option (`"POSIX --posix.opt=a\ b"` -> `("POSIX", ["--posix.opt=a b"])`).
///
/// IO500 honours `\ ` only when it checks `[global] api`; the argv it hands to IOR/mdtest
/// splits every API string at plain spaces.
pub fn split_api(api: &str) -> (String, Vec<String>) {
    let mut tokens = Vec::new();
    let mut cur = String::new();
    let mut chars = api.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                cur.push(' ');
                chars.next();
            }
            ' ' => {
                if !cur.is_empty() {
                    tokens.push(std::mem::take(&mut cur));
                }
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        tokens.push(cur);
    }
    let mut tokens = tokens.into_iter();
    (tokens.next().unwrap_or_default(), tokens.collect())
}

/// The options of an API string that do not start with `--<api>.` (case-insensitive); IO500
/// warns about each: "Provided API option %s starts with a different prefix and might be not
/// supported - don't worry if you checked!".
pub fn api_prefix_warnings(api: &str) -> Vec<String> {
    let (name, options) = split_api(api);
    let prefix = format!("--{}.", name.to_ascii_lowercase());
    options
        .into_iter()
        .filter(|o| !o.to_ascii_lowercase().starts_with(&prefix))
        .collect()
}

/// IOR's `string_to_bytes` for size keys: digits with an optional k/m/g/t/p suffix (any case,
/// powers of 1024). Negative numbers, junk and overflow are errors.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let (digits, shift) = match t.chars().last().map(|c| c.to_ascii_lowercase()) {
        Some('k') => (&t[..t.len() - 1], 10),
        Some('m') => (&t[..t.len() - 1], 20),
        Some('g') => (&t[..t.len() - 1], 30),
        Some('t') => (&t[..t.len() - 1], 40),
        Some('p') => (&t[..t.len() - 1], 50),
        _ => (t, 0),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "'{text}' is not a size (digits with an optional k, m, g, t or p suffix)"
        ));
    }
    let too_big = || format!("'{text}' is too large for 64 bits");
    let n: u64 = digits.parse().map_err(|_| too_big())?;
    n.checked_mul(1u64 << shift).ok_or_else(too_big)
}
