//! What `iogauge find` prints and writes, on IO500-shaped and small trees.

use std::collections::BTreeSet;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::Duration;

use super::io500_tree;
use crate::common::{iogauge_args, json, shm};

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

fn find(args: &[&str]) -> crate::common::Run {
    let mut all = vec!["find"];
    all.extend_from_slice(args);
    iogauge_args(&all).ok()
}

#[test]
fn io500_query_gives_the_reference_counts() {
    // Reference §8: 2 ranks, 2000 mdtest-easy and 1000 mdtest-hard files per rank give
    // found = 18 and total-files = 6003.
    let d = shm();
    let data = d.path().join("data");
    let ts = d.path().join("timestampfile");
    std::fs::write(&ts, b"").unwrap();
    let matches = io500_tree(&data, 2000, 1000);
    assert_eq!(matches.len(), 18);
    let data_s = data.to_str().unwrap();
    let ts_s = ts.to_str().unwrap();
    for tasks in ["1", "2", "3"] {
        let r = find(&[
            "--tasks", tasks, data_s, "-newer", ts_s, "-size", "3901c", "-name", "*01*", "-C",
            "-q", "10000",
        ]);
        assert_eq!(last_line(&r.stdout), "MATCHED 18/6003", "{}", r.stdout);
        assert!(
            r.stdout.contains("[DONE] found: 18 (scanned 6003 files"),
            "{}",
            r.stdout
        );
        assert!(
            r.stdout.contains(&format!("ranks: {tasks} ")),
            "{}",
            r.stdout
        );
        assert_eq!(
            r.stdout.lines().count(),
            4,
            "-C lists no paths:\n{}",
            r.stdout
        );
    }
    // pfind's -N, and the global --tasks before the command.
    let r = iogauge_args(&[
        "--tasks", "2", "find", data_s, "-size", "3901c", "-name", "*01*", "-C", "-N",
    ])
    .ok();
    assert_eq!(last_line(&r.stdout), "MATCHED 18/6003");
    // find-easy of the extended mode: the name alone matches ior_file_easy.00000001 too.
    let r = find(&[data_s, "-name", "*01*", "-C"]);
    let easy_01 = (0..2)
        .flat_map(|r| (0..2000).map(move |i| format!("file.mdtest.{r}.{i}")))
        .filter(|n| n.contains("01"))
        .count();
    let expect = easy_01 + 18 + 1;
    assert_eq!(last_line(&r.stdout), format!("MATCHED {expect}/6003"));
}

#[test]
fn listing_prints_matching_files_then_the_counts() {
    let d = shm();
    let data = d.path().join("data");
    let matches = io500_tree(&data, 20, 120);
    let data_s = data.to_str().unwrap();
    let r = find(&["--tasks", "2", data_s, "-size", "3901c", "-name", "*01*"]);
    let lines: Vec<&str> = r.stdout.lines().collect();
    let hard = data.join("mdtest-hard/test-dir.0-0/mdtest_tree.0");
    let want: BTreeSet<String> = matches
        .iter()
        .map(|m| hard.join(m).display().to_string())
        .collect();
    let listed: BTreeSet<String> = lines[..lines.len() - 4]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(listed, want);
    assert_eq!(
        *lines.last().unwrap(),
        format!("MATCHED {}/283", want.len())
    );
    assert!(lines[lines.len() - 4].starts_with("[DONE] found: "));
}

#[test]
fn without_predicates_every_file_but_no_directory_is_listed() {
    let d = shm();
    let root = d.path().join("t");
    std::fs::create_dir_all(root.join("a/b")).unwrap();
    std::fs::write(root.join("a/one"), b"1").unwrap();
    std::fs::write(root.join("a/b/two"), b"22").unwrap();
    std::os::unix::fs::symlink("a", root.join("link")).unwrap();
    // A trailing slash on the root does not double the separator.
    let r = find(&[&format!("{}/", root.display())]);
    let listed: BTreeSet<&str> = r
        .stdout
        .lines()
        .take_while(|l| !l.starts_with("[DONE]"))
        .collect();
    let p = |s: &str| root.join(s).display().to_string();
    let want: BTreeSet<String> = [p("a/one"), p("a/b/two"), p("link")].into();
    assert_eq!(listed, want.iter().map(String::as_str).collect());
    assert_eq!(
        last_line(&r.stdout),
        "MATCHED 3/3",
        "symlinks count, never followed"
    );
    assert!(r.stdout.contains("directories: 3 "), "{}", r.stdout);
}

#[test]
fn newer_is_ctime_and_at_least() {
    let d = shm();
    let root = d.path().join("t");
    std::fs::create_dir(&root).unwrap();
    std::fs::write(root.join("old01"), b"").unwrap();
    let old_sec = std::fs::metadata(root.join("old01")).unwrap().ctime();
    // File times come from a coarse clock: retry until the reference is in a later second.
    let ts = d.path().join("ts");
    loop {
        let _ = std::fs::remove_file(&ts);
        std::fs::write(&ts, b"").unwrap();
        if std::fs::metadata(&ts).unwrap().ctime() > old_sec {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::write(root.join("new01"), b"").unwrap();
    let r = find(&[root.to_str().unwrap(), "-newer", ts.to_str().unwrap()]);
    assert_eq!(last_line(&r.stdout), "MATCHED 1/2");
    assert!(
        r.stdout
            .starts_with(&format!("{}\n", root.join("new01").display())),
        "{}",
        r.stdout
    );
    // The reference is newer than itself at whole-second precision (>=): it matches itself.
    let r = find(&[
        d.path().to_str().unwrap(),
        "-newer",
        ts.to_str().unwrap(),
        "-name",
        "ts",
        "-C",
    ]);
    assert_eq!(last_line(&r.stdout), "MATCHED 1/3");
}

#[test]
fn json_result_document() {
    let d = shm();
    let data = d.path().join("data");
    let matches = io500_tree(&data, 50, 150);
    let out = d.path().join("find.json");
    let r = find(&[
        "--tasks",
        "2",
        data.to_str().unwrap(),
        "-size",
        "3901c",
        "-name",
        "*01*",
        "-C",
        "--json",
        out.to_str().unwrap(),
        "-P",
    ]);
    assert!(
        r.stdout.starts_with("[0] found: ") && r.stdout.contains("\n[1] found: "),
        "{}",
        r.stdout
    );
    let doc = json(&out);
    assert_eq!(doc["workload"], "find");
    assert_eq!(doc["exit_code"], 0);
    assert_eq!(doc["ranks"]["count"], 2);
    let phase = &doc["phases"][0];
    assert_eq!(phase["operation"], "find");
    assert_eq!(phase["ops"], 403);
    assert!(phase["iops"].as_f64().unwrap() > 0.0);
    assert_eq!(phase["per_rank"].as_array().unwrap().len(), 2);
    let per_rank_ops: u64 = phase["per_rank"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["ops"].as_u64().unwrap())
        .sum();
    assert_eq!(per_rank_ops, 403);
    // One readdir latency per directory read.
    assert_eq!(phase["latency"]["count"], phase["counters"]["directories"]);
    let total = &phase["counters"];
    let per_rank_found: u64 = phase["per_rank"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["counters"]["found"].as_u64().unwrap())
        .sum();
    assert_eq!(per_rank_found, matches.len() as u64);
    assert_eq!(
        (total["found"].as_u64(), total["examined"].as_u64()),
        (Some(matches.len() as u64), Some(403))
    );
    assert_eq!(doc["parameters"]["size"], 3901);
    assert_eq!(doc["parameters"]["name"], "*01*");
    assert!(Path::new(&out).exists());
}
