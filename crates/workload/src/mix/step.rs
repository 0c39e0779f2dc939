//! One step of the rising load on one rank: operations due on the open-loop schedule for
//! `--step-seconds`, each issued at its due time or, when the rank is behind, at once. Its
//! latency is measured from the due time (what a user of the file system would wait, the
//! queue included); its service time from the issue. Operations still waiting when the window
//! ends are not started; their waits so far count as lower bounds of their latency. A signal
//! ends the step at once (looked at after each wait and each operation), and so does an I/O
//! error on this rank (kept in the context; the ranks agree on it at the step's end).

use measure::now_ns;
use results::Operation;

use super::ctx::Ctx;
use super::error::MixError;
use super::ops::{perform, Buffers};
use super::phase::{close, open, wait_until};
use super::schedule::{Chooser, Schedule};
use super::tree::RankTree;
use crate::cache::{drops_files, ReadSet};
use crate::rng::{mix2, SplitMix};
use engine::cache::Strided;
use plan::mix::MixOp;
use results::mix::Verdict;

/// Residency checks look at this many files per rank at the most.
const CHECKED_FILES: usize = 1024;

/// The files a step may read on this rank, for the page-cache step: every file of its tree
/// holds `io_size` bytes an open-read may read (a sample, or all of them when `--drop-caches`
/// drops file by file); `None` for a mix without open-reads.
fn read_set(ctx: &Ctx, t: &mut RankTree) -> Option<ReadSet> {
    let p = ctx.params;
    if p.mix.percent(MixOp::OpenRead) <= 0.0 {
        return None;
    }
    let (ids, _) = t.existing();
    let all = drops_files(ctx.events.session);
    let every = match all {
        true => 1,
        false => ids.len().div_ceil(CHECKED_FILES).max(1),
    };
    let len = p.mix.tree.io_size.min(p.mix.tree.file_size);
    let caps = ctx.engine.caps();
    let files: Vec<_> = match caps.page_cache && caps.does_io {
        true => ids
            .iter()
            .step_by(every)
            .map(|&id| {
                (
                    t.file_path(0, id).to_path_buf(),
                    Strided::whole(0, len),
                    true,
                )
            })
            .collect(),
        false => Vec::new(),
    };
    Some(ReadSet {
        check_every: match all {
            true => files.len().div_ceil(CHECKED_FILES).max(1),
            false => 1,
        },
        files,
        bytes: (ids.len() as u64).saturating_mul(len),
        complete: all || every == 1,
    })
}

/// Runs step `number` (from 1) at `rate` operations per second for the whole run; rank 0
/// gets its verdict.
pub(crate) fn step(
    ctx: &Ctx,
    t: &mut RankTree,
    b: &mut Buffers,
    number: u32,
    rate: u64,
) -> Result<Option<Verdict>, MixError> {
    let p = ctx.params;
    let window_ns = (p.step_seconds * 1e9) as u64;
    let seed = mix2(p.seed, u64::from(number));
    let mut schedule = Schedule::new(ctx.rank(), ctx.ranks(), rate, window_ns, p.arrivals, seed);
    let chooser = Chooser::new(&p.mix);
    let mut rng = SplitMix::new(mix2(seed ^ 0x006d_6978, ctx.rank()));
    // Room for every operation to be a create or a mkdir, so the window does not reallocate;
    // past a million each (8 MiB of ids) the vectors grow as they must, amortized.
    let room = schedule.expected().saturating_mul(2).min(1 << 20) as usize + 16;
    t.reserve(room, room);
    let reads = read_set(ctx, t);
    let mut o = open(ctx, Operation::MixStep, number, rate, reads.as_ref())?;
    let window_end = o.start + window_ns;
    while let Some(offset) = schedule.next_due() {
        let due = o.start + offset;
        let issued = wait_until(due);
        if exec::interrupt::requested() {
            break;
        }
        o.tally.scheduled += 1;
        if issued >= window_end {
            // Behind by more than the window: this one and the rest never start.
            o.tally.not_started += 1;
            o.waits.record(window_end.saturating_sub(due));
            while let Some(offset) = schedule.next_due() {
                o.tally.scheduled += 1;
                o.tally.not_started += 1;
                o.waits.record(window_end.saturating_sub(o.start + offset));
            }
            break;
        }
        let op = chooser.pick(&mut rng);
        // An I/O error ends this rank's step; the ranks learn of it at the step's end.
        let Some(d) = ctx.absorb(perform(ctx.engine, t, &mut rng, op, b))? else {
            break;
        };
        let end = o.rec.record_since(d.op as usize, due, d.bytes);
        o.service.record(end - issued);
        o.tally.done[d.op as usize] += 1;
        o.tally.substituted += u64::from(d.substituted);
    }
    // The step lasts its window at least, so a schedule that ended early is not a higher rate
    // (a failed rank does not wait: its step is not reported).
    let end = if ctx.failed_here() {
        now_ns()
    } else {
        wait_until(window_end).max(now_ns())
    };
    close(ctx, o, end, Vec::new())
}
