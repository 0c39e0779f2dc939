//! One operation of the mix on the engine, with its target taken from (and the outcome kept
//! in) the rank's tree. An operation that needs a target the tree no longer has (an unlink
//! when no file is left, an rmdir with no empty directory) runs as a create or a mkdir and is
//! counted as substituted, so the schedule's operation count stays what was requested.

use engine::Target;
use engine::{Engine, OpenHints, OpenMode};
use plan::mix::MixOp;

use super::error::MixError;
use super::tree::RankTree;
use crate::rng::SplitMix;

/// The buffers an operation uses, made before the timed window.
pub(crate) struct Buffers {
    /// A new file's contents (`file_size` bytes).
    pub file: Vec<u8>,
    /// What an open-read reads into and an open-write writes (`io_size` bytes).
    pub io: Vec<u8>,
    pub hints: OpenHints,
}

/// What ran: the operation (the substitute where there was no target) and its bytes.
pub(crate) struct Done {
    pub op: MixOp,
    pub bytes: u64,
    pub substituted: bool,
}

pub(crate) fn perform(
    e: &dyn Engine,
    t: &mut RankTree,
    rng: &mut SplitMix,
    op: MixOp,
    b: &mut Buffers,
) -> Result<Done, MixError> {
    let done = |op, bytes| {
        Ok(Done {
            op,
            bytes,
            substituted: false,
        })
    };
    let file = if op.needs_file() {
        t.pick_file(rng)
    } else {
        None
    };
    if op.needs_file() && file.is_none() {
        let d = perform(e, t, rng, MixOp::Create, b)?;
        return Ok(Done {
            substituted: true,
            ..d
        });
    }
    let (index, id) = file.unwrap_or((0, 0));
    match op {
        MixOp::Create => {
            let id = t.new_file(rng);
            let p = t.file_path(0, id);
            let made = e.create_file(Target::from(p), &b.file);
            // Counted also when the create failed part-way (a full file system): the file
            // may exist, and the clean-up after a failure skips it where it does not.
            t.added_file(id);
            made.map_err(|err| MixError::io("create", t.file_path(0, id), err))?;
            done(op, b.file.len() as u64)
        }
        MixOp::OpenRead => {
            let p = t.file_path(0, id);
            let n = e
                .read_file(Target::from(p), &mut b.io)
                .map_err(|err| MixError::io("open-read", p, err))?;
            done(op, n as u64)
        }
        MixOp::OpenWrite => {
            let p = t.file_path(0, id);
            let io = |err| MixError::io("open-write", p, err);
            let mut f = e
                .open(Target::from(p), OpenMode::CreateKeep, &b.hints)
                .map_err(io)?;
            let n = f.write_at(&b.io, 0).map_err(io)?;
            f.close().map_err(io)?;
            done(op, n as u64)
        }
        MixOp::Stat => {
            let p = t.file_path(0, id);
            e.stat(Target::from(p))
                .map_err(|err| MixError::io("stat", p, err))?;
            done(op, 0)
        }
        MixOp::Chmod => {
            // Alternate the bits so that every chmod changes something.
            let mode = if rng.next_u64() & 1 == 0 {
                0o600
            } else {
                0o644
            };
            let p = t.file_path(0, id);
            e.chmod(Target::from(p), mode)
                .map_err(|err| MixError::io("chmod", p, err))?;
            done(op, 0)
        }
        MixOp::Rename => {
            let to = t.renamed(id);
            let (from, dest) = t.file_pair(id, to);
            e.rename(Target::from(from), Target::from(dest))
                .map_err(|err| MixError::io("rename", from, err))?;
            t.moved_file(index, to);
            done(op, 0)
        }
        MixOp::Unlink => {
            let p = t.file_path(0, id);
            e.remove(Target::from(p))
                .map_err(|err| MixError::io("unlink", p, err))?;
            t.removed_file(index);
            done(op, 0)
        }
        MixOp::Readdir => {
            let j = t.pick_dir(rng);
            let p = t.data_dir(j);
            e.read_dir(Target::from(p))
                .map_err(|err| MixError::io("readdir", p, err))?;
            done(op, 0)
        }
        MixOp::Mkdir => {
            let id = t.new_empty();
            let p = t.empty_path(id);
            e.mkdir(Target::from(p))
                .map_err(|err| MixError::io("mkdir", p, err))?;
            t.added_empty(id);
            done(op, 0)
        }
        MixOp::Rmdir => {
            let Some((i, id)) = t.pick_empty(rng) else {
                let d = perform(e, t, rng, MixOp::Mkdir, b)?;
                return Ok(Done {
                    substituted: true,
                    ..d
                });
            };
            let p = t.empty_path(id);
            e.rmdir(Target::from(p))
                .map_err(|err| MixError::io("rmdir", p, err))?;
            t.removed_empty(i);
            done(op, 0)
        }
    }
}
