//! Short real ramps: thread ranks on /tmp, a few hundred operations per step.

use super::{mix_file, SMALL};
use crate::common::{iogauge, json, tmp, tree};

fn steps(doc: &serde_json::Value) -> Vec<serde_json::Value> {
    doc["mix"]["steps"].as_array().unwrap().clone()
}

#[test]
fn a_ramp_within_the_limit_names_its_knee_and_leaves_nothing() {
    let d = tmp();
    let p = d.path();
    let mix = mix_file(p, "small.toml", SMALL);
    let dir = p.join("run");
    let doc_path = p.join("r.json");
    let r = iogauge(&format!(
        "--no-store mix --tasks 2 --dir {} --mix {mix} --ramp 100:100:300 --step-seconds 0.5 \
         --latency-limit 2s --json {}",
        dir.display(),
        doc_path.display()
    ))
    .ok();
    assert!(r.stdout.contains("knee: "), "{}", r.stdout);
    // The run made --dir, so it removed it: nothing of the run is left.
    assert_eq!(tree(p), ["r.json", "small.toml"]);
    let doc = json(&doc_path);
    crate::golden::schema::check(&std::fs::read_to_string(&doc_path).unwrap());
    assert_eq!(doc["workload"], "mix");
    let s = steps(&doc);
    assert_eq!(s.len(), 3, "every step within 2 s");
    for (i, st) in s.iter().enumerate() {
        let requested = 100.0 * (i + 1) as f64;
        assert_eq!(st["requested_ops_s"], requested);
        // Fixed arrivals over 0.5 s: exactly half the rate is scheduled.
        assert_eq!(st["scheduled"].as_u64().unwrap(), (requested / 2.0) as u64);
        let done: u64 = st["operations"]
            .as_object()
            .unwrap()
            .values()
            .map(|o| o["completed"].as_u64().unwrap())
            .sum();
        assert_eq!(done, st["completed"].as_u64().unwrap());
        assert_eq!(st["within_limit"], true);
    }
    let best = s
        .iter()
        .map(|x| x["achieved_ops_s"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert_eq!(doc["mix"]["knee"]["achieved_ops_s"].as_f64().unwrap(), best);
    assert!(doc["mix"]["stopped"].as_str().unwrap().contains("maximum"));
    let phases = doc["phases"].as_array().unwrap();
    let ops: Vec<&str> = phases
        .iter()
        .map(|x| x["operation"].as_str().unwrap())
        .collect();
    assert_eq!(
        ops,
        [
            "mix-prepare",
            "mix-step",
            "mix-step",
            "mix-step",
            "mix-cleanup"
        ]
    );
    // The prepare made 2 ranks x (1 + 4 dirs + 40 files + 3 empty dirs); the cleanup removed
    // every file and directory that existed then, the ones the steps made included.
    assert_eq!(phases[0]["ops"], 2 * 48);
    let step_kinds = phases[1]["latency_by_kind"].as_object().unwrap();
    assert!(step_kinds.contains_key("stat"), "{step_kinds:?}");
    assert_eq!(phases[1]["per_rank"].as_array().unwrap().len(), 2);
    assert!(phases[1]["series"].is_object() || phases[1]["series"].is_array());
}

#[test]
fn an_existing_dir_stays_and_the_ramp_stops_at_the_limit() {
    let d = tmp();
    let p = d.path();
    let mix = mix_file(p, "small.toml", SMALL);
    let doc_path = p.join("r.json");
    // 1 ns: no step can hold it; the ramp stops after the first.
    iogauge(&format!(
        "--no-store mix --dir {} --mix {mix} --ramp 50:50:500 --step-seconds 0.3 \
         --latency-limit p99=1ns --json {}",
        p.display(),
        doc_path.display()
    ))
    .ok();
    assert_eq!(tree(p), ["r.json", "small.toml"]);
    let doc = json(&doc_path);
    assert_eq!(steps(&doc).len(), 1);
    assert!(doc["mix"].get("knee").is_none(), "{}", doc["mix"]);
    assert!(doc["mix"]["stopped"]
        .as_str()
        .unwrap()
        .contains("exceeded the limit"));
}

#[test]
fn an_overloaded_step_is_flagged_short_with_its_queue_counted() {
    let d = tmp();
    let p = d.path();
    let mix = mix_file(
        p,
        "create.toml",
        "[operations]\ncreate = 100\n[tree]\ndirs = 1\nfiles-per-dir = 1\n",
    );
    let doc_path = p.join("r.json");
    // Each create sleeps 2 ms: one rank carries at most 500 of the 2000 ops/s asked.
    let r = iogauge(&format!(
        "--no-store mix -a DUMMY --dummy.delay-create 2000 --dir {}/run --mix {mix} \
         --ramp 2000:1:2000 --step-seconds 0.5 --latency-limit 10s --json {}",
        p.display(),
        doc_path.display()
    ))
    .ok();
    assert!(r.stdout.contains("SHORT"), "{}", r.stdout);
    let doc = json(&doc_path);
    let s = &steps(&doc)[0];
    assert_eq!(s["short_of_requested"], true);
    assert!(s["achieved_ops_s"].as_f64().unwrap() < 600.0, "{s}");
    assert!(s["not_started"].as_u64().unwrap() > 0, "{s}");
    // From the due time the queue shows; the service time stays near the 2 ms sleep.
    assert!(s["latency_ns"].as_f64().unwrap() > 50e6, "{s}");
    assert!(s["service_mean_ns"].as_f64().unwrap() < 20e6, "{s}");
}

#[test]
fn a_stored_run_lists_its_knee_and_compares() {
    let d = tmp();
    let p = d.path();
    let mix = mix_file(p, "small.toml", SMALL);
    let db = p.join("r.db");
    for _ in 0..2 {
        iogauge(&format!(
            "mix --dir {}/run --mix {mix} --ramp 40:40:80 --step-seconds 0.25 --latency-limit 2s \
             --db {}",
            p.display(),
            db.display()
        ))
        .ok();
    }
    let runs = iogauge(&format!("runs --workload mix --db {}", db.display())).ok();
    assert!(runs.stdout.contains("knee "), "{}", runs.stdout);
    assert_eq!(runs.stdout.matches(" mix ").count(), 2, "{}", runs.stdout);
    let cmp = iogauge(&format!("compare 1 2 --db {}", db.display())).ok();
    assert!(cmp.stdout.contains("mix-step"), "{}", cmp.stdout);
    // `show` and the report carry the ramp: a row per step and the knee.
    let shown = iogauge(&format!("show 2 --db {}", db.display())).ok();
    assert!(
        shown.stdout.contains("Load ramp (limit: mean <= 2 s)"),
        "{}",
        shown.stdout
    );
    assert!(
        shown.stdout.contains("knee: ") && shown.stdout.contains("at step 2"),
        "{}",
        shown.stdout
    );
    let json = iogauge(&format!("show 2 --format json --db {}", db.display())).ok();
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(
        v["mix"]["steps"].as_array().unwrap().len(),
        2,
        "{}",
        json.stdout
    );
    let page = p.join("r.html");
    iogauge(&format!(
        "report 2 -o {} --db {}",
        page.display(),
        db.display()
    ))
    .ok();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Load ramp (limit: mean &lt;= 2 s)"), "{html}");
}
