//! The endpoint scraped while a run goes and while it lingers, on every workload; bad input.

use std::time::Duration;

use super::{free_port, scrape, slow_ior, sum, value, wait_for, Running};
use crate::common::{iogauge_args, shm};
use crate::io500::small_ini;

const MIB: f64 = 1_048_576.0;

#[test]
fn live_figures_rise_and_the_final_ones_linger() {
    let d = shm();
    let port = free_port();
    let addr = format!("127.0.0.1:{port}");
    let mut args = slow_ior(d.path(), 1500, &["--tasks", "2", "-r"]);
    args.extend(
        [
            "--metrics",
            &addr,
            "--metrics-linger",
            "2",
            "--label",
            "site=test-1",
        ]
        .map(String::from),
    );
    let mut run = Running::iogauge(&args);
    let w = r#"{phase="write",operation="write"}"#;
    let first = wait_for(Duration::from_secs(20), || {
        scrape(port).filter(|t| value(t, &format!("iogauge_bytes_total{w}")).unwrap_or(0.0) > 0.0)
    })
    .expect("a scrape with bytes written");
    assert!(
        first.contains(r#"iogauge_current_phase{phase="write",operation="write",iteration="0"} 1"#),
        "{first}"
    );
    assert_eq!(
        sum(&first, "iogauge_ranks", &[r#"state="running""#]),
        2.0,
        "{first}"
    );
    let start = value(&first, &format!("iogauge_phase_start_time_seconds{w}")).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    assert!(
        start <= now && now - start < 60.0,
        "start {start}, now {now}"
    );
    // Several readings within the phase, each above the one before.
    let mut seen = vec![value(&first, &format!("iogauge_bytes_total{w}")).unwrap()];
    while seen.len() < 3 && run.alive() {
        std::thread::sleep(Duration::from_millis(300));
        if let Some(v) = scrape(port).and_then(|t| value(&t, &format!("iogauge_bytes_total{w}"))) {
            assert!(
                v >= *seen.last().unwrap(),
                "a counter went back: {seen:?} then {v}"
            );
            if v > *seen.last().unwrap() {
                seen.push(v);
            }
        }
    }
    assert!(
        seen.len() >= 3,
        "bytes did not rise over the phase: {seen:?}"
    );
    // After the run: the final figures, for the linger.
    let last = wait_for(Duration::from_secs(20), || {
        scrape(port).filter(|t| value(t, "iogauge_run_finished") == Some(1.0))
    })
    .expect("the final figures while the endpoint lingers");
    let total = 2.0 * 1500.0 * MIB;
    assert_eq!(
        value(&last, &format!("iogauge_bytes_total{w}")),
        Some(total),
        "{last}"
    );
    let r = r#"{phase="read",operation="read"}"#;
    assert_eq!(
        value(&last, &format!("iogauge_bytes_total{r}")),
        Some(total)
    );
    assert_eq!(
        value(&last, &format!("iogauge_operations_total{w}")),
        Some(3000.0)
    );
    assert_eq!(value(&last, &format!("iogauge_errors_total{w}")), Some(0.0));
    assert_eq!(
        value(
            &last,
            &format!("iogauge_operation_latency_seconds_count{w}")
        ),
        Some(3000.0)
    );
    // DUMMY sleeps 1 ms a transfer: every one above 1 ms, none above 1 s.
    let le = |b: &str| {
        value(
            &last,
            &format!(
                r#"iogauge_operation_latency_seconds_bucket{{phase="write",operation="write",le="{b}"}}"#
            ),
        )
    };
    assert_eq!(le("0.001"), Some(0.0), "{last}");
    assert_eq!(le("1"), Some(3000.0), "{last}");
    assert_eq!(le("+Inf"), Some(3000.0));
    assert!(
        !last.contains("iogauge_current_phase{"),
        "no phase runs now:\n{last}"
    );
    assert_eq!(
        value(&last, r#"iogauge_ranks{node="0",state="done"}"#),
        Some(2.0)
    );
    let info = last
        .lines()
        .find(|l| l.starts_with("iogauge_run_info{"))
        .unwrap();
    for part in [
        r#"workload="ior""#,
        r#"label_site="test-1""#,
        r#"version=""#,
        r#"host=""#,
    ] {
        assert!(info.contains(part), "{info}");
    }
    let done = run.wait(Duration::from_secs(20)).ok();
    assert!(
        done.stderr.contains("--metrics-linger 0"),
        "{}",
        done.stderr
    );
    assert!(scrape(port).is_none(), "the endpoint ends with the process");
}

/// mdtest, find and the IO500 serve the same families, with their own phase names.
#[test]
fn every_workload_is_served() {
    let d = shm();
    let md = d.path().join("md");
    let cases: [(Vec<String>, &str); 3] = [
        (
            vec![
                "mdtest".into(),
                "-n".into(),
                "20".into(),
                "-d".into(),
                md.display().to_string(),
            ],
            r#"iogauge_operations_total{phase="file-create",operation="file-create"} 20"#,
        ),
        (
            vec!["find".into(), d.path().display().to_string()],
            r#"iogauge_operations_total{phase="find",operation="find"}"#,
        ),
        (
            vec![
                "io500".into(),
                small_ini(d.path(), "").display().to_string(),
            ],
            r#"iogauge_bytes_total{phase="ior-easy-write",operation="write"}"#,
        ),
    ];
    for (args, expect) in cases {
        let port = free_port();
        let mut a = args.clone();
        a.extend(
            [
                "--metrics",
                &format!("127.0.0.1:{port}"),
                "--metrics-linger",
                "1",
                "--no-store",
            ]
            .map(String::from),
        );
        let run = Running::iogauge(&a);
        let text = wait_for(Duration::from_secs(120), || {
            scrape(port).filter(|t| value(t, "iogauge_run_finished") == Some(1.0))
        })
        .unwrap_or_else(|| panic!("{args:?}: no final scrape"));
        assert!(text.contains(expect), "{args:?}:\n{text}");
        assert!(
            text.contains(&format!(r#"workload="{}""#, args[0])),
            "{text}"
        );
        run.wait(Duration::from_secs(30)).ok();
    }
}

#[test]
fn bad_input_is_refused_before_any_io() {
    let d = shm();
    let held = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let busy = format!("127.0.0.1:{}", held.local_addr().unwrap().port());
    let token = d.path().join("no-such-token");
    let cases: [(&[&str], &str); 8] = [
        (&["--metrics", "nonsense"], "--metrics nonsense: no port"),
        (&["--metrics", "127.0.0.1:70000"], "'70000' is not a port"),
        (&["--metrics", &busy], &format!("--metrics {busy}")),
        (
            &["--influx", "ftp://h/write"],
            "--influx: 'ftp://h/write' is not an http",
        ),
        (
            &[
                "--influx",
                "http://127.0.0.1:1/write?db=x",
                "--influx-token-file",
                token.to_str().unwrap(),
            ],
            "--influx-token-file",
        ),
        (
            &["--metrics-linger", "5"],
            "--metrics-linger needs --metrics",
        ),
        (
            &["--opentsdb", "tsdb:4242"],
            "--opentsdb: 'tsdb:4242' is not an http",
        ),
        (
            &["--opentsdb-interval", "5"],
            "--opentsdb-interval needs --opentsdb",
        ),
    ];
    for (extra, message) in cases {
        let f = d.path().join("f");
        let mut a: Vec<&str> = vec!["ior", "-w", "-t", "4k", "-b", "8k", "--no-store", "-o"];
        a.push(f.to_str().unwrap());
        a.extend(extra);
        let r = iogauge_args(&a).code(2);
        assert!(r.stderr.contains(message), "{extra:?}: {}", r.stderr);
        assert!(!f.exists(), "{extra:?}: the test file was written");
    }
    drop(held);
}
