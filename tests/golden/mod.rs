//! Golden outputs: small real runs of every workload whose outputs (terminal text, IOR JSON and
//! CSV, per-rank CSV, mdtest tables, find lines, the IO500 result directory, iogauge's JSON
//! document) are compared with files recorded under `tests/golden/expected/`, after masking what
//! a rerun changes (`mask.rs`). They hold the outputs still while the code under them moves.
//!
//! Every iogauge result document among them is also validated against the checked-in JSON
//! Schema (`schema.rs`).
//!
//! `IOGAUGE_BLESS=1 cargo test --release golden` rewrites the expected files; review the diff.

mod cases;
mod mask;
pub(crate) mod schema;

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::bin;

/// How an output is masked and shown.
#[derive(Clone, Copy)]
pub enum Kind {
    Text,
    Json,
    /// An iogauge result document: JSON, and valid under `docs/results.schema.json`.
    Document,
    /// Text whose lines come in an order that depends on timing: sorted.
    Sorted,
}

/// One command of a case: its arguments (`{D}` is the case's directory) and how stdout is read.
pub struct Step {
    pub args: Vec<String>,
    pub stdout: Kind,
}

/// Splits `line` on whitespace and puts the case directory in place of `{D}`.
pub fn step(line: &str, stdout: Kind) -> Step {
    Step {
        args: line.split_whitespace().map(str::to_string).collect(),
        stdout,
    }
}

/// Runs the steps in `dir`, then renders them and the files left behind (paths relative to
/// `dir`, each with its kind) as one masked text.
pub fn render(dir: &Path, steps: &[Step], files: &[(&str, Kind)]) -> String {
    let d = dir.to_str().expect("a UTF-8 temporary path");
    let mut out = String::new();
    for s in steps {
        // The system figures measure the machine (CPU, devices, dirty pages) and their
        // warnings depend on its load: the goldens hold the tool's outputs without them
        // (tests/system covers them).
        let args: Vec<String> = std::iter::once("--no-system".to_string())
            .chain(s.args.iter().map(|a| a.replace("{D}", d)))
            .collect();
        let o = Command::new(bin())
            .args(&args)
            .current_dir(dir)
            .output()
            .expect("run iogauge");
        out += &format!("$ iogauge {}\n", mask::text(&args.join(" "), d));
        out += &format!("--- exit {}\n", o.status.code().unwrap_or(-1));
        out += "--- stdout\n";
        out += &show(&String::from_utf8_lossy(&o.stdout), s.stdout, d);
        out += "--- stderr\n";
        out += &show(&String::from_utf8_lossy(&o.stderr), Kind::Text, d);
    }
    for (rel, kind) in files {
        out += &format!("--- file {rel}\n");
        match std::fs::read_to_string(dir.join(rel)) {
            Ok(t) => out += &show(&t, *kind, d),
            Err(e) => out += &format!("(unreadable: {})\n", e.kind()),
        }
    }
    out
}

fn show(s: &str, kind: Kind, dir: &str) -> String {
    let mut t = match kind {
        Kind::Text => mask::text(s, dir),
        Kind::Json => mask::json(s, dir),
        Kind::Document => {
            schema::check(s);
            mask::json(s, dir)
        }
        Kind::Sorted => {
            let mut lines: Vec<String> = mask::text(s, dir).lines().map(str::to_string).collect();
            lines.sort();
            lines.join("\n")
        }
    };
    if !t.is_empty() && !t.ends_with('\n') {
        t.push_str("\n(no newline at end)\n");
    }
    t
}

fn expected_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/expected")
        .join(format!("{name}.txt"))
}

/// Compares `actual` with the recorded output of case `name` (or records it when blessing).
#[track_caller]
pub fn check(name: &str, actual: &str) {
    let path = expected_path(name);
    if std::env::var_os("IOGAUGE_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (record it with IOGAUGE_BLESS=1)", path.display()));
    if want == actual {
        return;
    }
    let got = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("golden-{name}.txt"));
    std::fs::write(&got, actual).unwrap();
    let (w, a): (Vec<&str>, Vec<&str>) = (want.lines().collect(), actual.lines().collect());
    let at = w
        .iter()
        .zip(&a)
        .position(|(x, y)| x != y)
        .unwrap_or(w.len().min(a.len()));
    panic!(
        "golden output {name} differs from {} at line {}:\n  want: {}\n  got:  {}\n(whole output in {})",
        path.display(),
        at + 1,
        w.get(at).unwrap_or(&"<end>"),
        a.get(at).unwrap_or(&"<end>"),
        got.display()
    );
}
