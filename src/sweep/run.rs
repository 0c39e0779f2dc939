//! Running a sweep: each point is this program run again on the point's command line, with
//! the store, the labels that tie it to the sweep (`sweep=ID`, `sweep.repeat=R`,
//! `sweep.NAME=VALUE`) and the user's global options (`--label`, `--drop-caches`, `--warn`).
//! A child process per point keeps each run what it is without a sweep: its own result
//! document, its own stored row, its own exit status.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use store::{Filter, Label, Store};
use sweep::Point;

use super::design::Design;
use super::names::Knob;

/// What the children inherit from the sweep's own command line.
pub struct Inherited {
    pub db: std::path::PathBuf,
    pub labels: Vec<Label>,
    pub drop_caches: Option<String>,
    pub warn: Vec<String>,
    /// `--tasks` and `--fake-nodes` given before `sweep`.
    pub tasks: Option<usize>,
    pub fake_nodes: Option<usize>,
    /// `--show-output`: the points print what the workload prints.
    pub show_output: bool,
}

/// How the sweep ended.
pub enum Outcome {
    /// Every point ran; `failed` of them exited 1.
    Done { failed: usize },
    /// A point met bad input (2) or was interrupted (130, 143, a signal): the sweep stopped
    /// there with that status.
    Stopped(u8),
}

/// The labels of one point.
pub fn point_labels(id: i64, design: &Design, p: &Point) -> Vec<Label> {
    let mut l = vec![
        Label::new("sweep", &id.to_string()),
        Label::new("sweep.repeat", &p.repeat.to_string()),
    ];
    for (a, v) in design.axes.iter().zip(&p.values) {
        l.push(Label::new(&format!("sweep.{}", a.name), v));
    }
    l
}

/// The point a stored run of sweep `id` measured, read back from its labels.
pub fn point_of(design: &Design, labels: &[Label]) -> Option<Point> {
    let get = |k: &str| labels.iter().find(|l| l.key == k).map(|l| l.value.clone());
    let repeat = get("sweep.repeat")?.parse().ok()?;
    let values = design
        .axes
        .iter()
        .map(|a| get(&format!("sweep.{}", a.name)))
        .collect::<Option<Vec<_>>>()?;
    Some(Point { values, repeat })
}

/// The points of sweep `id` already stored complete with exit status 0: `--resume` skips them.
pub fn done(store: &Store, id: i64, design: &Design) -> Result<Vec<Point>, String> {
    let filter = Filter {
        labels: vec![Label::new("sweep", &id.to_string())],
        ..Filter::default()
    };
    let runs = store.list(&filter).map_err(|e| e.to_string())?;
    Ok(runs
        .iter()
        .filter(|r| r.complete && r.exit_code == Some(0))
        .filter_map(|r| point_of(design, &r.labels))
        .collect())
}

/// Runs `todo` in order, printing a line per point.
pub fn run_points(
    id: i64,
    design: &Design,
    knobs: &[Knob],
    todo: &[Point],
    total: usize,
    pause: Duration,
    inherited: &Inherited,
) -> Outcome {
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("iogauge sweep: cannot find this program to run the points: {e}");
            return Outcome::Stopped(1);
        }
    };
    let mut failed = 0;
    for (i, p) in todo.iter().enumerate() {
        if i > 0 && !pause.is_zero() {
            std::thread::sleep(pause);
        }
        let args = child_args(id, design, knobs, p, inherited);
        let what = describe(design, p);
        let counter = format!("[{}/{total}]", total - todo.len() + i + 1);
        let mut cmd = Command::new(&exe);
        cmd.args(&args);
        let status = if inherited.show_output {
            crate::outln!("{counter} {what}");
            cmd.status()
        } else {
            // One line per point; the point's own warnings are counted, and printed in full
            // when it fails.
            cmd.stdout(Stdio::null()).stderr(Stdio::piped());
            cmd.output().map(|out| {
                let err = String::from_utf8_lossy(&out.stderr);
                crate::outln!("{counter} {what}: {}", summary(&err, inherited));
                if !out.status.success() {
                    eprint!("{err}");
                }
                out.status
            })
        };
        let status = match status {
            Ok(s) => s,
            Err(e) => {
                eprintln!("iogauge sweep: cannot start {}: {e}", exe.display());
                return Outcome::Stopped(1);
            }
        };
        match status.code() {
            Some(0) => {}
            Some(1) => {
                failed += 1;
                eprintln!("iogauge sweep: {what}: the run failed (exit status 1); going on");
            }
            Some(2) => {
                eprintln!(
                    "iogauge sweep: {what}: bad input (exit status 2), the sweep stops; the \
                     command was: iogauge {}",
                    shell_line(&args)
                );
                return Outcome::Stopped(2);
            }
            code => {
                let code = code.map_or(130, |c| u8::try_from(c).unwrap_or(1));
                eprintln!(
                    "iogauge sweep: {what}: interrupted (status {code}); the points stored so \
                     far stay: the same command with --resume runs the rest"
                );
                return Outcome::Stopped(code);
            }
        }
    }
    Outcome::Done { failed }
}

/// `run 12: write 1234 MiB/s, read 2345 MiB/s; 3 warnings (iogauge show 12)` from the
/// point's closing line and the store.
fn summary(stderr: &str, h: &Inherited) -> String {
    let run = stderr.lines().find_map(|l| {
        l.strip_prefix("stored as run ")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.trim().parse::<i64>().ok())
    });
    let Some(run) = run else {
        return "not stored".into();
    };
    let warnings = stderr.lines().filter(|l| l.starts_with("  [")).count();
    let figures = Store::open(&h.db)
        .and_then(|s| s.load(store::RunId(run)))
        .map(|r| {
            store::headline(&r.doc)
                .iter()
                .map(|f| format!("{} {}", f.name, report::fmt::figure(f.value, &f.unit)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    let mut out = format!("run {run}: {figures}");
    if warnings > 0 {
        out.push_str(&format!("; {warnings} warnings (iogauge show {run})"));
    }
    out
}

fn describe(design: &Design, p: &Point) -> String {
    let mut parts: Vec<String> = design
        .axes
        .iter()
        .zip(&p.values)
        .map(|(a, v)| format!("{}={v}", a.name))
        .collect();
    parts.push(format!("repeat {}/{}", p.repeat, design.repeats));
    parts.join(" ")
}

fn child_args(id: i64, design: &Design, knobs: &[Knob], p: &Point, h: &Inherited) -> Vec<String> {
    let mut a: Vec<String> = vec!["--db".into(), path_text(&h.db)];
    for l in h.labels.iter().chain(&point_labels(id, design, p)) {
        a.push(format!("--label={l}"));
    }
    if let Some(mode) = &h.drop_caches {
        a.push(format!("--drop-caches={mode}"));
    }
    for w in &h.warn {
        a.push(format!("--warn={w}"));
    }
    if let Some(t) = h.tasks {
        a.extend(["--tasks".into(), t.to_string()]);
    }
    if let Some(k) = h.fake_nodes {
        a.extend(["--fake-nodes".into(), k.to_string()]);
    }
    a.extend(design.point_args(knobs, &p.values));
    a
}

fn path_text(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

pub fn shell_line(args: &[String]) -> String {
    args.iter()
        .map(|a| text::shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ")
}
