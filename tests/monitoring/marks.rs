//! `iogauge mark` during a run reaches every export at once: the scrape (`iogauge_marks_total`,
//! `iogauge_mark_timestamp_seconds{index,text}` at the mark's time), the InfluxDB push (one
//! `iogauge_mark` point, written once) and the OpenTSDB push (`iogauge.mark`, its text
//! sanitized), the last two on loopback listeners.

use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::influx_v2::listener;
use super::{free_port, scrape, slow_ior, value, wait_for, Running};
use crate::common::{bin, shm, Run};

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

#[test]
fn a_mark_reaches_prometheus_influxdb_and_opentsdb() {
    let d = shm();
    let xdg = d.path().join("xdg");
    std::fs::create_dir(&xdg).unwrap();
    let port = free_port();
    let (influx, influx_kept) = listener(204);
    let (tsdb, tsdb_kept) = listener(204);
    let mut args = slow_ior(d.path(), 4000, &[]);
    args.extend([
        "--metrics".to_string(),
        format!("127.0.0.1:{port}"),
        "--metrics-linger".to_string(),
        "0".to_string(),
        "--influx".to_string(),
        format!("http://127.0.0.1:{influx}/write?db=x"),
        "--influx-interval".to_string(),
        "0.2".to_string(),
        "--opentsdb".to_string(),
        format!("http://127.0.0.1:{tsdb}"),
        "--opentsdb-interval".to_string(),
        "0.2".to_string(),
    ]);
    let run = Running::spawn(Command::new(bin()).args(&args).env("XDG_RUNTIME_DIR", &xdg));
    wait_for(Duration::from_secs(30), || {
        scrape(port).filter(|t| t.contains("iogauge_current_phase{"))
    })
    .expect("the write phase runs");

    let before = unix_now();
    let out = Command::new(bin())
        .args(["mark", "disk 3 \"pulled\""])
        .env("XDG_RUNTIME_DIR", &xdg)
        .output()
        .unwrap();
    let after = unix_now();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = scrape(port).expect("a scrape");
    assert_eq!(value(&text, "iogauge_marks_total"), Some(1.0), "{text}");
    let at = value(
        &text,
        r#"iogauge_mark_timestamp_seconds{index="1",text="disk 3 \"pulled\""}"#,
    )
    .unwrap_or_else(|| panic!("the mark's series: {text}"));
    // The mark's time is kept to the millisecond (truncated).
    assert!(at >= before - 0.001 && at <= after, "{before} {at} {after}");

    let Run { code, stderr, .. } = run.wait(Duration::from_secs(60));
    assert_eq!(code, 0, "{stderr}");
    let influx = influx_kept.lock().unwrap().clone();
    let lines: Vec<String> = influx
        .iter()
        .flat_map(|r| r.body.lines().map(String::from).collect::<Vec<_>>())
        .filter(|l| l.starts_with("iogauge_mark,"))
        .collect();
    assert_eq!(lines.len(), 1, "written once: {lines:?}");
    assert!(
        lines[0].contains(r#",index=1 text="disk 3 \"pulled\"",elapsed_seconds="#),
        "{}",
        lines[0]
    );
    let ns: u128 = lines[0].rsplit_once(' ').unwrap().1.parse().unwrap();
    assert!((ns as f64 / 1e9 - at).abs() < 1e-6, "{ns} {at}");

    let tsdb = tsdb_kept.lock().unwrap().clone();
    let points: Vec<serde_json::Value> = tsdb
        .iter()
        .flat_map(|r| serde_json::from_str::<Vec<serde_json::Value>>(&r.body).unwrap())
        .filter(|p| p["metric"] == "iogauge.mark")
        .collect();
    assert_eq!(points.len(), 1, "written once: {points:?}");
    assert_eq!(points[0]["tags"]["mark"], "disk_3__pulled_");
    assert_eq!(points[0]["tags"]["index"], "1");
    assert_eq!(points[0]["timestamp"], at.floor() as u64);
    assert!(tsdb.iter().all(|r| r.line.starts_with("POST /api/put ")));
}
