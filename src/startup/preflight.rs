//! The checks of `iogauge startup` against the file system, before any I/O: `--dir` is a
//! directory without an `iogauge-startup` in it (a run never replaces what it did not make),
//! `--tree` a directory and `--common-file` a regular file, both readable.

use std::fs;
use std::path::Path;

use plan::startup::StartupParams;

pub fn preflight(p: &StartupParams) -> Result<(), String> {
    if let Some(dir) = &p.dir {
        is_dir("--dir", dir)?;
        if let Some(run_dir) = p.run_dir() {
            if fs::symlink_metadata(&run_dir).is_ok() {
                return Err(format!(
                    "startup: --dir {}: {} exists already (left by a run with --keep, or not \
                     iogauge's); remove it or choose another --dir; iogauge removes only what \
                     a run made",
                    dir.display(),
                    run_dir.display()
                ));
            }
        }
    }
    if let Some(tree) = &p.tree {
        is_dir("--tree", tree)?;
        fs::read_dir(tree).map_err(|e| format!("startup: --tree {}: {e}", tree.display()))?;
    }
    if let Some(f) = &p.common_file {
        let m =
            fs::metadata(f).map_err(|e| format!("startup: --common-file {}: {e}", f.display()))?;
        if !m.is_file() {
            return Err(format!(
                "startup: --common-file {}: not a regular file",
                f.display()
            ));
        }
        fs::File::open(f).map_err(|e| format!("startup: --common-file {}: {e}", f.display()))?;
    }
    Ok(())
}

fn is_dir(name: &str, dir: &Path) -> Result<(), String> {
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => Ok(()),
        Ok(_) => Err(format!(
            "startup: {name} {}: not a directory",
            dir.display()
        )),
        Err(e) => Err(format!("startup: {name} {}: {e}", dir.display())),
    }
}
