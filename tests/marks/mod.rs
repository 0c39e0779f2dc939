//! `iogauge mark` against real runs in progress: two marks land in the document and the store,
//! in order, with their phase; no run is a clear non-zero exit; stale sockets are removed and
//! ignored; two runs need `--run`; an unsafe directory turns marks off without failing the run.
//! Every test has an `XDG_RUNTIME_DIR` of its own, so parallel tests do not see each other's
//! runs.

mod several;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{bin, json, stored_id, tmp, Run};

/// `iogauge <args>` with `XDG_RUNTIME_DIR=xdg`, started and left running.
fn start(xdg: &Path, args: &[&str]) -> Child {
    Command::new(bin())
        .args(args)
        .env("XDG_RUNTIME_DIR", xdg)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start iogauge")
}

/// `iogauge <args>` with `XDG_RUNTIME_DIR=xdg`, to its end.
fn iogauge_in(xdg: &Path, args: &[&str]) -> Run {
    let out = Command::new(bin())
        .args(args)
        .env("XDG_RUNTIME_DIR", xdg)
        .output()
        .expect("run iogauge");
    ended(out)
}

fn ended(out: std::process::Output) -> Run {
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn wait(child: Child) -> Run {
    ended(child.wait_with_output().expect("wait for iogauge"))
}

/// The socket directory under a test's `XDG_RUNTIME_DIR`.
fn sockets(xdg: &Path) -> PathBuf {
    xdg.join("iogauge")
}

/// Waits until the run's events file shows its first phase started (marks then fall in it),
/// and returns the run id from its run-start event.
fn wait_for_phase(events: &Path) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let text = std::fs::read_to_string(events).unwrap_or_default();
        if text.contains(r#""event":"phase-start""#) {
            let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
            return first["run_id"].as_str().unwrap().to_string();
        }
        assert!(Instant::now() < deadline, "no phase started: {text}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A DUMMY-engine IOR write that runs `secs` seconds (a stonewall on a huge block), with its
/// document, events and store in `dir`.
fn long_ior(dir: &Path, name: &str, secs: u32) -> Vec<String> {
    let p = |f: &str| dir.join(format!("{name}.{f}")).display().to_string();
    format!(
        "--events {} ior -a DUMMY --dummy.delay-xfer=2000 -t 1m -b 100g -w -D {secs} -o {} \
         --json {} --db {}",
        p("events"),
        p("f"),
        p("json"),
        dir.join("store.sqlite").display()
    )
    .split_whitespace()
    .map(String::from)
    .collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn two_marks_land_in_the_document_and_the_store_in_order() {
    let d = tmp();
    let xdg = d.path().join("xdg");
    std::fs::create_dir(&xdg).unwrap();
    let run = start(&xdg, &strs(&long_ior(d.path(), "run", 4)));
    let pid = run.id();
    let run_id = wait_for_phase(&d.path().join("run.events"));
    assert!(run_id.ends_with(&format!("-{pid}")), "{run_id}");
    assert!(sockets(&xdg).join(format!("{pid}.sock")).exists());

    let first = iogauge_in(&xdg, &["mark", "disk 3 pulled"]).ok();
    std::thread::sleep(Duration::from_millis(300));
    let second = iogauge_in(&xdg, &["mark", "rebuild done"]).ok();
    for (r, text) in [(&first, "disk 3 pulled"), (&second, "rebuild done")] {
        let want = format!("iogauge: mark \"{text}\" at ");
        assert!(r.stdout.starts_with(&want), "{}", r.stdout);
        assert!(
            r.stdout.contains(&format!("of run {run_id} (phase 1, ")),
            "{}",
            r.stdout
        );
    }

    let done = wait(run).ok();
    assert!(!done.stderr.contains("marks are off"), "{}", done.stderr);
    assert!(
        !sockets(&xdg).join(format!("{pid}.sock")).exists(),
        "the socket goes with the run"
    );
    let doc = json(&d.path().join("run.json"));
    let marks = doc["marks"].as_array().expect("marks");
    let texts: Vec<&str> = marks.iter().map(|m| m["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["disk 3 pulled", "rebuild done"]);
    for m in marks {
        assert_eq!(m["phase"], 0, "{m}");
        assert!(m["time"].as_str().unwrap().ends_with('Z'), "{m}");
    }
    let t = |i: usize, key: &str| marks[i][key].as_f64().unwrap();
    assert!(t(0, "phase_t_s") < t(1, "phase_t_s"));
    assert!(t(0, "elapsed_s") < t(1, "elapsed_s"));
    assert!(t(1, "phase_t_s") < doc["phases"][0]["times"]["total_s"].as_f64().unwrap() + 1.0);

    // The store keeps the same marks.
    let store = store::Store::open(&d.path().join("store.sqlite")).unwrap();
    let stored = store.load(store::RunId(stored_id(&done))).unwrap();
    let back = serde_json::to_value(&stored.doc.marks).unwrap();
    assert_eq!(&back, &doc["marks"]);
}

/// A run with `--no-system` takes marks all the same, and `show` cuts its phase at them:
/// before, between and after, each with its throughput and the change against before.
#[test]
fn marks_in_a_run_without_system_figures_cut_its_phase_in_show() {
    let d = tmp();
    let xdg = d.path().join("xdg");
    std::fs::create_dir(&xdg).unwrap();
    let mut args = long_ior(d.path(), "quiet", 5);
    args.push("--no-system".into());
    let run = start(&xdg, &strs(&args));
    wait_for_phase(&d.path().join("quiet.events"));
    std::thread::sleep(Duration::from_millis(1500));
    iogauge_in(&xdg, &["mark", "first"]).ok();
    std::thread::sleep(Duration::from_millis(1500));
    iogauge_in(&xdg, &["mark", "second"]).ok();
    let done = wait(run).ok();
    let doc = json(&d.path().join("quiet.json"));
    assert!(doc["phases"][0].get("system").is_none(), "--no-system");
    assert_eq!(doc["marks"].as_array().map(Vec::len), Some(2));
    let db = d.path().join("store.sqlite");
    let id = stored_id(&done).to_string();
    let shown = iogauge_in(&xdg, &["show", &id, "--db", db.to_str().unwrap()]).ok();
    for label in [
        "before \"first\"",
        "between \"first\" and \"second\"",
        "after \"second\"",
    ] {
        assert!(shown.stdout.contains(label), "{label}:\n{}", shown.stdout);
    }
    assert!(shown.stdout.contains(" %"), "{}", shown.stdout);
}

#[test]
fn no_run_in_progress_is_a_clear_failure() {
    let d = tmp();
    // Neither the directory nor a socket.
    let r = iogauge_in(d.path(), &["mark", "x"]).code(1);
    let dir = sockets(d.path()).display().to_string();
    for needle in ["no iogauge run in progress", dir.as_str(), "rank 0"] {
        assert!(r.stderr.contains(needle), "{needle}: {}", r.stderr);
    }
    // The directory with nothing in it.
    std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
        .create(sockets(d.path()))
        .unwrap();
    let r = iogauge_in(d.path(), &["mark", "x"]).code(1);
    assert!(
        r.stderr.contains("no iogauge run in progress"),
        "{}",
        r.stderr
    );
}

#[test]
fn bad_input_is_exit_2() {
    let d = tmp();
    for args in [
        &["mark"][..],
        &["mark", "a", "b"],
        &["mark", "--bogus", "x"],
        &["mark", ""],
        &["mark", "two\nlines"],
        &["mark", "--run", "ior", "x"],
    ] {
        let r = iogauge_in(d.path(), args).code(2);
        assert!(r.stderr.starts_with("iogauge"), "{args:?}: {}", r.stderr);
    }
    let long = "x".repeat(1001);
    let r = iogauge_in(d.path(), &["mark", &long]).code(2);
    assert!(r.stderr.contains("at most 1000"), "{}", r.stderr);
    let help = iogauge_in(d.path(), &["--help"]).ok();
    assert!(help.stdout.contains("  mark "), "{}", help.stdout);
    let help = iogauge_in(d.path(), &["mark", "--help"]).ok();
    assert!(help.stdout.contains("--run <ID>"), "{}", help.stdout);
}
