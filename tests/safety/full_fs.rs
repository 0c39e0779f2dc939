//! A full file system mid-phase: a small tmpfs mounted by the test (root only; skipped with a
//! message where mounting is not permitted). The first repetition fits; the test fills the
//! tmpfs while IOR's -d delay holds the second, whose write then meets ENOSPC.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::signal::{has_entry, spawn, wait_for};
use crate::common::{iogauge, json, listing, tmp};

/// A tmpfs of `mib` MiB mounted on a new directory; unmounted on drop.
pub(crate) struct SmallFs {
    pub(crate) dir: PathBuf,
    _parent: tempfile::TempDir,
}

impl SmallFs {
    pub(crate) fn mount(mib: u64) -> Option<SmallFs> {
        let parent = tmp();
        let dir = parent.path().join("small");
        std::fs::create_dir(&dir).unwrap();
        let size = format!("size={mib}m");
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &size, "tmpfs", dir.to_str().unwrap()])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(SmallFs {
            dir,
            _parent: parent,
        })
    }
}

impl Drop for SmallFs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
    }
}

fn fill(path: &Path, mib: usize) {
    std::fs::write(path, vec![7u8; mib << 20]).unwrap();
}

#[test]
fn enospc_mid_phase_ends_it_cleanly_and_keeps_the_finished_phases() {
    let Some(fs) = SmallFs::mount(16) else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    };
    let d = tmp();
    let t = fs.dir.join("run");
    std::fs::create_dir(&t).unwrap();
    std::fs::write(t.join("user.txt"), "mine").unwrap();
    let (j, db) = (d.path().join("r.json"), d.path().join("db.sqlite"));
    let o = t.join("f");
    // Two ranks, 4 MiB each a repetition; rank 0 waits 2 s before every phase (-d 2).
    let child = spawn(&[
        "--db",
        db.to_str().unwrap(),
        "ior",
        "-w",
        "-r",
        "-F",
        "-t",
        "1m",
        "-b",
        "4m",
        "-i",
        "2",
        "-d",
        "2",
        "--tasks",
        "2",
        "-o",
        o.to_str().unwrap(),
        "--json",
        j.to_str().unwrap(),
    ]);
    wait_for("the first repetition's files", || has_entry(&t, "f."));
    wait_for("their removal", || !has_entry(&t, "f."));
    // The second repetition's 8 MiB no longer fit.
    fill(&fs.dir.join("someone-elses"), 12);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.contains("No space left on device (ENOSPC)"))
        .unwrap_or_else(|| panic!("no ENOSPC line in:\n{stderr}"));
    assert!(line.contains(&format!("{}.0000000", o.display())), "{line}");
    // What the run created is gone; the user's files are not.
    assert_eq!(listing(&t), ["user.txt"]);
    assert_eq!(listing(&fs.dir), ["run", "someone-elses"]);
    let doc = json(&j);
    assert_eq!(doc["exit_code"], 1);
    let done: Vec<_> = doc["phases"].as_array().unwrap().iter().collect();
    assert_eq!(done.len(), 2, "the first repetition's write and read");
    assert!(done.iter().all(|p| p["iteration"] == 0));
    assert!(doc["invalid"][0].as_str().unwrap().contains("ENOSPC"));
    let shown = iogauge(&format!("--db {} show 1 --format json", db.display())).ok();
    let stored: serde_json::Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(stored["exit_code"], 1);
    assert_eq!(stored["phases"].as_array().unwrap().len(), 2);
}

/// A directory with a user's file in it on a tmpfs of `mib` MiB; `None` (with a message)
/// where mounting is not permitted.
fn target_with_user_file(mib: u64) -> Option<(SmallFs, PathBuf)> {
    let Some(fs) = SmallFs::mount(mib) else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return None;
    };
    let t = fs.dir.join("run");
    std::fs::create_dir(&t).unwrap();
    std::fs::write(t.join("user.txt"), "mine").unwrap();
    Some((fs, t))
}

