//! Live metrics (`--metrics`, `--influx`, `--opentsdb`; docs/monitoring.md): the endpoint
//! scraped while a run goes and after it, bad input, the InfluxDB 2.x write against a loopback
//! listener, a mark in all three exports, and the real servers (Prometheus and InfluxDB 1.x, also as OpenTSDB's receiver;
//! Debian's packages, which `scripts/test.sh` installs) started on ports and directories of
//! the test's own.

mod dashboard;
mod endpoint;
mod influx_v2;
mod influxdb;
mod marks;
mod opentsdb;
mod prometheus;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{bin, Run};

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().unwrap().port()
}

/// One HTTP/1.0 request to 127.0.0.1:`port`: the status and the body, or None when nothing
/// answers.
pub fn http(method: &str, port: u16, target: &str, body: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    let req = format!(
        "{method} {target} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).ok()?;
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, body.to_string()))
}

/// `/metrics` of an endpoint on 127.0.0.1:`port`.
pub fn scrape(port: u16) -> Option<String> {
    match http("GET", port, "/metrics", "")? {
        (200, text) => Some(text),
        _ => None,
    }
}

/// The value of the series `name{labels}` (labels as written, in order, or `name` alone).
pub fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
}

/// Sum of every series of `name` whose labels contain each of `with`.
pub fn sum(text: &str, name: &str, with: &[&str]) -> f64 {
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")) && with.iter().all(|w| l.contains(w)))
        .filter_map(|l| l.rsplit_once(' ')?.1.parse::<f64>().ok())
        .sum()
}

/// Percent-encodes a query parameter.
pub fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A process the test started, killed if the test ends first.
pub struct Running(pub Option<Child>);

impl Running {
    /// `iogauge args` with its output kept.
    pub fn iogauge(args: &[String]) -> Running {
        Running::spawn(Command::new(bin()).args(args))
    }

    pub fn spawn(c: &mut Command) -> Running {
        let child = c
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("start {c:?}: {e}"));
        Running(Some(child))
    }

    /// Still running?
    pub fn alive(&mut self) -> bool {
        self.0
            .as_mut()
            .is_some_and(|c| c.try_wait().ok().flatten().is_none())
    }

    /// Waits (at most `limit`) and returns what it printed.
    pub fn wait(mut self, limit: Duration) -> Run {
        let start = Instant::now();
        while self.alive() && start.elapsed() < limit {
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut child = self.0.take().expect("a child");
        let _ = child.kill();
        let out = child.wait_with_output().expect("output");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(c) = &mut self.0 {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Polls `f` every 100 ms until it gives Some or `limit` passes.
pub fn wait_for<T>(limit: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if start.elapsed() > limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Whether `program` is installed. Missing: a clear skip message, except in CI (where
/// `scripts/test.sh` installs `package`), where the test fails instead.
/// `influxd -config conf` answering on `port`, with the database `db` made (InfluxDB 1.x's
/// write paths never make it themselves); stopped when the value drops.
pub fn influxd_with(conf: &Path, port: u16, db: &str) -> Running {
    let server = Running::spawn(Command::new("influxd").arg("-config").arg(conf));
    wait_for(Duration::from_secs(30), || {
        http("GET", port, "/ping", "").filter(|(s, _)| *s == 204)
    })
    .expect("influxd answers /ping");
    let created = http(
        "POST",
        port,
        &format!("/query?q={}", encode(&format!("CREATE DATABASE {db}"))),
        "",
    );
    assert_eq!(created.map(|c| c.0), Some(200));
    server
}

pub fn have(program: &str, package: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()));
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{program} is missing in CI: scripts/test.sh installs the Debian package {package}"
        );
        eprintln!("SKIPPED: {program} is not installed (Debian package {package}; scripts/test.sh installs it)");
    }
    found
}

/// An IOR write of `transfers` MiB per rank on the DUMMY engine, about 1 ms per 1 MiB transfer,
/// with the given extra arguments; files named under `dir` (DUMMY writes none).
pub fn slow_ior(dir: &Path, transfers: u32, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "ior",
        "-a",
        "DUMMY",
        "--dummy.delay-xfer",
        "1000",
        "-t",
        "1m",
        "-w",
        "--no-store",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(["-b".to_string(), format!("{transfers}m")]);
    a.extend(["-o".to_string(), dir.join("f").display().to_string()]);
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}
