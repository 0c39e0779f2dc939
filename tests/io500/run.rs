//! End to end: a small IO500 run on a temporary directory goes through every phase, writes the
//! IO500's result files and iogauge's document, verifies, and removes all its data.

use std::collections::BTreeMap;

use super::small_ini;
use crate::common::{iogauge_args, json, listing, tmp};

const PHASES: [&str; 14] = [
    "ior-easy-write",
    "mdtest-easy-write",
    "timestamp",
    "ior-hard-write",
    "mdtest-hard-write",
    "find",
    "ior-easy-read",
    "mdtest-easy-stat",
    "ior-hard-read",
    "mdtest-hard-stat",
    "mdtest-easy-delete",
    "mdtest-hard-read",
    "mdtest-hard-delete",
    "ior-rnd4K-easy-read",
];

/// result.txt as sections of `key = value` pairs.
fn sections(txt: &str) -> Vec<(String, BTreeMap<String, String>)> {
    let mut out: Vec<(String, BTreeMap<String, String>)> = Vec::new();
    for line in txt.lines() {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            out.push((name.to_string(), BTreeMap::new()));
        } else if let Some((k, v)) = line.split_once(" = ") {
            if !line.starts_with(';') {
                let last = out.last_mut().expect("a pair outside a section");
                last.1.insert(k.trim().to_string(), v.to_string());
            }
        }
    }
    out
}

