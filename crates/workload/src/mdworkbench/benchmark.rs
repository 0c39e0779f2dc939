//! md-workbench's `run_benchmark`: one iteration of the FIFO. For each object index and data
//! set: stat, read (and with `-X` check) and delete the oldest object of the rank `-O * (d+1)`
//! below, then create the next object of the rank as far above. With `-w` the ranks stop
//! after the deadline, checked after each group of `-D` objects; with `-W` they agree on the
//! largest count (each rank once: at its wall, or when it finishes) and all continue to it.

use exec::interrupt::{Stop, Watch};
use exec::ReduceOp;
use measure::{now_ns, Recorder};
use results::mdworkbench::{StonewallOutcome, CREATE, DELETE, READ, STAT};
use results::Operation;

use super::ctx::Ctx;
use super::error::MdwbError;
use super::naming::{item, read_rank, write_rank, Names};
use super::outcome::{ErrorAt, VerifyOutcome};
use super::phase::{close, open, wait, Extra};
use crate::cache::{drops_files, ReadSet};
use crate::ior::data::{Checker, DataPattern};
use engine::cache::Strided;

/// The data of the creates and the checks of the reads, per data set: one pattern per rank
/// written to or read from (a set's writer and reader depend on the set only), made before
/// the timed window.
pub(crate) struct Buffers {
    writers: Vec<(DataPattern, Vec<u8>)>,
    write_of: Vec<usize>,
    checkers: Vec<Checker>,
    check_of: Vec<usize>,
    read: Vec<u8>,
}

/// The index of `rank` in `ranks`, added if new.
fn slot_of(ranks: &mut Vec<u64>, rank: u64) -> usize {
    match ranks.iter().position(|&r| r == rank) {
        Some(i) => i,
        None => {
            ranks.push(rank);
            ranks.len() - 1
        }
    }
}

impl Buffers {
    pub(crate) fn new(ctx: &Ctx) -> Buffers {
        let p = ctx.params;
        let (rank, ranks) = (ctx.rank(), ctx.ranks());
        let size = p.object_size as usize;
        let (mut wr, mut rd) = (Vec::new(), Vec::new());
        let write_of = (0..p.data_sets)
            .map(|d| slot_of(&mut wr, write_rank(rank, p.offset, d, ranks)))
            .collect();
        let check_of = (0..p.data_sets)
            .map(|d| slot_of(&mut rd, read_rank(rank, p.offset, d, ranks)))
            .collect();
        let writers = wr
            .iter()
            .map(|&w| {
                let pattern = DataPattern::new(p.data_packet, ctx.seed, w);
                let mut data = vec![0u8; size];
                pattern.fill(&mut data);
                (pattern, data)
            })
            .collect();
        let verify = p.verify_read && ctx.engine.caps().does_io;
        let checkers = rd
            .iter()
            .filter(|_| verify)
            .map(|&r| Checker::new(DataPattern::new(p.data_packet, ctx.seed, r), size))
            .collect();
        Buffers {
            writers,
            write_of,
            checkers,
            check_of,
            read: vec![0u8; size],
        }
    }
}

/// One benchmark phase: its number, the object index it starts at, its waiting factor.
pub(crate) struct Iteration {
    pub number: u32,
    pub start: u64,
    pub factor: f64,
}

/// Records one operation and, with `-t`, waits the factor times its latency (not counted as
/// the next operation's latency). Returns the end of the operation or wait.
#[inline]
fn done(rec: &mut Recorder, kind: usize, bytes: u64, factor: f64) -> u64 {
    let began = rec.prev();
    let now = rec.record(kind, bytes);
    if factor <= 1e-9 {
        return now;
    }
    wait(((now - began) as f64 * factor) as u64);
    let after = now_ns();
    rec.restart(after);
    after
}

/// Residency checks look at this many objects per rank at the most.
const CHECKED_OBJECTS: u64 = 1024;

/// The objects an iteration may read on this rank (all of them unless a stonewall stops it
/// early), for the page-cache step: a sample, or every one when `--drop-caches` drops file by
/// file. Each object has one reader, which drops it.
fn read_set(ctx: &Ctx, it: &Iteration) -> ReadSet {
    let p = ctx.params;
    let (rank, ranks) = (ctx.rank(), ctx.ranks());
    let count = p.objects_per_set.saturating_mul(p.data_sets);
    let all = drops_files(ctx.events.session);
    let every = match all {
        true => 1,
        false => count.div_ceil(CHECKED_OBJECTS).max(1),
    };
    let caps = ctx.engine.caps();
    let mut names = Names::new(&p.dir);
    let mut files = Vec::new();
    if caps.page_cache && caps.does_io {
        let mut n = 0u64;
        for f in 0..p.objects_per_set {
            for d in 0..p.data_sets {
                if n.is_multiple_of(every) {
                    let reader = read_rank(rank, p.offset, d, ranks);
                    let path = names.object(reader, d, it.start + f).to_path_buf();
                    files.push((path, Strided::whole(0, p.object_size), true));
                }
                n += 1;
            }
        }
    }
    let check_every = match all {
        true => files.len().div_ceil(CHECKED_OBJECTS as usize).max(1),
        false => 1,
    };
    ReadSet {
        files,
        bytes: count.saturating_mul(p.object_size),
        check_every,
        complete: all || every == 1,
    }
}

