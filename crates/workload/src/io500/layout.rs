//! The data directory `$D` and result directory `$R` (reference §3): `datadir` / `resultdir`,
//! each suffixed by `/<timestamp>` unless `timestamp-datadir` / `timestamp-resultdir` is FALSE.
//! Creates them as the IO500 does, remembers which directories this run created, and at the
//! end removes exactly what the run created: never a file or directory that was there before.

use std::path::{Path, PathBuf};

use super::config::Config;
use crate::ior::{naming, IorParams};

/// The four top-level phase directories (the only ones the rules let users pre-create).
pub const PHASE_DIRS: [&str; 4] = ["ior-easy", "ior-hard", "mdtest-easy", "mdtest-hard"];

/// Which write phases ran, so their files and stonewall status files are this run's.
#[derive(Debug, Clone, Copy, Default)]
pub struct Wrote {
    pub ior_easy: bool,
    pub ior_hard: bool,
    pub mdtest_easy: bool,
    pub mdtest_hard: bool,
}

#[derive(Debug, Clone)]
pub struct Layout {
    /// `$D`, spelled as the IO500 builds it (`"%s/%s"`), so the `exe` lines match.
    pub data: String,
    /// `$R`.
    pub result: String,
    /// Directories this run created, in creation order.
    created: Vec<PathBuf>,
}

/// `"%s/%s"`.
fn join(a: &str, b: &str) -> String {
    format!("{a}/{b}")
}

impl Layout {
    pub fn resolve(cfg: &Config, timestamp: &str) -> Layout {
        let data = cfg.get("global", "datadir").unwrap_or("./datafiles");
        let result = cfg.get("global", "resultdir").unwrap_or("./results");
        let stamp = |dir: &str, key: &str| {
            if cfg.bool("global", key) {
                join(dir, timestamp)
            } else {
                dir.to_string()
            }
        };
        Layout {
            data: stamp(data, "timestamp-datadir"),
            result: stamp(result, "timestamp-resultdir"),
            created: Vec::new(),
        }
    }

    /// `$D/<sub>` as a path.
    pub fn data_path(&self, sub: &str) -> PathBuf {
        PathBuf::from(join(&self.data, sub))
    }

    /// `$R/<file>` as a path.
    pub fn result_path(&self, file: &str) -> PathBuf {
        PathBuf::from(join(&self.result, file))
    }

    /// `u_create_dir_recursive`: every missing component; returns those it created.
    fn make_all(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        let mut missing = Vec::new();
        let mut cur = Some(dir);
        while let Some(d) = cur.filter(|d| !d.as_os_str().is_empty()) {
            if d.is_dir() {
                break;
            }
            missing.push(d.to_path_buf());
            cur = d.parent();
        }
        let mut made = Vec::new();
        for d in missing.into_iter().rev() {
            match std::fs::create_dir(&d) {
                Ok(()) => made.push(d),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => {}
                Err(e) => {
                    return Err(std::io::Error::new(
                        e.kind(),
                        format!("cannot create directory {}: {e}", d.display()),
                    ))
                }
            }
        }
        Ok(made)
    }

    /// `$R`, kept after the run.
    pub fn make_result_dir(&self) -> std::io::Result<()> {
        Self::make_all(Path::new(&self.result)).map(drop)
    }

    /// `$D`, `$D/ior-easy` and `$D/ior-hard` (the IO500's `validate()`); mdtest and
    /// md-workbench create their own directories, which [`Layout::note_mdtest_dirs`] records.
    pub fn make_data_dirs(&mut self) -> std::io::Result<()> {
        for sub in ["ior-easy", "ior-hard"] {
            let made = Self::make_all(&self.data_path(sub))?;
            self.created.extend(made);
        }
        Ok(())
    }

    /// Records the mdtest and md-workbench directories that the create phases are about to
    /// make (md-workbench's cleanup removes its own; this is for a run without it).
    pub fn note_mdtest_dirs(&mut self) {
        for sub in ["mdtest-easy", "mdtest-hard", "mdworkbench"] {
            let d = self.data_path(sub);
            if !d.exists() && !self.created.contains(&d) {
                self.created.push(d);
            }
        }
    }