#[test]
fn a_small_run_covers_every_phase_and_removes_its_data() {
    let d = tmp();
    let ini = small_ini(d.path(), "");
    let extra_json = d.path().join("doc.json");
    let r = iogauge_args(&[
        "io500",
        ini.to_str().unwrap(),
        "--tasks",
        "2",
        "--timestamp",
        "T1",
        "--json",
        extra_json.to_str().unwrap(),
    ])
    .ok();
    let res = d.path().join("res/T1");
    // stdout: the version line, one line per phase as it finishes, the score, where results are.
    let summary: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(summary.len(), 15, "{}", r.stdout);
    for (line, phase) in summary.iter().zip(PHASES) {
        let name = line[9..29].trim_start();
        assert_eq!(name, phase, "{line}");
        assert!(
            line.contains(" : time ") && line.contains(" seconds"),
            "{line}"
        );
    }
    assert!(summary[14].starts_with("[SCORE ] Bandwidth ") && summary[14].ends_with(" [INVALID]"));
    assert!(
        r.stdout.starts_with("IO500 version iogauge-"),
        "{}",
        r.stdout
    );
    assert!(r
        .stdout
        .contains("ERROR INVALID (run) stonewall-time 1s != 300s"));
    let last = r.stdout.lines().last().unwrap();
    assert_eq!(
        last,
        format!(
            "The result files are stored in the directory: {}",
            res.display()
        )
    );

    let files = listing(&res);
    for f in [
        "result.txt",
        "result_summary.txt",
        "config-orig.ini",
        "config.ini",
        "timestampfile",
        "result.json",
    ] {
        assert!(files.contains(&f.to_string()), "{f}: {files:?}");
    }
    for p in PHASES.iter().filter(|p| **p != "timestamp") {
        assert!(files.contains(&format!("{p}.txt")), "{p}.txt: {files:?}");
        assert!(files.contains(&format!("{p}.csv")), "{p}.csv: {files:?}");
    }
    assert!(
        !files.iter().any(|f| f.ends_with(".stonewall")),
        "status files are removed"
    );
    assert!(
        !d.path().join("data").exists(),
        "the data directory is removed"
    );

    let txt = std::fs::read_to_string(res.join("result.txt")).unwrap();
    let secs = sections(&txt);
    let names: Vec<&str> = secs.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names[0], "run");
    assert_eq!(&names[1..15], PHASES);
    assert_eq!(names[15], "SCORE");
    assert_eq!(secs[0].1["procs"], "2");
    for (name, pairs) in &secs[1..15] {
        assert!(pairs.contains_key("t_delta"), "{name}");
        if name != "timestamp" {
            assert!(
                pairs["score"].parse::<f64>().unwrap() > 0.0,
                "{name}: {pairs:?}"
            );
            assert!(pairs["exe"].starts_with("./"), "{name}");
        }
    }
    let find = &secs[6].1;
    assert_eq!(find["nproc"], "2");
    assert!(find["found"].parse::<u64>().unwrap() > 0, "{find:?}");
    // 2 ior-easy files, the ior-hard file and the mdtest files: 2 x 500 + 2 x 300 unless a
    // slow disk let the 1 s stonewall stop the creates early, so count what they created.
    let doc = json(&res.join("result.json"));
    let created = |phase: &str| -> u64 {
        let phases = doc["phases"].as_array().unwrap();
        let p = phases.iter().find(|p| p["io500_phase"] == phase).unwrap();
        p["ops"].as_u64().unwrap()
    };
    let mdtest_files = created("mdtest-easy-write") + created("mdtest-hard-write");
    assert!(mdtest_files > 0 && mdtest_files <= 1600, "{mdtest_files}");
    assert_eq!(find["total-files"], (3 + mdtest_files).to_string());
    let summary_file = std::fs::read_to_string(res.join("result_summary.txt")).unwrap();
    assert_eq!(summary_file.lines().count(), 16);

    for doc in [json(&res.join("result.json")), json(&extra_json)] {
        assert_eq!(doc["workload"], "io500");
        assert_eq!(doc["exit_code"], 0);
        assert!(!doc["finished"].as_str().unwrap().is_empty());
        // A measured phase for every phase that ran a tool, named by its IO500 phase.
        let measured: Vec<&str> = doc["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["io500_phase"].as_str().unwrap())
            .collect();
        let tools: Vec<&str> = PHASES.into_iter().filter(|p| *p != "timestamp").collect();
        assert_eq!(measured, tools);
        assert_eq!(doc["phases"][0]["operation"], "write");
        assert_eq!(doc["phases"][1]["operation"], "file-create");
        // The IO500's figures of every phase, in run order.
        let scored: Vec<&str> = doc["io500"]["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["phase"].as_str().unwrap())
            .collect();
        assert_eq!(scored, PHASES);
        assert_eq!(doc["io500"]["score"]["valid"], false);
    }

    let v = iogauge_args(&[
        "io500",
        "--verify",
        res.join("result.txt").to_str().unwrap(),
    ]);
    assert_eq!(v.code, 1, "{}", v.stdout);
    assert!(
        v.stdout.ends_with("\n[OK] But this is an invalid run!\n"),
        "{}",
        v.stdout
    );
}

#[test]
fn a_failing_phase_is_reported_and_the_rest_still_runs() {
    let d = tmp();
    // Without ior-easy-write there is nothing for ior-easy-read to read.
    let ini = small_ini(d.path(), "\n[ior-easy-write]\nrun = FALSE\n");
    let r = iogauge_args(&[
        "io500",
        ini.to_str().unwrap(),
        "--tasks",
        "2",
        "--timestamp",
        "T2",
    ])
    .code(1);
    assert!(
        r.stderr
            .contains("iogauge io500: ior-easy-read failed: ior: "),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout.contains("[RESULT]   mdtest-hard-delete"),
        "{}",
        r.stdout
    );
    let txt = std::fs::read_to_string(d.path().join("res/T2/result.txt")).unwrap();
    assert!(txt.contains("; ERROR INVALID Phase failed: ior: "), "{txt}");
    assert!(!d.path().join("data").exists());
}

#[test]
fn quick_dry_run_shows_the_short_settings_and_touches_nothing() {
    let d = tmp();
    let dir = d.path().join("fs");
    let r = iogauge_args(&[
        "io500",
        "--quick",
        "--dry-run",
        "--tasks",
        "4",
        "--dir",
        dir.to_str().unwrap(),
    ])
    .ok();
    assert!(r.stdout.contains("; ERROR INVALID DRY RUN MODE ACTIVATED"));
    assert!(r
        .stdout
        .contains("; ERROR INVALID stonewall-time 5s != 300s"));
    // The block depends on the room (tested in quick/sizes_tests.rs): whole MiB, 16 at least.
    let block = regex::Regex::new(r" -t 1m -b (\d+)m -F -w -D 5 ").unwrap();
    let mib: u64 = block.captures(&r.stdout).expect("ior-easy's -t and -b")[1]
        .parse()
        .unwrap();
    assert!(mib >= 16, "{}", r.stdout);
    assert!(r.stdout.contains(&format!("-o {}/", dir.display())));
    assert!(r.stdout.contains("; iogauge mdtest --tasks 4 "));
    assert_eq!(listing(d.path()), Vec::<String>::new());
}

#[test]
fn an_external_find_script_runs_on_rank_0_through_the_shell() {
    use std::os::unix::fs::PermissionsExt;
    let d = tmp();
    let script = d.path().join("find.sh");
    let args = d.path().join("args");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$@\" > {}\necho scanning\necho MATCHED 4/1603\n",
            args.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    // Only the timestamp and find run; the others are disabled (and so invalid).
    let extra = format!(
        "[ior-easy]\nrun = FALSE\n[ior-hard]\nrun = FALSE\n[mdtest-easy]\nrun = FALSE\n\
         [mdtest-hard]\nrun = FALSE\n[find]\nexternal-script = {}\n",
        script.display()
    );
    let ini = small_ini(d.path(), &extra);
    iogauge_args(&[
        "io500",
        ini.to_str().unwrap(),
        "--tasks",
        "2",
        "--timestamp",
        "T3",
    ])
    .ok();
    let txt = std::fs::read_to_string(d.path().join("res/T3/result.txt")).unwrap();
    let data = d.path().join("data/T3");
    let exe = format!(
        "exe             =  {}  {} -newer {}/res/T3/timestampfile -size 3901c -name \"*01*\"\n",
        script.display(),
        data.display(),
        d.path().display()
    );
    assert!(txt.contains(&exe), "{txt}");
    assert!(txt.contains(
        "last-output     = \"MATCHED 4/1603\"\ntotal-files     = 1603\nfound           = 4\n"
    ));
    let seen = std::fs::read_to_string(&args).unwrap();
    assert!(
        seen.starts_with(&format!("{} -newer ", data.display())),
        "{seen}"
    );
    assert!(
        seen.trim_end().ends_with("-size 3901c -name *01*"),
        "{seen}"
    );
}

#[test]
fn files_from_before_the_run_are_refused_and_kept() {
    let d = tmp();
    let ini = small_ini(d.path(), "[global]\ntimestamp-datadir = FALSE\n");
    std::fs::create_dir_all(d.path().join("data/ior-hard")).unwrap();
    std::fs::write(d.path().join("data/ior-hard/file"), b"precious").unwrap();
    let r = iogauge_args(&["io500", ini.to_str().unwrap(), "--tasks", "2"]).code(2);
    assert!(r.stderr.contains("[ior-hard-write] ior: "), "{}", r.stderr);
    assert!(r.stderr.contains("already exists"), "{}", r.stderr);
    let kept = std::fs::read(d.path().join("data/ior-hard/file")).unwrap();
    assert_eq!(kept, b"precious");
    assert_eq!(
        listing(&d.path().join("data")),
        ["ior-hard"],
        "the run's own directories are gone"
    );
    assert!(
        !d.path().join("res").exists(),
        "no result directory for a refused run"
    );
}

/// A reader that goes away (`iogauge io500 | head`) ends the output, not the run: no panic,
/// exit 0, every result file written and the data removed.
#[test]
fn a_closed_pipe_ends_the_output_not_the_run() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let d = tmp();
    let ini = small_ini(d.path(), "");
    let mut child = Command::new(crate::common::bin())
        .args(["--no-store", "--no-system", "io500"])
        .arg(&ini)
        .args(["--tasks", "2", "--timestamp", "P1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start iogauge io500");
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is closed now, long before the run's last line.
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let summary = std::fs::read_to_string(d.path().join("res/P1/result_summary.txt")).unwrap();
    assert!(summary.contains("[SCORE ]"), "{summary}");
    assert!(!d.path().join("data").exists(), "the data is removed");
}
