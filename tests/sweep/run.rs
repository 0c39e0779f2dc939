//! Real sweeps on a temporary directory.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common::{bin, iogauge, listing, shm, tmp};

/// A run's id in a listing, as `show` takes it.
fn id(run: &serde_json::Value) -> String {
    match &run["id"] {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The runs of the store at `db` with the label, as `runs --format json` lists them.
fn runs_with(db: &str, label: &str) -> Vec<serde_json::Value> {
    let r = iogauge(&format!("--db {db} --label {label} runs --format json")).ok();
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    v.as_array()
        .cloned()
        .unwrap_or_else(|| v["runs"].as_array().cloned().unwrap())
}

#[test]
fn every_combination_is_a_stored_run_with_its_values() {
    let d = shm();
    let store = tmp();
    let db = store.path().join("r.sqlite");
    let db = db.to_str().unwrap();
    let f = d.path().join("f");
    let r = iogauge(&format!(
        "--db {db} --label who=test sweep --vary tasks=1..2 --vary F=on,off --repeat 2 \
         -- ior -w -r -e -t 64k -b 256k -o {}",
        f.display()
    ))
    .ok();
    assert!(
        r.stdout
            .contains("sweep 1: 8 runs (4 combinations x 2 repeats)"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("[8/8] tasks=2 F=off repeat 2/2: run 8: write"),
        "{}",
        r.stdout
    );
    // The table: a row per combination with both repeats measured.
    for row in ["│ 1     ┆ on  ┆  2/2 ┆", "│ 2     ┆ off ┆  2/2 ┆"] {
        assert!(r.stdout.contains(row), "{row}\n{}", r.stdout);
    }
    assert!(r.stdout.contains("Findings"), "{}", r.stdout);
    assert_eq!(
        listing(d.path()),
        Vec::<String>::new(),
        "ior removed its files"
    );
    let runs = runs_with(db, "sweep=1");
    assert_eq!(runs.len(), 8);
    let text = serde_json::to_string(&runs).unwrap();
    for l in ["sweep.tasks", "sweep.F", "sweep.repeat", "who"] {
        assert!(text.contains(l), "{l} missing: {text}");
    }
    // The varied values reached the runs: two ranks, file per process or not.
    let two = runs_with(db, "sweep.tasks=2");
    assert_eq!(two.len(), 4);
    let shown = iogauge(&format!("--db {db} show {}", id(&two[0]))).ok();
    assert!(shown.stdout.contains("--tasks 2"), "{}", shown.stdout);
    // `sweep show` prints the same table again; JSON carries the plan and the findings.
    let again = iogauge(&format!("--db {db} sweep show 1")).ok();
    assert!(
        again.stdout.contains("│ 2     ┆ off ┆  2/2 ┆"),
        "{}",
        again.stdout
    );
    let j = iogauge(&format!("--db {db} sweep show 1 --format json")).ok();
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(v["matrix"]["rows"].as_array().unwrap().len(), 4);
    assert_eq!(v["plan"]["repeats"], 2);
    assert!(!v["findings"].as_array().unwrap().is_empty());
    // Markdown: the matrix as a GFM table, the findings as a nested list.
    let md = iogauge(&format!("--db {db} sweep show 1 --format markdown")).ok();
    for needle in [
        "\n\n| tasks | F | runs |",
        "\n|---|---|---|",
        "\n| 2 | off | 2/2 |",
    ] {
        assert!(md.stdout.contains(needle), "{needle}\n{}", md.stdout);
    }
    assert!(
        md.stdout.contains("\n- ") && md.stdout.contains("\n  - "),
        "{}",
        md.stdout
    );
    let page = store.path().join("s.html");
    iogauge(&format!("--db {db} sweep show 1 -o {}", page.display())).ok();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("data-chart=\"sweep-0\"") && html.contains("against tasks"));
}

#[test]
fn resume_skips_what_an_interrupted_sweep_stored() {
    let d = shm();
    let store = tmp();
    let db = store.path().join("r.sqlite");
    let db = db.to_str().unwrap();
    let f = d.path().join("f");
    let line = format!(
        "--db {db} sweep --vary t=16k,32k,64k --pause 30 -- ior -w -t 16k -b 64k -o {}",
        f.display()
    );
    let args: Vec<&str> = line.split_whitespace().collect();
    let mut child = Command::new(bin())
        .args(&args)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Stop the sweep in the pause after its first point, as Ctrl-C would.
    let out = child.stdout.take().unwrap();
    for l in BufReader::new(out).lines() {
        if l.unwrap().starts_with("[1/3]") {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(runs_with(db, "sweep=1").len(), 1);
    let dry = iogauge(&line.replace("--pause 30", "--dry-run --resume")).ok();
    assert!(
        dry.stdout.contains("resuming sweep 1: 2 to run"),
        "{}",
        dry.stdout
    );
    assert!(!dry.stdout.contains("t=16k repeat"), "{}", dry.stdout);
    let resumed = line.replace("--pause 30", "--resume");
    let r = iogauge(&resumed).ok();
    assert!(
        r.stdout.contains("1 stored already, 2 to run"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("[2/3] t=32k") && r.stdout.contains("[3/3] t=64k"),
        "{}",
        r.stdout
    );
    assert_eq!(runs_with(db, "sweep=1").len(), 3, "no point ran twice");
    let again = iogauge(&resumed).ok();
    assert!(
        again.stdout.contains("3 stored already, 0 to run"),
        "{}",
        again.stdout
    );
    // The dry run now knows how long the points took, also with another repeat count (a
    // new plan whose command lines ran before) and a value that never ran.
    let est = iogauge(&line.replace("--pause 30", "--dry-run")).ok();
    assert!(est.stdout.contains("for 3 of 3 runs"), "{}", est.stdout);
    let more = line
        .replace("--pause 30", "--dry-run")
        .replace("sweep --vary", "sweep --repeat 2 --vary")
        .replace("t=16k,32k,64k", "t=16k,32k,64k,128k");
    let est = iogauge(&more).ok();
    assert!(
        est.stdout.contains("for 6 of 8 runs") && est.stdout.contains("unknown for the other 2"),
        "{}",
        est.stdout
    );
}

#[test]
fn shuffle_keeps_its_seed_and_mdtest_options_vary() {
    let d = shm();
    let store = tmp();
    let db = store.path().join("r.sqlite");
    let db = db.to_str().unwrap();
    let md = d.path().join("md");
    let r = iogauge(&format!(
        "--db {db} --drop-caches=files sweep --vary n=5,10,20 --shuffle=42 -- mdtest -F -d {}",
        md.display()
    ))
    .ok();
    assert!(r.stdout.contains("shuffled with seed 42"), "{}", r.stdout);
    let order = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with('['))
            .map(|l| l.split_whitespace().nth(1).unwrap().to_string())
            .collect()
    };
    let first = order(&r.stdout);
    assert_eq!(first.len(), 3);
    let again = iogauge(&format!(
        "--db {db} sweep --vary n=5,10,20 --shuffle=42 --dry-run -- mdtest -F -d {}",
        md.display()
    ))
    .ok();
    let planned: Vec<String> = again
        .stdout
        .lines()
        .filter(|l| l.starts_with("  n="))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    assert_eq!(first, planned, "the same seed, the same order");
    let five = runs_with(db, "sweep.n=5");
    let shown = iogauge(&format!("--db {db} show {} --format json", id(&five[0]))).ok();
    assert!(shown.stdout.contains("mdtest -F -d "), "{}", shown.stdout);
    assert!(
        shown.stdout.contains("--drop-caches=files"),
        "reaches the points: {}",
        shown.stdout
    );
    assert!(shown.stdout.contains("/md -n 5\""), "{}", shown.stdout);
}

#[test]
fn a_sweep_of_mix_ramps_names_each_knee() {
    let d = tmp();
    let db = d.path().join("r.sqlite");
    let db = db.to_str().unwrap();
    let mix = crate::mix::mix_file(d.path(), "small.toml", crate::mix::SMALL);
    let dir = d.path().join("run");
    let r = iogauge(&format!(
        "--db {db} sweep --vary tasks=1,2 -- mix --dir {} --mix {mix} --ramp 50:50:100 \
         --step-seconds 0.3 --latency-limit 2s",
        dir.display()
    ))
    .ok();
    let runs = runs_with(db, "sweep=1");
    assert_eq!(runs.len(), 2);
    // Every step stays within 2 s, so each run's knee is its fastest step; the sweep's
    // findings name it with the run, the offered load and the latency one step below.
    for run in &runs {
        let shown = iogauge(&format!("--db {db} show {} --format json", id(run))).ok();
        let doc: serde_json::Value = serde_json::from_str(&shown.stdout).unwrap();
        let doc = if doc["document"].is_object() {
            &doc["document"]
        } else {
            &doc
        };
        let knee = &doc["mix"]["knee"];
        let offered = knee["requested_ops_s"].as_f64().unwrap();
        let text = format!(
            "run {}: the load ramp's knee is at offered load = {} ops/s",
            id(run),
            report::fmt::number(offered)
        );
        assert!(r.stdout.contains(&text), "{text}\n{}", r.stdout);
    }
    assert!(
        r.stdout.contains("latency") && r.stdout.contains("one step below"),
        "{}",
        r.stdout
    );
    let j = iogauge(&format!("--db {db} sweep show 1 --format json")).ok();
    let v: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    let knees = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["kind"] == "knee")
        .count();
    assert_eq!(knees, 2, "{}", j.stdout);
}
