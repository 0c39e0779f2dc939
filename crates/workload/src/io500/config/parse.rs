//! The `.ini` reader, with IO500's rules (reference §6.1, `src/ini-parse.c`): each line is a
//! section header, a `key = value`, a comment or blank line, or an error. The three POSIX
//! regular expressions are matched by hand:
//!
//! * section: `^\s*\[\s*([0-9a-zA-Z_-]+)\s*\]\s*(\s[#;].*)?$`
//! * key/value: `^\s*([0-9a-zA-Z_.-]+)\s*=\s*([^#;]*)\s*(\s[#;].*)?$`
//! * blank or comment: `^\s*([#;].*)?$`
//!
//! As in IO500, a line with an empty value is skipped before anything else is checked (so
//! `key =` keeps the default even for an unknown key or outside a section), and names match
//! case-insensitively.

use super::schema::{key_index, section_index, Kind, SECTIONS};
use super::ConfigError;

/// What one line of an `.ini` file is.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Line<'a> {
    Section(&'a str),
    Key(&'a str, &'a str),
    Blank,
    Garbage,
}

/// POSIX `[[:space:]]` in the C locale.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn trim_start_space(s: &str) -> &str {
    s.trim_start_matches(|c: char| c.is_ascii() && is_space(c as u8))
}

/// The length of the leading run of bytes accepted by `ok`.
fn span(s: &str, ok: impl Fn(u8) -> bool) -> usize {
    s.bytes().take_while(|&b| ok(b)).count()
}

/// `\s*(\s[#;].*)?$`: nothing but whitespace, or an inline comment preceded by whitespace.
fn is_tail(rest: &str) -> bool {
    let t = trim_start_space(rest);
    t.is_empty() || (t.len() < rest.len() && (t.starts_with('#') || t.starts_with(';')))
}

fn section_line(line: &str) -> Option<&str> {
    let rest = trim_start_space(line).strip_prefix('[')?;
    let rest = trim_start_space(rest);
    let n = span(rest, |b| {
        b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
    });
    if n == 0 {
        return None;
    }
    let (name, rest) = rest.split_at(n);
    let rest = trim_start_space(rest).strip_prefix(']')?;
    is_tail(rest).then_some(name)
}

fn key_line(line: &str) -> Option<(&str, &str)> {
    let rest = trim_start_space(line);
    let n = span(rest, |b| {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
    });
    if n == 0 {
        return None;
    }
    let (name, rest) = rest.split_at(n);
    let after_eq = trim_start_space(rest).strip_prefix('=')?;
    let value = match after_eq.find(['#', ';']) {
        None => after_eq,
        // The comment must follow whitespace, or the line matches nothing.
        Some(p) if p > 0 && is_space(after_eq.as_bytes()[p - 1]) => &after_eq[..p],
        Some(_) => return None,
    };
    // IO500 trims only space, tab and CR from the right of the value.
    let value = trim_start_space(value).trim_end_matches([' ', '\t', '\r']);
    Some((name, value))
}

/// Classifies one line (without its `\n`) as IO500 does, in the same order.
pub(super) fn classify(line: &str) -> Line<'_> {
    if let Some(name) = section_line(line) {
        Line::Section(name)
    } else if let Some((key, value)) = key_line(line) {
        Line::Key(key, value)
    } else {
        let t = trim_start_space(line);
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
            Line::Blank
        } else {
            Line::Garbage
        }
    }
}

/// Checks `value` against the type rule of `kind`; booleans come back as `TRUE`/`FALSE`.
pub(super) fn check_value(kind: Kind, value: &str) -> Result<String, &'static str> {
    let all = |ok: fn(u8) -> bool| !value.is_empty() && value.bytes().all(ok);
    let ok = match kind {
        Kind::Str => true,
        Kind::Int => {
            let digits = value.strip_prefix('-').unwrap_or(value);
            !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
        }
        Kind::UInt => all(|b| b.is_ascii_digit()),
        Kind::Float => all(|b| b.is_ascii_digit() || matches!(b, b'e' | b'.' | b'+' | b'-')),
        Kind::Bool => {
            if value.eq_ignore_ascii_case("true") || value == "1" {
                return Ok("TRUE".into());
            } else if value.eq_ignore_ascii_case("false") || value == "0" {
                return Ok("FALSE".into());
            }
            false
        }
    };
    if ok {
        Ok(value.to_string())
    } else {
        Err(match kind {
            Kind::Int => "an integer (optional '-', then digits)",
            Kind::UInt => "an integer >= 0 (digits only)",
            Kind::Float => "a number (digits, '.', 'e', '+', '-')",
            _ => "a boolean (TRUE, FALSE, 1 or 0, in any case)",
        })
    }
}

/// Sections of earlier IO500 releases that HEAD rejects (reference §1.2: the optional IOR
/// random phases of isc21 ... isc26_v2, removed by `2d57592`).
const REMOVED_SECTIONS: &[&str] = &[
    "ior-rnd",
    "ior-rnd-write",
    "ior-rnd-read",
    "ior-rnd4K",
    "ior-rnd4K-write",
    "ior-rnd4K-read",
    "ior-rnd1MB",
    "ior-rnd1MB-write",
    "ior-rnd1MB-read",
];

