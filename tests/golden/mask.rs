//! Masks what a rerun of the same command changes (times, rates, dates, hosts, temporary paths,
//! hashes of measured scores) and keeps what it must not change (layout, labels, counts, bytes).

use regex::Regex;
use std::sync::OnceLock;

/// Text masks, applied in order. Floats go last so that the patterns before them still see digits.
fn rules() -> &'static [(Regex, &'static str)] {
    static RULES: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    RULES.get_or_init(|| {
        [
            // ctime "Tue Nov 24 15:39:27 2026", mdtest "11/24/2026 15:39:39", IO500 "2026-11-24 15:39:39"
            (
                r"[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}",
                "<DATE>",
            ),
            (r"\d\d/\d\d/\d{4} \d\d:\d\d:\d\d", "<DATE>"),
            (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "<DATE>"),
            (r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "<DATE>"),
            // hosts: IOR's Machine line and platform, the environment's hostname
            (r"(Machine\s*: )\S+ \S+", "${1}<MACHINE>"),
            (r#"("Machine": )"[^"]*""#, "${1}\"<MACHINE>\""),
            (r#"("platform": )"[^"]*""#, "${1}\"<MACHINE>\""),
            // IO500 timestamps (fixed by the tests, but digits and dots look like floats) and versions
            (r"\d{4}\.\d\d\.\d\d-\d\d\.\d\d\.\d\d", "<TS>"),
            (r"\b\d+\.\d+\.\d+\b", "<VERSION>"),
            // IO500 hashes (the config hash covers the temporary data path, the score hash the scores)
            (r"((config-)?hash\s*= )[0-9A-F]+", "${1}<HASH>"),
            (r"(hash )[0-9A-F]{1,8}\b", "${1}<HASH>"),
            // IOR's statfs line (sizes of the machine's file system)
            (r"(FS\s*: ).*", "${1}<FS>"),
            (
                r#"("(Capacity|Used Capacity|Inodes|Used Inodes)": )"[^"]*""#,
                "${1}\"<FS>\"",
            ),
            // the result store's id of the run
            (
                r"(stored as run )\d+(: iogauge report )\d+",
                "${1}<ID>${2}<ID>",
            ),
            // find's work stealing depends on timing
            (r"(directories stolen: )\d+", "${1}<n>"),
            // md-workbench's whole seconds
            (r"(Total runtime: )\d+s", "${1}<n>s"),
            // floats (C's %f, %e and Rust's)
            (r"-?\d+\.\d+(e[+-]?\d+)?", "<f>"),
        ]
        .into_iter()
        .map(|(re, to)| (Regex::new(re).expect("valid mask pattern"), to))
        .collect()
    })
}

/// Masks a text output; `dir` (the test's temporary directory) becomes `<DIR>`.
pub fn text(s: &str, dir: &str) -> String {
    let mut out = s
        .replace(env!("CARGO_BIN_EXE_iogauge"), "<BIN>")
        .replace(dir, "<DIR>");
    for (re, to) in rules() {
        out = re.replace_all(&out, *to).into_owned();
    }
    let mut lines: Vec<String> = out
        .split('\n')
        .filter(|l| !timing_warning(l))
        .map(mask_line)
        .collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
        return lines.join("\n") + "\n";
    }
    lines.join("\n")
}

/// A line of the summary that depends on timing: a warning with such an id, the rank spread.
fn timing_warning(line: &str) -> bool {
    TIMING_WARNINGS
        .iter()
        .any(|id| line.starts_with(&format!("  [{id}] ")))
        || line.starts_with("iogauge: how the ranks finished")
        || line.contains(": first done ")
}

/// IOR's result rows print bandwidth and IOPS as integers or decimals depending on their size:
/// every figure but the iteration column is masked. Elsewhere the padding around a masked
/// number, which follows the number's width, shrinks to one space.
fn mask_line(line: &str) -> String {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    // A results row has 14 columns (the summary rows, with more, print fixed decimals).
    let row =
        matches!(tokens.first(), Some(&("write" | "read"))) && (11..=14).contains(&tokens.len());
    if row && tokens[1] != "bw(MiB/s)" {
        let masked: Vec<&str> = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| if i == 0 || i == 10 { *t } else { "<n>" })
            .collect();
        return masked.join(" ");
    }
    if !line.contains("<f>") && !line.contains("<n>") {
        return line.to_string();
    }
    static PAD: OnceLock<Regex> = OnceLock::new();
    let pad = PAD.get_or_init(|| Regex::new(r" *(<f>|<n>) *").expect("valid pattern"));
    let end = line.trim_end_matches(' ').len();
    let (body, _) = line.split_at(end);
    pad.replace_all(body, " $1 ").trim_end().to_string()
}

