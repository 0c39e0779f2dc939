//! `-O summaryFormat=JSON`: IOR's document structure and key order, as valid JSON with numbers
//! as numbers, and with the labels IOR gets wrong corrected (`data packet type`, `options`,
//! `xsizeMiB`). iogauge's additions are appended after IOR's keys.

use serde_json::{json, Map, Value};
use workload::ior::{Access, DataPacket, IorParams};

use super::format::fs_parts;
use super::human::{options, OptValue};
use super::{Header, OpSummary, Record, Row};
use text::fixed;

/// A double: a JSON number, or (as IOR) a quoted text for infinities and NaN.
fn num(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::String(fixed(v, 4))
    }
}

fn opt_num(v: Option<f64>) -> Value {
    v.map_or(Value::Null, num)
}

/// IOR's `dataPacketType` number (timestamp 0, offset 1, incompressible 2).
fn packet_number(d: DataPacket) -> i64 {
    match d {
        DataPacket::Timestamp => 0,
        DataPacket::Offset => 1,
        DataPacket::Incompressible => 2,
    }
}

fn packet_name(d: DataPacket) -> &'static str {
    match d {
        DataPacket::Timestamp => "timestamp",
        DataPacket::Offset => "offset",
        DataPacket::Incompressible => "incompressible",
    }
}

/// IOR's `platform`: `<nodename>(<sysname>)`, from the `Machine` text `"<sysname> <nodename>"`.
fn platform(machine: &str) -> String {
    match machine.split_once(' ') {
        Some((sys, node)) => format!("{}({sys})", node.split(' ').next().unwrap_or(node)),
        None => machine.to_string(),
    }
}

/// A time as IOR's `%d` prints it when whole (`300`), with its fraction otherwise.
fn time(v: f64) -> Value {
    plan::whole::integer(v).map_or_else(|| json!(v), |n| json!(n))
}

