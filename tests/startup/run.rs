//! Runs on real directories: the counts of every rank's reads, the tree on disk, the cleanup
//! of exactly what was made, `--tree` never modified, ranks per node, staggering, the store.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

use crate::common::{iogauge, json, listing, shm, tmp, tree};

/// Every path under `dir` with its size and modification time.
fn snapshot(dir: &Path) -> BTreeMap<String, (u64, SystemTime)> {
    tree(dir)
        .into_iter()
        .map(|rel| {
            let m = std::fs::symlink_metadata(dir.join(&rel)).unwrap();
            (rel, (m.len(), m.modified().unwrap()))
        })
        .collect()
}

#[test]
fn every_rank_reads_the_whole_tree_and_file_and_the_run_removes_what_it_made() {
    let d = shm();
    let p = d.path().display();
    std::fs::write(d.path().join("mine"), b"not the run's").unwrap();
    let r = iogauge(&format!(
        "--no-store startup --tasks 3 --dir {p} --files 120 --common-size 3m --transfer 256k \
         --iterations 2 --per-rank --json {p}/r.json"
    ))
    .ok();
    assert_eq!(
        listing(d.path()),
        ["mine", "r.json"],
        "only what was there before"
    );
    assert!(r.stdout.contains("120 file(s)"), "{}", r.stdout);
    assert_eq!(r.stdout.matches("  rank ").count(), 3 * 4, "{}", r.stdout);
    let j = json(&d.path().join("r.json"));
    assert_eq!(j["workload"], "startup");
    let res = &j["parameters"]["resolved"];
    assert_eq!(res["tree_files"], 120);
    assert_eq!(res["common_bytes"], 3 << 20);
    let tree_bytes = res["tree_bytes"].as_u64().unwrap();
    assert!(tree_bytes > 120 * 64, "{tree_bytes}");
    let phases = j["phases"].as_array().unwrap();
    let ops: Vec<(&str, u64)> = phases
        .iter()
        .map(|p| {
            (
                p["operation"].as_str().unwrap(),
                p["iteration"].as_u64().unwrap(),
            )
        })
        .collect();
    let want = [
        ("tree-read", 0),
        ("common-read", 0),
        ("tree-read", 1),
        ("common-read", 1),
    ];
    assert_eq!(ops, want);
    for ph in phases {
        assert_eq!(ph["per_rank"].as_array().unwrap().len(), 3);
        let total = ph["times"]["total_s"].as_f64().unwrap();
        let last = ph["per_rank"].as_array().unwrap().iter();
        let last = last
            .map(|r| r["close_stop_s"].as_f64().unwrap())
            .fold(0.0, f64::max);
        assert_eq!(total, last, "the headline is the last rank's finish");
        assert!(ph["page_cache"].is_object());
        // Every operation is in the latency histogram and the per-interval series.
        let buckets = ph["series"]["buckets"].as_array().unwrap().iter();
        let in_series: u64 = buckets.map(|b| b["ops"].as_u64().unwrap()).sum();
        assert_eq!(Some(in_series), ph["latency"]["count"].as_u64());
        if ph["operation"] == "tree-read" {
            assert_eq!(ph["counters"]["files"], 360);
            assert_eq!(ph["counters"]["stats"], 360);
            assert_eq!(ph["bytes"].as_u64(), Some(3 * tree_bytes));
            assert_eq!(ph["ops"], 720, "stats and opens");
            assert_eq!(ph["latency_by_kind"]["load"]["count"], 360);
        } else {
            assert_eq!(ph["bytes"].as_u64(), Some(3 * (3 << 20)));
            // Per rank: a stat, an open, 12 reads of 256 KiB, a close.
            assert_eq!(ph["latency_by_kind"]["read"]["count"], 36);
            assert_eq!(ph["latency"]["count"], 3 * 15);
        }
    }
    assert_eq!(j["summary"].as_array().unwrap().len(), 2);
}

