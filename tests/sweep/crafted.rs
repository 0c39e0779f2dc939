//! The table and the findings of crafted stored results: a sweep row and its points written
//! into a store directly, with figures chosen to have a known knee and overlapping repeats.

use results::{Operation, Parameters, PhaseResult, RunResult};
use store::{Label, Source, Store};

use crate::common::{iogauge, tmp};

/// One stored point of sweep 1: write bandwidth `bw` at tasks=`tasks`, t=`t`.
fn point(s: &mut Store, tasks: &str, t: &str, repeat: u32, bw: f64) {
    let mut doc = RunResult::new(Parameters::Ior(Default::default()), vec![], "test");
    doc.run_id = format!("crafted-{tasks}-{t}-{repeat}");
    doc.finished = doc.started.clone();
    let mut p = PhaseResult::new(Operation::Write, 0);
    p.bandwidth_mib_s = bw;
    doc.phases.push(p);
    let labels = [
        Label::new("sweep", "1"),
        Label::new("sweep.tasks", tasks),
        Label::new("sweep.t", t),
        Label::new("sweep.repeat", &repeat.to_string()),
    ];
    // Stored as a run stores itself: points may measure the same figure.
    let id = s.start(&doc, Source::Run, &labels).unwrap();
    s.finish(id, &doc).unwrap();
}

#[test]
fn a_known_knee_and_overlapping_repeats() {
    let d = tmp();
    let db = d.path().join("r.sqlite");
    let mut s = Store::open(&db).unwrap();
    let plan = r#"{"command":["ior","-w","-o","/x/f"],"axes":[{"name":"tasks","values":["1","2","4","8","16"]},{"name":"t","values":["64k","1m"]}],"repeats":3,"seed":null}"#;
    let key = "crafted";
    assert_eq!(
        s.create_sweep("2026-11-25T00:00:00Z", key, plan).unwrap(),
        1
    );
    // t=1m: 100, 200, 400, then 410 and 415: doubling past 4 adds 2.5 %.
    for (tasks, bw) in [
        ("1", 100.0),
        ("2", 200.0),
        ("4", 400.0),
        ("8", 410.0),
        ("16", 415.0),
    ] {
        for r in 1..=3 {
            point(&mut s, tasks, "1m", r, bw + r as f64 - 2.0);
        }
    }
    // t=64k: the repeats of 8 and 16 overlap; 16 leaves out one repeat.
    for (tasks, reps) in [
        ("1", &[50.0, 52.0, 51.0][..]),
        ("2", &[90.0, 95.0, 92.0]),
        ("4", &[150.0, 160.0, 155.0]),
        ("8", &[200.0, 230.0, 215.0]),
        ("16", &[220.0, 210.0]),
    ] {
        for (i, bw) in reps.iter().enumerate() {
            point(&mut s, tasks, "64k", i as u32 + 1, *bw);
        }
    }
    drop(s);
    let db = db.to_str().unwrap();
    let r = iogauge(&format!("--db {db} sweep show 1")).ok();
    let out = &r.stdout;
    assert!(
        out.contains("│ 4     ┆ 1m  ┆  3/3 ┆ 400.0 [399.0–401.0] │"),
        "{out}"
    );
    assert!(
        out.contains("│ 16    ┆ 64k ┆  2/3 ┆ 215.0 [210.0–220.0] │"),
        "{out}"
    );
    assert!(
        out.contains("1 of 10 combinations have fewer than 3 measured repeats"),
        "{out}"
    );
    assert!(
        out.contains(
            "write MiB/s (with t=1m): diminishing returns from tasks=4: going to 8 (x2) takes \
             the median from 400.0 MiB/s to 410.0 MiB/s (+2.5 %"
        ),
        "{out}"
    );
    assert!(
        out.contains("write MiB/s (with t=1m): saturates at tasks=4"),
        "{out}"
    );
    assert!(
        out.contains("write MiB/s (with t=1m): best at tasks=16"),
        "{out}"
    );
    assert!(
        out.contains(
            "write MiB/s (with t=64k): the repeats of tasks=16 [210.0–220.0] overlap those of \
             tasks=8 [200.0–230.0]: the difference is not significant"
        ),
        "{out}"
    );
    // A higher threshold moves the knee of t=64k (gains 80 %, 68 %, 39 %, 0 %) earlier.
    let r = iogauge(&format!("--db {db} sweep show 1 --threshold 50%")).ok();
    assert!(
        r.stdout
            .contains("write MiB/s (with t=64k): diminishing returns from tasks=4: going to 8"),
        "{}",
        r.stdout
    );
    let csv = iogauge(&format!("--db {db} sweep show 1 --format csv")).ok();
    assert!(
        csv.stdout.contains("\n8,1m,write,MiB/s,3,409,410,411\n"),
        "{}",
        csv.stdout
    );
}
