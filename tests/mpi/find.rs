//! `iogauge find` under mpirun: work stealing between MPI processes finds what thread ranks
//! find.

use super::mpirun;
use crate::common::{iogauge_args, shm};
use crate::find::io500_tree;

fn last_line(s: &str) -> &str {
    s.lines().last().unwrap_or("")
}

#[test]
fn the_io500_query_gives_the_reference_counts_on_2_and_4_mpi_ranks() {
    let d = shm();
    let data = d.path().join("data");
    let ts = d.path().join("timestampfile");
    std::fs::write(&ts, b"").unwrap();
    io500_tree(&data, 2000, 1000);
    let (data_s, ts_s) = (data.to_str().unwrap(), ts.to_str().unwrap());
    for np in [2, 4] {
        for extra in [&[][..], &["-N"][..]] {
            let mut args = vec![
                "find", data_s, "-newer", ts_s, "-size", "3901c", "-name", "*01*", "-C", "-q", "10",
            ];
            args.extend_from_slice(extra);
            let r = mpirun(np, &args).ok();
            assert_eq!(
                last_line(&r.stdout),
                "MATCHED 18/6003",
                "np {np}: {}",
                r.stdout
            );
            assert!(r.stdout.contains(&format!("ranks: {np} ")), "{}", r.stdout);
        }
    }
}

#[test]
fn listing_under_mpi_prints_the_same_paths_as_thread_ranks() {
    let d = shm();
    let data = d.path().join("data");
    io500_tree(&data, 300, 200);
    let data_s = data.to_str().unwrap();
    let lines = |out: &str| {
        let mut v: Vec<String> = out
            .lines()
            .filter(|l| l.starts_with('/'))
            .map(str::to_string)
            .collect();
        v.sort();
        v
    };
    let t = iogauge_args(&["--tasks", "3", "find", data_s, "-name", "*1*"]).ok();
    let j = d.path().join("find.json");
    let m = mpirun(
        3,
        &[
            "find",
            data_s,
            "-name",
            "*1*",
            "--json",
            j.to_str().unwrap(),
        ],
    )
    .ok();
    let doc = crate::common::json(&j);
    assert_eq!(doc["ranks"]["launcher"], "mpi");
    assert_eq!(doc["ranks"]["count"], 3);
    let (lt, lm) = (lines(&t.stdout), lines(&m.stdout));
    assert!(lt.len() > 100, "{}", t.stdout);
    assert_eq!(lt, lm);
    assert!(
        m.stdout.contains(&format!("MATCHED {}/", lt.len())),
        "{}",
        m.stdout
    );
}
