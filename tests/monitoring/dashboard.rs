//! docs/grafana-dashboard.json queries exactly the metrics the endpoint serves: every name in
//! its queries is a series of a real scrape (taken while a phase runs and after the run).

use std::collections::BTreeSet;
use std::time::Duration;

use super::{free_port, scrape, slow_ior, value, Running};
use crate::common::shm;

/// Every PromQL query of the dashboard (panels and template variables).
pub fn queries() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/grafana-dashboard.json");
    let text = std::fs::read_to_string(path).unwrap();
    let dash: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut out = Vec::new();
    for p in dash["panels"].as_array().unwrap() {
        for t in p["targets"].as_array().unwrap() {
            out.push(t["expr"].as_str().unwrap().to_string());
        }
    }
    for v in dash["templating"]["list"].as_array().unwrap() {
        out.push(v["definition"].as_str().unwrap().to_string());
    }
    out
}

/// The `iogauge_*` names in a query.
fn names(q: &str) -> BTreeSet<String> {
    let re = regex::Regex::new(r"iogauge_[a-z_]+").unwrap();
    re.find_iter(q).map(|m| m.as_str().to_string()).collect()
}

#[test]
fn every_queried_metric_is_served() {
    let queries = queries();
    let wanted: BTreeSet<String> = queries.iter().flat_map(|q| names(q)).collect();
    assert!(wanted.len() >= 8, "{wanted:?}");
    let d = shm();
    let port = free_port();
    let mut args = slow_ior(d.path(), 1000, &["--metrics-linger", "1"]);
    args.extend(["--metrics".to_string(), format!("127.0.0.1:{port}")]);
    let mut run = Running::iogauge(&args);
    let mut served = BTreeSet::new();
    let mut finished = false;
    for _ in 0..300 {
        if let Some(text) = scrape(port) {
            for l in text.lines().filter(|l| !l.starts_with('#')) {
                let name = l.split(['{', ' ']).next().unwrap();
                served.insert(name.to_string());
            }
            finished |= value(&text, "iogauge_run_finished") == Some(1.0);
        }
        if finished || !run.alive() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(finished, "no scrape of the finished run");
    run.wait(Duration::from_secs(20)).ok();
    let missing: Vec<&String> = wanted.iter().filter(|n| !served.contains(*n)).collect();
    assert!(
        missing.is_empty(),
        "queried but not served: {missing:?}; served: {served:?}"
    );
}
