//! The prepare phase: each rank makes its directory, `dirs` data directories of
//! `files_per_dir` files of `file_size` bytes, and `empty_dirs` empty directories for rmdir.
//! Everything made is noted in the rank's tree at once, so a later cleanup finds it; a signal
//! ends the making early (one relaxed load per item), and so does an I/O error, which the
//! rank keeps for the agreement at the phase's end.

use engine::Target;
use measure::now_ns;
use plan::mix::MixOp;
use results::Operation;

use super::ctx::Ctx;
use super::error::MixError;
use super::phase::{close, open, Open};
use super::tree::RankTree;

pub(crate) fn prepare(ctx: &Ctx, t: &mut RankTree) -> Result<(), MixError> {
    let shape = ctx.params.mix.tree;
    let data = vec![0x5au8; shape.file_size as usize];
    t.reserve(shape.files() as usize, shape.empty_dirs as usize);
    let mut o = open(ctx, Operation::MixPrepare, 0, 0, None)?;
    // A rank whose run already failed (rank 0 could not make --dir) only takes part.
    if !ctx.failed_here() {
        ctx.absorb(make(ctx, t, &mut o, &data))?;
    }
    let end = now_ns();
    close(ctx, o, end, Vec::new()).map(|_| ())
}

fn made(o: &mut Open, op: MixOp, bytes: u64) {
    o.tally.done[op as usize] += 1;
    o.rec.record(op as usize, bytes);
}

fn make(ctx: &Ctx, t: &mut RankTree, o: &mut Open, data: &[u8]) -> Result<(), MixError> {
    let e = ctx.engine;
    let shape = ctx.params.mix.tree;
    let root = t.root().to_path_buf();
    e.mkdir(Target::from(&root))
        .map_err(|err| MixError::io("mkdir", &root, err))?;
    t.made_root = true;
    made(o, MixOp::Mkdir, 0);
    let stop = exec::interrupt::requested;
    for j in 0..shape.dirs {
        if stop() {
            return Ok(());
        }
        let p = t.data_dir(j);
        e.mkdir(Target::from(p))
            .map_err(|err| MixError::io("mkdir", p, err))?;
        t.made_dirs = j + 1;
        made(o, MixOp::Mkdir, 0);
    }
    for n in 0..shape.files_per_dir {
        for j in 0..t.made_dirs {
            if stop() {
                return Ok(());
            }
            let id = t.prepared_id(j, n);
            let p = t.file_path(0, id);
            let r = e.create_file(Target::from(p), data);
            // Noted also when it failed part-way: the clean-up skips it where it is missing.
            t.added_file(id);
            r.map_err(|err| MixError::io("create", t.file_path(0, id), err))?;
            made(o, MixOp::Create, shape.file_size);
        }
    }
    for _ in 0..shape.empty_dirs {
        if stop() {
            return Ok(());
        }
        let id = t.new_empty();
        let p = t.empty_path(id);
        e.mkdir(Target::from(p))
            .map_err(|err| MixError::io("mkdir", p, err))?;
        t.added_empty(id);
        made(o, MixOp::Mkdir, 0);
    }
    Ok(())
}
