//! Several writers on one store file at the same time, each with its own connection, as two
//! benchmark processes that finish together: every run lands whole. The file is new, so the
//! writers also race to create and migrate it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use results::{Operation, Parameters, RunResult};
use store::{Filter, Source, Store};

const RUNS: usize = 30;
const DB: &str = "STORE_TEST_WRITER_DB";
const TAG: &str = "STORE_TEST_WRITER_TAG";

/// The runs writer `tag` stores: a run id of their own, three phases each.
fn run_doc(tag: &str, i: usize, phases: usize) -> RunResult {
    let mut doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "0.1.0");
    doc.run_id = format!("{tag}-{i}");
    for n in 0..phases {
        doc.phases
            .push(crate::common::full_phase(Operation::Write, n as u32));
    }
    doc
}

/// Stores RUNS runs phase by phase, as the sink does, once `go` exists.
fn write_runs(db: &Path, tag: &str) {
    let go = db.with_file_name("go");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !go.exists() {
        assert!(Instant::now() < deadline, "no go");
        std::thread::sleep(Duration::from_millis(1));
    }
    let mut s = Store::open(db).unwrap();
    for i in 0..RUNS {
        let id = s.start(&run_doc(tag, i, 0), Source::Run, &[]).unwrap();
        for n in 1..=3 {
            s.save(id, &run_doc(tag, i, n)).unwrap();
        }
        let mut last = run_doc(tag, i, 3);
        last.finish(0);
        s.finish(id, &last).unwrap();
    }
}

/// Every writer's runs are there, complete, and read back as written.
fn check(db: &Path, tags: &[&str]) {
    let s = Store::open(db).unwrap();
    let all = s.list(&Filter::default()).unwrap();
    assert_eq!(all.len(), RUNS * tags.len());
    for r in &all {
        assert!(r.complete, "{}", r.run_id);
        let back = s.load(r.id).unwrap().doc;
        let (tag, i) = back.run_id.rsplit_once('-').unwrap();
        let mut want = run_doc(tag, i.parse().unwrap(), 3);
        want.finished = back.finished.clone();
        want.started = back.started.clone();
        assert_eq!(back, want);
    }
    for tag in tags {
        let mine = all
            .iter()
            .filter(|r| r.run_id.starts_with(&format!("{tag}-")))
            .count();
        assert_eq!(mine, RUNS, "{tag}");
    }
}

#[test]
fn two_threads_with_their_own_connections() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    std::thread::scope(|s| {
        let writers: Vec<_> = ["a", "b"]
            .into_iter()
            .map(|tag| {
                let db = &db;
                s.spawn(move || write_runs(db, tag))
            })
            .collect();
        std::fs::write(dir.path().join("go"), "").unwrap();
        for w in writers {
            w.join().unwrap();
        }
    });
    check(&db, &["a", "b"]);
}

#[test]
fn two_processes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("results.sqlite");
    let exe = std::env::current_exe().unwrap();
    let children: Vec<_> = ["p", "q"]
        .into_iter()
        .map(|tag| {
            Command::new(&exe)
                .args([
                    "concurrent::writer_process",
                    "--exact",
                    "--ignored",
                    "--nocapture",
                ])
                .env(DB, &db)
                .env(TAG, tag)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    std::fs::write(dir.path().join("go"), "").unwrap();
    for c in children {
        let out = c.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("1 passed"), "the writer did not run: {text}");
    }
    check(&db, &["p", "q"]);
}

/// One writer process of `two_processes` (ignored on its own: it needs the variables).
#[test]
#[ignore = "a writer process that two_processes starts with --ignored and its variables"]
fn writer_process() {
    let db = PathBuf::from(std::env::var_os(DB).expect(DB));
    write_runs(&db, &std::env::var(TAG).expect(TAG));
}
