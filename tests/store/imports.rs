//! `iogauge import` as a user meets it: a duplicate is the same content (`docs/store.md`), so
//! a set of IO500 submissions without start times imports as that many runs, the same files
//! twice as one, and imported runs say where they came from instead of "complete: no".

use std::path::{Path, PathBuf};

use crate::common::{iogauge_args, tmp, Run};

fn testdata(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("crates/workload/src/io500/testdata")
        .join(name)
}

/// `iogauge --db DB <args>`.
fn with_db(db: &Path, args: &[&str]) -> Run {
    let mut all = vec!["--db", db.to_str().unwrap()];
    all.extend_from_slice(args);
    iogauge_args(&all)
}

fn import(db: &Path, path: &Path) -> String {
    with_db(db, &["import", path.to_str().unwrap()]).ok().stdout
}

/// A result directory `name` under `root` holding `files` (name in the directory, contents).
fn result_dir(root: &Path, name: &str, files: &[(&str, String)]) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

fn read(name: &str) -> String {
    std::fs::read_to_string(testdata(name)).unwrap()
}

fn runs_json(db: &Path) -> Vec<serde_json::Value> {
    let out = with_db(db, &["runs", "--format", "json"]).ok().stdout;
    serde_json::from_str::<serde_json::Value>(&out)
        .unwrap()
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn summary_only_directories_are_runs_of_their_own_and_a_copy_is_not() {
    let d = tmp();
    let db = d.path().join("s.sqlite");
    let summary = |text: String| [("result_summary.txt", text)];
    let site_a = result_dir(
        d.path(),
        "siteA",
        &summary(read("sc24-731-result_summary.txt")),
    );
    let site_b = result_dir(
        d.path(),
        "siteB",
        &summary(read("iogauge-quick-result_summary.txt")),
    );
    assert!(import(&db, &site_a).contains("as run 1"));
    let b = import(&db, &site_b);
    assert!(
        b.contains("as run 2"),
        "a different submission is a run of its own: {b}"
    );
    let again = import(&db, &site_a);
    assert!(again.contains("stored already, as run 1"), "{again}");
    // The same files elsewhere are the same run.
    let copy = result_dir(
        &d.path().join("archive"),
        "2024.11.11-00.01.32",
        &summary(read("sc24-731-result_summary.txt")),
    );
    assert!(import(&db, &copy).contains("stored already, as run 1"));

    let listed = runs_json(&db);
    assert_eq!(listed.len(), 2);
    let file_a = site_a.join("result_summary.txt").canonicalize().unwrap();
    assert_eq!(
        listed[0]["complete"], true,
        "the summary reached its [SCORE]"
    );
    assert_eq!(listed[0]["imported_from"], file_a.to_str().unwrap());
    let table = with_db(&db, &["runs"]).ok().stdout;
    assert_eq!(table.matches(" imported ").count(), 2, "{table}");
    assert!(!table.contains(" no "), "{table}");
    let show = with_db(&db, &["show", "1"]).ok().stdout;
    let line = show.lines().find(|l| l.contains("complete")).unwrap();
    assert!(
        line.contains(&format!("imported from {}", file_a.display())),
        "{show}"
    );
    // A compare of the two is allowed: neither is an unfinished baseline.
    with_db(&db, &["compare", "1", "2", "--fail-if-slower", "99%"]).code(1);
}

#[test]
fn a_result_txt_without_its_start_line_is_the_same_run_as_with_it() {
    let d = tmp();
    let db = d.path().join("s.sqlite");
    let result = read("sc24-731-result.txt");
    let config = read("sc24-731-config.ini");
    let no_start: String = result
        .lines()
        .filter(|l| !l.starts_with("; START"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(no_start, result);
    let without = result_dir(
        d.path(),
        "without",
        &[
            ("result.txt", no_start.clone()),
            ("config.ini", config.clone()),
        ],
    );
    let with = result_dir(
        d.path(),
        "with",
        &[
            ("result.txt", result.clone()),
            ("config.ini", config.clone()),
        ],
    );
    assert!(import(&db, &without).contains("as run 1"));
    let listed = runs_json(&db);
    assert_eq!(
        listed[0]["when"], "2024-11-11T00:01:32.000Z",
        "no START: the first phase's t_start"
    );
    assert_eq!(listed[0]["complete"], true);
    // The time is no part of the content: the directory with its START line is that run,
    // and so is one with no time at all.
    let same = import(&db, &with);
    assert!(same.contains("stored already, as run 1"), "{same}");
    let timeless: String = result
        .lines()
        .filter(|l| !l.starts_with("; START") && !l.starts_with("; END"))
        .filter(|l| !l.starts_with("t_start") && !l.starts_with("t_end"))
        .map(|l| format!("{l}\n"))
        .collect();
    let timeless = result_dir(
        d.path(),
        "timeless",
        &[("result.txt", timeless), ("config.ini", config.clone())],
    );
    assert!(import(&db, &timeless).contains("stored already, as run 1"));
    // Another figure without a START line is another run, though its time (none) is equal.
    let changed = no_start.replacen("= 148.001603", "= 149.001603", 1);
    assert_ne!(changed, no_start, "the phase line is in the file");
    let other = result_dir(
        d.path(),
        "other",
        &[("result.txt", changed), ("config.ini", config)],
    );
    let out = with_db(&db, &["import", other.to_str().unwrap()]).ok();
    assert!(out.stdout.contains("as run 2"), "{}", out.stdout);
    assert!(
        out.stderr.contains("note"),
        "the score no longer recomputes: {}",
        out.stderr
    );
    // Into an empty store, the file with START is a run of its own.
    let db2 = d.path().join("s2.sqlite");
    assert!(import(&db2, &with).contains("as run 1"));
    assert_eq!(runs_json(&db2)[0]["when"], "2024-11-11T00:01:32.000Z");
}

#[test]
fn an_iogauge_json_document_imported_twice_is_one_run() {
    let d = tmp();
    let db = d.path().join("s.sqlite");
    let json = d.path().join("run.json");
    let file = d.path().join("f");
    let run = with_db(
        &db,
        &[
            "ior",
            "-a",
            "DUMMY",
            "-t",
            "1m",
            "-b",
            "4m",
            "-w",
            "-r",
            "-o",
            file.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ],
    )
    .ok();
    assert!(run.stderr.contains("stored as run 1"), "{}", run.stderr);
    // The document of a run stored as it ran is that run.
    let out = import(&db, &json);
    assert!(out.contains("stored already, as run 1"), "{out}");
    // Into another store: stored once, then recognised.
    let db2 = d.path().join("s2.sqlite");
    assert!(import(&db2, &json).contains("as run 1"));
    assert!(import(&db2, &json).contains("stored already, as run 1"));
    let listed = runs_json(&db2);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["complete"], true);
    let show = with_db(&db2, &["show", "1"]).ok().stdout;
    assert!(show.contains("imported from"), "{show}");
    // The run made here says so.
    let here = with_db(&db, &["show", "1"]).ok().stdout;
    let line = here.lines().find(|l| l.contains("complete")).unwrap();
    assert!(line.contains("yes") && !line.contains("imported"), "{line}");
}
