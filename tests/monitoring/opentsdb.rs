//! `--opentsdb URL` against a real receiver: no OpenTSDB package exists here, so InfluxDB 1.x
//! (Debian's `influxdb`) with its `[[opentsdb]]` input, which serves OpenTSDB's `POST
//! /api/put`, on ports and a directory of the test's own; the points queried back with
//! InfluxQL (each metric a measurement, its value the field `value`). And a server that is not
//! there: reported once, the run goes on.

use std::time::Duration;

use super::{encode, free_port, have, http, influxd_with, slow_ior, wait_for};
use crate::common::{iogauge_args, shm, tmp};

fn config(dir: &std::path::Path, http_port: u16, rpc_port: u16, tsdb_port: u16) -> String {
    let d = dir.display();
    format!(
        "reporting-disabled = true\nbind-address = \"127.0.0.1:{rpc_port}\"\n\
         [meta]\n  dir = \"{d}/meta\"\n\
         [data]\n  dir = \"{d}/data\"\n  wal-dir = \"{d}/wal\"\n  query-log-enabled = false\n\
         [monitor]\n  store-enabled = false\n\
         [http]\n  bind-address = \"127.0.0.1:{http_port}\"\n  log-enabled = false\n\
         [continuous_queries]\n  enabled = false\n\
         [[opentsdb]]\n  enabled = true\n  bind-address = \"127.0.0.1:{tsdb_port}\"\n  \
         database = \"opentsdb\"\n"
    )
}

/// The first series of an InfluxQL query on the database `opentsdb`: its columns and rows.
fn query(port: u16, q: &str) -> (Vec<String>, Vec<Vec<serde_json::Value>>) {
    let target = format!("/query?db=opentsdb&q={}", encode(q));
    let (status, body) = http("GET", port, &target, "").expect("influxd answers");
    assert_eq!(status, 200, "{q}: {body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let s = &v["results"][0]["series"][0];
    let columns = serde_json::from_value(s["columns"].clone()).unwrap_or_default();
    let rows = serde_json::from_value(s["values"].clone()).unwrap_or_default();
    (columns, rows)
}

/// `column` of `row`.
fn cell<'a>(
    columns: &[String],
    row: &'a [serde_json::Value],
    column: &str,
) -> &'a serde_json::Value {
    let i = columns.iter().position(|c| c == column);
    &row[i.unwrap_or_else(|| panic!("no column {column} in {columns:?}"))]
}

#[test]
fn points_reach_influxdbs_opentsdb_listener() {
    if !have("influxd", "influxdb") {
        return;
    }
    let d = tmp();
    let (port, rpc, tsdb) = (free_port(), free_port(), free_port());
    let conf = d.path().join("influxdb.conf");
    std::fs::write(&conf, config(d.path(), port, rpc, tsdb)).unwrap();
    // The listener's HTTP path answers 500 "database not found" until it exists.
    let _server = influxd_with(&conf, port, "opentsdb");
    wait_for(Duration::from_secs(10), || {
        std::net::TcpStream::connect(("127.0.0.1", tsdb)).ok()
    })
    .expect("the opentsdb listener accepts");

    let url = format!("http://127.0.0.1:{tsdb}");
    let mut args = slow_ior(d.path(), 3000, &["--tasks", "2", "--opentsdb", &url]);
    args.extend(["--opentsdb-interval", "0.25", "--label", "site=lab a"].map(String::from));
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = iogauge_args(&a).ok();
    assert!(!run.stderr.contains("a push failed"), "{}", run.stderr);

    let w = "phase = 'write' AND operation = 'write'";
    let (columns, rows) = query(
        port,
        &format!("SELECT * FROM \"iogauge.bytes_total\" WHERE {w}"),
    );
    assert!(rows.len() >= 2, "pushes in several seconds: {rows:?}");
    let last = rows.last().unwrap();
    let bytes = 2 * 3000 * 1_048_576u64;
    assert_eq!(cell(&columns, last, "value").as_f64(), Some(bytes as f64));
    assert!(cell(&columns, &rows[0], "value").as_f64().unwrap() < bytes as f64);
    // The run's tags, sanitized to OpenTSDB's characters.
    assert_eq!(cell(&columns, last, "workload"), "ior");
    assert_eq!(cell(&columns, last, "label_site"), "lab_a");
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let host: String = host
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_./".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    assert_eq!(cell(&columns, last, "host"), host.as_str());
    let run_id = cell(&columns, last, "run_id").as_str().unwrap_or("");
    assert!(!run_id.is_empty(), "{columns:?} {last:?}");

    let (columns, rows) = query(
        port,
        &format!("SELECT last(value) FROM \"iogauge.operations_total\" WHERE {w} AND run_id = '{run_id}'"),
    );
    assert_eq!(cell(&columns, &rows[0], "last").as_f64(), Some(6000.0));
    let (columns, rows) = query(
        port,
        &format!(
            "SELECT last(value) FROM \"iogauge.operation_latency_seconds.bucket\" WHERE {w} \
             AND le = 'Inf'"
        ),
    );
    assert_eq!(cell(&columns, &rows[0], "last").as_f64(), Some(6000.0));
    let (columns, rows) = query(
        port,
        "SELECT last(value) FROM \"iogauge.ranks\" WHERE node = '0' AND state = 'done'",
    );
    assert_eq!(cell(&columns, &rows[0], "last").as_f64(), Some(2.0));
    let (columns, rows) = query(port, "SELECT last(value) FROM \"iogauge.run_finished\"");
    assert_eq!(cell(&columns, &rows[0], "last").as_f64(), Some(1.0));
}

/// Nothing listens at the URL: the pushes fail, iogauge says so once and the run succeeds.
#[test]
fn an_absent_server_is_reported_once() {
    let d = shm();
    let url = format!("http://127.0.0.1:{}/", free_port());
    let args = slow_ior(
        d.path(),
        300,
        &["--opentsdb", &url, "--opentsdb-interval", "0.1"],
    );
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = iogauge_args(&a).ok();
    assert_eq!(
        run.stderr.matches("--opentsdb").count(),
        1,
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("/api/put"), "{}", run.stderr);
}
