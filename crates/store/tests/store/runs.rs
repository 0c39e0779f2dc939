//! The store on a real SQLite file: documents read back equal, the queryable columns and rows
//! agree with them, listings filter by labels, workload and host, and opening refuses what
//! it cannot use.

use crate::common::{full_io500, small, small_as, temp_store};
use results::{Operation, Parameters, RunResult};
use rusqlite::Connection;
use store::{Filter, Label, RunId, Source, Store, StoreError, SCHEMA_VERSION};

fn ior() -> Parameters {
    Parameters::Ior(Default::default())
}

fn mdtest() -> Parameters {
    Parameters::Mdtest(results::MdtestParameters {
        plan: Default::default(),
        resolved: Default::default(),
    })
}

#[test]
fn the_full_model_reads_back_equal() {
    let (dir, mut s) = temp_store();
    let doc = full_io500();
    let labels = [Label::new("tuning", "nps4"), Label::new("fs", "lustre")];
    let id = s
        .insert(&doc, Source::Json, Some("/x/result.json"), &labels)
        .unwrap();
    drop(s);
    // A fresh connection: what is on disk, not what a cache kept.
    let s = Store::open(&dir.path().join("results.sqlite")).unwrap();
    let back = s.load(id).unwrap();
    assert_eq!(back.doc, doc);
    assert_eq!(back.source, Source::Json);
    assert_eq!(back.origin.as_deref(), Some("/x/result.json"));
    assert!(back.complete);
    // Labels come back sorted by key.
    assert_eq!(
        back.labels,
        [Label::new("fs", "lustre"), Label::new("tuning", "nps4")]
    );
}

