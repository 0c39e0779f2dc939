//! What differs between runs: the parameters a reader needs before any figure (`-t 1 MiB`
//! against `256 KiB`, ranks, engine, file system, host, iogauge version), and whether the runs
//! can be compared at all (the same workload, a phase in common with the baseline).
//!
//! A pure function over result documents: every parameter is read from the document's
//! serialized form, flattened to dotted paths, and named in the tool's own terms where a
//! table below knows the option (IOR's and mdtest's letters, `--engine.option`).

use crate::phases::groups;
use results::RunResult;
use serde::Serialize;
use serde_json::Value;

/// One parameter whose value is not the same in every run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Difference {
    /// As the tool spells it (`-t`, `--posix.odirect`, `ranks`, `file system`).
    pub parameter: String,
    /// One per run, in the order the runs were given; `—` where a run lacks it.
    pub values: Vec<String>,
}

/// The differing parameters and the comparability verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Differs {
    /// Same workload, and every later run shares a phase with the baseline.
    pub comparable: bool,
    /// Why not, when not comparable.
    pub why_not: Vec<String>,
    pub differences: Vec<Difference>,
}

/// IOR's option letters for its plan's fields.
const IOR: &[(&str, &str)] = &[
    ("engine.api", "-a"),
    ("ref_num", "-A"),
    ("block_size", "-b"),
    ("transfer_size", "-t"),
    ("segment_count", "-s"),
    ("file_per_proc", "-F"),
    ("reorder_tasks", "-C"),
    ("task_per_node_offset", "-Q"),
    ("reorder_tasks_random", "-Z"),
    ("reorder_tasks_random_seed", "-X"),
    ("random_offset", "-z"),
    ("random_offset_seed", "--random-offset-seed"),
    ("fsync", "-e"),
    ("fsync_per_write", "-Y"),
    ("collective", "-c"),
    ("intra_test_barriers", "-g"),
    ("write_file", "-w"),
    ("read_file", "-r"),
    ("check_write", "-W"),
    ("check_read", "-R"),
    ("keep_file", "-k"),
    ("keep_file_with_error", "-K"),
    ("use_existing_test_file", "-E"),
    ("repetitions", "-i"),
    ("inter_test_delay_s", "-d"),
    ("test_file", "-o"),
    ("unique_dir", "-u"),
    ("deadline_for_stonewalling_s", "-D"),
    ("max_time_duration_min", "-T"),
    ("time_stamp_signature", "-G"),
    ("data_packet", "-l"),
    ("verbose", "-v"),
    ("quit_on_error", "-q"),
    ("multi_file", "-m"),
    ("single_xfer_attempt", "-x"),
];

/// mdtest's option letters for its plan's fields.
const MDTEST: &[(&str, &str)] = &[
    ("engine.api", "-a"),
    ("dirs", "-d"),
    ("items", "-n"),
    ("items_per_dir", "-I"),
    ("depth", "-z"),
    ("branch", "-b"),
    ("leaf_only", "-L"),
    ("unique_dir", "-u"),
    ("time_unique_dir_overhead", "-t"),
    ("write_bytes", "-w"),
    ("read_bytes", "-e"),
    ("sync_file", "-y"),
    ("call_sync", "-Y"),
    ("nstride", "-N"),
    ("iterations", "-i"),
    ("random", "-R"),
    ("verify_read", "-X"),
    ("stonewall_s", "-W"),
    ("status_file", "-x"),
    ("seed", "-G"),
    ("verbose", "-v"),
];

/// Fields that hold byte counts, shown as sizes.
const SIZES: &[&str] = &["block_size", "transfer_size", "write_bytes", "read_bytes"];

/// Values a run picks for itself (clock seeds): they differ every time and say nothing.
const PER_RUN: &[&str] = &["resolved.data_seed", "resolved.random_seed_task0"];

