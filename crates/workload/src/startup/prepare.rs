//! What a run generates under `--dir` before its phases, and removes after them: the
//! directory `iogauge-startup`, the tree in it and the common file. Rank 0 makes them outside
//! any timed window and keeps the name of everything it made, in order, so the removal takes
//! exactly those paths by name, files first, then directories deepest first, one unlink or
//! rmdir each and never recursively; a directory that holds something else stays, with a
//! warning.

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
/// what was made).
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
            let path = root.join(f);
            // Every file's bytes differ (no deduplication makes the tree smaller).
            pattern.stamp(&mut data, (i as u64) << 32);
            e.create_file(&path, &data[..*size as usize])
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
    e.mkdir(path)
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
    };
    let mut f = e.open(path, OpenMode::CreateTruncate, &hints).map_err(io)?;
    made.files.push(path.to_path_buf());
    let mut buf = vec![0u8; p.transfer_size.min(p.common_size) as usize];
    pattern.fill(&mut buf);
    let mut at = 0;
    while at < p.common_size {
        let n = (p.common_size - at).min(buf.len() as u64) as usize;
        pattern.stamp(&mut buf[..n], at);
        f.write_at(&buf[..n], at).map_err(io)?;
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
        .filter(|f| e.remove(f).is_err())
        .collect();
    let kept: Vec<&PathBuf> = made
        .dirs
        .iter()
        .rev()
        .filter(|d| e.rmdir(d).is_err())
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
