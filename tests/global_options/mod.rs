//! The global options every workload honours or refuses by name (`src/command/global.rs`, one
//! registry row each): `--warn short-phase=off` silences the warning where a run without it
//! raises it; `--drop-caches=files` is recorded in every phase (a drop where the phase reads
//! file data, "nothing to drop" where it reads none); `--allow-root-target` is refused by
//! the workloads that make no tree of their own.

use std::path::Path;

use serde_json::Value;

use crate::common::{iogauge_args, json, tmp, Run};

/// `iogauge <args> --no-store --json <dir>/doc.json`, its result and document.
fn run(dir: &Path, args: &[&str]) -> (Run, Value) {
    let doc = dir.join("doc.json");
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--no-store", "--json", doc.to_str().unwrap()]);
    let r = iogauge_args(&all).ok();
    let v = json(&doc);
    std::fs::remove_file(&doc).unwrap();
    (r, v)
}

fn alert_ids(doc: &Value) -> Vec<String> {
    let of = |v: &Value| -> Vec<String> {
        v["alerts"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|x| x["id"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut out = of(doc);
    for p in doc["phases"].as_array().unwrap() {
        out.extend(of(p));
    }
    out
}

/// `--warn short-phase=off` takes away the `short-phase` warnings a plain run of `args` gets.
fn short_phase_off(dir: &Path, args: &[&str]) {
    let (_, plain) = run(dir, args);
    assert!(
        alert_ids(&plain).iter().any(|i| i == "short-phase"),
        "the plain run is short: {:?}",
        alert_ids(&plain)
    );
    let mut off = args.to_vec();
    off.extend(["--warn", "short-phase=off"]);
    let (r, quiet) = run(dir, &off);
    assert!(
        !alert_ids(&quiet).iter().any(|i| i == "short-phase"),
        "{:?}",
        alert_ids(&quiet)
    );
    assert!(!r.stdout.contains("[short-phase]") && !r.stderr.contains("[short-phase]"));
}

/// Each phase's drop under `--drop-caches=files`: (operation, method, note).
fn drops(dir: &Path, args: &[&str]) -> Vec<(String, String, String)> {
    let mut all = args.to_vec();
    all.push("--drop-caches=files");
    let (_, doc) = run(dir, &all);
    doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let d = &p["page_cache"]["drop"];
            let s = |v: &Value| v.as_str().unwrap_or("").to_string();
            (s(&p["operation"]), s(&d["method"]), s(&d["note"]))
        })
        .collect()
}

/// Every phase has a drop: per file where it reads data (`reading`), "nothing to drop"
/// elsewhere.
#[track_caller]
fn assert_drops(found: &[(String, String, String)], reading: &[&str]) {
    assert!(!found.is_empty());
    for (op, method, note) in found {
        if reading.contains(&op.as_str()) {
            assert_eq!(method, "files", "{op}: {found:?}");
        } else {
            assert_eq!(method, "none", "{op}: {found:?}");
            assert!(note.contains("nothing to drop"), "{op}: {note}");
        }
    }
    for op in reading {
        assert!(found.iter().any(|(o, ..)| o == op), "{op} ran: {found:?}");
    }
}

/// `--allow-root-target` given to `workload` is refused by name, before any I/O.
#[track_caller]
fn refuses_root_target(args: &[&str], workload: &str) {
    let mut all = args.to_vec();
    all.push("--allow-root-target");
    let r = iogauge_args(&all).code(2);
    assert!(
        r.stderr.contains("--allow-root-target") && r.stderr.contains(workload),
        "{}",
        r.stderr
    );
}

#[test]
fn ior() {
    let d = tmp();
    let f = d.path().join("f");
    let f = f.to_str().unwrap();
    short_phase_off(
        d.path(),
        &["ior", "-w", "-r", "-t", "64k", "-b", "1m", "-o", f],
    );
    let found = drops(
        d.path(),
        &["ior", "-w", "-r", "-t", "64k", "-b", "1m", "-o", f],
    );
    assert_drops(&found, &["read"]);
    refuses_root_target(&["ior", "-w", "-t", "64k", "-b", "1m", "-o", f], "ior");
    assert!(!Path::new(f).exists(), "nothing was written");
}

#[test]
fn mdtest() {
    let d = tmp();
    let md = d.path().join("md");
    let md = md.to_str().unwrap();
    short_phase_off(d.path(), &["mdtest", "-n", "50", "-F", "-d", md]);
    // -e 0 (the default): the read phase opens and closes, reading no data.
    let found = drops(d.path(), &["mdtest", "-n", "50", "-F", "-d", md]);
    assert_drops(&found, &[]);
    let found = drops(
        d.path(),
        &["mdtest", "-n", "50", "-F", "-w", "64", "-e", "64", "-d", md],
    );
    assert_drops(&found, &["file-read"]);
    // Honoured: the tree may go where the option allows.
    let (r, _) = run(
        d.path(),
        &["mdtest", "-n", "5", "-F", "-d", md, "--allow-root-target"],
    );
    assert!(r.stdout.contains("SUMMARY"), "{}", r.stdout);
}

#[test]
fn md_workbench() {
    let d = tmp();
    let o = d.path().join("wb");
    let o = o.to_str().unwrap();
    let line = [
        "md-workbench",
        "-o",
        o,
        "-P",
        "20",
        "-D",
        "2",
        "-I",
        "10",
        "-S",
        "1024",
    ];
    short_phase_off(d.path(), &line);
    assert_drops(&drops(d.path(), &line), &["benchmark"]);
    let mut allowed = line.to_vec();
    allowed.push("--allow-root-target");
    run(d.path(), &allowed);
}

#[test]
fn mix() {
    let d = tmp();
    let dir = d.path().join("mix");
    let dir = dir.to_str().unwrap();
    let line = [
        "mix",
        "--dir",
        dir,
        "--ramp",
        "200:200:400",
        "--step-seconds",
        "0.3",
    ];
    short_phase_off(d.path(), &line);
    assert_drops(&drops(d.path(), &line), &["mix-step"]);
    let mut allowed = line.to_vec();
    allowed.push("--allow-root-target");
    run(d.path(), &allowed);
}

#[test]
fn find() {
    let d = tmp();
    let tree = d.path().join("tree");
    std::fs::create_dir_all(tree.join("a")).unwrap();
    std::fs::write(tree.join("a/x01"), "x").unwrap();
    let tree = tree.to_str().unwrap();
    short_phase_off(d.path(), &["find", tree, "-name", "*01*"]);
    // A find reads directories, no file data: only the node's drop means something.
    assert_drops(&drops(d.path(), &["find", tree, "-name", "*01*"]), &[]);
    refuses_root_target(&["find", tree], "find");
}

#[test]
fn startup() {
    let d = tmp();
    let dir = d.path().join("s");
    std::fs::create_dir(&dir).unwrap();
    let dir = dir.to_str().unwrap();
    let line = [
        "startup",
        "--dir",
        dir,
        "--files",
        "20",
        "--common-size",
        "64k",
    ];
    short_phase_off(d.path(), &line);
    assert_drops(&drops(d.path(), &line), &["tree-read", "common-read"]);
    let mut allowed = line.to_vec();
    allowed.push("--allow-root-target");
    run(d.path(), &allowed);
}

#[test]
fn dlio() {
    let d = tmp();
    let data = d.path().join("data");
    let out = d.path().join("out");
    let line = [
        "dlio",
        "unet3d_h100",
        "++workload.workflow.checkpoint=False",
        "++workload.workflow.generate_data=True",
        "++workload.dataset.num_files_train=4",
        "++workload.dataset.record_length_bytes=4096",
        "++workload.dataset.record_length_bytes_stdev=0",
        "++workload.reader.batch_size=2",
        "--data-dir",
        data.to_str().unwrap(),
        "--output",
        out.to_str().unwrap(),
    ];
    short_phase_off(d.path(), &line);
    assert_drops(&drops(d.path(), &line), &["dlio-epoch"]);
    refuses_root_target(&line, "dlio");
}

#[test]
fn io500() {
    let d = tmp();
    let ini = crate::io500::small_ini(d.path(), "");
    let ini = ini.to_str().unwrap();
    let line = [
        "io500",
        ini,
        "--tasks",
        "2",
        "--drop-caches=files",
        "--warn",
        "short-phase=off",
    ];
    let (_, doc) = run(d.path(), &line);
    assert!(!alert_ids(&doc).iter().any(|i| i == "short-phase"));
    let read = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["io500_phase"] == "ior-easy-read")
        .expect("ior-easy-read ran");
    assert_eq!(read["page_cache"]["drop"]["method"], "files", "{read}");
}