/// What differs between `runs` (the first is the baseline); identical parameters are left out.
pub fn differs(runs: &[&RunResult]) -> Differs {
    let listed: Vec<Vec<(String, String)>> = runs.iter().map(|r| parameters(r)).collect();
    // Names in the order of the first run that has each.
    let mut names: Vec<&str> = Vec::new();
    for l in &listed {
        for (name, _) in l {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
    }
    let differences = names
        .into_iter()
        .filter_map(|name| {
            let values: Vec<String> = listed
                .iter()
                .map(|l| {
                    l.iter()
                        .find(|(n, _)| n == name)
                        .map_or_else(|| "—".to_string(), |(_, v)| v.clone())
                })
                .collect();
            values.iter().any(|v| v != &values[0]).then(|| Difference {
                parameter: name.to_string(),
                values,
            })
        })
        .collect();
    let why_not = why_not(runs);
    Differs {
        comparable: why_not.is_empty(),
        why_not,
        differences,
    }
}

/// Reasons the runs cannot be compared: a different workload, or no phase in common with the
/// baseline.
fn why_not(runs: &[&RunResult]) -> Vec<String> {
    let Some(base) = runs.first() else {
        return Vec::new();
    };
    let keys: Vec<String> = groups(base).into_iter().map(|g| g.key).collect();
    let mut out = Vec::new();
    for (i, r) in runs.iter().enumerate().skip(1) {
        if r.workload() != base.workload() {
            out.push(format!(
                "run {} is {}, the baseline is {}",
                i + 1,
                r.workload(),
                base.workload()
            ));
        } else if !groups(r).iter().any(|g| keys.contains(&g.key)) {
            out.push(format!(
                "run {} has no phase in common with the baseline",
                i + 1
            ));
        }
    }
    out
}

/// Every parameter of a run with its value as text, in a fixed order: who ran it, where, then
/// the workload's own options.
fn parameters(r: &RunResult) -> Vec<(String, String)> {
    let mut out = vec![
        ("workload".to_string(), r.workload().to_string()),
        ("ranks".to_string(), r.ranks.count.to_string()),
        ("nodes".to_string(), r.ranks.nodes.to_string()),
        ("host".to_string(), r.environment.hostname.clone()),
    ];
    if let Some(t) = &r.environment.target {
        out.push(("file system".to_string(), t.fs_type.clone()));
    }
    out.push(("iogauge version".to_string(), r.tool.version.clone()));
    let letters = match r.workload() {
        "ior" => IOR,
        "mdtest" => MDTEST,
        _ => &[],
    };
    if let Ok(Value::Object(mut doc)) = serde_json::to_value(&r.parameters) {
        if let Some(params) = doc.remove("parameters") {
            let mut flat = Vec::new();
            flatten("", &params, &mut flat);
            for (path, value) in flat {
                if PER_RUN.contains(&path.as_str()) {
                    continue;
                }
                out.push((option_name(&path, letters), shown(&path, &value)));
            }
        }
    }
    out
}

/// `-t` for `transfer_size` in IOR, `--posix.odirect` for an engine option, else the path.
fn option_name(path: &str, letters: &[(&str, &str)]) -> String {
    if let Some((_, letter)) = letters.iter().find(|(f, _)| *f == path) {
        return letter.to_string();
    }
    if let Some(option) = path.strip_prefix("engine.options.") {
        return format!("--{option}");
    }
    path.to_string()
}

fn flatten(prefix: &str, v: &Value, out: &mut Vec<(String, Value)>) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&path, v, out);
            }
        }
        _ => out.push((prefix.to_string(), v.clone())),
    }
}

fn shown(path: &str, v: &Value) -> String {
    let leaf = path.rsplit('.').next().unwrap_or(path);
    match v {
        Value::Number(n) if SIZES.contains(&leaf) => n.as_u64().map_or(n.to_string(), size),
        Value::String(s) => s.clone(),
        Value::Null => "—".to_string(),
        other => other.to_string(),
    }
}

/// A byte count in the largest binary unit it is a whole multiple of (`1 MiB`, `256 KiB`,
/// `47008 bytes`), as IOR's options are written; otherwise two decimals.
pub fn size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 4] = [
        (1 << 40, "TiB"),
        (1 << 30, "GiB"),
        (1 << 20, "MiB"),
        (1 << 10, "KiB"),
    ];
    for (unit, name) in UNITS {
        if bytes >= unit && bytes.is_multiple_of(unit) {
            return format!("{} {name}", bytes / unit);
        }
    }
    for (unit, name) in UNITS {
        if bytes >= unit {
            return format!("{:.2} {name}", bytes as f64 / unit as f64);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_the_largest_whole_unit() {
        assert_eq!(size(1 << 20), "1 MiB");
        assert_eq!(size(256 << 10), "256 KiB");
        assert_eq!(size(3 << 30), "3 GiB");
        assert_eq!(size(1536 << 10), "1536 KiB");
        assert_eq!(size(1000), "1000 bytes");
        assert_eq!(size(1100), "1.07 KiB");
    }

    #[test]
    fn fields_take_the_tools_letters() {
        assert_eq!(option_name("transfer_size", IOR), "-t");
        assert_eq!(option_name("items", MDTEST), "-n");
        assert_eq!(
            option_name("engine.options.posix.odirect", IOR),
            "--posix.odirect"
        );
        assert_eq!(option_name("stonewall_wear_out", IOR), "stonewall_wear_out");
    }

    #[test]
    fn nested_values_flatten_to_dotted_paths() {
        let v: Value = serde_json::json!({"a": 1, "b": {"c": "x", "d": {}}});
        let mut out = Vec::new();
        flatten("", &v, &mut out);
        let names: Vec<&str> = out.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(names, ["a", "b.c", "b.d"]);
    }
}
