//! An ext4 file system of the test's own on a loop device (root only), so that
//! `/proc/diskstats` counts this test's traffic and nothing else: made at start, unmounted,
//! detached and removed on drop, also when the test panics (`docs/testing.md`).

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct LoopFs {
    dir: tempfile::TempDir,
    pub device: String,
    pub mount: PathBuf,
    mounted: bool,
}

fn run(program: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

impl LoopFs {
    /// A `size_mib` ext4 image (sparse, at least 4× the data a test writes, so that ext4
    /// keeps delayed allocation) attached with direct I/O, so that the image's own pages are
    /// not cached a second time. `Err` says why it cannot be made here (not root, no loop
    /// devices): the caller prints SKIPPED.
    pub fn new(size_mib: u64) -> Result<LoopFs, String> {
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Err("needs root (losetup, mount)".into());
        }
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let image = dir.path().join("fs.img");
        let f = std::fs::File::create(&image).map_err(|e| e.to_string())?;
        f.set_len(size_mib << 20).map_err(|e| e.to_string())?;
        drop(f);
        let img = image.to_str().unwrap();
        let device = run("losetup", &["--find", "--show", "--direct-io=on", img])?;
        let mut fs = LoopFs {
            mount: dir.path().join("mnt"),
            dir,
            device,
            mounted: false,
        };
        run(
            "mkfs.ext4",
            &[
                "-q",
                "-E",
                "lazy_itable_init=0,lazy_journal_init=0",
                &fs.device,
            ],
        )?;
        std::fs::create_dir(&fs.mount).map_err(|e| e.to_string())?;
        run("mount", &[&fs.device, fs.mount.to_str().unwrap()])?;
        fs.mounted = true;
        Ok(fs)
    }

    /// `loop3` for `/dev/loop3`: the name `/proc/diskstats` gives it.
    pub fn name(&self) -> &str {
        self.device.trim_start_matches("/dev/")
    }

    pub fn path(&self) -> &Path {
        &self.mount
    }
}

impl Drop for LoopFs {
    fn drop(&mut self) {
        if self.mounted {
            let _ = run("umount", &[self.mount.to_str().unwrap()]);
        }
        let _ = run("losetup", &["-d", &self.device]);
        let _ = self.dir.path();
    }
}
