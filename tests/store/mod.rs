//! Real documents in the result store: runs of `iogauge ior`, `mdtest` and `io500` read back
//! equal, and an iogauge IO500 result directory imports from its result.json and, without it,
//! from its result.txt with the same scores.

mod cli;
mod compare;
mod imports;
mod marks;

use std::path::Path;

use results::RunResult;
use store::{Filter, Label, RunId, Source, Store};
use workload::io500::import::{self, Origin};

use crate::common::{iogauge, iogauge_args, shm, tmp};
use crate::io500::small_ini;

/// Imports `path` into `s`, as the import command will.
fn import_into(s: &mut Store, path: &Path) -> (RunId, import::Imported) {
    let imp = import::read(path).unwrap();
    let source = match imp.origin {
        Origin::Document(_) => Source::Json,
        Origin::Io500Dir { .. } => Source::Io500Dir,
    };
    let origin = path.display().to_string();
    let id = s
        .insert(
            &imp.doc,
            source,
            Some(&origin),
            &[Label::new("from", "test")],
        )
        .unwrap();
    (id, imp)
}

fn stored(s: &Store, id: RunId) -> RunResult {
    s.load(id).unwrap().doc
}

#[test]
fn ior_and_mdtest_documents_read_back_equal() {
    let d = shm();
    let db = tmp();
    let mut s = Store::open(&db.path().join("r.sqlite")).unwrap();
    let dir = d.path().display();
    iogauge(&format!(
        "ior -N 2 -t 64k -b 256k -s 2 -F -e -w -r -W -R -i 2 -D 5 -o {dir}/f --json {dir}/ior.json"
    ))
    .ok();
    iogauge(&format!(
        "mdtest --tasks 2 -n 20 -u -w 100 -e 100 -X -i 2 -d {dir}/md --json {dir}/md.json"
    ))
    .ok();
    for (file, workload, figure) in [
        ("ior.json", "ior", "write"),
        ("md.json", "mdtest", "dir-create"),
    ] {
        let path = d.path().join(file);
        let (id, imp) = import_into(&mut s, &path);
        assert_eq!(imp.origin, Origin::Document(path.clone()));
        assert!(imp.notes.is_empty(), "{:?}", imp.notes);
        let doc = results::read_json(&path).unwrap();
        assert_eq!(stored(&s, id), doc, "{file}");
        let row = s.list(&Filter::default()).unwrap().pop().unwrap();
        assert_eq!(
            (row.id, row.workload.as_str(), row.source),
            (id, workload, Source::Json)
        );
        assert_eq!(row.figures[0].name, figure, "{file}");
    }
}

#[test]
fn an_iogauge_io500_directory_imports_from_its_json_and_its_text() {
    let d = tmp();
    let ini = small_ini(d.path(), "");
    let ini = ini.to_str().unwrap();
    iogauge_args(&["io500", ini, "--tasks", "2", "--timestamp", "T1"]).ok();
    let res = d.path().join("res/T1");
    let db = tmp();
    let mut s = Store::open(&db.path().join("r.sqlite")).unwrap();

    // result.json is there: the whole document, as iogauge wrote it.
    let (id, imp) = import_into(&mut s, &res);
    assert!(imp.notes.is_empty(), "{:?}", imp.notes);
    assert!(matches!(&imp.origin, Origin::Io500Dir { file, .. } if file.ends_with("result.json")));
    let doc = results::read_json(&res.join("result.json")).unwrap();
    assert_eq!(stored(&s, id), doc);
    let run = s.load(id).unwrap();
    assert_eq!(run.source, Source::Io500Dir);
    assert_eq!(run.origin.as_deref(), Some(res.to_str().unwrap()));
    assert!(run.complete);
    let score = doc.io500.as_ref().unwrap().score.clone().unwrap();
    let row = &s.list(&Filter::default()).unwrap()[0];
    assert_eq!(row.figures[0].name, "score");
    assert_eq!(row.figures[0].value, score.total);
    assert!(!row.figures[0].valid, "a 1 s stonewall is an invalid run");

    // The same directory without result.json, as the official IO500 leaves it.
    let copy = tmp();
    for f in [
        "result.txt",
        "result_summary.txt",
        "config.ini",
        "config-orig.ini",
    ] {
        std::fs::copy(res.join(f), copy.path().join(f)).unwrap();
    }
    let (id2, imp) = import_into(&mut s, copy.path());
    assert!(imp.notes.is_empty(), "{:?}", imp.notes);
    let text_doc = stored(&s, id2);
    let (a, b) = (
        doc.io500.as_ref().unwrap(),
        text_doc.io500.as_ref().unwrap(),
    );
    assert_eq!(b.score.as_ref().unwrap().text, score.text);
    assert_eq!(b.score.as_ref().unwrap().hash, score.hash);
    assert_eq!(b.run_invalid, a.run_invalid);
    let names = |r: &results::io500::Io500Result| -> Vec<(String, String, bool)> {
        r.phases
            .iter()
            .map(|p| (p.phase.clone(), format!("{:.6}", p.score), p.valid))
            .collect()
    };
    assert_eq!(names(b), names(a));
    assert_eq!(text_doc.tool.name, "iogauge");
    assert_eq!(text_doc.phases.len(), doc.phases.len());
    let (results::Parameters::Io500(pt), results::Parameters::Io500(pj)) =
        (&text_doc.parameters, &doc.parameters)
    else {
        panic!("not io500 parameters")
    };
    assert_eq!(
        pt.config, pj.config,
        "config.ini gives the same resolved values"
    );
    assert_eq!(pt.config_hash, pj.config_hash);
    // Importing the same files again is recognised.
    let again = import::read(copy.path()).unwrap();
    match s.insert(&again.doc, Source::Io500Dir, None, &[]) {
        Err(store::StoreError::Duplicate(same)) => assert_eq!(same, id2),
        other => panic!("{:?}", other.map(|id| id.0)),
    }
}
