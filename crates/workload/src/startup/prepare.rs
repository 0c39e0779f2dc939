//! What a run generates under `--dir` before its phases, and removes after them: the
//! directory `iogauge-startup`, the tree in it and the common file. Rank 0 makes them outside
//! any timed window and keeps the name of everything it made, in order, so the removal takes
//! exactly those paths by name, files first, then directories deepest first, one unlink or
//! rmdir each and never recursively; a directory that holds something else stays, with a
//! warning.

use engine::Target;
use std::path::{Path, PathBuf};

use engine::{Engine, OpenHints, OpenMode};
use plan::ior::DataPacket;
use plan::startup::StartupParams;

use super::error::StartupError;
use super::shape::Layout;
use crate::ior::data::DataPattern;

/// The paths a run made, in the order it made them.
#[derive(Debug, Default)]
pub struct Made {
    pub dirs: Vec<PathBuf>,
    pub files: Vec<PathBuf>,
}

/// Makes the run directory, the tree of `layout` (when the run generates one) and the common
/// file, recording each path in `made` as soon as it exists (so a failure half-way removes
/// what was made). A signal stops it early (the run then skips its phases and removes `made`).
pub fn make(
    e: &dyn Engine,
    p: &StartupParams,
    layout: Option<&Layout>,
    made: &mut Made,
) -> Result<(), StartupError> {
    let Some(run_dir) = p.run_dir() else {
        return Ok(());
    };
    mkdir(e, &run_dir, made)?;
    let pattern = DataPattern::new(DataPacket::Incompressible, p.seed as i64, 0);
    if let (Some(root), Some(layout)) = (p.tree_root().filter(|_| p.generates_tree()), layout) {
        mkdir(e, &root, made)?;
        for d in &layout.dirs {
            mkdir(e, &root.join(d), made)?;
        }
        let largest = layout.files.iter().map(|f| f.1).max().unwrap_or(0);
        let mut data = vec![0u8; largest as usize];
        pattern.fill(&mut data);
        for (i, (f, size)) in layout.files.iter().enumerate() {
            if exec::interrupt::requested() {
                return Ok(());
            }
            let path = root.join(f);
            // Every file's bytes differ (no deduplication makes the tree smaller).
            pattern.stamp(&mut data, (i as u64) << 32);
            e.create_file(Target::from(&path), &data[..*size as usize])
                .map_err(|err| StartupError::io("create", &path, err))?;
            made.files.push(path);
        }
    }
    if let Some(path) = p.common_path().filter(|_| p.generates_common()) {
        write_common(e, &path, p, &pattern, made)?;
    }
    Ok(())
}

fn mkdir(e: &dyn Engine, path: &Path, made: &mut Made) -> Result<(), StartupError> {
    e.mkdir(Target::from(path))
        .map_err(|err| StartupError::io("mkdir", path, err))?;
    made.dirs.push(path.to_path_buf());
    Ok(())
}

/// The common file, in transfers of `--transfer` bytes.
fn write_common(
    e: &dyn Engine,
    path: &Path,
    p: &StartupParams,
    pattern: &DataPattern,
    made: &mut Made,
) -> Result<(), StartupError> {
    let io = |err| StartupError::io("write", path, err);
    let hints = OpenHints {
        file_size: p.common_size,
        rank: 0,
        layout: None,
    };
    let mut f = e
        .open(Target::from(path), OpenMode::CreateTruncate, &hints)
        .map_err(io)?;
    made.files.push(path.to_path_buf());
    let mut buf = vec![0u8; p.transfer_size.min(p.common_size) as usize];
    pattern.fill(&mut buf);
    let mut at = 0;
    while at < p.common_size && !exec::interrupt::requested() {
        let n = (p.common_size - at).min(buf.len() as u64) as usize;
        pattern.stamp(&mut buf[..n], at);
        f.write_at(&buf[..n], at)
            .map_err(|err| StartupError::io_at("write", path, at, err))?;
        at += n as u64;
    }
    f.close().map_err(io)
}

/// Removes what `made` names, by name; returns the warnings for what could not go.
pub fn remove(e: &dyn Engine, made: &Made) -> Vec<String> {
    let failed: Vec<&PathBuf> = made
        .files
        .iter()
        .rev()
        .filter(|f| e.remove(Target::from(*f)).is_err())
        .collect();
    let kept: Vec<&PathBuf> = made
        .dirs
        .iter()
        .rev()
        .filter(|d| e.rmdir(Target::from(*d)).is_err())
        .collect();
    let mut out = Vec::new();
    if let Some(first) = failed.first() {
        out.push(format!(
            "{} file(s) the run made could not be removed: gone or not removable (the first: {})",
            failed.len(),
            first.display()
        ));
    }
    if let Some(first) = kept.first() {
        out.push(format!(
            "{} directory(ies) the run made were kept: not empty or not removable (the first: \
             {}); iogauge removes only what the run made",
            kept.len(),
            first.display()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::startup::shape::generate;
    use engine::PosixEngine;

    #[test]
    fn removal_takes_what_was_made_and_keeps_what_was_not() {
        let t = tempfile::tempdir().unwrap();
        let p = StartupParams {
            dir: Some(t.path().to_path_buf()),
            files: 40,
            common_size: 100_000,
            transfer_size: 4096,
            ..StartupParams::default()
        };
        let layout = generate(p.files, p.seed);
        let e = PosixEngine::new(false);
        let mut made = Made::default();
        make(&e, &p, Some(&layout), &mut made).unwrap();
        assert_eq!(made.files.len(), 41);
        assert_eq!(made.dirs.len(), layout.dirs.len() + 2);
        let common = p.common_path().unwrap();
        assert_eq!(std::fs::metadata(&common).unwrap().len(), 100_000);
        // Two files of the tree differ in their data.
        let (a, b) = (&made.files[1], &made.files[2]);
        assert_ne!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
        // Something the run did not make, inside the tree.
        let tree = p.tree_root().unwrap();
        let foreign = tree.join(&layout.dirs[0]).join("foreign.py");
        std::fs::write(&foreign, b"x").unwrap();
        let warnings = remove(&e, &made);
        assert!(foreign.exists());
        assert!(made.files.iter().all(|f| !f.exists()));
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("3 directory(ies) the run made were kept"),
            "{warnings:?}"
        );
        std::fs::remove_file(&foreign).unwrap();
        assert!(remove(&e, &made)
            .iter()
            .any(|w| w.contains("could not be removed")));
        assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 0);
    }
}
