//! The rules across a mix plan's options and its checks against the file system, before any
//! I/O; errors are bad input (exit status 2).

use std::path::Path;

use engine::{Engine, FileKind, Target};
use plan::mix::MixParams;

use super::tree::rank_dir;

/// The largest file or transfer a mix moves per operation: 1 GiB.
const MAX_IO: u64 = 1 << 30;
/// The most files (and empty directories) a rank prepares.
const MAX_FILES: u64 = 100_000_000;
/// The longest step: a day.
const MAX_STEP_S: f64 = 86_400.0;
/// The most operations a step may schedule over all ranks.
const MAX_OPS_PER_STEP: f64 = 1e10;

/// The warnings for a plan that runs on `ranks`, or why it cannot run.
pub fn validate(p: &MixParams, ranks: usize) -> Result<Vec<String>, String> {
    let mut warnings = Vec::new();
    if !(p.step_seconds.is_finite() && p.step_seconds > 0.0) {
        return Err(format!(
            "--step-seconds {}: a step needs a window of more than 0 seconds",
            p.step_seconds
        ));
    }
    if p.step_seconds > MAX_STEP_S {
        return Err(format!(
            "--step-seconds {}: at most {MAX_STEP_S} (a day)",
            p.step_seconds
        ));
    }
    let per_step = p.ramp.max as f64 * p.step_seconds;
    if per_step > MAX_OPS_PER_STEP {
        return Err(format!(
            "--ramp {} with --step-seconds {}: {per_step:.3e} operations in a step, more than \
             iogauge schedules ({MAX_OPS_PER_STEP:.0e})",
            p.ramp, p.step_seconds
        ));
    }
    let total: f64 = p.mix.shares.iter().map(|s| s.percent).sum();
    if p.mix.shares.is_empty() || (total - 100.0).abs() > 1e-6 {
        return Err(format!(
            "--mix {}: the percentages add up to {total}, not 100",
            p.mix.source
        ));
    }
    let t = &p.mix.tree;
    if t.dirs == 0 {
        return Err(format!(
            "--mix {}: tree.dirs must be at least 1",
            p.mix.source
        ));
    }
    if t.file_size > MAX_IO || t.io_size > MAX_IO {
        return Err(format!(
            "--mix {}: tree.file-size and tree.io-size must be at most 1 GiB",
            p.mix.source
        ));
    }
    if t.files() > MAX_FILES || t.empty_dirs > MAX_FILES {
        return Err(format!(
            "--mix {}: tree.dirs x tree.files-per-dir and tree.empty-dirs may be at most \
             {MAX_FILES} per rank (each rank keeps its files' ids in memory)",
            p.mix.source
        ));
    }
    let slowest = p.ramp.start as f64 * p.step_seconds / ranks.max(1) as f64;
    if slowest < 1.0 {
        warnings.push(format!(
            "the first step gives each of the {ranks} ranks {slowest:.2} operations: raise \
             START or --step-seconds for a figure worth judging"
        ));
    }
    Ok(warnings)
}

/// Checks `--dir` for `ranks` ranks through `engine` (rank 0's): it is a directory that holds
/// none of the ranks' trees, or it does not exist and its parent does (then the run makes it,
/// and removes it after). Returns whether the run makes it. An engine that touches no files
/// (`Caps::does_io` false) has nothing to check; the run makes the directory through it.
pub fn preflight(dir: &Path, ranks: usize, engine: &dyn Engine) -> Result<bool, String> {
    if !engine.caps().does_io {
        return Ok(true);
    }
    match engine.lstat(Target::from(dir)) {
        Ok(m) if m.kind == FileKind::Dir => {
            for r in 0..ranks as u64 {
                let own = rank_dir(dir, r);
                if engine.lstat(Target::from(&own)).is_ok() {
                    return Err(format!(
                        "--dir {}: {} already exists (an earlier run's tree?); remove it or \
                         choose another --dir",
                        dir.display(),
                        own.display()
                    ));
                }
            }
            Ok(false)
        }
        Ok(_) => Err(format!("--dir {}: not a directory", dir.display())),
        Err(_) => {
            let parent = dir
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let above = engine.target_info(Target::from(parent));
            if above.is_ok_and(|at| at.is_dir) {
                Ok(true)
            } else {
                Err(format!(
                    "--dir {}: neither it nor its parent {} exists",
                    dir.display(),
                    parent.display()
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan::mix::{Mix, MixOp, Share};

    fn plan() -> MixParams {
        MixParams {
            mix: Mix {
                source: "t.toml".into(),
                shares: vec![
                    Share {
                        op: MixOp::Stat,
                        percent: 60.0,
                    },
                    Share {
                        op: MixOp::Create,
                        percent: 40.0,
                    },
                ],
                ..Mix::default()
            },
            ..MixParams::default()
        }
    }

    #[test]
    fn rules() {
        assert_eq!(validate(&plan(), 4), Ok(vec![]));
        let mut p = plan();
        p.mix.shares[0].percent = 50.0;
        assert!(validate(&p, 1).unwrap_err().contains("add up to 90"));
        let mut p = plan();
        p.step_seconds = 0.0;
        assert!(validate(&p, 1).is_err());
        let mut p = plan();
        p.step_seconds = 1e6;
        assert!(validate(&p, 1).unwrap_err().contains("a day"));
        let mut p = plan();
        p.ramp.max = u64::MAX;
        assert!(validate(&p, 1)
            .unwrap_err()
            .contains("operations in a step"));
        let mut p = plan();
        p.mix.tree.files_per_dir = u64::MAX;
        assert!(validate(&p, 1).unwrap_err().contains("per rank"));
        let mut p = plan();
        p.mix.tree.dirs = 0;
        assert!(validate(&p, 1).is_err());
        let mut p = plan();
        p.ramp.start = 1;
        p.step_seconds = 0.5;
        assert_eq!(validate(&p, 4).unwrap().len(), 1);
    }

    #[test]
    fn dirs() {
        let d = tempfile::tempdir().unwrap();
        let e = &engine::PosixEngine::new(false);
        assert_eq!(preflight(d.path(), 2, e), Ok(false));
        assert_eq!(preflight(&d.path().join("new"), 2, e), Ok(true));
        assert!(preflight(&d.path().join("a/b"), 2, e).is_err());
        std::fs::create_dir(d.path().join("r1")).unwrap();
        assert!(preflight(d.path(), 2, e)
            .unwrap_err()
            .contains("already exists"));
        assert_eq!(preflight(d.path(), 1, e), Ok(false));
        let f = d.path().join("f");
        std::fs::write(&f, b"").unwrap();
        assert!(preflight(&f, 1, e).unwrap_err().contains("not a directory"));
        let dummy = &engine::DummyEngine::new(Default::default(), 0);
        assert_eq!(preflight(&d.path().join("a/b"), 2, dummy), Ok(true));
    }
}
