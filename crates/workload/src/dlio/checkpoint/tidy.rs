//! What a checkpoint run made, and its removal: each rank's shard files, and the folders
//! rank 0 made (only those that did not exist before). At the end of a whole run they are
//! removed unless `--keep`; after a signal or a failure always, since a partial checkpoint is
//! none to read back. After a failure the ranks may not meet again, so rank 0 also removes
//! every rank's shards in the folders it made, by name.

use std::io;
use std::path::{Path, PathBuf};

use exec::Comm;

use super::shards::Shape;
use crate::dlio::error::DlioError;

pub(crate) struct Written {
    folder: PathBuf,
    /// Rank 0: the folders it made, in the order made.
    dirs: Vec<PathBuf>,
    /// Rank 0: of those, the checkpoints' own.
    checkpoint_dirs: Vec<PathBuf>,
    /// This rank's shard files.
    files: Vec<PathBuf>,
}

impl Written {
    pub fn new(folder: PathBuf) -> Self {
        Written {
            folder,
            dirs: Vec::new(),
            checkpoint_dirs: Vec::new(),
            files: Vec::new(),
        }
    }

    /// Rank 0 makes the checkpoint folder (and its missing parents) and every checkpoint's
    /// folder, outside any timed window; every rank learns whether that worked.
    pub fn make_dirs(
        &mut self,
        comm: &dyn Comm,
        checkpoints: impl Iterator<Item = PathBuf>,
    ) -> Result<(), DlioError> {
        let mine = if comm.rank() == 0 {
            self.make(checkpoints).err().unwrap_or_default()
        } else {
            String::new()
        };
        let got = comm.broadcast_bytes(mine.as_bytes(), 0)?;
        match (got.is_empty(), comm.rank()) {
            (true, _) => Ok(()),
            (false, 0) => Err(DlioError::Prepare(String::from_utf8_lossy(&got).into())),
            (false, _) => Err(DlioError::Comm(exec::CommError::PeerFailed {
                rank: 0,
                message: "making the checkpoint folders failed".into(),
            })),
        }
    }

    fn make(&mut self, checkpoints: impl Iterator<Item = PathBuf>) -> Result<(), String> {
        let missing: Vec<PathBuf> = self
            .folder
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
            .map(Path::to_path_buf)
            .collect();
        for d in missing.into_iter().rev() {
            self.mkdir(&d)?;
        }
        for d in checkpoints {
            if !d.exists() {
                self.mkdir(&d)?;
                self.checkpoint_dirs.push(d);
            }
        }
        Ok(())
    }

    fn mkdir(&mut self, d: &Path) -> Result<(), String> {
        std::fs::create_dir(d)
            .map_err(|e| format!("mkdir {}: {}", d.display(), engine::errno::describe(&e)))?;
        self.dirs.push(d.to_path_buf());
        Ok(())
    }

    /// This rank is about to create (or overwrite) `path`.
    pub fn created(&mut self, path: &Path) {
        self.files.push(path.to_path_buf());
    }

    /// Removes what the run made, unless `keep`. `together`: the ranks are still in step
    /// (a whole run, or one a signal stopped), so rank 0 removes the folders after a barrier.
    pub fn tidy(
        &mut self,
        comm: &dyn Comm,
        shape: &Shape,
        keep: bool,
        together: bool,
    ) -> Result<(), DlioError> {
        if keep {
            return Ok(());
        }
        for f in self.files.drain(..) {
            remove(&f, std::fs::remove_file(&f));
        }
        if together {
            comm.barrier()?;
        } else if comm.rank() == 0 {
            for d in &self.checkpoint_dirs {
                for r in 0..comm.size() as u64 {
                    for s in shape.rank_shards(r) {
                        let f = d.join(&s.name);
                        remove(&f, std::fs::remove_file(&f));
                    }
                }
            }
        }
        for d in self.dirs.drain(..).rev() {
            remove(&d, std::fs::remove_dir(&d));
        }
        Ok(())
    }
}

/// A removal that failed for another reason than the thing being gone is said, not fatal:
/// the run's figures stand.
fn remove(path: &Path, result: io::Result<()>) {
    if let Err(e) = result {
        if e.kind() != io::ErrorKind::NotFound {
            eprintln!(
                "iogauge dlio: remove {}: {}",
                path.display(),
                engine::errno::describe(&e)
            );
        }
    }
}
