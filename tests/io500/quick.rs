//! `iogauge io500 --quick`, the README's main job: a clean terminal (the quick line, the phase
//! table, the score marked `[QUICK]`, where the results are; no `ERROR` lines), while the
//! result directory keeps the IO500's format, its `ERROR INVALID` notes included. Its data is
//! what 5 s of writing produce on this machine, at most the run's cap, in a temp directory.

use std::process::Command;

use crate::common::{bin, listing, tmp};

#[test]
fn quick_run_shows_the_table_and_the_score_and_no_error_lines() {
    let d = tmp();
    let data = d.path().join("fs");
    // Results go to ./results/<timestamp>: run inside the temp directory.
    let out = Command::new(bin())
        .current_dir(d.path())
        .args(["io500", "--quick", "--tasks", "2", "--timestamp", "Q1"])
        .arg("--dir")
        .arg(&data)
        .output()
        .expect("run iogauge");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    for line in stdout.lines().chain(stderr.lines()) {
        assert!(
            !line.contains("ERROR") && !line.contains("shouldn't happen"),
            "{line}\n---\n{stdout}\n{stderr}"
        );
    }
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("iogauge io500 --quick: ")
            && lines[0].contains("not a valid IO500 submission"),
        "{stdout}"
    );
    assert!(lines[1].starts_with("Data: at most "), "{stdout}");
    // The phase table. A write phase may be marked only where storage outran the cap (a fast
    // disk writes more in 5 s than --quick lets it keep): then one line says so, in quick terms.
    let table: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("[RESULT]") || l.starts_with("[      ]"))
        .collect();
    assert_eq!(table.len(), 14, "{stdout}");
    let ran_out = lines
        .iter()
        .filter(|l| l.contains("its data ran out"))
        .count();
    let marked = table.iter().filter(|l| l.contains("INVALID")).count();
    assert_eq!(
        marked, ran_out,
        "only a phase that ran out of data is marked:\n{stdout}"
    );
    let score = lines.iter().find(|l| l.starts_with("[SCORE ]")).unwrap();
    let quick = if ran_out == 0 {
        " [QUICK]"
    } else {
        " [QUICK] [INVALID]"
    };
    assert!(score.ends_with(quick), "{score}");
    assert_eq!(
        lines.last().copied(),
        Some("The result files are stored in the directory: ./results/Q1")
    );

    // The result directory as the IO500 writes it, its ERROR notes included.
    let res = d.path().join("results/Q1");
    let txt = std::fs::read_to_string(res.join("result.txt")).unwrap();
    assert!(
        txt.lines()
            .any(|l| l == "; ERROR INVALID stonewall-time 5s != 300s"),
        "{txt}"
    );
    let summary = std::fs::read_to_string(res.join("result_summary.txt")).unwrap();
    assert!(
        summary.lines().last().unwrap().ends_with(" [INVALID]"),
        "{summary}"
    );
    assert!(listing(&res).contains(&"result.json".to_string()));
    assert!(!data.exists(), "the data is removed: {:?}", listing(&data));
}
