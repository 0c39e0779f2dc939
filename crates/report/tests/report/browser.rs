//! Headless Chromium: renders a page file, returns the DOM after its scripts ran, and takes a
//! screenshot. A missing browser fails the test with the command that installs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const INSTALL: &str = "Chromium is needed to test the HTML reports in a real browser and was not \
found (looked for $IOGAUGE_CHROMIUM, chromium, chromium-browser on PATH). Install it: \
`apt-get install -y chromium` (scripts/test.sh installs it when missing)";

fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("IOGAUGE_CHROMIUM") {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let c = dir.join(name);
            if c.is_file() {
                return c;
            }
        }
    }
    panic!("{INSTALL}");
}

/// Runs Chromium headless on `page` with `extra` arguments; returns stdout.
fn run(page: &Path, extra: &[String]) -> String {
    let profile = tempfile::tempdir().expect("temporary profile directory");
    let mut cmd = Command::new(chromium());
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--virtual-time-budget=5000",
    ])
    .arg(format!("--user-data-dir={}", profile.path().display()))
    .args(extra)
    .arg(format!("file://{}", page.display()))
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("{INSTALL} ({e})"));
    // Read stdout on a thread so a large DOM cannot fill the pipe while we wait.
    let mut out = child.stdout.take().expect("piped stdout");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).map(|_| s)
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(st) = child.try_wait().expect("waiting for chromium") {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "chromium did not finish rendering {} within 120 s",
                page.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = reader
        .join()
        .expect("reader thread")
        .expect("chromium output is UTF-8");
    if !status.success() {
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut e, &mut err);
        }
        panic!("chromium failed on {}: {status}\n{err}", page.display());
    }
    stdout
}

/// The DOM of `page` after its scripts ran.
pub fn dump_dom(page: &Path) -> String {
    run(page, &["--dump-dom".to_string()])
}

/// A screenshot of `page` (1200 px wide, `height` tall) written to `png`.
pub fn screenshot(page: &Path, png: &Path, height: u32) {
    screenshot_at(page, png, 1200, height);
}

/// A screenshot of `page`, `width` by `height` px, written to `png`.
pub fn screenshot_at(page: &Path, png: &Path, width: u32, height: u32) {
    run(
        page,
        &[
            format!("--screenshot={}", png.display()),
            format!("--window-size={width},{height}"),
            "--hide-scrollbars".to_string(),
        ],
    );
    let size = std::fs::metadata(png).map(|m| m.len()).unwrap_or(0);
    assert!(
        size > 10_000,
        "screenshot {} is missing or empty ({size} bytes)",
        png.display()
    );
}

/// A chart element found in the DOM.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartMark {
    pub id: String,
    pub points: Option<u64>,
    pub drawn: bool,
    pub error: Option<String>,
}

/// Every `<div class="chart" ...>` of a DOM with its marks.
pub fn charts(dom: &str) -> Vec<ChartMark> {
    let mut out = Vec::new();
    let mut rest = dom;
    while let Some(at) = rest.find("<div class=\"chart\"") {
        let tag_end = rest[at..].find('>').map_or(rest.len(), |e| at + e);
        let tag = &rest[at..tag_end];
        let attr = |name: &str| {
            let key = format!("{name}=\"");
            tag.find(&key).map(|i| {
                let v = &tag[i + key.len()..];
                v[..v.find('"').unwrap_or(v.len())].to_string()
            })
        };
        out.push(ChartMark {
            id: attr("data-chart").unwrap_or_default(),
            points: attr("data-points").and_then(|p| p.parse().ok()),
            drawn: attr("data-drawn").as_deref() == Some("1"),
            error: attr("data-error"),
        });
        rest = &rest[tag_end..];
    }
    out
}
