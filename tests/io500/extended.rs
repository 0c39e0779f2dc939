//! Extended mode end to end: md-workbench's three phases run with the IO500's arguments and
//! mdtest-easy-write's counts, the benchmark's second iteration joins `[SCOREX]`, its pairs and
//! text file are written, and nothing of it is left.

use super::small_ini;
use crate::common::{iogauge_args, json, listing, tmp};

#[test]
fn md_workbench_phases_score_in_scorex_and_leave_nothing() {
    let d = tmp();
    // Counts set in the .ini keep the run short.
    let ini = small_ini(
        d.path(),
        "[mdworkbench]\nprecreatePerSet = 40\nfilesPerProc = 20\n",
    );
    let r = iogauge_args(&[
        "--no-store",
        "io500",
        ini.to_str().unwrap(),
        "--tasks",
        "2",
        "--timestamp",
        "T1",
        "--mode",
        "extended",
    ])
    .ok();
    let res = d.path().join("res/T1");
    let line = |phase: &str| -> String {
        let l = r.stdout.lines().find(|l| l.contains(&format!(" {phase} ")));
        l.unwrap_or_else(|| panic!("{phase}: {}", r.stdout))
            .to_string()
    };
    assert!(line("mdworkbench-create").starts_with("[      ]"));
    let bench = line("mdworkbench-bench");
    assert!(
        bench.starts_with("[RESULT]") && !bench.ends_with("[INVALID]"),
        "{bench}"
    );
    let txt = std::fs::read_to_string(res.join("result.txt")).unwrap();
    let at = txt.find("[mdworkbench-bench]").unwrap();
    // Tiny phases may differ by 2x (the IO500's `; WARNING`): comments are left out.
    let section: Vec<&str> = txt[at..]
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with(';'))
        .collect();
    let keys: Vec<&str> = section[1..]
        .iter()
        .map(|l| l.split(" = ").next().unwrap().trim_end())
        .collect();
    assert_eq!(
        keys,
        [
            "t_start",
            "filesPerProc",
            "precreatePerSet",
            "exe",
            "maxOpTime",
            "scoreIteration0",
            "maxOpTime0",
            "score",
            "t_delta",
            "t_end"
        ]
    );
    assert!(
        section[4].ends_with(" -P=40 -I=20 -2 -R=2 -X"),
        "{}",
        section[4]
    );
    // The benchmark's text: md-workbench's lines, two iterations, a line per rank.
    let out = std::fs::read_to_string(res.join("mdworkbench-bench.txt")).unwrap();
    assert_eq!(out.matches("\nbenchmark process max:").count(), 2, "{out}");
    assert_eq!(
        out.matches("\n1: benchmark process max:").count(),
        2,
        "{out}"
    );
    // 2 ranks x 10 data sets x 20 objects per iteration.
    assert!(
        out.contains("objects:400 ") && out.contains(" (0 errs) "),
        "{out}"
    );
    // The document: both iterations under the IO500 phase, the score among SCOREX's.
    let doc = json(&res.join("result.json"));
    let phases = doc["phases"].as_array().unwrap();
    let bench_phases: Vec<u64> = phases
        .iter()
        .filter(|p| p["io500_phase"] == "mdworkbench-bench")
        .map(|p| p["iteration"].as_u64().unwrap())
        .collect();
    assert_eq!(bench_phases, [0, 1]);
    assert!(doc["io500"]["scorex"]["iops_kiops"].as_f64().unwrap() > 0.0);
    assert_ne!(
        doc["io500"]["scorex"]["iops_kiops"],
        doc["io500"]["score"]["iops_kiops"]
    );
    assert!(res.join("mdworkbench.status").is_file());
    assert!(
        !d.path().join("data").exists(),
        "{:?}",
        listing(&d.path().join("data"))
    );
}
