//! A rank that fails ends the whole MPI job promptly, with a message naming it, and the
//! result document keeps the phases that completed.

use std::time::{Duration, Instant};

use super::mpirun_with;
use crate::common::{bin, json, launcher, tmp};

/// `mpirun` of IOR with `args` split on whitespace, `{dir}` standing for the directory.
fn ior(np: usize, dir: &std::path::Path, args: &str) -> crate::common::Run {
    let args = args.replace("{dir}", dir.to_str().unwrap());
    mpirun_with(np, &args.split_whitespace().collect::<Vec<_>>(), 60)
}

/// Writes 4 files with 4 MPI ranks (kept), breaks rank `victim`'s file, and reads them back
/// with the result document in `{dir}/r.json`.
fn read_with_a_short_file(dir: &std::path::Path, victim: usize) -> crate::common::Run {
    let pattern = "ior -t 64k -b 256k -s 2 -F -k -o {dir}/f";
    ior(4, dir, &format!("{pattern} -w")).ok();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(dir.join(format!("f.{victim:08}")))
        .unwrap();
    f.set_len(1000).unwrap();
    ior(4, dir, &format!("{pattern} -r --json {{dir}}/r.json"))
}

#[test]
fn an_io_error_on_rank_2_ends_the_job_with_its_message() {
    let d = tmp();
    let t0 = Instant::now();
    let r = read_with_a_short_file(d.path(), 2);
    assert_ne!(r.code, 0);
    assert!(t0.elapsed() < Duration::from_secs(30), "{:?}", t0.elapsed());
    assert!(r.stderr.contains("rank 2: short read"), "{}", r.stderr);
    // The document rank 0 started is there; the run never finished.
    assert_eq!(json(&d.path().join("r.json"))["finished"], "");
}

#[test]
fn an_io_error_on_rank_0_is_saved_before_the_job_ends() {
    let d = tmp();
    let r = read_with_a_short_file(d.path(), 0);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("rank 0: short read"), "{}", r.stderr);
    let doc = json(&d.path().join("r.json"));
    assert_eq!(doc["exit_code"], 1);
    assert!(!doc["finished"].as_str().unwrap().is_empty());
    assert!(
        doc["warnings"].to_string().contains("rank 0: short read"),
        "{doc}"
    );
}

#[test]
fn completed_phases_are_kept_when_rank_1_fails_later() {
    let d = tmp();
    // Two repetitions with -m, written and kept; rank 1's second file is then cut short, so
    // its read fails after the first repetition's read has completed and been saved.
    let pattern = "ior -t 4k -b 8k -i 2 -m -F -k -o {dir}/f";
    ior(2, d.path(), &format!("{pattern} -w")).ok();
    let f = std::fs::OpenOptions::new()
        .write(true)
        .open(d.path().join("f.00000001.1"))
        .unwrap();
    f.set_len(1000).unwrap();
    let r = ior(2, d.path(), &format!("{pattern} -r --json {{dir}}/r.json"));
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("rank 1: short read"), "{}", r.stderr);
    let doc = json(&d.path().join("r.json"));
    let ops: Vec<&str> = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["operation"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["read"], "the first repetition's read is kept");
    assert_eq!(doc["phases"][0]["bytes"], 2 * 8192);
}

#[test]
fn a_killed_rank_ends_the_job_promptly() {
    let d = tmp();
    // 10 ms per transfer and 2000 transfers per rank: ~20 s if nothing happens.
    let o = d.path().join("f");
    let mut child = launcher(3, 60)
        .arg(bin())
        .args([
            "ior",
            "-a",
            "DUMMY",
            "--dummy.delay-xfer=10000",
            "-t",
            "1m",
            "-b",
            "2000m",
            "-F",
            "-w",
            "-o",
            o.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Find rank 1 by its environment once it runs.
    let t0 = Instant::now();
    let victim = loop {
        if let Some(pid) = rank_pid(child.id() as i32, 1) {
            break pid;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "rank 1 never started"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: kill(2) on a process id of our own test job.
    unsafe { libc::kill(victim, libc::SIGKILL) };
    let killed = Instant::now();
    let status = child.wait().unwrap();
    assert!(!status.success());
    assert!(
        killed.elapsed() < Duration::from_secs(15),
        "{:?}",
        killed.elapsed()
    );
}

/// The parent of process `pid`.
fn parent(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // "pid (comm) state ppid ...": comm may hold spaces, so split after its ')'.
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The pid of the iogauge process that Open MPI started as `rank` under `job` (our timeout
/// process; tests run in parallel, so other jobs have a rank 1 too).
pub(crate) fn rank_pid(job: i32, rank: usize) -> Option<i32> {
    let want = format!("OMPI_COMM_WORLD_RANK={rank}");
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let exe = std::fs::read_link(e.path().join("exe")).ok();
        if exe.as_deref() != Some(bin().as_path()) {
            continue;
        }
        let mut up = Some(pid);
        let ours = (0..4).any(|_| {
            up = up.and_then(parent);
            up == Some(job)
        });
        let env = std::fs::read(e.path().join("environ")).unwrap_or_default();
        if ours && env.split(|&b| b == 0).any(|kv| kv == want.as_bytes()) {
            return Some(pid);
        }
    }
    None
}

/// A user's file at the name of one of rank 1's directory items, in a tree the user made:
/// rank 1's mkdir fails there (iogauge never works through a file); the ranks clean up
/// together (no rank aborts the job), so every directory item they made is gone, the user's
/// file and the directories holding it stay, and rank 1's error is named.
#[test]
fn mdtest_rank_1_failing_cleans_up_on_every_rank() {
    let d = tmp();
    let tree = d.path().join("md/test-dir.0-0/mdtest_tree.0");
    std::fs::create_dir_all(&tree).unwrap();
    std::fs::write(tree.join("dir.mdtest.1.4"), "mine").unwrap();
    let md = d.path().join("md");
    let j = d.path().join("r.json");
    let args = format!(
        "mdtest -n 10 -d {} --no-store --json {}",
        md.display(),
        j.display()
    );
    let r = mpirun_with(2, &args.split_whitespace().collect::<Vec<_>>(), 60);
    assert_ne!(r.code, 0);
    assert!(
        r.stderr.contains("rank 1: mkdir ") && r.stderr.contains("dir.mdtest.1.4: exists"),
        "{}",
        r.stderr
    );
    assert_eq!(crate::common::listing(&tree), ["dir.mdtest.1.4"]);
    let doc = json(&j);
    assert_eq!(doc["exit_code"], 1);
    assert_eq!(doc["phases"][0]["operation"], "tree-create");
}
