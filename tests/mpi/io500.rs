//! A small IO500 run under mpirun: every phase runs on every rank, rank 0 writes the
//! results, and the result files have the shape of a thread-rank run.

use super::{mpirun, shape};
use crate::common::{iogauge_args, json, listing, tmp};
use crate::io500::small_ini;

fn phases(doc: &serde_json::Value) -> Vec<String> {
    doc["io500"]["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["phase"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_small_run_on_2_and_4_mpi_ranks_matches_thread_ranks() {
    let d = tmp();
    let ini = small_ini(d.path(), "");
    let ini_s = ini.to_str().unwrap();
    iogauge_args(&["io500", ini_s, "--tasks", "2", "--timestamp", "T"]).ok();
    let threads = json(&d.path().join("res/T/result.json"));
    for np in [2, 4] {
        let ts = format!("M{np}");
        let r = mpirun(np, &["io500", ini_s, "--timestamp", &ts]).ok();
        assert!(r.stdout.contains("[SCORE ]"), "{}", r.stdout);
        assert_eq!(
            r.stdout.matches("[SCORE ]").count(),
            1,
            "rank 0 alone prints"
        );
        let res = d.path().join(format!("res/{ts}"));
        let doc = json(&res.join("result.json"));
        assert_eq!(doc["ranks"]["count"], np);
        assert_eq!(doc["ranks"]["launcher"], "mpi");
        assert_eq!(doc["exit_code"], 0, "{}", r.stderr);
        assert_eq!(phases(&doc), phases(&threads));
        assert_eq!(shape(&doc), shape(&threads), "result schema");
        let txt = std::fs::read_to_string(res.join("result.txt")).unwrap();
        let procs = txt.lines().find(|l| l.starts_with("procs")).unwrap();
        assert!(procs.ends_with(&format!("= {np}")), "{procs}");
        for f in [
            "result_summary.txt",
            "ior-easy-write.txt",
            "mdtest-hard-stat.txt",
            "find.txt",
        ] {
            assert!(res.join(f).is_file(), "{f}: {:?}", listing(&res));
        }
        // The data directory of the run is gone; the find phase counted every rank's files.
        assert!(!d.path().join(format!("data/{ts}")).exists());
        let find = std::fs::read_to_string(res.join("find.txt")).unwrap();
        assert!(find.contains(&format!("ranks: {np} ")), "{find}");
    }
}

#[test]
fn bad_input_ends_every_rank_with_status_2() {
    let d = tmp();
    let ini = d.path().join("bad.ini");
    std::fs::write(&ini, "[ior-easy]\ntranferSize = 1m\n").unwrap();
    let r = mpirun(2, &["io500", ini.to_str().unwrap()]).code(2);
    assert_eq!(
        r.stderr.matches("unknown key 'tranferSize'").count(),
        1,
        "{}",
        r.stderr
    );
}