/// Keys whose whole value depends on the machine or the clock.
const VOLATILE_KEYS: &[&str] = &[
    "environment",
    "latency",
    "latency_by_kind",
    "series",
    "run_id",
    "started",
    "finished",
    "hostname",
    "Machine",
    "platform",
    "newer_ctime",
    "config_hash",
    "hash",
    "data_seed",
    "random_seed_task0",
    "steal_tries",
    "directories_stolen",
    "directories_spilled",
    // the node's memory depends on the machine
    "memory_bytes",
];

/// Warnings whose presence depends on timing (a rank's lag, a read's speed against its write):
/// left out of the recorded outputs (docs/warnings.md).
const TIMING_WARNINGS: &[&str] = &["straggler", "read-faster-than-write"];

/// The rank spread depends on scheduling, and so does whether it is there at all (a find's
/// rank may walk nothing): left out of documents and of the summary.
const SPREAD_KEY: &str = "spread";

/// Masks a JSON document: volatile keys, every float, and strings as text.
pub fn json(s: &str, dir: &str) -> String {
    let replaced = s
        .replace(env!("CARGO_BIN_EXE_iogauge"), "<BIN>")
        .replace(dir, "<DIR>");
    let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&replaced) else {
        return format!("(not JSON)\n{}", text(s, dir));
    };
    walk(&mut v, dir);
    serde_json::to_string_pretty(&v).expect("a Value serializes") + "\n"
}

fn walk(v: &mut serde_json::Value, dir: &str) {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            m.remove(SPREAD_KEY);
            if let Some(Value::Array(alerts)) = m.get_mut("alerts") {
                alerts.retain(|a| !TIMING_WARNINGS.iter().any(|id| a["id"] == *id));
                if alerts.is_empty() {
                    m.remove("alerts");
                }
            }
            for (k, val) in m.iter_mut() {
                if VOLATILE_KEYS.contains(&k.as_str()) {
                    *val = Value::String("<masked>".into());
                } else {
                    walk(val, dir);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| walk(x, dir)),
        Value::Number(n) if n.is_f64() => *v = Value::String("<f>".into()),
        Value::String(s) => *s = text(s, dir),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_what_varies() {
        let t = "Began               : Tue Nov 24 15:39:27 2026\nMachine             : Linux vm\n\
                 write     246.70     3972       0.000025    256.00     64.00      0.003852   0.004029   \
                 0.003845   0.004054   0    0.000022   0.000035   0.000035   \nfound 3 in /x/y/z 1.5e-03 \n";
        assert_eq!(
            text(t, "/x/y"),
            "Began               : <DATE>\nMachine             : <MACHINE>\n\
             write <n> <n> <n> <n> <n> <n> <n> <n> <n> 0 <n> <n> <n>\nfound 3 in <DIR>/z <f>\n"
        );
        let j = r#"{"a": 1, "b": 2.5, "latency": {"p": 3}, "c": ["/x/y/f"]}"#;
        assert_eq!(
            json(j, "/x/y"),
            "{\n  \"a\": 1,\n  \"b\": \"<f>\",\n  \"latency\": \"<masked>\",\n  \"c\": [\n    \"<DIR>/f\"\n  ]\n}\n"
        );
        let summary = "  [straggler] write: rank 1 late\n  [short-phase] write: short\n\
                       iogauge: how the ranks finished (first done, ...):\n  \
                       write (iteration 0): first done 0.1 s (rank 1), last done 0.2 s (rank 0), 2.00× the median\n";
        assert_eq!(text(summary, "/x"), "  [short-phase] write: short\n");
        let timing = r#"{"alerts": [{"id": "straggler"}], "p": {"spread": {}, "alerts": [{"id": "straggler"}, {"id": "short-phase"}]}}"#;
        assert_eq!(
            json(timing, "/x"),
            "{\n  \"p\": {\n    \"alerts\": [\n      {\n        \"id\": \"short-phase\"\n      }\n    ]\n  }\n}\n"
        );
    }
}
