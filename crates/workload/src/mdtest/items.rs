//! The item loops of one rank: which paths, in which order, with the per-operation recorder.
//!
//! Positions `0..items_per_rank` run through the test directories in order (`-n` with `-I`
//! gives several); within one, [`Order`] maps a position to an item number. A limit (stonewall
//! or status file) keeps the first positions.

use std::path::Path;

use super::ctx::Ctx;
use super::error::MdError;
use super::naming::{item_prefix, name_rank, tree_base, tree_owner, Kind, PathBuilder, Step};
use exec::interrupt::Watch;
use measure::Recorder;

use super::phase::{close, open, work, Extra};
use crate::rng::Permutation;
use results::Operation;

/// In which order a phase visits the items of one test directory.
#[derive(Clone, Copy)]
pub(crate) enum Order<'a> {
    /// Directories in pre-order, items ascending within each (create, remove); the slice is
    /// `Shape::creation_dirs`.
    Creation(&'a [u64]),
    /// Item numbers ascending (stat, read), or a seeded permutation of them (`-R`).
    Numbered { shuffle: Option<u64> },
}

/// Where this rank's `kind` items of phase `step` live in test directory `dir_loop`.
pub(crate) fn builder(
    ctx: &Ctx,
    iteration: u32,
    dir_loop: u64,
    kind: Kind,
    step: Step,
) -> PathBuilder {
    let p = ctx.params;
    let (rank, tasks) = (ctx.rank(), ctx.tasks());
    let names = name_rank(rank, step, ctx.stride, tasks);
    let owner = tree_owner(rank, step, ctx.stride, tasks);
    // mdtest names subdirectories after the working rank even in a shifted tree, which then
    // do not exist (`-u -N 1 -z 1` fails); iogauge uses the owner's names throughout.
    let base = tree_base(p.unique_dir, owner);
    let root = if p.unique_dir { owner } else { 0 };
    PathBuilder::new(
        &ctx.test_dir(root, iteration, dir_loop),
        ctx.shape.tree,
        &base,
        &item_prefix(kind, names),
    )
}

/// One pass over a rank's items: which, in which order, over which positions.
#[derive(Clone, Copy)]
pub(crate) struct Sweep<'a> {
    pub iteration: u32,
    pub kind: Kind,
    pub step: Step,
    pub order: Order<'a>,
    pub from: u64,
    pub to: u64,
    /// Stop after the first operation that ends past this `now_ns` time (the stonewall).
    pub deadline: Option<u64>,
}

impl<'a> Sweep<'a> {
    /// Positions `0..count`, no deadline.
    pub fn new(iteration: u32, kind: Kind, step: Step, order: Order<'a>, count: u64) -> Self {
        Sweep {
            iteration,
            kind,
            step,
            order,
            from: 0,
            to: count,
            deadline: None,
        }
    }
}

/// An operation that moves no bytes, its error named after `op` and the path.
pub(crate) fn no_bytes<T>(
    op: &'static str,
    path: &Path,
    r: std::io::Result<T>,
) -> Result<u64, MdError> {
    r.map(|_| 0).map_err(|e| MdError::io(op, path, e))
}

