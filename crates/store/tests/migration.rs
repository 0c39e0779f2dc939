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
    doc.run_id.push_str("-again");
    let id = s
        .insert(&doc, store::Source::Json, Some("x.json"), &[])
        .unwrap();
    assert_eq!(id, RunId(2));
    assert_eq!(s.list(&Filter::default()).unwrap().len(), 2);
}