#[test]
fn a_kept_tree_is_the_generated_shape_and_a_tree_run_leaves_it_untouched() {
    let d = shm();
    let p = d.path().display();
    iogauge(&format!(
        "--no-store startup --dir {p} --files 200 --seed 7 --keep --json {p}/g.json"
    ))
    .ok();
    let root = d.path().join("iogauge-startup/site-packages");
    let g = json(&d.path().join("g.json"));
    let on_disk = tree(&root);
    let files = on_disk.iter().filter(|f| root.join(f).is_file()).count();
    assert_eq!(files, 200);
    assert_eq!(
        g["parameters"]["resolved"]["tree_dirs"].as_u64(),
        Some((on_disk.len() - files + 1) as u64)
    );
    assert!(on_disk.iter().any(|f| f.ends_with("__init__.py")));
    let depth = on_disk
        .iter()
        .map(|f| f.matches('/').count())
        .max()
        .unwrap();
    assert!(depth >= 2, "nested packages: {depth}");

    let before = snapshot(&root);
    let r = iogauge(&format!(
        "--no-store startup --tasks 2 --tree {} --json {p}/t.json --drop-caches=files",
        root.display()
    ))
    .ok();
    assert!(r.stdout.contains("existing, read only"), "{}", r.stdout);
    assert_eq!(snapshot(&root), before, "--tree is only read");
    let t = json(&d.path().join("t.json"));
    assert_eq!(t["phases"][0]["counters"]["files"], 400);
    assert_eq!(
        t["phases"][0]["bytes"].as_u64(),
        Some(2 * g["parameters"]["resolved"]["tree_bytes"].as_u64().unwrap())
    );
    let drop = &t["phases"][0]["page_cache"]["drop"];
    assert_eq!(drop["method"], "files", "{drop}");
}

#[test]
fn ranks_per_node_choose_the_readers_and_the_stagger_delays_them() {
    let d = shm();
    let p = d.path().display();
    iogauge(&format!(
        "--no-store --tasks 4 --fake-nodes 2 startup --dir {p} --files 20 --ranks-per-node 1 \
         --stagger 50ms --json {p}/r.json"
    ))
    .ok();
    let j = json(&d.path().join("r.json"));
    let ranks = j["phases"][0]["per_rank"].as_array().unwrap();
    let ids: Vec<u64> = ranks.iter().map(|r| r["rank"].as_u64().unwrap()).collect();
    assert_eq!(ids, [0, 2], "the first rank of each node");
    let start = ranks[1]["open_start_s"].as_f64().unwrap();
    assert!(
        start >= 0.05,
        "the second reader starts a stagger later: {start}"
    );
    assert!(j["phases"][0]["times"]["total_s"].as_f64().unwrap() >= start);
    assert_eq!(j["phases"][0]["counters"]["files"], 40);
}

#[test]
fn a_dry_run_makes_nothing_and_a_run_is_stored() {
    let d = shm();
    let p = d.path().display();
    let r = iogauge(&format!(
        "--no-store startup --dir {p} --common-size 1m --dry-run"
    ))
    .ok();
    assert!(r.stdout.contains("nothing is made or read"), "{}", r.stdout);
    assert!(r.stdout.contains("600 file(s)"), "{}", r.stdout);
    assert!(listing(d.path()).is_empty());

    let db = tmp();
    let db = db.path().join("r.sqlite");
    let db = db.display();
    iogauge(&format!("--db {db} startup --dir {p} --files 30")).ok();
    let runs = iogauge(&format!("--db {db} runs --workload startup")).ok();
    assert!(runs.stdout.contains("tree-read"), "{}", runs.stdout);
    let show = iogauge(&format!("--db {db} show 1")).ok();
    assert!(show.stdout.contains("tree-read"), "{}", show.stdout);
    assert!(listing(d.path()).is_empty());
}

#[test]
fn events_follow_the_run() {
    let d = shm();
    let p = d.path().display();
    iogauge(&format!(
        "--no-store --events {p}/e.jsonl startup --dir {p} --files 10 --common-size 64k"
    ))
    .ok();
    let text = std::fs::read_to_string(d.path().join("e.jsonl")).unwrap();
    let kinds: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["event"]
                .as_str()
                .unwrap_or("")
                .to_string()
        })
        .filter(|k| k != "interval" && k != "notice")
        .collect();
    let want = [
        "run-start",
        "phase-start",
        "phase-end",
        "phase-start",
        "phase-end",
        "run-end",
    ];
    assert_eq!(kinds, want, "{text}");
}
