//! The checks of `iogauge startup` against the file system, before any I/O: `--dir` is a
//! directory without an `iogauge-startup` in it (a run never replaces what it did not make),
//! `--tree` a directory and `--common-file` a regular file, both readable. The engine the run
//! reads through answers them.

use std::path::Path;

use engine::{Engine, FileKind, OpenHints, OpenMode, Target};
use plan::startup::StartupParams;

pub fn preflight(p: &StartupParams, engine: &dyn Engine) -> Result<(), String> {
    if let Some(dir) = &p.dir {
        is_dir("--dir", dir, engine)?;
        if let Some(run_dir) = p.run_dir() {
            if engine.lstat(Target::from(&run_dir)).is_ok() {
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
        is_dir("--tree", tree, engine)?;
        engine
            .read_dir(Target::from(tree))
            .map_err(|e| format!("startup: --tree {}: {e}", tree.display()))?;
    }
    if let Some(f) = &p.common_file {
        let common = |e: std::io::Error| format!("startup: --common-file {}: {e}", f.display());
        let m = engine.stat(Target::from(f)).map_err(common)?;
        if m.kind != FileKind::File {
            return Err(format!(
                "startup: --common-file {}: not a regular file",
                f.display()
            ));
        }
        engine
            .open(Target::from(f), OpenMode::ReadOnly, &OpenHints::default())
            .and_then(|file| file.close())
            .map_err(common)?;
    }
    Ok(())
}

fn is_dir(name: &str, dir: &Path, engine: &dyn Engine) -> Result<(), String> {
    match engine.stat(Target::from(dir)) {
        Ok(m) if m.kind == FileKind::Dir => Ok(()),
        Ok(_) => Err(format!(
            "startup: {name} {}: not a directory",
            dir.display()
        )),
        Err(e) => Err(format!("startup: {name} {}: {e}", dir.display())),
    }
}
