//! A store written by the first schema version, opened by this build: migrated in place, its
//! run and labels kept, the new rows filled from the stored document.

use rusqlite::Connection;
use store::{Filter, Label, RunId, Store, SCHEMA_VERSION};

const V1: &str = include_str!("fixtures/v1.sql");

fn version(c: &Connection) -> u32 {
    c.query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn a_version_1_store_is_migrated_and_keeps_its_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.sqlite");
    let c = Connection::open(&path).unwrap();
    c.execute_batch(V1).unwrap();
    assert_eq!(version(&c), 1);
    let text: String = c
        .query_row("SELECT document FROM runs WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    drop(c);
    let doc = results::from_json_str(&text).unwrap();
    const { assert!(SCHEMA_VERSION > 1, "nothing to migrate") };

    let s = Store::open(&path).unwrap();
    let run = s.load(RunId(1)).unwrap();
    assert_eq!(run.doc, doc);
    assert!(run.complete);
    assert_eq!(run.origin, None, "a column the first version did not have");
    assert_eq!(
        run.labels,
        [Label::new("fs", "tmpfs"), Label::new("tuning", "nps4")]
    );
    // The headline figures were derived from the stored document during the migration.
    let listed = s.list(&Filter::default()).unwrap();
    assert_eq!(listed.len(), 1);
    let names: Vec<&str> = listed[0].figures.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["write", "read"]);
    assert_eq!(listed[0].figures[1].value, doc.phases[1].bandwidth_mib_s);
    drop(s);

    let c = Connection::open(&path).unwrap();
    assert_eq!(version(&c), SCHEMA_VERSION);
    let phases: Vec<(String, i64)> = c
        .prepare("SELECT operation, bytes FROM phases WHERE run = 1 ORDER BY seq")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        phases,
        [("write".to_string(), 65536), ("read".to_string(), 65536)]
    );
}

#[test]
fn a_run_stored_after_the_migration_sits_beside_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.sqlite");
    Connection::open(&path).unwrap().execute_batch(V1).unwrap();
    let mut s = Store::open(&path).unwrap();
    let mut doc = s.load(RunId(1)).unwrap().doc;
    // Its own document again is the run stored before; other figures are another run.
    match s.insert(&doc, store::Source::Json, Some("x.json"), &[]) {
        Err(store::StoreError::Duplicate(id)) => assert_eq!(id, RunId(1)),
        other => panic!("expected the duplicate of run 1, got {other:?}"),
    }
    doc.phases[0].times.total_s *= 2.0;
    let id = s
        .insert(&doc, store::Source::Json, Some("x.json"), &[])
        .unwrap();
    assert_eq!(id, RunId(2));
    assert_eq!(s.list(&Filter::default()).unwrap().len(), 2);
}

const V3: &str = include_str!("fixtures/v3.sql");

/// A store as version 3 wrote it (`fixtures/v3.sql`: a run stored as it ran, a
/// result_summary.txt-only IO500 import and a result.txt import), opened by this build.
fn version_3_store(dir: &tempfile::TempDir) -> std::path::PathBuf {
    let path = dir.path().join("results.sqlite");
    let c = Connection::open(&path).unwrap();
    c.execute_batch(V3).unwrap();
    assert_eq!(version(&c), 3);
    path
}

#[test]
fn a_version_3_store_gets_content_hashes_and_keeps_runs_labels_and_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = version_3_store(&dir);
    let before: Vec<(i64, String)> = Connection::open(&path)
        .unwrap()
        .prepare("SELECT id, document FROM runs ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(before.len(), 3);

    let s = Store::open(&path).unwrap();
    for (id, text) in &before {
        let run = s.load(RunId(*id)).unwrap();
        assert_eq!(run.doc, results::from_json_str(text).unwrap());
    }
    assert_eq!(
        s.load(RunId(1)).unwrap().labels,
        [Label::new("fs", "dummy")]
    );
    assert_eq!(
        s.load(RunId(3)).unwrap().labels,
        [Label::new("system", "sc24-731")]
    );
    // The summary-only import reached its [SCORE]: complete now, not a failed run.
    let listed = s.list(&Filter::default()).unwrap();
    assert!(listed.iter().all(|r| r.complete), "{listed:?}");
    assert_eq!(
        listed.iter().find(|r| r.id == RunId(2)).unwrap().exit_code,
        Some(0)
    );
    drop(s);

    let c = Connection::open(&path).unwrap();
    assert_eq!(version(&c), SCHEMA_VERSION);
    let hashes: Vec<(i64, Option<String>)> = c
        .prepare("SELECT id, content_hash FROM runs ORDER BY id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for ((id, hash), (_, text)) in hashes.iter().zip(&before) {
        let doc = results::from_json_str(text).unwrap();
        assert_eq!(
            hash.as_deref(),
            Some(results::content_hash(&doc).as_str()),
            "run {id}"
        );
    }
    // The rebuilt table kept every row that references it, and nothing dangles.
    let count = |sql: &str| -> i64 { c.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(count("SELECT count(*) FROM labels"), 2);
    assert!(count("SELECT count(*) FROM phases WHERE run = 2") > 0);
    assert_eq!(count("SELECT count(*) FROM pragma_foreign_key_check"), 0);
    assert_eq!(count("PRAGMA foreign_keys"), 1, "switched back on");
}

#[test]
fn after_the_migration_a_copy_is_a_duplicate_and_other_figures_a_new_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = version_3_store(&dir);
    let mut s = Store::open(&path).unwrap();
    let summary = s.load(RunId(2)).unwrap().doc;
    // The same figures again, read elsewhere and at another time: the run stored before.
    let mut copy = summary.clone();
    copy.started = "2030-01-01T00:00:00.000Z".into();
    copy.run_id = "io500-20300101T000000Z-".into();
    match s.insert(
        &copy,
        store::Source::Io500Dir,
        Some("/elsewhere/result_summary.txt"),
        &[],
    ) {
        Err(store::StoreError::Duplicate(id)) => assert_eq!(id, RunId(2)),
        other => panic!("expected the duplicate of run 2, got {other:?}"),
    }
    // Another submission with the same (missing) start time and run id: a run of its own.
    let mut other = summary.clone();
    other.phases[0].bandwidth_mib_s *= 2.0;
    let id = s
        .insert(
            &other,
            store::Source::Io500Dir,
            Some("/siteB/result_summary.txt"),
            &[],
        )
        .unwrap();
    assert_eq!(id, RunId(4));
    assert_eq!(s.list(&Filter::default()).unwrap().len(), 4);
}
