//! Importing official IO500 result files: submission 731 of the SC24 list (its result.txt
//! verbatim, its result_summary.txt as the reference quotes it), altered, cut short and
//! invalid copies of it.

use std::path::Path;

use super::doc::rfc3339;
use super::*;
use crate::io500::format::cf;
use crate::io500::hash;
use crate::io500::score::{aggregate, Scored};
use results::Parameters;

const RESULT_731: &str = include_str!("../testdata/sc24-731-result.txt");
const CONFIG_731: &str = include_str!("../testdata/sc24-731-config.ini");

/// result_summary.txt of submission 731 (reference `io500.md` §7.1).
const SUMMARY_731: &str = include_str!("../testdata/sc24-731-result_summary.txt");

/// A result directory holding `files`.
fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(d.path().join(name), text).unwrap();
    }
    d
}

fn io500(doc: &RunResult) -> &results::io500::Io500Result {
    doc.io500.as_ref().unwrap()
}

#[test]
fn submission_731_imports_with_its_scores_reproduced() {
    let d = dir_with(&[("result.txt", RESULT_731), ("config.ini", CONFIG_731)]);
    let imp = read(d.path()).unwrap();
    assert_eq!(
        imp.notes,
        Vec::<String>::new(),
        "the scores and the hash agree"
    );
    assert_eq!(
        imp.origin,
        Origin::Io500Dir {
            dir: d.path().to_path_buf(),
            file: d.path().join("result.txt")
        }
    );
    let doc = &imp.doc;
    assert_eq!(doc.workload(), "io500");
    assert_eq!(
        (doc.tool.name.as_str(), doc.tool.version.as_str()),
        ("io500", "io500-sc24_v1")
    );
    assert_eq!(doc.run_id, "io500-20241111T000132Z-F69F17DE");
    assert_eq!(doc.started, "2024-11-11T00:01:32.000Z");
    assert_eq!(doc.finished, "2024-11-11T00:51:16.000Z");
    assert_eq!(doc.ranks.count, 200);
    assert_eq!(doc.environment.hostname, "unknown");

    let r = io500(doc);
    let names: Vec<&str> = r.phases.iter().map(|p| p.phase.as_str()).collect();
    assert_eq!(names.len(), 13);
    assert_eq!(names[2], "timestamp");
    assert!(r.phases.iter().all(|p| p.valid && p.ran));
    assert_eq!(r.phases[2].time_s, 0.0336);
    let s = r.score.as_ref().unwrap();
    assert_eq!(
        (s.bandwidth_gib_s, s.iops_kiops, s.total),
        (127.506288, 290.299474, 192.392849)
    );
    assert!(s.valid);
    assert_eq!(s.hash, "F69F17DE");
    assert!(r.scorex.is_none() && r.run_invalid.is_empty());

    // The imported phase values give the printed aggregates with iogauge's own formula.
    let scored: Vec<Scored> = r
        .phases
        .iter()
        .map(|p| Scored {
            phase: crate::io500::phases::by_name(&p.phase).unwrap(),
            score: p.score,
        })
        .collect();
    let again = aggregate(&scored, false);
    assert_eq!(
        (cf(again.bw), cf(again.total)),
        (s.text[0].clone(), s.text[2].clone())
    );
    assert!((again.md - s.iops_kiops).abs() <= 1.5e-6, "{}", again.md);

    // One measured phase per tool phase, with the IO500's figure and wall time.
    assert_eq!(doc.phases.len(), 12);
    let first = &doc.phases[0];
    assert_eq!(first.io500_phase.as_deref(), Some("ior-easy-write"));
    assert_eq!(first.operation, results::Operation::Write);
    assert_eq!(first.bandwidth_mib_s, 148.001603 * 1024.0);
    assert_eq!(first.times.total_s, 307.6895);
    let find = doc
        .phases
        .iter()
        .find(|p| p.operation == results::Operation::Find)
        .unwrap();
    assert_eq!(find.iops, 12203.137716 * 1000.0);
    assert_eq!(find.counters["found"], 378602);
    assert_eq!(find.counters["examined"], 122351601);

    let Parameters::Io500(p) = &doc.parameters else {
        panic!("{:?}", doc.parameters)
    };
    assert_eq!(p.config_hash, "451AE3DE");
    assert_eq!(p.timestamp, "2024.11.11-00.01.32");
    assert_eq!(p.data_dir, "/gpfs/bb8nvme/io500/2024.11.11-00.01.32");
    assert_eq!(p.mode, "standard");
    assert_eq!(p.config["ior-easy"]["transferSize"].as_deref(), Some("16m"));
    // The document is a valid one: it reads back from its JSON.
    let text = results::to_json_string(doc);
    assert_eq!(&results::from_json_str(&text).unwrap(), doc);
}

#[test]
fn the_summary_alone_imports_too() {
    let d = dir_with(&[("result_summary.txt", SUMMARY_731)]);
    let imp = read(d.path()).unwrap();
    assert_eq!(imp.notes, Vec::<String>::new());
    let r = io500(&imp.doc);
    assert_eq!(r.phases.len(), 13);
    assert_eq!(r.phases[0].time_s, 307.690);
    assert_eq!(r.score.as_ref().unwrap().total, 192.392849);
    assert_eq!(r.score.as_ref().unwrap().hash, "");
    assert!(imp.doc.started.is_empty(), "the summary has no dates");
    let both = dir_with(&[
        ("result.txt", RESULT_731),
        ("result_summary.txt", SUMMARY_731),
    ]);
    let from_txt = read(both.path()).unwrap();
    assert!(
        matches!(from_txt.origin, Origin::Io500Dir { ref file, .. } if file.ends_with("result.txt"))
    );
    let named = read(&both.path().join("result_summary.txt")).unwrap();
    assert!(
        matches!(named.origin, Origin::Io500Dir { ref file, .. } if file.ends_with("result_summary.txt"))
    );
}

