//! The result document as JSON: pretty, written atomically so a crash never leaves half a
//! result file; and the sink that keeps it on disk while a run goes.

use crate::model::{RunResult, SCHEMA_VERSION};
use crate::sink::{Event, Sink};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes the document to every path when the run starts, after every phase and at the end,
/// so a failed or interrupted run keeps the phases that finished. A path that cannot be
/// written is reported once on stderr and dropped.
pub struct JsonFiles {
    paths: Vec<PathBuf>,
}

impl JsonFiles {
    pub fn new(paths: Vec<PathBuf>) -> JsonFiles {
        JsonFiles { paths }
    }

    fn save(&mut self, doc: &RunResult) {
        self.paths.retain(|path| match write_json(path, doc) {
            Ok(()) => true,
            Err(e) => {
                eprintln!("iogauge: warning: cannot write {}: {e}", path.display());
                false
            }
        });
    }
}

impl Sink for JsonFiles {
    fn event(&mut self, event: &Event<'_>) {
        match event {
            Event::RunStart(doc) => self.save(doc),
            Event::PhaseEnd(p) => self.save(p.run),
            Event::RunEnd(r) => self.save(r.run),
            _ => {}
        }
    }
}

/// The result as pretty-printed JSON.
pub fn to_json_string(r: &RunResult) -> String {
    serde_json::to_string_pretty(r).expect("a RunResult has string keys only and always serializes")
}

/// Writes `r` to `path` via a temporary file in the same directory, fsync, then rename.
pub fn write_json(path: &Path, r: &RunResult) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a file path", path.display()),
        )
    })?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(to_json_string(r).as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()?; // data on disk before the rename makes it visible
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Reads a result file; the error names the file and what is wrong.
pub fn read_json(path: &Path) -> Result<RunResult, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    from_json_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Parses a result document, refusing schema versions newer than this build understands.
pub fn from_json_str(text: &str) -> Result<RunResult, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let version = v.get("schema_version").and_then(|s| s.as_u64());
    match version {
        Some(n) if n <= u64::from(SCHEMA_VERSION) => {}
        Some(n) => {
            return Err(format!(
                "schema_version {n} is newer than this iogauge understands ({SCHEMA_VERSION})"
            ))
        }
        None => return Err("not an iogauge result: no schema_version".to_string()),
    }
    serde_json::from_value(v).map_err(|e| format!("not a valid iogauge result: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::*;
    use measure::{IntervalSeries, LatencyHistogram};

    fn sample() -> RunResult {
        let mut r = RunResult::new(
            crate::Parameters::Ior(plan::ior::IorParams::default()),
            vec!["ior".into(), "-b".into(), "1m".into()],
            "0.1.0",
        );
        let posix = engine::PosixEngine::new(false);
        r.environment = crate::environment::capture(Some((&posix, Path::new("/tmp"))));
        let mut h = LatencyHistogram::new();
        let mut s = IntervalSeries::new(1_000_000_000, 0);
        for i in 1..=100u64 {
            h.record(i * 1000);
            s.record(i * 20_000_000, 4096);
        }
        let mut p = PhaseResult::new(crate::Operation::Write, 0);
        p.bytes = 409_600;
        p.ops = 100;
        p.times = PhaseTimes {
            open_s: 0.001,
            xfer_s: 2.0,
            close_s: 0.002,
            total_s: 2.003,
        };
        p.bandwidth_mib_s = mib_per_s(p.bytes, p.times.total_s);
        p.iops = per_s(100.0, p.times.xfer_s);
        p.latency = h.summary();
        p.series = s.summary();
        p.per_rank.push(RankTimes {
            rank: 0,
            close_stop_s: 2.003,
            bytes: 409_600,
            ops: 100,
            ..Default::default()
        });
        p.stonewall = Some(Stonewall {
            deadline_s: 2.0,
            time_s: 2.0,
            wear_out: true,
            ..Default::default()
        });
        p.verification = Some(Verification {
            errors: 1,
            checked_ops: 100,
            first_error: Some(ErrorLocation {
                file: "/tmp/f".into(),
                offset: 4096,
                rank: 0,
            }),
        });
        r.phases.push(p);
        r.summary.push(OperationSummary {
            operation: crate::Operation::Write,
            bw_mib_s: MinMaxMean::population(&[0.195, 0.2]),
            ops_per_s: MinMaxMean::population(&[50.0, 49.9]),
            mean_time_s: 2.003,
            iterations: 1,
            stonewall_time_s: Some(2.0),
            stonewall_mib_s: None,
        });
        r.warnings.push("page cache may inflate reads".into());
        r.finish(0);
        r
    }

    #[test]
    fn round_trip_through_file() {
        let r = sample();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("result.json");
        write_json(&path, &r).unwrap();
        assert_eq!(read_json(&path).unwrap(), r);
        // Only the result file remains: the temporary was renamed, not left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("result.json")]);
        write_json(&path, &r).unwrap(); // overwrite is fine
    }

    #[test]
    fn string_round_trip_and_shape() {
        let r = sample();
        let text = to_json_string(&r);
        assert_eq!(from_json_str(&text).unwrap(), r);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["schema_version"], SCHEMA_VERSION);
        assert!(v["summary"][0].get("stonewall_mib_s").is_none());
        assert_eq!(v["phases"][0]["latency"]["count"], 100);
    }

    #[test]
    fn rejects_bad_documents() {
        assert!(from_json_str("{").unwrap_err().contains("not valid JSON"));
        assert!(from_json_str("{}").unwrap_err().contains("schema_version"));
        let newer = to_json_string(&sample()).replacen(
            &format!("\"schema_version\": {SCHEMA_VERSION}"),
            "\"schema_version\": 99",
            1,
        );
        assert!(from_json_str(&newer).unwrap_err().contains("newer"));
        let err = read_json(Path::new("/nonexistent/r.json")).unwrap_err();
        assert!(err.contains("/nonexistent/r.json"));
    }

    #[test]
    fn write_into_missing_dir_fails_cleanly() {
        assert!(write_json(Path::new("/nonexistent-dir/r.json"), &sample()).is_err());
    }
}
