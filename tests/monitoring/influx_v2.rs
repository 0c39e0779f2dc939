//! The InfluxDB 2.x write (`/api/v2/write?org=..&bucket=..`, a token) against a loopback
//! listener that keeps every request; a server that refuses is reported once and the run goes on.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use super::slow_ior;
use crate::common::{iogauge_args, shm};

/// One request as the listener read it.
#[derive(Debug, Clone)]
pub struct Request {
    pub line: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

/// Answers every request with `status` and keeps it (also the marks' test's).
pub fn listener(status: u16) -> (u16, Arc<Mutex<Vec<Request>>>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let kept = Arc::new(Mutex::new(Vec::new()));
    let k = Arc::clone(&kept);
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let mut r = BufReader::new(s);
            let mut line = String::new();
            if r.read_line(&mut line).is_err() {
                continue;
            }
            let mut headers = Vec::new();
            loop {
                let mut h = String::new();
                if r.read_line(&mut h).is_err() || h.trim().is_empty() {
                    break;
                }
                if let Some((n, v)) = h.split_once(':') {
                    headers.push((n.trim().to_ascii_lowercase(), v.trim().to_string()));
                }
            }
            let len = headers
                .iter()
                .find(|(n, _)| n == "content-length")
                .and_then(|(_, v)| v.parse().ok())
                .unwrap_or(0);
            let mut body = vec![0; len];
            let _ = r.read_exact(&mut body);
            k.lock().unwrap().push(Request {
                line: line.trim().to_string(),
                headers,
                body: String::from_utf8_lossy(&body).into_owned(),
            });
            let _ = write!(
                r.get_mut(),
                "HTTP/1.1 {status} X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    });
    (port, kept)
}

/// A line split at its spaces, but for those escaped with a backslash.
fn unescaped_spaces(line: &str) -> Vec<&str> {
    let (mut parts, mut start, mut escaped) = (Vec::new(), 0, false);
    for (i, c) in line.char_indices() {
        match c {
            ' ' if !escaped => {
                parts.push(&line[start..i]);
                start = i + 1;
            }
            _ => {}
        }
        escaped = c == '\\' && !escaped;
    }
    parts.push(&line[start..]);
    parts
}

fn header<'a>(r: &'a Request, name: &str) -> Option<&'a str> {
    r.headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn v2_write_with_a_token() {
    let d = shm();
    let (port, kept) = listener(204);
    let token = d.path().join("token");
    std::fs::write(&token, "s3cret-token\n").unwrap();
    let url = format!("http://127.0.0.1:{port}/api/v2/write?org=lab&bucket=runs&precision=ns");
    let mut args = slow_ior(d.path(), 600, &["--tasks", "2", "--label", "site=b 1"]);
    args.extend(
        [
            "--influx",
            &url,
            "--influx-interval",
            "0.2",
            "--influx-token-file",
            token.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let a: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = iogauge_args(&a).ok();
    assert!(!run.stderr.contains("a push failed"), "{}", run.stderr);
    let reqs = kept.lock().unwrap().clone();
    assert!(
        reqs.len() >= 3,
        "pushes at 0.2 s over a run of about 0.6 s and the last: {}",
        reqs.len()
    );
    for r in &reqs {
        assert_eq!(
            r.line,
            "POST /api/v2/write?org=lab&bucket=runs&precision=ns HTTP/1.1"
        );
        assert_eq!(header(r, "authorization"), Some("Token s3cret-token"));
        assert!(header(r, "content-type").unwrap().starts_with("text/plain"));
        // Line protocol: measurement and tags, fields, a nanosecond timestamp.
        for line in r.body.lines() {
            let parts = unescaped_spaces(line);
            let (series, fields, ts) = (parts[0], parts[parts.len() - 2], parts[parts.len() - 1]);
            assert!(series.starts_with("iogauge_"), "{line}");
            assert!(series.contains(r",label_site=b\ 1"), "{line}");
            assert!(fields.contains('='), "{line}");
            assert!(
                ts.len() >= 19 && ts.bytes().all(|b| b.is_ascii_digit()),
                "{line}"
            );
        }
    }
    let last = &reqs.last().unwrap().body;
    let bytes = 2 * 600 * 1_048_576u64;
    assert!(
        last.lines().any(|l| l.starts_with("iogauge_phase,")
            && l.contains(",phase=write,operation=write ")
            && l.contains(&format!(" bytes_total={bytes}i,operations_total=1200i,"))),
        "{last}"
    );
    assert!(
        last.contains("iogauge_run,") && last.contains(" finished=true "),
        "{last}"
    );
}

/// The token from INFLUX_TOKEN; a server that answers 500 to every push: retried, reported
/// once, and the run still succeeds.
#[test]
fn failing_pushes_are_reported_once() {
    let d = shm();
    let (port, kept) = listener(500);
    let url = format!("http://127.0.0.1:{port}/write?db=x");
    let args = slow_ior(
        d.path(),
        300,
        &["--influx", &url, "--influx-interval", "0.1"],
    );
    let out = std::process::Command::new(crate::common::bin())
        .args(&args)
        .env("INFLUX_TOKEN", "from-env")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr.matches("--influx").count(), 1, "{stderr}");
    assert!(stderr.contains("HTTP 500"), "{stderr}");
    let reqs = kept.lock().unwrap().clone();
    assert!(reqs.len() >= 3, "retries: {}", reqs.len());
    assert_eq!(header(&reqs[0], "authorization"), Some("Token from-env"));
}
