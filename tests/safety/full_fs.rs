//! A full file system mid-phase: a small tmpfs mounted by the test (root only; skipped with a
//! message where mounting is not permitted). The first repetition fits; the test fills the
//! tmpfs while IOR's -d delay holds the second, whose write then meets ENOSPC.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::signal::{has_entry, spawn, wait_for};
use crate::common::{iogauge, json, listing, tmp};

/// A tmpfs of `mib` MiB mounted on a new directory; unmounted on drop.
struct SmallFs {
    dir: PathBuf,
    _parent: tempfile::TempDir,
}

impl SmallFs {
    fn mount(mib: u64) -> Option<SmallFs> {
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
