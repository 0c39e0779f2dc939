//! Stonewalling with wear-out: deterministic enough through the dummy engine's delays; the
//! status file and later runs that honour it on real files.

use crate::common::{iogauge, json, listing, shm, tmp};

#[test]
fn wear_out_brings_every_task_to_the_max_and_later_runs_use_the_status_file() {
    let d = tmp();
    let sw = d.path().join("sw");
    let j = d.path().join("c.json");
    // 1 ms per create, 1 s stonewall: about 1000 of the 100000 planned per task.
    let base = format!(
        "mdtest --tasks 3 -a DUMMY -n 100000 -F -u -d {}/md -x {}",
        d.path().display(),
        sw.display()
    );
    let r = iogauge(&format!(
        "{base} --dummy.delay-create=1000 -C -W 1 --json {}",
        j.display()
    ))
    .ok();
    assert!(
        r.stdout.contains("Continue stonewall hit min: "),
        "{}",
        r.stdout
    );
    let doc = json(&j);
    let create = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["operation"] == "file-create")
        .unwrap()
        .clone();
    let max = create["stonewall"]["pairs_max"].as_u64().unwrap();
    let min = create["stonewall"]["pairs_min"].as_u64().unwrap();
    assert!(min <= max && max > 100 && max < 100_000, "{min} {max}");
    for rank in create["per_rank"].as_array().unwrap() {
        assert_eq!(
            rank["ops"].as_u64().unwrap(),
            max,
            "every task wears out to the max"
        );
    }
    assert_eq!(create["ops"].as_u64().unwrap(), 3 * max);
    assert!(create["times"]["total_s"].as_f64().unwrap() >= 1.0);
    assert_eq!(
        std::fs::read_to_string(&sw).unwrap(),
        max.to_string(),
        "bare decimal"
    );
    assert!(
        r.stdout.contains(&format!(
            "3 tasks, {} files created ({max} per task",
            3 * max
        )),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("3 tasks, 300000 files\n"),
        "the configured count stays"
    );

    // Later stat and remove runs process exactly that many items per task.
    for phase in ["-T", "-r"] {
        let j2 = d.path().join("later.json");
        let r = iogauge(&format!("{base} {phase} --json {}", j2.display())).ok();
        assert!(r
            .stdout
            .contains(&format!("{max} per task from the stonewall status file")));
        let doc = json(&j2);
        let p = doc["phases"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["operation"].as_str().unwrap().starts_with("file-"))
            .unwrap()
            .clone();
        for rank in p["per_rank"].as_array().unwrap() {
            assert_eq!(rank["ops"].as_u64().unwrap(), max, "{phase}");
        }
    }
}

#[test]
fn a_status_file_limits_stat_read_and_remove_on_real_files() {
    let d = shm();
    let md = d.path().join("md");
    let sw = d.path().join("sw");
    let base = format!("mdtest --tasks 2 -n 50 -F -u -d {}", md.display());
    iogauge(&format!("{base} -C")).ok();
    std::fs::write(&sw, "20").unwrap();
    let j = d.path().join("r.json");
    // The tree cannot be removed around the items beyond the count: as mdtest, a warning, the
    // directories stay, and the run ends well.
    let r = iogauge(&format!(
        "{base} -T -E -r -x {} --json {}",
        sw.display(),
        j.display()
    ))
    .ok();
    assert!(
        r.stdout.contains(&format!(
            "WARNING: unable to remove tree directory {}/test-dir.0-0/mdtest_tree.0.0: not empty",
            md.display()
        )),
        "{}",
        r.stdout
    );
    let doc = json(&j);
    let ops: Vec<u64> = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["operation"].as_str().unwrap().starts_with("file-"))
        .map(|p| p["ops"].as_u64().unwrap())
        .collect();
    assert_eq!(ops, [40, 40, 40]);
    // Items 20..49 of each task are still there.
    let tree0 = md.join("test-dir.0-0/mdtest_tree.0.0");
    let left = listing(&tree0);
    assert_eq!(left.len(), 30);
    assert!(
        left.contains(&"file.mdtest.0.20".to_string())
            && !left.contains(&"file.mdtest.0.19".to_string())
    );
}

#[test]
fn a_missing_item_stops_the_run_with_a_hint() {
    let d = shm();
    let base = format!("mdtest --tasks 2 -n 10 -F -d {}/md", d.path().display());
    iogauge(&format!("{base} -C")).ok();
    std::fs::remove_file(
        d.path()
            .join("md/test-dir.0-0/mdtest_tree.0/file.mdtest.1.4"),
    )
    .unwrap();
    let r = iogauge(&format!("{base} -T")).code(1);
    assert!(
        r.stderr.contains("stat ") && r.stderr.contains("file.mdtest.1.4"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("-x status file"), "{}", r.stderr);
}