#[test]
fn the_columns_and_rows_agree_with_the_document() {
    let (dir, mut s) = temp_store();
    let doc = full_io500();
    let id = s.insert(&doc, Source::Run, None, &[]).unwrap();
    let c = Connection::open(dir.path().join("results.sqlite")).unwrap();
    let row: (
        String,
        String,
        String,
        String,
        String,
        i64,
        i64,
        i64,
        bool,
        String,
    ) = c
        .query_row(
            "SELECT run_id, started, finished, host, command_line, ranks, nodes, exit_code,
                    complete, source FROM runs WHERE id = ?1",
            [id.0],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                    r.get(9)?,
                ))
            },
        )
        .unwrap();
    assert_eq!(row.0, doc.run_id);
    assert_eq!(
        (row.1.as_str(), row.2.as_str()),
        (doc.started.as_str(), doc.finished.as_str())
    );
    assert_eq!(row.3, doc.environment.hostname);
    assert_eq!(row.4, "iogauge io500 my config.ini");
    assert_eq!((row.5, row.6, row.7, row.8), (2, 2, 1, true));
    assert_eq!(row.9, "run");
    let phases: Vec<(String, Option<String>, i64, i64, f64, f64)> = c
        .prepare("SELECT operation, io500_phase, bytes, ops, time_s, bandwidth_mib_s FROM phases WHERE run = ?1 ORDER BY seq")
        .unwrap()
        .query_map([id.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(phases.len(), 2);
    let p = &doc.phases[1];
    assert_eq!(phases[1].0, "find");
    assert_eq!(phases[1].1.as_deref(), Some("ior-hard-write"));
    assert_eq!((phases[1].2, phases[1].3), (p.bytes as i64, p.ops as i64));
    assert_eq!(
        (phases[1].4, phases[1].5),
        (p.times.total_s, p.bandwidth_mib_s)
    );
}

#[test]
fn listing_shows_labels_figures_and_filters() {
    let (_dir, mut s) = temp_store();
    let a = small_as(
        "ior-a",
        ior(),
        &[
            (Operation::Write, 100.0, 1.0),
            (Operation::Read, 250.0, 1.0),
            (Operation::Write, 120.0, 1.0),
        ],
    );
    let b = small_as("ior-b", ior(), &[(Operation::Write, 90.0, 1.0)]);
    let c = small_as(
        "md-c",
        mdtest(),
        &[
            (Operation::FileCreate, 0.0, 5000.0),
            (Operation::TreeCreate, 0.0, 1.0),
        ],
    );
    let nps4 = Label::new("tuning", "nps4");
    let ia = s
        .insert(
            &a,
            Source::Run,
            None,
            &[nps4.clone(), Label::new("fs", "xfs")],
        )
        .unwrap();
    let ib = s
        .insert(&b, Source::Run, None, &[Label::new("tuning", "nps1")])
        .unwrap();
    let ic = s
        .insert(&c, Source::Run, None, std::slice::from_ref(&nps4))
        .unwrap();

    let all = s.list(&Filter::default()).unwrap();
    assert_eq!(all.iter().map(|r| r.id).collect::<Vec<_>>(), [ia, ib, ic]);
    let ra = &all[0];
    assert_eq!((ra.run_id.as_str(), ra.workload.as_str()), ("ior-a", "ior"));
    assert_eq!(ra.labels, [Label::new("fs", "xfs"), nps4.clone()]);
    assert!(ra.complete && ra.exit_code == Some(0) && ra.source == Source::Run);
    let figs: Vec<(&str, f64, &str)> = ra
        .figures
        .iter()
        .map(|f| (f.name.as_str(), f.value, f.unit.as_str()))
        .collect();
    assert_eq!(figs, [("write", 120.0, "MiB/s"), ("read", 250.0, "MiB/s")]);
    let md: Vec<&str> = all[2].figures.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(md, ["file-create"], "tree operations are no headline");

    let ids =
        |s: &Store, f: Filter| -> Vec<RunId> { s.list(&f).unwrap().iter().map(|r| r.id).collect() };
    let by = |f: Filter| ids(&s, f);
    assert_eq!(
        by(Filter {
            labels: vec![nps4.clone()],
            ..Default::default()
        }),
        [ia, ic]
    );
    assert_eq!(
        by(Filter {
            labels: vec![nps4.clone()],
            workload: Some("ior".into()),
            ..Default::default()
        }),
        [ia]
    );
    assert_eq!(
        by(Filter {
            labels: vec![nps4.clone(), Label::new("fs", "xfs")],
            ..Default::default()
        }),
        [ia]
    );
    assert_eq!(
        by(Filter {
            labels: vec![Label::new("tuning", "nps2")],
            ..Default::default()
        }),
        []
    );
    let host = a.environment.hostname.clone();
    assert_eq!(
        by(Filter {
            host: Some(host),
            ..Default::default()
        }),
        [ia, ib, ic]
    );
    assert_eq!(
        by(Filter {
            host: Some("elsewhere".into()),
            ..Default::default()
        }),
        []
    );

    // A label added later, and a key given again, which takes the new value.
    s.add_labels(ib, &[Label::new("tuning", "nps4")]).unwrap();
    assert_eq!(
        ids(
            &s,
            Filter {
                labels: vec![nps4],
                ..Default::default()
            }
        ),
        [ia, ib, ic]
    );
    assert!(matches!(
        s.add_labels(RunId(999), &[]),
        Err(StoreError::NotFound(RunId(999)))
    ));
}

#[test]
fn a_run_grows_phase_by_phase_and_completes() {
    let (_dir, mut s) = temp_store();
    let mut doc = RunResult::new(ior(), vec!["iogauge".into(), "ior".into()], "0.1.0");
    let id = s.start(&doc, Source::Run, &[]).unwrap();
    let listed = |s: &Store| s.list(&Filter::default()).unwrap().remove(0);
    assert!(!listed(&s).complete && listed(&s).exit_code.is_none());
    assert!(listed(&s).figures.is_empty());
    doc.phases
        .push(crate::common::full_phase(Operation::Write, 0));
    s.save(id, &doc).unwrap();
    assert_eq!(s.load(id).unwrap().doc.phases.len(), 1);
    assert!(!s.load(id).unwrap().complete);
    assert_eq!(listed(&s).figures[0].name, "write");
    doc.finish(1);
    s.finish(id, &doc).unwrap();
    let back = s.load(id).unwrap();
    assert!(back.complete);
    assert_eq!(back.doc, doc);
    assert_eq!(listed(&s).exit_code, Some(1));
    // Saving again cannot make a complete run incomplete.
    s.save(id, &doc).unwrap();
    assert!(s.load(id).unwrap().complete);
    assert!(matches!(
        s.save(RunId(77), &doc),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(s.load(RunId(77)), Err(StoreError::NotFound(_))));
}

#[test]
fn the_same_run_is_stored_once() {
    let (_dir, mut s) = temp_store();
    let doc = small(ior(), &[]);
    let id = s.insert(&doc, Source::Json, None, &[]).unwrap();
    match s.insert(&doc, Source::Json, None, &[]) {
        Err(e @ StoreError::Duplicate(same)) => {
            assert_eq!(same, id);
            assert_eq!(
                e.to_string(),
                format!("the run is already stored as run {id}")
            );
        }
        other => panic!("{other:?}"),
    }
    // Other figures, with the same run id as the first: another run.
    let mut again = small(ior(), &[(Operation::Write, 1.0, 0.0)]);
    again.run_id = doc.run_id.clone();
    assert_ne!(s.insert(&again, Source::Json, None, &[]).unwrap(), id);
    let mut unfinished = small_as("other", ior(), &[(Operation::Read, 1.0, 0.0)]);
    unfinished.finished.clear();
    let id2 = s.insert(&unfinished, Source::Io500Dir, None, &[]).unwrap();
    assert!(
        !s.load(id2).unwrap().complete,
        "an import without an end is incomplete"
    );
}

#[test]
fn open_creates_directories_and_sets_up_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a/b/results.sqlite");
    drop(Store::open(&path).unwrap());
    let c = Connection::open(&path).unwrap();
    let v: u32 = c
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(v, SCHEMA_VERSION);
    let mode: String = c
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    // Opening again changes nothing.
    drop(Store::open(&path).unwrap());
}

#[test]
fn open_refuses_what_it_cannot_use() {
    let dir = tempfile::tempdir().unwrap();
    let err = |p: &std::path::Path| match Store::open(p) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("{} opened", p.display()),
    };
    let e = err(dir.path());
    assert!(e.contains("is a directory"), "{e}");
    assert!(e.starts_with(&format!(
        "cannot open the result store {}",
        dir.path().display()
    )));
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "x".repeat(4096)).unwrap();
    let e = err(&text);
    assert!(e.contains("not a database"), "{e}");
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let e = err(&file.join("results.sqlite"));
    assert!(e.contains("cannot create directory"), "{e}");

    let newer = dir.path().join("newer.sqlite");
    drop(Store::open(&newer).unwrap());
    let c = Connection::open(&newer).unwrap();
    c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .unwrap();
    drop(c);
    match Store::open(&newer) {
        Err(StoreError::TooNew { found, known, .. }) => {
            assert_eq!((found, known), (SCHEMA_VERSION + 1, SCHEMA_VERSION))
        }
        other => panic!("{:?}", other.map(|_| ())),
    }
}

#[test]
fn a_document_that_no_longer_parses_is_named() {
    let (dir, mut s) = temp_store();
    let id = s
        .insert(&small(ior(), &[]), Source::Run, None, &[])
        .unwrap();
    let c = Connection::open(dir.path().join("results.sqlite")).unwrap();
    c.execute("UPDATE runs SET document = '{\"schema_version\": 99}'", [])
        .unwrap();
    let e = s.load(id).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("run {id}: the stored document does not read back")),
        "{e}"
    );
    assert!(e.contains("newer"), "{e}");
}
