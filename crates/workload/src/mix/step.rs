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
use crate::rng::{mix2, SplitMix};
use results::mix::Verdict;

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
    let mut o = open(ctx, Operation::MixStep, number, rate)?;
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