/// Runs one iteration; returns the groups of `-D` objects done (how far the data sets moved).
pub(crate) fn benchmark(ctx: &Ctx, it: &Iteration, b: &mut Buffers) -> Result<u64, MdwbError> {
    let p = ctx.params;
    let e = ctx.engine;
    let (rank, ranks, sets) = (ctx.rank(), ctx.ranks(), p.data_sets);
    let size = p.object_size;
    let mut names = Names::new(&p.dir);
    let mut v = VerifyOutcome::default();
    let factor = it.factor;
    let reads = read_set(ctx, it);
    let mut o = open(ctx, Operation::Benchmark, it.number, factor, Some(&reads))?;
    let deadline_ns = (p.stonewall_s * 1e9) as u64;
    let mut armed = p.stonewall_s > 0.0;
    let mut total = p.objects_per_set;
    let mut wall: Option<(u64, u64)> = None;
    let mut f = 0;
    let mut watch = Watch::new(o.start, None);
    // An I/O error ends this rank's loop (kept for the agreement at the close); the rank
    // still joins the collectives below, as a rank that finished before its wall does.
    let failed_before = ctx.failed_here();
    macro_rules! or_stop {
        ($r:expr, $op:expr, $path:expr, $groups:lifetime) => {
            match $r {
                Ok(v) => v,
                Err(err) => {
                    ctx.absorb(Err(MdwbError::io($op, $path, err)))?;
                    break $groups;
                }
            }
        };
    }
    'groups: while f < total && !failed_before {
        for d in 0..sets {
            let prev = it.start + f;
            let reader = read_rank(rank, p.offset, d, ranks);
            let path = names.object(reader, d, prev);
            or_stop!(e.stat(e.target(path)), "stat", path, 'groups);
            o.counts.obj_stat.ok += 1;
            done(&mut o.rec, STAT, 0, factor);
            let n = or_stop!(e.read_file(e.target(path), &mut b.read), "read", path, 'groups);
            let bad = if (n as u64) < size {
                Some(n as u64)
            } else if let Some(c) = b.checkers.get_mut(b.check_of[d as usize]) {
                v.checked += 1;
                c.check(&b.read, item(prev, d, sets)).map(|i| i as u64)
            } else {
                None
            };
            match bad {
                None => o.counts.obj_read.ok += 1,
                Some(offset) => {
                    o.counts.obj_read.err += 1;
                    v.errors += 1;
                    if v.first_error.is_none() {
                        let file = path.display().to_string();
                        v.first_error = Some(ErrorAt { rank, file, offset });
                    }
                }
            }
            done(&mut o.rec, READ, n as u64, factor);
            if p.read_only {
                continue;
            }
            or_stop!(e.remove(e.target(path)), "delete", path, 'groups);
            o.counts.obj_delete.ok += 1;
            done(&mut o.rec, DELETE, 0, factor);
            let writer = write_rank(rank, p.offset, d, ranks);
            let index = p.precreate_per_set + prev;
            let path = names.object(writer, d, index);
            let (pattern, data) = &mut b.writers[b.write_of[d as usize]];
            pattern.stamp(data, item(index, d, sets));
            match e.create_file(e.target(path), data) {
                Ok(()) => {
                    o.counts.obj_create.ok += 1;
                    done(&mut o.rec, CREATE, size, factor);
                }
                Err(_) if p.ignore_precreate_errors => {
                    o.counts.obj_create.err += 1;
                    o.rec.error();
                    o.rec.restart(now_ns());
                }
                Err(err) => or_stop!(Err::<(), _>(err), "create", path, 'groups),
            }
        }
        f += 1;
        // The stop flag, looked at when due (one comparison a group).
        if watch.stop(o.rec.prev()) == Some(Stop::Interrupted) {
            break;
        }
        if armed && o.rec.prev().saturating_sub(o.start) >= deadline_ns {
            armed = false;
            wall = Some((f, o.rec.prev() - o.start));
            if !p.wear_out {
                break;
            }
            total = ctx.comm.all_reduce_u64(f, ReduceOp::Max)?;
            // The agreement is no operation: the next one's latency starts after it.
            o.rec.restart(now_ns());
        }
    }
    let end = now_ns();
    let mut extra = Extra {
        verify: Some(v),
        ..Extra::default()
    };
    if p.stonewall_s > 0.0 {
        if armed && p.wear_out {
            // This rank finished before its wall: it joins the agreement with its count.
            total = ctx.comm.all_reduce_u64(total, ReduceOp::Max)?;
        }
        let (reached, time) = wall.unwrap_or((f, end - o.start));
        let comm = ctx.comm;
        extra.stonewall = Some(StonewallOutcome {
            deadline_s: p.stonewall_s,
            wear_out: p.wear_out,
            iterations: if p.wear_out { total } else { f },
            reached_min: comm.all_reduce_u64(reached, ReduceOp::Min)?,
            reached_max: comm.all_reduce_u64(reached, ReduceOp::Max)?,
            time_s: comm.broadcast_u64(time, 0)? as f64 / 1e9,
            rank0_hit: comm.broadcast_u64(u64::from(wall.is_some()), 0)? == 1,
        });
    }
    close(ctx, o, end, extra)?;
    Ok(f)
}
