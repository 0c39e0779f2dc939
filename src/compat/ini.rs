//! docs/compat.md's IO500 `.ini` table against the suite's checks: every (section, key) of the
//! IO500's schema is covered by one row, and each row's example lines, set in each section it
//! covers, pass the checks before any I/O (every phase's command built and parsed, extended
//! mode) or, for a refused row, are refused naming the option, with exit status 2.

use std::collections::BTreeMap;

use workload::io500::config::{Config, SectionSpec, SECTIONS};
use workload::io500::phases::Mode;
use workload::io500::run::{self, Settings};

use super::doc::{table, Row, Status};
use crate::io500::driver::Io500Driver;
use crate::world::{Global, RankSetup};

/// Columns of the `.ini` table.
const KEYS: usize = 0;
const SECTIONS_COL: usize = 1;
const STATUS: usize = 2;
const EXAMPLES: usize = 3;

/// A config: the row's lines in `section`, after a data directory nothing creates.
fn ini(section: &str, lines: &[&str]) -> String {
    let lines = lines.join("\n");
    format!("[global]\ndatadir = /nonexistent/iogauge-compat\n[{section}]\n{lines}\n")
}

/// The suite's checks before any I/O, as `iogauge io500 C.ini --dry-run --mode extended`.
fn check(text: &str) -> Result<(), String> {
    let config = Config::parse(text).map_err(|e| e.to_string())?;
    let s = Settings {
        config,
        mode: Mode::Extended,
        ranks: 1,
        timestamp: "TS".into(),
        dry_run: true,
        cleanup_only: false,
        verbosity: 1,
        version: "iogauge-compat".into(),
        original_ini: text.into(),
    };
    let mut driver = Io500Driver::new(RankSetup {
        tasks: Some(1),
        ..RankSetup::default()
    });
    run::check(&s, &mut driver).map(drop)
}

/// The exit status of `iogauge io500 C.ini --dry-run` for this config.
fn exit_status(text: &str) -> u8 {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.ini");
    std::fs::write(&path, text).unwrap();
    let args = [path.to_str().unwrap(), "--dry-run", "--mode=extended"];
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let more = ["--tasks", "1", "--timestamp", "TS"].map(String::from);
    crate::io500::main(&[args, more.to_vec()].concat(), &Global::default())
}

/// Which row covers each (section, lower-case key).
type Owners = BTreeMap<(&'static str, String), usize>;

fn claim(owner: &mut Owners, section: &'static str, key: &str, row: usize) {
    let k = (section, key.to_ascii_lowercase());
    assert!(
        owner.insert(k, row).is_none(),
        "[{section}] {key} is in two rows"
    );
}

/// The sections of each row: those it names, else every other section holding its keys.
/// Panics when a (section, key) of the schema is covered twice or not at all.
fn sections_of(rows: &[Row]) -> Vec<Vec<&'static str>> {
    let mut owner: Owners = BTreeMap::new();
    let has = |s: &SectionSpec, key: &str| s.keys.iter().any(|k| k.name.eq_ignore_ascii_case(key));
    let mut out = vec![Vec::new(); rows.len()];
    for (i, row) in rows.iter().enumerate() {
        for name in row.spans(SECTIONS_COL) {
            let name = name.trim_start_matches('[').trim_end_matches(']');
            let s = SECTIONS.iter().find(|s| s.name == name);
            let s = s.unwrap_or_else(|| panic!("no IO500 section [{name}]"));
            for key in row.spans(KEYS) {
                assert!(has(s, key), "[{name}] has no key {key}");
                claim(&mut owner, s.name, key, i);
            }
            out[i].push(s.name);
        }
    }
    for (i, row) in rows.iter().enumerate() {
        if !row.spans(SECTIONS_COL).is_empty() {
            continue;
        }
        for s in SECTIONS.iter().filter(|s| has(s, row.spans(KEYS)[0])) {
            let key = row.spans(KEYS)[0].to_ascii_lowercase();
            if owner.contains_key(&(s.name, key)) {
                continue;
            }
            for key in row.spans(KEYS) {
                claim(&mut owner, s.name, key, i);
            }
            out[i].push(s.name);
        }
    }
    for s in SECTIONS {
        for k in s.keys {
            let listed = owner.contains_key(&(s.name, k.name.to_ascii_lowercase()));
            assert!(listed, "[{}] {} is not in docs/compat.md", s.name, k.name);
        }
    }
    out
}

#[test]
fn every_ini_key_behaves_as_its_status_says() {
    let rows = table("IO500 key");
    for (row, sections) in rows.iter().zip(sections_of(&rows)) {
        let lines = row.spans(EXAMPLES);
        for key in row.spans(KEYS) {
            let given = lines
                .iter()
                .any(|l| l.split('=').next().unwrap().trim() == key);
            assert!(given, "{key}: no example line sets it ({lines:?})");
        }
        for section in sections {
            let text = ini(section, &lines);
            let result = check(&text);
            if row.status(STATUS) != Status::Refused {
                if let Err(e) = result {
                    panic!(
                        "[{section}] {lines:?}: listed as {}, refused: {e}",
                        row.cells[STATUS]
                    );
                }
                continue;
            }
            let e = result.expect_err(&format!("[{section}] {lines:?}: listed as refused"));
            assert!(e.contains("is not supported"), "[{section}] {lines:?}: {e}");
            assert_eq!(exit_status(&text), 2, "[{section}] {lines:?}: exit status");
        }
    }
}
