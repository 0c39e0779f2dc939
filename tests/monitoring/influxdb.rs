//! A real InfluxDB 1.x (Debian's `influxdb`) on ports and a directory of the test's own: the
//! pushed points queried back.

use super::{encode, free_port, have, http, influxd_with, slow_ior};
use crate::common::{iogauge_args, tmp};

fn config(dir: &std::path::Path, http_port: u16, rpc_port: u16) -> String {
    let d = dir.display();
    format!(
        "reporting-disabled = true\nbind-address = \"127.0.0.1:{rpc_port}\"\n\
         [meta]\n  dir = \"{d}/meta\"\n\
         [data]\n  dir = \"{d}/data\"\n  wal-dir = \"{d}/wal\"\n  query-log-enabled = false\n\
         [monitor]\n  store-enabled = false\n\
         [http]\n  bind-address = \"127.0.0.1:{http_port}\"\n  log-enabled = false\n\
         [continuous_queries]\n  enabled = false\n"
    )
}

/// The single value of an InfluxQL query's first series.
fn query(port: u16, q: &str) -> Option<serde_json::Value> {
    let (status, body) = http(
        "GET",
        port,
        &format!("/query?db=iogauge&q={}", encode(q)),
        "",
    )?;
    assert_eq!(status, 200, "{q}: {body}");
    let v: serde_json::Value = serde_json::from_str(&body).ok()?;
    Some(v["results"][0]["series"][0]["values"][0][1].clone())
}

#[test]
fn points_reach_a_real_influxdb() {
    if !have("influxd", "influxdb") {
        return;
    }
    let d = tmp();
    let (port, rpc) = (free_port(), free_port());
    let conf = d.path().join("influxdb.conf");
    std::fs::write(&conf, config(d.path(), port, rpc)).unwrap();
    let _server = influxd_with(&conf, port, "iogauge");

    let url = format!("http://127.0.0.1:{port}/write?db=iogauge");
    let mut args = slow_ior(d.path(), 1600, &["--tasks", "2", "--influx", &url]);
    args.extend(["--influx-interval", "0.25", "--label", "site=lab"].map(String::from));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = iogauge_args(&a).ok();
    assert!(!run.stderr.contains("a push failed"), "{}", run.stderr);

    let bytes = 2 * 1600 * 1_048_576u64;
    let w = "phase = 'write' AND operation = 'write' AND label_site = 'lab'";
    let last = query(
        port,
        &format!("SELECT last(bytes_total) FROM iogauge_phase WHERE {w}"),
    );
    assert_eq!(last, Some(serde_json::json!(bytes)));
    let points = query(
        port,
        &format!("SELECT count(bytes_total) FROM iogauge_phase WHERE {w}"),
    );
    assert!(
        points.and_then(|p| p.as_u64()).unwrap_or(0) >= 3,
        "several pushes"
    );
    let first = query(
        port,
        &format!("SELECT first(bytes_total) FROM iogauge_phase WHERE {w}"),
    );
    assert!(
        first.and_then(|p| p.as_u64()).unwrap() < bytes,
        "the first push is mid-phase"
    );
    let inf = query(
        port,
        &format!(
            "SELECT last(bucket) FROM iogauge_operation_latency_seconds WHERE {w} AND le = '+Inf'"
        ),
    );
    assert_eq!(inf, Some(serde_json::json!(3200)));
    let done = query(
        port,
        "SELECT last(done) FROM iogauge_ranks WHERE node = '0'",
    );
    assert_eq!(done, Some(serde_json::json!(2)));
}
