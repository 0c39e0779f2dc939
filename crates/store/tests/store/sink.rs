//! The store as a run's sink: stored at the start, after each phase and at the end, with one
//! line naming the stored run; an interrupted run keeps its phases, incomplete; a store that
//! fails does not stop the run.

use std::io::Write;
use std::sync::{Arc, Mutex};

use results::sink::{Detail, PhaseStart};
use results::{Fanout, Hub, Operation, Parameters, RunResult};
use store::{Filter, Label, RunId, Source, Store, StoreSink};

/// What the sink prints, kept for the test.
#[derive(Clone, Default)]
struct Out(Arc<Mutex<Vec<u8>>>);

impl Write for Out {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Out {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
}

fn hub(store: Store, labels: Vec<Label>, out: &Out) -> Hub {
    let doc = RunResult::new(
        Parameters::Ior(Default::default()),
        vec!["iogauge".into(), "ior".into()],
        "0.1.0",
    );
    let sink = StoreSink::with_output(store, labels, Box::new(out.clone()));
    Hub::new(doc, Fanout::new(vec![Box::new(sink)]))
}

fn phase(hub: &mut Hub, op: Operation) {
    hub.phase_start(&PhaseStart {
        operation: op,
        iteration: 0,
        io500_phase: None,
        ranks: 1,
        expect: Default::default(),
    });
    hub.phase_end(crate::common::full_phase(op, 0), Detail::External);
}

#[test]
fn a_run_is_stored_as_it_goes_and_named_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.sqlite");
    let out = Out::default();
    let labels = vec![Label::new("tuning", "nps4")];
    let mut h = hub(Store::open(&path).unwrap(), labels.clone(), &out);
    let reader = Store::open(&path).unwrap();
    h.start();
    let listed = reader.list(&Filter::default()).unwrap();
    assert_eq!(listed.len(), 1, "stored when the run starts");
    assert!(!listed[0].complete);
    assert_eq!(listed[0].labels, labels);
    phase(&mut h, Operation::Write);
    assert_eq!(reader.load(listed[0].id).unwrap().doc.phases.len(), 1);
    phase(&mut h, Operation::Read);
    assert_eq!(out.text(), "", "nothing printed before the end");
    h.end(0, None);
    let doc = h.into_doc();
    assert_eq!(out.text(), "stored as run 1: iogauge report 1\n");
    let run = reader.load(RunId(1)).unwrap();
    assert!(run.complete);
    assert_eq!(run.source, Source::Run);
    assert_eq!(run.doc, doc);
}

#[test]
fn an_interrupted_run_keeps_its_phases_incomplete() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.sqlite");
    let out = Out::default();
    let mut h = hub(Store::open(&path).unwrap(), vec![], &out);
    h.start();
    phase(&mut h, Operation::Write);
    let so_far = h.doc().clone();
    drop(h); // the process is gone: no RunEnd
    let s = Store::open(&path).unwrap();
    let listed = s.list(&Filter::default()).unwrap();
    assert_eq!(listed.len(), 1);
    assert!(!listed[0].complete);
    assert_eq!(listed[0].exit_code, None);
    assert_eq!(listed[0].figures[0].name, "write");
    let run = s.load(listed[0].id).unwrap();
    assert!(!run.complete);
    assert_eq!(run.doc, so_far);
    assert_eq!(run.doc.phases.len(), 1);
    assert_eq!(run.doc.finished, "");
    assert_eq!(out.text(), "");
}

#[test]
fn a_failing_store_does_not_stop_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.sqlite");
    let out = Out::default();
    let mut h = hub(Store::open(&path).unwrap(), vec![], &out);
    // Another run is there, and the file refuses every new row and change from now on.
    let mut other = h.doc().clone();
    other.run_id.push_str("-other");
    Store::open(&path)
        .unwrap()
        .insert(&other, Source::Json, None, &[])
        .unwrap();
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER refuse_insert BEFORE INSERT ON runs BEGIN SELECT RAISE(ABORT, 'refused'); END;
             CREATE TRIGGER refuse_update BEFORE UPDATE ON runs BEGIN SELECT RAISE(ABORT, 'refused'); END;",
        )
        .unwrap();
    h.start();
    phase(&mut h, Operation::Write);
    h.end(0, None);
    assert_eq!(h.doc().phases.len(), 1, "the run went on");
    assert_eq!(out.text(), "", "no claim that the run was stored");
    let listed = Store::open(&path)
        .unwrap()
        .list(&Filter::default())
        .unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].source, Source::Json);
}
