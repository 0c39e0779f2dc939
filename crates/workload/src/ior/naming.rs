//! IOR's file names (`GetTestFileName`): the shared file is `-o` itself; file per process is
//! `<o>.%08d` numbered by the pretend rank, under `<dir>/<n>/` with `-u`; `-m` appends `.<rep>`.
//! With `-o a@b@c`, file per process picks name `(pretend rank) % count`.

use std::path::{Path, PathBuf};

use crate::ior::IorParams;

pub fn test_file_path(p: &IorParams, pretend_rank: u64, repetition: u32) -> PathBuf {
    let names = p.test_file_names();
    let mut name = if p.file_per_proc {
        let base = names[(pretend_rank % names.len() as u64) as usize];
        if p.unique_dir {
            let path = Path::new(base);
            let dir = path.parent().unwrap_or(Path::new(""));
            let file = path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default();
            dir.join(pretend_rank.to_string())
                .join(format!("{file}.{pretend_rank:08}"))
                .to_string_lossy()
                .into_owned()
        } else {
            format!("{base}.{pretend_rank:08}")
        }
    } else {
        names[0].to_string()
    };
    if p.multi_file {
        name.push_str(&format!(".{repetition}"));
    }
    PathBuf::from(name)
}

/// The directory `-u` creates for a rank (None without `-u`).
pub fn unique_dir(p: &IorParams, pretend_rank: u64) -> Option<PathBuf> {
    (p.file_per_proc && p.unique_dir).then(|| {
        let names = p.test_file_names();
        let base = Path::new(names[(pretend_rank % names.len() as u64) as usize]);
        base.parent()
            .unwrap_or(Path::new(""))
            .join(pretend_rank.to_string())
    })
}

/// Every file the run may touch, for checks before any I/O.
pub fn all_test_files(p: &IorParams, tasks: u64) -> Vec<PathBuf> {
    let reps = if p.multi_file { p.repetitions } else { 1 };
    let ranks = if p.file_per_proc { tasks } else { 1 };
    (0..reps)
        .flat_map(|rep| (0..ranks).map(move |r| test_file_path(p, r, rep)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(o: &str, fpp: bool, unique: bool, multi: bool) -> IorParams {
        IorParams {
            test_file: o.into(),
            file_per_proc: fpp,
            unique_dir: unique,
            multi_file: multi,
            ..IorParams::default()
        }
    }

    #[test]
    fn names_follow_ior() {
        let p = params("/tmp/x/testfile", true, false, false);
        assert_eq!(
            test_file_path(&p, 3, 0),
            PathBuf::from("/tmp/x/testfile.00000003")
        );
        let p = params("/tmp/x/testfile", false, false, true);
        assert_eq!(test_file_path(&p, 3, 2), PathBuf::from("/tmp/x/testfile.2"));
        let p = params("/tmp/x/f", true, true, false);
        assert_eq!(
            test_file_path(&p, 12, 0),
            PathBuf::from("/tmp/x/12/f.00000012")
        );
        assert_eq!(unique_dir(&p, 12), Some(PathBuf::from("/tmp/x/12")));
        let p = params("/a/f@/b/f", true, false, false);
        assert_eq!(test_file_path(&p, 1, 0), PathBuf::from("/b/f.00000001"));
        assert_eq!(test_file_path(&p, 2, 0), PathBuf::from("/a/f.00000002"));
    }

    #[test]
    fn all_files_cover_ranks_and_repetitions() {
        let mut p = params("/t/f", true, false, true);
        p.repetitions = 2;
        assert_eq!(all_test_files(&p, 3).len(), 6);
        p.file_per_proc = false;
        assert_eq!(all_test_files(&p, 3).len(), 2);
    }
}
