//! md-workbench's `run_precreate`: the rank's data sets, then `-P` objects in each, written
//! with the rank's data pattern and the object's number stamped in.

use exec::interrupt::{Stop, Watch};
use measure::now_ns;
use results::mdworkbench::{CREATE, MKDIR};
use results::Operation;

use super::ctx::Ctx;
use super::error::MdwbError;
use super::naming::{item, set_dir, Names};
use super::phase::{close, open, Extra};
use crate::ior::data::DataPattern;

/// Objects `start .. start + P` of every data set of this rank.
pub(crate) fn precreate(ctx: &Ctx, start: u64) -> Result<(), MdwbError> {
    let p = ctx.params;
    let e = ctx.engine;
    let rank = ctx.rank();
    let pattern = DataPattern::new(p.data_packet, ctx.seed, rank);
    let mut data = vec![0u8; p.object_size as usize];
    pattern.fill(&mut data);
    let mut names = Names::new(&p.dir);
    let mut o = open(ctx, Operation::Precreate, 0, 0.0, None)?;
    // A rank that failed (making -o) makes nothing; the ranks agree at the close.
    let sets = if ctx.failed_here() { 0 } else { p.data_sets };
    for set in 0..sets {
        let dir = set_dir(&p.dir, rank, set);
        match e.mkdir(e.target(&dir)) {
            Ok(()) => {
                o.counts.dset_create.ok += 1;
                o.rec.record(MKDIR, 0);
            }
            Err(_) if p.ignore_precreate_errors => {
                o.counts.dset_create.err += 1;
                o.rec.error();
                o.rec.restart(now_ns());
            }
            Err(err) => {
                ctx.absorb(Err(MdwbError::io("mkdir", &dir, err)))?;
                break;
            }
        }
    }
    let mut watch = Watch::new(o.start, None);
    let count = if ctx.failed_here() {
        0
    } else {
        p.precreate_per_set
    };
    'objects: for index in start..start + count {
        if watch.stop(o.rec.prev()) == Some(Stop::Interrupted) {
            break;
        }
        for set in 0..p.data_sets {
            let path = names.object(rank, set, index);
            pattern.stamp(&mut data, item(index, set, p.data_sets));
            match e.create_file(e.target(path), &data) {
                Ok(()) => {
                    o.counts.obj_create.ok += 1;
                    o.rec.record(CREATE, p.object_size);
                }
                Err(_) if p.ignore_precreate_errors => {
                    o.counts.obj_create.err += 1;
                    o.rec.error();
                    o.rec.restart(now_ns());
                }
                Err(err) => {
                    ctx.absorb(Err(MdwbError::io("create", path, err)))?;
                    break 'objects;
                }
            }
        }
    }
    let end = now_ns();
    close(ctx, o, end, Extra::default())
}