    /// Removes what the run created (the IO500's `cleanup()` of every phase, then `$D`):
    /// stonewall status files and IOR files of the write phases that ran, then the directories
    /// this run created, if empty. Returns warnings about anything left behind.
    pub fn cleanup(&mut self, cfg: &Config, ranks: usize, wrote: Wrote) -> Vec<String> {
        let mut warnings = Vec::new();
        let mut remove = |path: PathBuf| match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => warnings.push(format!("could not remove {}: {e}", path.display())),
        };
        let status = [
            (wrote.ior_easy, "ior-easy"),
            (wrote.ior_hard, "ior-hard"),
            (wrote.mdtest_easy, "mdtest-easy"),
            (wrote.mdtest_hard, "mdtest-hard"),
        ];
        for (ran, name) in status {
            if ran {
                remove(self.result_path(&format!("{name}.stonewall")));
            }
        }
        let easy = IorParams {
            test_file: join(&self.data, "ior-easy/ior_file_easy"),
            file_per_proc: cfg.bool("ior-easy", "filePerProc"),
            unique_dir: cfg.bool("ior-easy", "uniqueDir"),
            ..IorParams::default()
        };
        let mut rank_dirs = Vec::new();
        if wrote.ior_easy {
            for f in naming::all_test_files(&easy, ranks as u64) {
                remove(f);
            }
            rank_dirs.extend((0..ranks as u64).filter_map(|r| naming::unique_dir(&easy, r)));
        }
        if wrote.ior_hard {
            remove(self.data_path("ior-hard/file"));
        }
        for d in rank_dirs {
            let _ = std::fs::remove_dir(d);
        }
        // Children first; a directory that holds a reported leftover is not reported again.
        let mut left: Vec<PathBuf> = Vec::new();
        for d in self.created.drain(..).rev() {
            match std::fs::remove_dir(&d) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(_) if left.iter().any(|l| l.starts_with(&d)) => {}
                Err(e) => {
                    warnings.push(format!(
                        "left {} in place: {e} (iogauge removes only what this run created)",
                        d.display()
                    ));
                    left.push(d);
                }
            }
        }
        warnings
    }

    /// `--cleanup`: an earlier run's phase directories and `$D` are removed if they end up
    /// empty, as the IO500's clean-up does.
    pub fn adopt_existing(&mut self) {
        let mut dirs = vec![PathBuf::from(&self.data)];
        dirs.extend(PHASE_DIRS.iter().map(|d| self.data_path(d)));
        dirs.push(self.data_path("mdworkbench"));
        self.created = dirs.into_iter().filter(|d| d.is_dir()).collect();
    }

    /// Directories this run created that cleanup will remove (for tests and messages).
    pub fn created(&self) -> &[PathBuf] {
        &self.created
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(data: &Path, result: &Path) -> Config {
        let mut c = Config::defaults();
        c.set("global", "datadir", &data.display().to_string())
            .unwrap();
        c.set("global", "resultdir", &result.display().to_string())
            .unwrap();
        c
    }

    #[test]
    fn timestamps_suffix_the_directories() {
        let mut c = Config::defaults();
        let l = Layout::resolve(&c, "TS");
        assert_eq!(
            (l.data.as_str(), l.result.as_str()),
            ("./datafiles/TS", "./results/TS")
        );
        c.set("global", "timestamp-datadir", "FALSE").unwrap();
        c.set("global", "timestamp-resultdir", "false").unwrap();
        let l = Layout::resolve(&c, "TS");
        assert_eq!(
            (l.data.as_str(), l.result.as_str()),
            ("./datafiles", "./results")
        );
    }

    #[test]
    fn cleanup_removes_only_what_the_run_made() {
        let t = tempfile::tempdir().unwrap();
        let base = t.path().join("pre");
        std::fs::create_dir_all(base.join("ts/mdtest-hard")).unwrap();
        std::fs::write(base.join("keep"), b"x").unwrap();
        let c = cfg(&base, &t.path().join("res"));
        let mut l = Layout::resolve(&c, "ts");
        l.make_result_dir().unwrap();
        l.make_data_dirs().unwrap();
        l.note_mdtest_dirs();
        let d = l.data_path("");
        std::fs::create_dir(d.join("mdtest-easy")).unwrap();
        for r in 0..2 {
            std::fs::write(d.join(format!("ior-easy/ior_file_easy.{r:08}")), b"x").unwrap();
        }
        std::fs::write(d.join("ior-hard/file"), b"x").unwrap();
        std::fs::write(l.result_path("ior-easy.stonewall"), b"5").unwrap();
        std::fs::write(l.result_path("timestampfile"), b"").unwrap();
        let wrote = Wrote {
            ior_easy: true,
            ior_hard: true,
            ..Wrote::default()
        };
        let w = l.cleanup(&c, 2, wrote);
        assert!(w.is_empty(), "{w:?}");
        // The pre-existing data dir, its pre-created mdtest-hard and the other file stay.
        assert!(base.join("ts/mdtest-hard").is_dir() && base.join("keep").is_file());
        for sub in ["ior-easy", "ior-hard", "mdtest-easy"] {
            assert!(!d.join(sub).exists(), "{sub}");
        }
        assert!(!l.result_path("ior-easy.stonewall").exists());
        assert!(
            l.result_path("timestampfile").exists(),
            "the result directory is kept"
        );
    }

    #[test]
    fn a_fresh_data_dir_goes_away_and_leftovers_are_reported() {
        let t = tempfile::tempdir().unwrap();
        let c = cfg(&t.path().join("a/b"), &t.path().join("r"));
        let mut l = Layout::resolve(&c, "ts");
        l.make_result_dir().unwrap();
        l.make_data_dirs().unwrap();
        l.note_mdtest_dirs();
        std::fs::create_dir(l.data_path("mdtest-easy")).unwrap();
        std::fs::write(l.data_path("mdtest-easy/left"), b"").unwrap();
        let w = l.cleanup(&c, 1, Wrote::default());
        assert_eq!(w.len(), 1, "{w:?}"); // only the innermost leftover
        assert!(w[0].contains("mdtest-easy in place"), "{w:?}");
        assert!(!t.path().join("a/b/ts/ior-easy").exists());
        assert!(t.path().join("r/ts").is_dir());
    }
}