/// Keys of earlier releases and what replaced them (reference §6.2).
const REMOVED_KEYS: &[(&str, &str)] = &[
    (
        "hintsFileName",
        "it was removed; use API = MPIIO --mpiio.hintsFileName=<file>",
    ),
    (
        "posix.odirect",
        "it was removed; use API = POSIX --posix.odirect",
    ),
    ("noRun", "it was renamed; use run = FALSE to skip a phase"),
];

pub(super) fn unknown_section(name: &str) -> String {
    if REMOVED_SECTIONS
        .iter()
        .any(|r| r.eq_ignore_ascii_case(name))
    {
        return format!(
            "unknown section [{name}]; the IOR random phases of IO500 isc21 to isc26_v2 \
             were removed from the IO500 (only [ior-rnd4K-easy-read] remains): delete this section"
        );
    }
    match text::suggest(name, SECTIONS.iter().map(|s| s.name)) {
        Some(s) => format!("unknown section [{name}]; did you mean [{s}]?"),
        None => {
            let all: Vec<&str> = SECTIONS.iter().map(|s| s.name).collect();
            format!(
                "unknown section [{name}]; the sections are: {}",
                all.join(", ")
            )
        }
    }
}

/// The sections (other than `except`) that have a key named `key`.
fn sections_with_key(key: &str, except: Option<usize>) -> Vec<String> {
    (0..SECTIONS.len())
        .filter(|&i| Some(i) != except && key_index(i, key).is_some())
        .map(|i| format!("[{}]", SECTIONS[i].name))
        .collect()
}

pub(super) fn unknown_key(section: usize, key: &str) -> String {
    let spec = &SECTIONS[section];
    let head = format!("unknown key '{key}' in [{}]", spec.name);
    if let Some((_, why)) = REMOVED_KEYS
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
    {
        return format!("{head}; {why}");
    }
    if let Some(k) = text::suggest(key, spec.keys.iter().map(|k| k.name)) {
        return format!("{head}; did you mean '{k}'?");
    }
    if spec.keys.is_empty() {
        return format!("{head}; [{}] has no keys", spec.name);
    }
    let elsewhere = sections_with_key(key, Some(section));
    match elsewhere.len() {
        0 => {}
        1..=3 => return format!("{head}; it belongs in {}", elsewhere.join(", ")),
        n => {
            let some = elsewhere[..3].join(", ");
            return format!("{head}; it belongs in {some} and {} more sections", n - 3);
        }
    }
    let keys: Vec<&str> = spec.keys.iter().map(|k| k.name).collect();
    format!("{head}; [{}] accepts: {}", spec.name, keys.join(", "))
}

fn garbage(line: &str) -> String {
    let shown = line.trim_end_matches(['\r', ' ', '\t']);
    let hint = if line.contains('=') && (line.contains('#') || line.contains(';')) {
        "a value cannot contain '#' or ';', and an inline comment needs whitespace before it"
    } else if trim_start_space(line).starts_with('[') {
        "a section header is [name], with letters, digits, '_' and '-' in the name"
    } else {
        "expected [section], key = value, a comment (# or ;) or a blank line"
    };
    format!("unexpected content \"{shown}\"; {hint}")
}

/// Validates `value` for a key and returns what is stored (booleans normalised).
pub(super) fn checked(section: usize, key: usize, value: &str) -> Result<String, String> {
    let spec = &SECTIONS[section].keys[key];
    check_value(spec.kind, value).map_err(|want| {
        format!(
            "'{}' in [{}] expects {want}, got '{value}'",
            spec.name, SECTIONS[section].name
        )
    })
}

/// Parses `text` into `values` (one slot per schema key, pre-filled with the defaults).
pub(super) fn parse_into(
    text: &str,
    values: &mut [Vec<Option<String>>],
) -> Result<(), ConfigError> {
    let mut current: Option<usize> = None;
    for (i, line) in text.split('\n').enumerate() {
        let err = |message: String| ConfigError {
            line: Some(i + 1),
            message,
        };
        match classify(line) {
            Line::Blank => {}
            Line::Garbage => return Err(err(garbage(line))),
            Line::Section(name) => {
                current = Some(section_index(name).ok_or_else(|| err(unknown_section(name)))?);
            }
            Line::Key(_, "") => {} // empty value: unset, the default stays
            Line::Key(key, value) => {
                let Some(s) = current else {
                    let home = sections_with_key(key, None);
                    let hint = match home.first() {
                        Some(h) => format!("; put it under {h}"),
                        None => String::new(),
                    };
                    return Err(err(format!("key '{key}' is outside any section{hint}")));
                };
                let k = key_index(s, key).ok_or_else(|| err(unknown_key(s, key)))?;
                values[s][k] = Some(checked(s, k, value).map_err(err)?);
            }
        }
    }
    Ok(())
}