/// Runs `iogauge --db DB ARGS --json J` (ARGS split on whitespace) to its end; checks exit status 1 and the ENOSPC line
/// naming `item` (a path prefix); returns the document and the stored run's phase count.
fn fails_with_enospc(args: &str, item: &Path) -> (serde_json::Value, usize) {
    let d = tmp();
    let (j, db) = (d.path().join("r.json"), d.path().join("db.sqlite"));
    let mut line = vec!["--db", db.to_str().unwrap()];
    line.extend(args.split_whitespace());
    line.extend(["--json", j.to_str().unwrap()]);
    let out = spawn(&line).wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.contains("No space left on device (ENOSPC)"))
        .unwrap_or_else(|| panic!("no ENOSPC line in:\n{stderr}"));
    assert!(line.contains(&item.display().to_string()), "{line}");
    assert!(line.contains("rank "), "{line}");
    let doc = json(&j);
    assert_eq!(doc["exit_code"], 1);
    assert!(doc["invalid"][0].as_str().unwrap().contains("ENOSPC"));
    let shown = iogauge(&format!("--db {} show 1 --format json", db.display())).ok();
    let stored: serde_json::Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(stored["exit_code"], 1);
    (doc, stored["phases"].as_array().unwrap().len())
}

fn phase_names(doc: &serde_json::Value) -> Vec<&str> {
    let phases = doc["phases"].as_array().unwrap();
    phases
        .iter()
        .map(|p| p["operation"].as_str().unwrap())
        .collect()
}

#[test]
fn mdtest_enospc_in_the_file_create_removes_the_tree_and_keeps_the_dir_phases() {
    let Some((_fs, t)) = target_with_user_file(2) else {
        return;
    };
    // The directory phases fit (tmpfs directories take no data pages); 2 x 1000 files of
    // 4 KiB do not fit in 2 MiB. -d names a directory the run makes.
    let md = t.join("md");
    let args = format!("mdtest --tasks 2 -n 1000 -w 4096 -d {}", md.display());
    let (doc, stored) =
        fails_with_enospc(&args, &md.join("test-dir.0-0/mdtest_tree.0/file.mdtest."));
    let done = [
        "tree-create",
        "dir-create",
        "dir-stat",
        "dir-rename",
        "dir-remove",
    ];
    assert_eq!(phase_names(&doc), done);
    assert_eq!(stored, done.len());
    // The items, the tree, the test directory and -d are gone; the user's file is not.
    assert_eq!(listing(&t), ["user.txt"]);
}

#[test]
fn mdtest_create_only_keeps_what_it_made_after_enospc() {
    let Some((_fs, t)) = target_with_user_file(2) else {
        return;
    };
    // -C without -r: the user asked for the tree, so it stays (as after a finished -C run).
    let args = format!("mdtest -C -F -n 1000 -w 4096 -d {}", t.display());
    let (doc, _) = fails_with_enospc(&args, &t.join("test-dir.0-0/mdtest_tree.0/file.mdtest."));
    assert_eq!(phase_names(&doc), ["tree-create"]);
    assert_eq!(listing(&t), ["test-dir.0-0", "user.txt"]);
    assert!(has_entry(
        &t.join("test-dir.0-0/mdtest_tree.0"),
        "file.mdtest.0."
    ));
}

#[test]
fn md_workbench_enospc_in_the_precreate_removes_its_data_sets() {
    let Some((_fs, t)) = target_with_user_file(2) else {
        return;
    };
    // 2 ranks x 4 sets x 300 objects of 4 KiB: 9.4 MiB, in 2 MiB. The run makes -o.
    let wb = t.join("wb");
    let args = format!(
        "md-workbench --tasks 2 -D 4 -P 300 -I 100 -S 4096 -o {}",
        wb.display()
    );
    let (doc, stored) = fails_with_enospc(&args, &wb);
    // The precreate is the first phase: none finished.
    assert!(phase_names(&doc).is_empty());
    assert_eq!(stored, 0);
    assert_eq!(listing(&t), ["user.txt"]);
}

#[test]
fn mix_enospc_removes_every_rank_tree() {
    let Some((_fs, t)) = target_with_user_file(2) else {
        return;
    };
    // Each rank prepares 20 x 50 files of 16 KiB (16 MiB), in 2 MiB: the prepare fails.
    let mix = t.join("mix");
    let args = format!(
        "mix --tasks 2 --mix build-like --ramp 100:100:100 --step-seconds 0.2 --dir {}",
        mix.display()
    );
    let (doc, stored) = fails_with_enospc(&args, &mix);
    assert!(phase_names(&doc).is_empty());
    assert_eq!(stored, 0);
    assert_eq!(listing(&t), ["user.txt"]);
}
