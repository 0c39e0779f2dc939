//! What makes two documents the same run: a SHA-256 over what the run measured and how it was
//! configured, never over where its files lie or when it ran. The store keys imports on it
//! (`docs/store.md`): the same directory imported twice, or copied elsewhere, is one run; two
//! directories that measured different figures are two, whatever their start times say.

use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use crate::RunResult;

/// Parameter keys left out besides paths: the run's time stamp, and IOR's test file name,
/// which may be a bare name without a directory.
const LEFT_OUT_KEYS: [&str; 2] = ["timestamp", "test_file"];

/// The content hash of `doc`, 64 lowercase hexadecimal digits.
pub fn content_hash(doc: &RunResult) -> String {
    let text = serde_json::to_string(&content(doc))
        .expect("a JSON value with string keys always serializes");
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What the hash covers: the workload and its rank and node counts; every phase's figures (operation, IO500 phase,
/// iteration, bytes, operations, durations, bandwidth, rate, counters); the IO500's phase
/// scores with their units, times and validity, and its printed scores; and the parameters
/// (the resolved configuration) without paths, file names and time stamps.
fn content(doc: &RunResult) -> Value {
    let phases: Vec<Value> = doc
        .phases
        .iter()
        .map(|p| {
            json!({
                "operation": p.operation.label(),
                "io500_phase": p.io500_phase,
                "iteration": p.iteration,
                "bytes": p.bytes,
                "ops": p.ops,
                "times": p.times,
                "bandwidth_mib_s": p.bandwidth_mib_s,
                "iops": p.iops,
                "counters": p.counters,
                "interrupted": p.interrupted,
            })
        })
        .collect();
    let io500 = doc.io500.as_ref().map(|io| {
        let score = |s: &Option<crate::io500::Io500Score>| {
            s.as_ref()
                .map(|s| json!({ "text": s.text, "valid": s.valid }))
        };
        json!({
            "phases": io.phases.iter().map(|p| json!({
                "phase": p.phase,
                "score": p.score,
                "unit": p.unit.label(),
                "time_s": p.time_s,
                "valid": p.valid,
            })).collect::<Vec<_>>(),
            "score": score(&io.score),
            "scorex": score(&io.scorex),
        })
    });
    let parameters = serde_json::to_value(&doc.parameters)
        .expect("parameters have string keys and always serialize");
    json!({
        "workload": doc.workload(),
        "ranks": doc.ranks.count,
        "nodes": doc.ranks.nodes,
        "phases": phases,
        "io500": io500,
        "parameters": without_paths(parameters),
    })
}

/// `v` without the string values that hold a `/` (paths, and commands that name one) and the
/// [`LEFT_OUT_KEYS`], at any depth.
fn without_paths(v: Value) -> Value {
    let is_path = |v: &Value| matches!(v, Value::String(s) if s.contains('/'));
    match v {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, v)| !LEFT_OUT_KEYS.contains(&k.as_str()) && !is_path(v))
                .map(|(k, v)| (k, without_paths(v)))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .filter(|v| !is_path(v))
                .map(without_paths)
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Operation, Parameters, PhaseResult};

    /// An IOR run with one write phase of `bytes` over `total_s`, its test file at `file`.
    fn run(file: &str, bytes: u64, total_s: f64) -> RunResult {
        let params = plan::ior::IorParams {
            test_file: file.to_string(),
            ..Default::default()
        };
        let mut doc = RunResult::new(Parameters::Ior(params), vec!["ior".into()], "0.1.0");
        let mut p = PhaseResult::new(Operation::Write, 0);
        p.bytes = bytes;
        p.times.total_s = total_s;
        p.bandwidth_mib_s = crate::mib_per_s(bytes, total_s);
        doc.phases.push(p);
        doc
    }

    #[test]
    fn the_same_figures_elsewhere_and_at_another_time_hash_the_same() {
        let a = run("/mnt/a/testfile", 1 << 20, 0.5);
        let mut b = run("/scratch/b/other", 1 << 20, 0.5);
        b.run_id = "another".into();
        b.started = "2020-01-01T00:00:00.000Z".into();
        b.finished = "2020-01-01T00:00:01.000Z".into();
        b.environment.hostname = "elsewhere".into();
        b.warnings
            .push("imported from /somewhere/result.json".into());
        assert_eq!(content_hash(&a), content_hash(&b));
        assert_eq!(content_hash(&a).len(), 64);
    }

    #[test]
    fn another_figure_or_setting_hashes_differently() {
        let a = run("f", 1 << 20, 0.5);
        let slower = run("f", 1 << 20, 0.5000001);
        let more = run("f", 2 << 20, 0.5);
        let mut other_t = run("f", 1 << 20, 0.5);
        if let Parameters::Ior(p) = &mut other_t.parameters {
            p.transfer_size *= 2;
        }
        let hashes = [&a, &slower, &more, &other_t].map(content_hash);
        for (i, x) in hashes.iter().enumerate() {
            for y in &hashes[i + 1..] {
                assert_ne!(x, y);
            }
        }
    }

    #[test]
    fn paths_file_names_and_time_stamps_are_left_out_at_any_depth() {
        let v = json!({
            "timestamp": "2026.11.25-01.31.08",
            "test_file": "testFile",
            "transfer_size": 4096,
            "data_dir": "/mnt/fs/io500",
            "config": { "global": { "datadir": "./d", "api": "POSIX" } },
            "dirs": ["/a", "/b"],
            "seeds": [1, 2],
        });
        assert_eq!(
            without_paths(v),
            json!({
                "transfer_size": 4096,
                "config": { "global": { "api": "POSIX" } },
                "dirs": [],
                "seeds": [1, 2],
            })
        );
    }
}