fn parameters(p: &IorParams, h: &Header) -> Value {
    let b = |v: bool| json!(v as i64);
    let entries = [
        ("testID", json!(0)),
        ("refnum", json!(p.ref_num)),
        ("api", json!(p.engine.api)),
        ("platform", json!(platform(&h.machine))),
        ("testFileName", json!(p.test_file)),
        ("deadlineForStonewall", time(p.deadline_for_stonewalling_s)),
        ("stoneWallingWearOut", b(p.stonewall_wear_out)),
        ("maxTimeDuration", time(p.max_time_duration_min)),
        ("outlierThreshold", json!(0)),
        ("options", json!(h.command_line)),
        ("dryRun", json!(0)),
        ("nodes", json!(h.nodes)),
        ("memoryPerTask", json!(0)),
        ("memoryPerNode", json!(0)),
        ("tasksPerNode", json!(h.tasks_per_node)),
        ("repetitions", json!(p.repetitions)),
        ("multiFile", b(p.multi_file)),
        ("interTestDelay", time(p.inter_test_delay_s)),
        ("fsync", b(p.fsync)),
        ("fsyncperwrite", b(p.fsync_per_write)),
        ("useExistingTestFile", b(p.use_existing_test_file)),
        ("uniqueDir", b(p.unique_dir)),
        ("singleXferAttempt", b(p.single_xfer_attempt)),
        ("readFile", b(p.read_file)),
        ("writeFile", b(p.write_file)),
        ("filePerProc", b(p.file_per_proc)),
        ("reorderTasks", b(p.reorder_tasks)),
        ("reorderTasksRandom", json!(p.reorder_tasks_random)),
        ("reorderTasksRandomSeed", json!(p.reorder_tasks_random_seed)),
        ("randomOffset", json!(p.random_offset)),
        ("checkWrite", b(p.check_write)),
        ("checkRead", b(p.check_read)),
        ("dataPacketType", json!(packet_number(p.data_packet))),
        ("keepFile", b(p.keep_file)),
        ("keepFileWithError", b(p.keep_file_with_error)),
        ("warningAsErrors", json!(0)),
        ("verbose", json!(p.verbose)),
        ("data packet type", json!(packet_name(p.data_packet))),
        (
            "setTimeStampSignature/incompressibleSeed",
            json!(p.time_stamp_signature.unwrap_or(0)),
        ),
        ("collective", json!(0)),
        ("segmentCount", json!(p.segment_count)),
        ("transferSize", json!(p.transfer_size)),
        ("blockSize", json!(p.block_size)),
    ];
    Value::Object(
        entries
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

fn result(r: &Row) -> Value {
    json!({
        "access": r.access.label(),
        "bwMiB": num(r.bw_mib),
        "blockKiB": num(r.block_kib),
        "xferKiB": num(r.xfer_kib),
        "iops": num(r.iops),
        "latency": num(r.latency_s),
        "openTime": num(r.open_s),
        "wrRdTime": num(r.xfer_s),
        "closeTime": num(r.close_s),
        "totalTime": num(r.total_s),
        "iteration": r.iteration,
        "latencyP50": opt_num(r.p50_s),
        "latencyP99": opt_num(r.p99_s),
        "latencyMax": opt_num(r.max_s),
    })
}

fn summary(o: &OpSummary, p: &IorParams, h: &Header) -> Value {
    const MIB: f64 = 1048576.0;
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| {
        m.insert(k.to_string(), v);
    };
    put("operation", json!(o.access.label()));
    put("API", json!(p.engine.api));
    put("TestID", json!(0));
    put("ReferenceNumber", json!(p.ref_num));
    put("segmentCount", json!(p.segment_count));
    put("blockSize", json!(p.block_size));
    put("transferSize", json!(p.transfer_size));
    put("numTasks", json!(h.tasks));
    put("tasksPerNode", json!(h.tasks_per_node));
    put("repetitions", json!(o.reps));
    put("filePerProc", json!(p.file_per_proc as i64));
    put("reorderTasks", json!(p.reorder_tasks as i64));
    put("taskPerNodeOffset", json!(p.task_per_node_offset));
    put("reorderTasksRandom", json!(p.reorder_tasks_random));
    put("reorderTasksRandomSeed", json!(p.reorder_tasks_random_seed));
    put("bwMaxMIB", num(o.bw.max));
    put("bwMinMIB", num(o.bw.min));
    put("bwMeanMIB", num(o.bw.mean));
    put("bwStdMIB", num(o.bw.stddev_population));
    put("OPsMax", num(o.ops.max));
    put("OPsMin", num(o.ops.min));
    put("OPsMean", num(o.ops.mean));
    put("OPsSD", num(o.ops.stddev_population));
    put("MeanTime", num(o.mean_time_s));
    if let Some(sw) = &o.stonewall {
        put("StoneWallTime", num(sw.time_avg_s));
        put("StoneWallbwMeanMIB", num(sw.per_task_mib));
        put("StoneWallbwAggMIB", num(sw.aggregate_mib));
    }
    put("xsizeMiB", num(p.transfer_size as f64 / MIB));
    put("aggsMiB", num(o.aggs_mib));
    Value::Object(m)
}

/// IOR's verbose `max` section: the best repetition of each operation.
fn max_section(p: &IorParams, rows: &[&Row]) -> Value {
    let best = |a: Access| {
        rows.iter()
            .filter(|r| r.access == a && r.total_s > 0.0)
            .map(|r| r.bytes as f64 / r.total_s)
            .fold(0.0, f64::max)
    };
    let mut m = Map::new();
    for (on, a, k) in [
        (p.write_file, Access::Write, "write"),
        (p.read_file, Access::Read, "read"),
    ] {
        if on {
            m.insert(format!("{k}MiB"), num(best(a) / 1048576.0));
            m.insert(format!("{k}MB"), num(best(a) / 1e6));
        }
    }
    Value::Object(m)
}

/// The whole document.
pub(super) fn document(
    p: &IorParams,
    h: &Header,
    records: &[Record],
    sums: &[OpSummary],
    finished: &str,
) -> Value {
    let [capacity, used, inodes, used_inodes] = fs_parts(&h.fs_line);
    let opts: Map<String, Value> = options(p, h)
        .into_iter()
        .map(|(k, v)| {
            let v = match v {
                OptValue::Text(s) => json!(s),
                OptValue::Int(n) => json!(n),
            };
            (k.to_string(), v)
        })
        .collect();
    let results: Vec<Value> = records
        .iter()
        .map(|r| match r {
            Record::Phase(row) => result(row),
            Record::Remove { time_s } => json!({"access": "remove", "totalTime": num(*time_s)}),
        })
        .collect();
    let mut test = json!({
        "TestID": 0,
        "StartTime": h.began,
        "Path": h.path,
        "Capacity": capacity,
        "Used Capacity": used,
        "Inodes": inodes,
        "Used Inodes": used_inodes,
        "Parameters": parameters(p, h),
        "Options": opts,
        "Results": results,
    });
    if p.verbose >= 1 {
        let rows: Vec<&Row> = records
            .iter()
            .filter_map(|r| match r {
                Record::Phase(row) => Some(row),
                Record::Remove { .. } => None,
            })
            .collect();
        test["max"] = max_section(p, &rows);
    }
    json!({
        "Version": h.version,
        "Began": h.began,
        "Command line": h.command_line,
        "Machine": h.machine,
        "tests": [test],
        "summary": sums.iter().map(|o| summary(o, p, h)).collect::<Vec<_>>(),
        "Finished": finished,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ior::output::{fixtures, summarize, IorPrinter};
    use workload::ior::SummaryFormat;

    fn keys(v: &Value) -> Vec<&str> {
        v.as_object().unwrap().keys().map(String::as_str).collect()
    }

    fn run(verbose: u32, stonewall: bool) -> (Value, String) {
        let p = IorParams {
            summary_format: SummaryFormat::Json,
            verbose,
            write_file: true,
            read_file: true,
            data_packet: DataPacket::Timestamp,
            ..IorParams::default()
        };
        let h = Header {
            version: "0.1.0".into(),
            began: "Sun Nov 22 09:29:26 2026".into(),
            command_line: "iogauge ior -O summaryFormat=JSON".into(),
            machine: "Linux node001".into(),
            fs_line: "23.5 GiB   Used FS: 17.0%   Inodes: 2.9 Mi   Used Inodes: 0.9%".into(),
            tasks: 2,
            ..Header::default()
        };
        let mut pr = IorPrinter::new(Vec::new(), &p, h).with_diagnostics(Box::new(std::io::sink()));
        let mut w = fixtures::example_write();
        if stonewall {
            w.stonewall = Some(fixtures::stonewall(2.0, 1048576.0, 2 << 20));
        }
        w.expected_size += 1;
        pr.start().unwrap();
        pr.repetition_start(0).unwrap();
        pr.phase(&w).unwrap();
        pr.warning("something").unwrap();
        pr.remove(0, 0.5).unwrap();
        pr.finish("Sun Nov 22 09:29:27 2026").unwrap();
        let warnings = pr.warnings().join("\n");
        let out = String::from_utf8(pr.into_inner()).unwrap();
        (serde_json::from_str(&out).expect("valid JSON"), warnings)
    }

    #[test]
    fn document_has_ior_keys_in_order() {
        let (v, diag) = run(0, false);
        assert_eq!(
            keys(&v),
            [
                "Version",
                "Began",
                "Command line",
                "Machine",
                "tests",
                "summary",
                "Finished"
            ]
        );
        let t = &v["tests"][0];
        assert_eq!(
            keys(t),
            [
                "TestID",
                "StartTime",
                "Path",
                "Capacity",
                "Used Capacity",
                "Inodes",
                "Used Inodes",
                "Parameters",
                "Options",
                "Results"
            ]
        );
        assert_eq!(t["Capacity"], "23.5 GiB");
        assert_eq!(t["Used Inodes"], "0.9%");
        let params = keys(&t["Parameters"]);
        assert_eq!(params.len(), 43);
        assert_eq!(params[..3], ["testID", "refnum", "api"]);
        assert_eq!(params[40..], ["segmentCount", "transferSize", "blockSize"]);
        assert_eq!(t["Parameters"]["data packet type"], "timestamp");
        assert_eq!(t["Parameters"]["dataPacketType"], 0);
        assert_eq!(
            t["Parameters"]["options"],
            "iogauge ior -O summaryFormat=JSON"
        );
        assert_eq!(t["Parameters"]["platform"], "node001(Linux)");
        assert_eq!(
            keys(&t["Options"])[..3],
            ["api", "apiVersion", "test filename"]
        );
        assert_eq!(t["Options"]["segments"], 1);
        let r = &t["Results"][0];
        assert_eq!(
            keys(r)[..10],
            [
                "access",
                "bwMiB",
                "blockKiB",
                "xferKiB",
                "iops",
                "latency",
                "openTime",
                "wrRdTime",
                "closeTime",
                "totalTime"
            ]
        );
        assert!((r["bwMiB"].as_f64().unwrap() - 512.0 / 0.570942).abs() < 1e-9);
        assert_eq!(r["latencyP50"], Value::Null);
        assert_eq!(
            t["Results"].as_array().unwrap().len(),
            1,
            "no remove record at -v 0"
        );
        let s = &v["summary"][0];
        let sk = keys(s);
        assert_eq!(sk[0], "operation");
        assert_eq!(sk[sk.len() - 3..], ["MeanTime", "xsizeMiB", "aggsMiB"]);
        assert_eq!(s["xsizeMiB"], 0.25);
        assert_eq!(s["aggsMiB"], 512.0);
        assert_eq!(v["Finished"], "Sun Nov 22 09:29:27 2026");
        // Notices went to the diagnostics stream, not into the document.
        assert!(diag.contains("WARNING: Expected aggregate file size"));
        assert!(diag.contains("WARNING: something"));
    }

    #[test]
    fn stonewall_and_verbose_sections() {
        let (v, _) = run(1, true);
        let sk = keys(&v["summary"][0]);
        assert_eq!(
            sk[sk.len() - 6..],
            [
                "MeanTime",
                "StoneWallTime",
                "StoneWallbwMeanMIB",
                "StoneWallbwAggMIB",
                "xsizeMiB",
                "aggsMiB"
            ]
        );
        assert_eq!(v["summary"][0]["StoneWallbwMeanMIB"], 0.5);
        assert_eq!(v["summary"][0]["StoneWallbwAggMIB"], 1.0);
        let t = &v["tests"][0];
        assert_eq!(t["Results"][1]["access"], "remove");
        assert_eq!(t["Results"][1]["totalTime"], 0.5);
        assert_eq!(
            keys(&t["max"]),
            ["writeMiB", "writeMB", "readMiB", "readMB"]
        );
        assert_eq!(t["max"]["readMiB"], 0.0);
    }

    #[test]
    fn non_finite_numbers_are_quoted() {
        assert_eq!(num(f64::INFINITY), json!("inf"));
        assert_eq!(num(1.5), json!(1.5));
        let rows = [Row::of(&fixtures::example_write())];
        let s = summarize(&[&rows[0]]);
        let v = summary(&s[0], &IorParams::default(), &Header::default());
        assert!(v["bwStdMIB"].is_number());
    }
}
