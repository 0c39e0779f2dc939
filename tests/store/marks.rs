//! A stored run with marks and system figures, as `show` and `report` give it back: the
//! marked phase cut into stretches with their changes, the system section, the marks in the
//! page's chart data. The document is a real ior run's with a crafted series, two marks and
//! system figures put in (the probe and `iogauge mark` have tests of their own).

use serde_json::{json, Value};

use crate::common::{iogauge_args, tmp};

const MIB: u64 = 1 << 20;

#[test]
fn show_and_report_give_a_stored_runs_marks_and_system_figures() {
    let d = tmp();
    let (made, db) = (d.path().join("made.sqlite"), d.path().join("s.sqlite"));
    let doc = d.path().join("run.json");
    let file = d.path().join("f");
    let db_arg = |p: &std::path::Path| p.to_str().unwrap().to_string();
    iogauge_args(&[
        "--db",
        &db_arg(&made),
        "ior",
        "-a",
        "DUMMY",
        "-t",
        "1m",
        "-b",
        "4m",
        "-w",
        "-o",
        file.to_str().unwrap(),
        "--json",
        doc.to_str().unwrap(),
    ])
    .ok();
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&doc).unwrap()).unwrap();
    let p = &mut v["phases"][0];
    p["series"] = json!({"interval_s": 1.0, "buckets": [
        {"t_s": 0.0, "bytes": 100 * MIB, "ops": 100},
        {"t_s": 1.0, "bytes": 50 * MIB, "ops": 50},
        {"t_s": 2.0, "bytes": 99 * MIB, "ops": 99},
    ]});
    p["bytes"] = json!(249 * MIB);
    p["times"]["total_s"] = json!(3.0);
    p["system"] = json!({
        "host": "node7", "window_s": 3.02,
        "cpu": {"user_s": 0.5, "system_s": 1.5, "utilization_pct": 66.2, "cpus_available": 2,
                "node_cpus": 2, "node_busy": 0.4, "node_iowait": 0.0, "node_steal": 0.0},
        "absent": {"devices": "none: tmpfs has no block device", "nfs": "not an NFS mount"},
    });
    let mark = |text: &str, t: f64| {
        json!({"text": text, "time": "2025-03-01T10:00:00Z", "elapsed_s": t + 0.1,
               "phase": 0, "phase_t_s": t})
    };
    v["marks"] = json!([mark("disk pulled", 1.0), mark("disk back", 2.0)]);
    std::fs::write(&doc, serde_json::to_string(&v).unwrap()).unwrap();
    iogauge_args(&["--db", &db_arg(&db), "import", doc.to_str().unwrap()]).ok();

    let show = iogauge_args(&["--db", &db_arg(&db), "show", "1"])
        .ok()
        .stdout;
    for want in [
        "Marks in write, iteration 0",
        "between \"disk pulled\" and \"disk back\"",
        "-50.0 %",
        "-1.0 %",
        "System (measured on rank 0's node node7)",
        "0.50 s + 1.50 s",
        "absent: devices (none: tmpfs has no block device)",
    ] {
        assert!(show.contains(want), "{want:?} not in\n{show}");
    }
    let j = iogauge_args(&["--db", &db_arg(&db), "show", "1", "--format", "json"])
        .ok()
        .stdout;
    let j: Value = serde_json::from_str(&j).unwrap();
    assert_eq!(j["marks"][0]["text"], "disk pulled");
    assert_eq!(
        j["marked_phases"][0]["stretches"][1]["change_pct"].as_f64(),
        Some(-50.0)
    );
    assert_eq!(j["system"][0]["system"]["host"], "node7");

    let page = d.path().join("page.html");
    iogauge_args(&[
        "--db",
        &db_arg(&db),
        "report",
        "1",
        "-o",
        page.to_str().unwrap(),
    ])
    .ok();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(r#""marks":[{"x":1.0,"text":"disk pulled"},{"x":2.0,"text":"disk back"}]"#),
        "the series chart's marks"
    );
    assert!(html.contains("System (measured on rank 0&#x27;s node node7)"));
}
