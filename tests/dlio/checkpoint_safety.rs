//! A checkpoint run cut short: SIGINT in the pause between checkpoints exits 130 with the
//! finished checkpoint in the document; ENOSPC in a shard names it and fails. Either way the
//! run removes every file and folder it made.

use std::path::Path;

use crate::common::{json, listing, tmp};
use crate::safety::full_fs::SmallFs;
use crate::safety::signal::{has_entry, interrupt, spawn, wait_for};

/// A run of 3 checkpoints of about 3 MiB over 2 ranks, `pause` seconds before each.
fn args<'a>(folder: &'a str, out: &'a str, j: &'a str, pause: &'a str) -> Vec<&'a str> {
    let mut args = super::checkpoint::SHAPE.to_vec();
    args.extend([
        pause,
        "++workload.checkpoint.num_checkpoints_write=3",
        "++workload.checkpoint.num_checkpoints_read=1",
        folder,
        "--output",
        out,
        "--json",
        j,
        "--tasks",
        "2",
    ]);
    args
}

fn folder_arg(p: &Path) -> String {
    format!("++workload.checkpoint.checkpoint_folder={}", p.display())
}

/// The first checkpoint's four shards are all there (then a moment for the last to be
/// whole: it takes milliseconds, the pause before the next 1.5 s).
fn first_written(folder: &Path) -> bool {
    let dir = folder.join("global_epoch1_step1");
    let there = dir.is_dir() && listing(&dir).len() == 4 && has_entry(&dir, "zero_pp_rank_1");
    if there {
        std::thread::sleep(std::time::Duration::from_millis(300));
    }
    there
}

#[test]
fn sigint_between_checkpoints_exits_130_keeps_the_first_and_removes_the_files() {
    let d = tmp();
    let parent = d.path().join("mine");
    std::fs::create_dir(&parent).unwrap();
    let folder = parent.join("ck");
    let (out, j) = (d.path().join("out"), d.path().join("r.json"));
    let fa = folder_arg(&folder);
    let child = spawn(&args(
        &fa,
        out.to_str().unwrap(),
        j.to_str().unwrap(),
        "++workload.checkpoint.time_between_checkpoints=1.5",
    ));
    wait_for("the first checkpoint", || first_written(&folder));
    let (run, took) = interrupt(child, "INT");
    assert_eq!(
        run.code, 130,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    assert!(took.as_secs_f64() < 5.0, "{took:?}");
    let doc = json(&j);
    let done = doc["dlio"]["checkpoints"].as_array().unwrap();
    assert!(!done.is_empty() && done.len() < 3, "{done:?}");
    assert!(listing(&parent).is_empty(), "left: {:?}", listing(&parent));
}

#[test]
fn enospc_in_a_shard_names_it_and_leaves_nothing() {
    let Some(fs) = SmallFs::mount(16) else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    };
    let d = tmp();
    let folder = fs.dir.join("ck");
    let (out, j) = (d.path().join("out"), d.path().join("r.json"));
    let fa = folder_arg(&folder);
    let child = spawn(&args(
        &fa,
        out.to_str().unwrap(),
        j.to_str().unwrap(),
        "++workload.checkpoint.time_between_checkpoints=1.5",
    ));
    wait_for("the first checkpoint", || first_written(&folder));
    // Fill what is left while the run pauses before the second checkpoint.
    let filler = fs.dir.join("filler");
    let mut f = std::fs::File::create(&filler).unwrap();
    let chunk = vec![7u8; 256 << 10];
    while std::io::Write::write_all(&mut f, &chunk).is_ok() {}
    drop(f);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("global_epoch1_step2/zero_pp_rank_")
            && stderr.contains("_states.pt")
            && stderr.contains("ENOSPC"),
        "{stderr}"
    );
    assert_eq!(listing(&fs.dir), ["filler"], "the run's files removed");
    // The finished checkpoint's phase stays in the document.
    let doc = json(&j);
    assert_eq!(doc["phases"][0]["operation"], "dlio-checkpoint-write");
    assert_ne!(doc["phases"][0]["interrupted"], true);
}
