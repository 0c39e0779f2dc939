//! The human summary is laid out like IOR's; JSON and CSV parse.

use crate::common::{iogauge, json, shm};

#[test]
fn human_summary_has_ior_blocks() {
    let d = shm();
    let o = d.path().join("t");
    let r = iogauge(&format!(
        "ior -N 2 -t 64k -b 256k -i 3 -F -w -r -o {}",
        o.display()
    ))
    .ok();
    let out = &r.stdout;
    for needle in [
        "Options: \n",
        "Results: \n",
        "access    bw(MiB/s)  IOPS",
        "Summary of all tests:",
        "Finished            : ",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
    let rows: Vec<&str> = out
        .lines()
        .filter(|l| {
            (l.starts_with("write     ") || l.starts_with("read      ")) && !l.contains("POSIX")
        })
        .collect();
    assert_eq!(rows.len(), 6, "one row per iteration and operation:\n{out}");
    let summary: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("write  ") && l.contains("POSIX"))
        .collect();
    assert_eq!(summary.len(), 1, "{out}");
    let fields: Vec<&str> = summary[0].split_whitespace().collect();
    // Max >= Mean >= Min, and the task count column is 2.
    let (max, min, mean): (f64, f64, f64) = (
        fields[1].parse().unwrap(),
        fields[2].parse().unwrap(),
        fields[3].parse().unwrap(),
    );
    assert!(max >= mean && mean >= min && min > 0.0, "{}", summary[0]);
    assert_eq!(fields[13], "2");
}

#[test]
fn ior_json_and_csv_formats() {
    let d = shm();
    let o = d.path().join("t");
    let r = iogauge(&format!(
        "ior -N 2 -t 64k -b 256k -i 2 -w -r -O summaryFormat=JSON -o {}",
        o.display()
    ))
    .ok();
    let v: serde_json::Value =
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}\n{}", r.stdout));
    assert_eq!(v["tests"][0]["Results"].as_array().unwrap().len(), 4);
    assert!(v["summary"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["operation"] == "write"));

    let r = iogauge(&format!(
        "ior -N 2 -t 64k -b 256k -i 2 -w -r -O summaryFormat=CSV -o {}",
        o.display()
    ))
    .ok();
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "access,bw(MiB/s),IOPS,Latency,block(KiB),xfer(KiB),open(s),wr/rd(s),close(s),total(s),numTasks,iter");
    assert_eq!(lines.len(), 5, "{}", r.stdout);
    assert!(lines[1].starts_with("write,") && lines[1].ends_with(",2,0"));
}

#[test]
fn result_document_has_latency_series_and_environment() {
    let d = shm();
    let o = d.path().join("t");
    let j = d.path().join("doc.json");
    let csv = d.path().join("ranks.csv");
    iogauge(&format!(
        "ior -N 2 -t 64k -b 1m -F -w -r -o {} --json {} -O saveRankPerformanceDetailsCSV={}",
        o.display(),
        j.display(),
        csv.display()
    ))
    .ok();
    let doc = json(&j);
    assert_eq!(doc["schema_version"], 2);
    assert_eq!(doc["workload"], "ior");
    assert_eq!(doc["ranks"]["count"], 2);
    assert_eq!(doc["environment"]["target"]["fs_type"], "tmpfs");
    assert_eq!(doc["exit_code"], 0);
    let w = &doc["phases"][0];
    assert_eq!(w["latency"]["count"], 32, "every transfer in the histogram");
    let series_ops: u64 = w["series"]["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["ops"].as_u64().unwrap())
        .sum();
    assert_eq!(series_ops, 32, "every transfer in the series");
    assert_eq!(doc["summary"].as_array().unwrap().len(), 2);
    assert_eq!(doc["parameters"]["transfer_size"], 65536);
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        text.starts_with(
            "access,rank,runtime-with-openclose,runtime,throughput-withopenclose,throughput"
        ),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1 + 2 * 2, "{text}");
}

#[test]
fn command_line_is_iors_words_whatever_global_options_come_first() {
    let d = shm();
    let o = d.path().join("t");
    let r = iogauge(&format!(
        "--no-store --label k=v ior -a DUMMY -t 1k -b 4k -o {}",
        o.display()
    ))
    .ok();
    let line = format!(
        "Command line        : iogauge ior -a DUMMY -t 1k -b 4k -o {}\n",
        o.display()
    );
    assert!(
        r.stdout.contains(&line),
        "{line:?} missing in\n{}",
        r.stdout
    );
}