#[test]
fn a_changed_value_is_noticed() {
    let changed = RESULT_731.replace("score           = 36.108839", "score           = 46.108839");
    let d = dir_with(&[("result.txt", &changed)]);
    let notes = read(d.path()).unwrap().notes;
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("[SCORE] MD: the phase scores give 299.")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("the score hash F69F17DE does not match")),
        "{notes:?}"
    );
    // The notes are in the document too.
    let doc = read(d.path()).unwrap().doc;
    assert!(doc.warnings.iter().any(|w| w.contains("does not match")));
}

#[test]
fn a_run_cut_short_keeps_its_phases_incomplete() {
    let cut = &RESULT_731[..RESULT_731.find("[find]").unwrap()];
    let d = dir_with(&[("result.txt", cut)]);
    let imp = read(d.path()).unwrap();
    assert_eq!(imp.notes.len(), 1);
    assert!(imp.notes[0].contains("has no [SCORE]"), "{:?}", imp.notes);
    assert_eq!(imp.doc.finished, "");
    assert_eq!(imp.doc.phases.len(), 4);
    assert!(io500(&imp.doc).score.is_none());
    assert_eq!(imp.doc.run_id, "io500-20241111T000132Z-451AE3DE");
}

#[test]
fn an_invalid_run_reads_with_its_reasons() {
    let phases: Vec<Scored> = [("ior-easy-write", 2.0), ("find", 8.0)]
        .iter()
        .map(|&(n, s)| Scored {
            phase: crate::io500::phases::by_name(n).unwrap(),
            score: s,
        })
        .collect();
    let s = aggregate(&phases, false);
    let h = hash::standard("v", &phases, &s, false);
    let txt = format!(
        "[run]\nprocs           = 2\nversion         = v\nconfig-hash     = AB\n\
         ; ERROR INVALID stonewall-time 1s != 300s\n\n\n\
         [ior-easy-write]\nexe             = ./ior -o /d/ior-easy/ior_file_easy\n\
         ; ERROR INVALID Write phase needed 0.5s\nscore           = 2.000000\n\n\
         [find]\n; ERROR INVALID Exit code 256 != 0 from find command: \"f.sh\"\n\
         ; Possible error: Unknown error 256\n; WARNING Couldn't find \"MATCHED x/y\"\n\
         found           = 3\nscore           = 8.000000\n\n\
         [SCORE]\nMD              = {}\nBW              = {}\nSCORE           = {} [INVALID]\n\
         hash            = {h:X}\n",
        cf(s.md),
        cf(s.bw),
        cf(s.total)
    );
    let d = dir_with(&[("result.txt", &txt)]);
    let imp = read(d.path()).unwrap();
    assert_eq!(imp.notes, Vec::<String>::new());
    let r = io500(&imp.doc);
    assert_eq!(r.run_invalid, ["stonewall-time 1s != 300s"]);
    assert!(!r.score.as_ref().unwrap().valid);
    assert_eq!(r.phases[0].invalid, ["Write phase needed 0.5s"]);
    assert_eq!(
        r.phases[1].invalid,
        ["Exit code 256 != 0 from find command: \"f.sh\"\nPossible error: Unknown error 256"]
    );
    assert!(!r.phases[1].valid);
    assert_eq!(
        imp.doc.phases[1].warnings[1],
        "Couldn't find \"MATCHED x/y\""
    );
    assert!(imp
        .doc
        .warnings
        .contains(&"INVALID run: stonewall-time 1s != 300s".to_string()));
    let Parameters::Io500(p) = &imp.doc.parameters else {
        panic!()
    };
    assert_eq!(p.data_dir, "/d");
    assert!(p.config.is_empty(), "no config.ini");
}

#[test]
fn what_is_no_result_is_refused() {
    let empty = dir_with(&[]);
    let e = read(empty.path()).unwrap_err();
    assert!(e.contains("not an IO500 result directory"), "{e}");
    let blank = dir_with(&[("result.txt", "")]);
    assert!(read(blank.path()).unwrap_err().contains("no IO500 result"));
    let e = read(Path::new("/nonexistent/run.json")).unwrap_err();
    assert!(e.contains("/nonexistent/run.json"), "{e}");
    let bad_config = dir_with(&[("result.txt", RESULT_731), ("config.ini", "[nosuch]\n")]);
    let imp = read(bad_config.path()).unwrap();
    assert_eq!(imp.notes.len(), 1, "{:?}", imp.notes);
    assert!(
        imp.notes[0].starts_with("configuration not imported: config.ini:1:"),
        "{:?}",
        imp.notes
    );
}

#[test]
fn dates_are_read_as_utc_or_not_at_all() {
    assert_eq!(
        rfc3339("2024-11-11 00:01:32").as_deref(),
        Some("2024-11-11T00:01:32.000Z")
    );
    assert_eq!(rfc3339("2024-11-11T00:01:32"), None);
    assert_eq!(rfc3339("yesterday noon"), None);
}
