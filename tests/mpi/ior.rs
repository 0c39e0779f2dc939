//! `iogauge ior` under mpirun against the same command on thread ranks.

use std::path::Path;

use super::{mpirun, mpirun_line, shape};
use crate::common::{iogauge, json, listing, shm, tmp};

fn ior_args(dir: &Path, extra: &str) -> String {
    format!(
        "ior -t 64k -b 256k -s 3 -k -e -G 42 {extra} -o {0}/f --json {0}/r.json",
        dir.display()
    )
}

/// Runs the same IOR command with `np` thread ranks and `np` MPI ranks in two directories
/// and checks that both left the same files, byte for byte, and documents of one shape.
fn same_as_threads(np: usize, extra: &str) {
    let d = shm();
    let (t, m) = (d.path().join("threads"), d.path().join("mpi"));
    std::fs::create_dir_all(&t).unwrap();
    std::fs::create_dir_all(&m).unwrap();
    iogauge(&format!("--tasks {np} {}", ior_args(&t, extra))).ok();
    let args = ior_args(&m, extra);
    let r = mpirun_line(np, &args).ok();
    assert!(
        r.stdout.contains(&format!("tasks               : {np}")),
        "{}",
        r.stdout
    );
    assert_eq!(
        r.stdout.matches("Summary of all tests:").count(),
        1,
        "rank 0 alone prints"
    );

    let files = listing(&t);
    assert_eq!(files, listing(&m), "np {np} {extra}");
    for f in files.iter().filter(|f| f.starts_with('f')) {
        let (a, b) = (
            std::fs::read(t.join(f)).unwrap(),
            std::fs::read(m.join(f)).unwrap(),
        );
        assert!(
            a == b,
            "np {np} {extra}: {f} differs ({} vs {} bytes)",
            a.len(),
            b.len()
        );
    }
    let (jt, jm) = (json(&t.join("r.json")), json(&m.join("r.json")));
    assert_eq!(shape(&jt), shape(&jm), "result schema");
    assert_eq!(jt["ranks"]["launcher"], "threads");
    assert_eq!(jm["ranks"]["launcher"], "mpi");
    assert_eq!(jm["ranks"]["count"], np);
    assert_eq!(jm["exit_code"], 0);
    for (a, b) in jt["phases"]
        .as_array()
        .unwrap()
        .iter()
        .zip(jm["phases"].as_array().unwrap())
    {
        assert_eq!(a["operation"], b["operation"]);
        assert_eq!(a["bytes"], b["bytes"]);
        assert_eq!(a["ops"], b["ops"]);
        assert_eq!(a["per_rank"].as_array().unwrap().len(), np);
        assert_eq!(b["per_rank"].as_array().unwrap().len(), np);
    }
}

#[test]
fn file_per_process_matches_thread_ranks_with_2_and_4_ranks() {
    same_as_threads(2, "-F");
    same_as_threads(4, "-F -C --fake-nodes 2");
}

#[test]
fn shared_file_and_random_offsets_match_thread_ranks() {
    same_as_threads(4, "");
    same_as_threads(2, "-z --random-offset-seed 7");
}

#[test]
fn hosts_give_the_node_map_and_fake_nodes_split_it() {
    let d = tmp();
    let dir = d.path().display();
    let r = mpirun_line(4, &format!("ior -t 4k -b 8k -F -C -o {dir}/f")).ok();
    // One host: one node of 4, and -C is a no-op that iogauge warns about.
    assert!(r.stdout.contains("nodes               : 1"), "{}", r.stdout);
    assert!(r.stdout.contains("-C has no effect"), "{}", r.stdout);
    let r = mpirun_line(
        4,
        &format!("--fake-nodes 2 ior -t 4k -b 8k -F -C -o {dir}/g"),
    )
    .ok();
    assert!(r.stdout.contains("nodes               : 2"), "{}", r.stdout);
    assert!(!r.stdout.contains("-C has no effect"), "{}", r.stdout);
}

/// Stonewall agreement across MPI ranks: every rank wears out to the furthest rank's count,
/// the status file holds it, and a later read stops there.
#[test]
fn stonewall_wear_out_agrees_across_mpi_ranks() {
    let d = tmp();
    let sw = d.path().join("sw");
    let j = d.path().join("w.json");
    let args = format!(
        "ior -a DUMMY --dummy.delay-xfer=2000 -t 1m -b 100g -F -w -D 1 -k \
         -O stoneWallingWearOut=1 -O stoneWallingStatusFile={} -o {}/f --json {}",
        sw.display(),
        d.path().display(),
        j.display()
    );
    mpirun_line(3, &args).ok();
    let w = &json(&j)["phases"][0];
    let pairs_max = w["stonewall"]["pairs_max"].as_u64().unwrap();
    assert!(pairs_max > 100 && pairs_max < 100_000, "{pairs_max}");
    for rank in w["per_rank"].as_array().unwrap() {
        assert_eq!(rank["ops"].as_u64().unwrap(), pairs_max);
    }
    assert_eq!(std::fs::read_to_string(&sw).unwrap(), pairs_max.to_string());

    let j2 = d.path().join("r.json");
    let args = format!(
        "ior -a DUMMY -t 1m -b 100g -F -r -k -O stoneWallingStatusFile={} -o {}/f --json {}",
        sw.display(),
        d.path().display(),
        j2.display()
    );
    mpirun_line(3, &args).ok();
    for rank in json(&j2)["phases"][0]["per_rank"].as_array().unwrap() {
        assert_eq!(rank["ops"].as_u64().unwrap(), pairs_max);
    }
}

#[test]
fn bad_input_stops_every_rank_with_one_message() {
    let d = tmp();
    let r = mpirun(
        2,
        &[
            "ior",
            "-t",
            "3k",
            "-b",
            "8k",
            "-o",
            d.path().join("f").to_str().unwrap(),
        ],
    )
    .code(2);
    assert_eq!(r.stderr.matches("iogauge ior:").count(), 1, "{}", r.stderr);
    assert!(listing(d.path()).is_empty());
    // More tasks than MPI ranks is refused by name.
    let r = mpirun(
        2,
        &["ior", "-N", "4", "-o", d.path().join("f").to_str().unwrap()],
    )
    .code(2);
    assert!(
        r.stderr.contains("more than the 2 MPI ranks"),
        "{}",
        r.stderr
    );
}

/// `--mpi` starts MPI without a launcher: a world of one (MPI's singleton start).
#[test]
fn mpi_flag_without_a_launcher_is_a_world_of_one() {
    let d = tmp();
    let j = d.path().join("r.json");
    crate::common::iogauge_args(&[
        "--mpi",
        "ior",
        "-t",
        "4k",
        "-b",
        "8k",
        "-o",
        d.path().join("f").to_str().unwrap(),
        "--json",
        j.to_str().unwrap(),
    ])
    .ok();
    let doc = json(&j);
    assert_eq!(doc["ranks"]["launcher"], "mpi");
    assert_eq!(doc["ranks"]["count"], 1);
}