/// Runs `op` (which returns the bytes it moved) over the sweep's positions; returns the
/// position reached (short of `to` only when the deadline passed).
pub(crate) fn run_items<F>(
    ctx: &Ctx,
    s: &Sweep,
    rec: &mut Recorder,
    mut op: F,
) -> Result<u64, MdError>
where
    F: FnMut(&Path, u64) -> Result<u64, MdError>,
{
    let shape = &ctx.shape;
    let per_loop = shape.items_per_loop();
    let ipd = shape.items_per_dir;
    // Item number of position 0 in item-number order (hoisted: -L computes it from b^z).
    let first = shape.numbered(0);
    let mut pos = s.from;
    if ctx.failed_here() && !ctx.cleaning() {
        // This rank failed earlier in the phase (before a stonewall's wear-out, say).
        return Ok(pos);
    }
    let mut watch = Watch::new(rec.prev(), s.deadline);
    while pos < s.to {
        let dir_loop = pos / per_loop;
        let base = dir_loop * per_loop;
        let n = (s.to - base).min(per_loop);
        let mut paths = builder(ctx, s.iteration, dir_loop, s.kind, s.step);
        let perm = match s.order {
            Order::Numbered {
                shuffle: Some(seed),
            } => Some(Permutation::new(n, seed.wrapping_add(dir_loop))),
            _ => None,
        };
        for i in pos - base..n {
            let inner = perm.as_ref().map_or(i, |p| p.apply(i));
            let k = match s.order {
                Order::Creation(dirs) => shape.created(dirs, inner),
                Order::Numbered { .. } => first + inner,
            };
            // The clean-up (after a signal or a failure) tries every name the run may have
            // made, past missing ones and errors; elsewhere the first error ends this rank's
            // work (kept for the agreement at the phase's end).
            let Some(bytes) = ctx.absorb(op(paths.item(k / ipd, k), k))? else {
                if !ctx.cleaning() {
                    return Ok(pos);
                }
                pos += 1;
                continue;
            };
            let now = rec.record(0, bytes);
            pos += 1;
            // The stonewall and the stop flag, looked at when due (one comparison).
            if watch.due(now) && watch.check(now).is_some() {
                return Ok(pos);
            }
        }
    }
    Ok(pos)
}

/// A whole timed phase of one sweep: open, the operations, close; returns the position this
/// rank reached.
pub(crate) fn timed_pass<F>(
    ctx: &Ctx,
    op: Operation,
    sweep: &Sweep,
    unique_setup: bool,
    f: F,
) -> Result<u64, MdError>
where
    F: FnMut(&Path, u64) -> Result<u64, MdError>,
{
    let expect = work(ctx, sweep.to - sweep.from);
    let mut o = open(ctx, op, sweep.iteration, unique_setup, expect)?;
    let reached = run_items(ctx, sweep, &mut o.rec, f)?;
    close(ctx, op, sweep.iteration, o, Extra::default())?;
    Ok(reached)
}

/// mdtest's directory rename: a rotation over the `count` directories of every test directory
/// (dir 0 -> `<dir0>-XX`, dir i -> the name of dir i-1, `<dir0>-XX` -> the name of dir n-2), so
/// all names exist again afterwards. Directories with fewer than two items are skipped.
pub(crate) fn rename_rotation(
    ctx: &Ctx,
    iteration: u32,
    count: u64,
    rec: &mut Recorder,
) -> Result<(), MdError> {
    let shape = &ctx.shape;
    let per_loop = shape.items_per_loop();
    let ipd = shape.items_per_dir;
    let mut base = 0;
    let mut dir_loop = 0;
    if ctx.failed_here() {
        return Ok(());
    }
    while base < count {
        let n = (count - base).min(per_loop);
        if n < 2 {
            break;
        }
        let mut cur = builder(ctx, iteration, dir_loop, Kind::Dir, Step::Stat);
        let mut prev = builder(ctx, iteration, dir_loop, Kind::Dir, Step::Stat);
        let at = |pos: u64| {
            let k = shape.numbered(pos);
            (k / ipd, k)
        };
        let (d0, k0) = at(0);
        let mut parked = cur.item_owned(d0, k0).into_os_string();
        parked.push("-XX");
        let parked = std::path::PathBuf::from(parked);
        for i in 0..n {
            let result = if i == 0 {
                ctx.engine
                    .rename(
                        ctx.engine.target(cur.item(d0, k0)),
                        ctx.engine.target(&parked),
                    )
                    .map_err(|e| MdError::io("rename", &parked, e))
            } else {
                let (dp, kp) = at(i - 1);
                let to = prev.item(dp, kp);
                let from = if i == n - 1 {
                    parked.as_path()
                } else {
                    let (d, k) = at(i);
                    cur.item(d, k)
                };
                ctx.engine
                    .rename(ctx.engine.target(from), ctx.engine.target(to))
                    .map_err(|e| MdError::io("rename", from, e))
            };
            if ctx.absorb(result)?.is_none() {
                // The rotation is cut: the ranks agree at the phase's end and clean up.
                return Ok(());
            }
            rec.record(0, 0);
        }
        base += n;
        dir_loop += 1;
    }
    Ok(())
}
