//! A real Prometheus (Debian's `prometheus`) scraping a running iogauge every second, on ports
//! and a directory of the test's own; its HTTP API shows the series.

use std::process::Command;
use std::time::Duration;

use super::{encode, free_port, have, http, slow_ior, wait_for, Running};
use crate::common::tmp;

/// `/api/v1/query` → the result vector.
fn query(port: u16, q: &str) -> Vec<serde_json::Value> {
    let (status, body) = http(
        "GET",
        port,
        &format!("/api/v1/query?query={}", encode(q)),
        "",
    )
    .expect("prometheus answers");
    assert_eq!(status, 200, "{q}: {body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["data"]["result"].as_array().cloned().unwrap_or_default()
}

#[test]
fn a_real_prometheus_scrapes_the_run() {
    if !have("prometheus", "prometheus") {
        return;
    }
    let d = tmp();
    let (prom, port) = (free_port(), free_port());
    let conf = d.path().join("prometheus.yml");
    std::fs::write(
        &conf,
        format!(
            "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n  - job_name: iogauge\n    \
             static_configs:\n      - targets: ['127.0.0.1:{port}']\n"
        ),
    )
    .unwrap();
    let _server = Running::spawn(
        Command::new("prometheus")
            .arg(format!("--config.file={}", conf.display()))
            .arg(format!(
                "--storage.tsdb.path={}",
                d.path().join("data").display()
            ))
            .arg(format!("--web.listen-address=127.0.0.1:{prom}")),
    );
    wait_for(Duration::from_secs(30), || {
        http("GET", prom, "/-/ready", "").filter(|(s, _)| *s == 200)
    })
    .expect("prometheus is ready");
    // Prometheus applies discovered targets a few seconds after its start: wait until it has
    // tried the endpoint once (down: nothing listens yet), so every second of the run counts.
    wait_for(Duration::from_secs(30), || {
        let (_, body) = http("GET", prom, "/api/v1/targets", "")?;
        body.contains(r#""health":"down""#).then_some(())
    })
    .expect("prometheus scrapes the target");

    // About 4 s of writing, then 3 s of lingering: several scrapes of each.
    let mut args = slow_ior(d.path(), 4000, &["--tasks", "2"]);
    args.extend(
        [
            "--metrics",
            &format!("127.0.0.1:{port}"),
            "--metrics-linger",
            "3",
        ]
        .map(String::from),
    );
    Running::iogauge(&args).wait(Duration::from_secs(60)).ok();

    let w = r#"{phase="write",operation="write"}"#;
    let samples = query(prom, &format!("iogauge_bytes_total{w}[60s]"));
    assert_eq!(samples.len(), 1, "one series: {samples:?}");
    let values: Vec<f64> = samples[0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v[1].as_str().unwrap().parse().unwrap())
        .collect();
    let total = 2.0 * 4000.0 * 1_048_576.0;
    assert!(
        values.windows(2).all(|p| p[0] <= p[1]),
        "a counter went back: {values:?}"
    );
    let rising = values.iter().filter(|v| **v > 0.0 && **v < total).count();
    assert!(rising >= 2, "bytes rising over several scrapes: {values:?}");
    assert_eq!(values.last(), Some(&total), "{values:?}");
    let current = query(prom, "max_over_time(iogauge_current_phase[60s])");
    assert_eq!(current.len(), 1, "{current:?}");
    assert_eq!(current[0]["metric"]["phase"], "write");
    // The last value within the window: once iogauge has gone, a scrape that finds nobody
    // marks the series stale and a plain instant query returns nothing (seen under load).
    let buckets = query(
        prom,
        &format!("last_over_time(iogauge_operation_latency_seconds_bucket{w}[60s])"),
    );
    assert_eq!(buckets.len(), 23, "22 bounds and +Inf");
    let p50 = query(
        prom,
        &format!(
            "histogram_quantile(0.5, last_over_time(iogauge_operation_latency_seconds_bucket{w}[60s]))"
        ),
    );
    let p50: f64 = p50[0]["value"][1].as_str().unwrap().parse().unwrap();
    assert!(
        p50 > 0.001 && p50 <= 0.002,
        "DUMMY's 1 ms transfers: p50 {p50}"
    );
    let info = query(prom, "last_over_time(iogauge_run_info[60s])");
    assert_eq!(info[0]["metric"]["workload"], "ior");
    // The dashboard's queries are PromQL this Prometheus takes, and give data for this run.
    for q in super::dashboard::queries() {
        if q.starts_with("label_values") {
            continue;
        }
        let q = q
            .replace("$__rate_interval", "5s")
            .replace("$instance", ".*");
        query(prom, &q);
    }
}
