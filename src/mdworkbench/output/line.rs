//! md-workbench's per-phase lines (`print_p_stat` in `md-workbench.c`): the line over all
//! ranks, a rank's own line (`--process-reports`) and the tab-separated detailed form
//! (`--print-detailed-stats`), with C's number forms.

use results::mdworkbench::{Counts, PhaseOutcome, Quantiles, KINDS, PRINTED};
use results::{per_s, Operation};
use text::{c_exp, fixed};

/// The tab-separated header `--print-detailed-stats` prints once.
pub const DETAILED_HEADER: &str =
    "phase\t\td name\tcreate\tdelete\tob nam\tcreate\tread\tstat\tdelete\tt_inc_b\tt_no_bar\tthp\tmax_t";

fn name(o: &PhaseOutcome) -> &'static str {
    o.phase.label()
}

/// What one line reports: all ranks (`ranks` set: their time spread is printed) or one.
struct Of<'a> {
    counts: Counts,
    t: f64,
    op_max: f64,
    kinds: Vec<Option<Quantiles>>,
    ranks: Option<&'a PhaseOutcome>,
}

fn of_all(o: &PhaseOutcome) -> Of<'_> {
    Of {
        counts: o.counts(),
        t: o.time(),
        op_max: o.op_max(),
        kinds: (0..KINDS.len()).map(|k| o.quantiles(k)).collect(),
        ranks: Some(o),
    }
}

fn of_rank(o: &PhaseOutcome, rank: usize) -> Of<'_> {
    let r = &o.ranks[rank];
    Of {
        counts: r.counts,
        t: r.time(),
        op_max: r.op_max(),
        kinds: r.kinds.clone(),
        ranks: None,
    }
}

fn line(o: &PhaseOutcome, of: &Of, quiet: bool) -> String {
    let (c, t) = (&of.counts, of.t);
    let f1 = |v: f64| fixed(v, 1);
    let mut s = format!("{} process max:{}s ", name(o), fixed(t, 2));
    if let Some(all) = of.ranks {
        let r = all.rank_times();
        s += &format!(
            "min:{}s mean: {}s balance:{} stddev:{} ",
            fixed(r.min, 2),
            fixed(r.mean, 2),
            f1(all.balance()),
            f1(r.stddev_sample)
        );
    }
    let rate = o.rate_of(c, t);
    let tp = o.throughput_of(c, t);
    let op_max = c_exp(of.op_max, 4);
    match o.phase {
        Operation::Benchmark => {
            let read = c.obj_read.ok;
            s += &format!(
                "rate:{} iops/s objects:{read} rate:{} obj/s tp:{} MiB/s op-max:{op_max}s",
                f1(rate),
                f1(per_s(read as f64, t)),
                f1(tp)
            );
            if o.waiting_factor > 1e-9 {
                s += &format!(" waiting_factor:{}", fixed(o.waiting_factor, 2));
            }
        }
        Operation::Precreate => {
            s += &format!(
                "rate:{} iops/s dsets: {} objects:{} rate:{} dset/s rate:{} obj/s tp:{} MiB/s op-max:{op_max}s",
                f1(rate),
                c.dset_create.ok,
                c.obj_create.ok,
                fixed(per_s(c.dset_create.ok as f64, t), 3),
                f1(per_s(c.obj_create.ok as f64, t)),
                f1(tp)
            );
        }
        _ => {
            s += &format!(
                "rate:{} iops/s objects:{} dsets: {} rate:{} obj/s rate:{} dset/s op-max:{op_max}s",
                f1(rate),
                c.obj_delete.ok,
                c.dset_delete.ok,
                f1(per_s(c.obj_delete.ok as f64, t)),
                fixed(per_s(c.dset_delete.ok as f64, t), 3)
            );
        }
    }
    let errs = c.errors();
    if !quiet || errs > 0 {
        let bang = if errs > 0 { "!!!" } else { "" };
        s += &format!(" ({errs} errs{bang})");
    }
    if let Some(w) = o.stonewall.filter(|w| !quiet && w.iterations > 0) {
        s += &format!(" stonewall-iter:{}", w.iterations);
    }
    for k in PRINTED {
        if let Some(q) = of.kinds[k].filter(|q| q.max > 1e-9) {
            let v: Vec<String> = q.seven().iter().map(|&x| c_exp(x, 4) + "s").collect();
            s += &format!(" {}({})", KINDS[k], v.join(", "));
        }
    }
    s
}

/// The line over all ranks.
pub fn phase_line(o: &PhaseOutcome, quiet: bool) -> String {
    line(o, &of_all(o), quiet)
}

/// Rank `rank`'s own line, as `--process-reports` prints it (`<rank>: ...`).
pub fn rank_line(o: &PhaseOutcome, rank: usize, quiet: bool) -> String {
    format!("{rank}: {}", line(o, &of_rank(o, rank), quiet))
}

/// The `--print-detailed-stats` form of a line; the error counts instead when there are any.
fn detailed(o: &PhaseOutcome, of: &Of) -> String {
    let c = &of.counts;
    if c.errors() > 0 {
        return format!(
            "{} err\t{}\t{}\t{}\t{}\t{}\t{}",
            name(o),
            c.dset_create.err,
            c.dset_delete.err,
            c.obj_create.err,
            c.obj_read.err,
            c.obj_stat.err,
            c.obj_delete.err
        );
    }
    let t = fixed(of.t, 3);
    format!(
        "{} \t{}\t{}\t{}\t{}\t{}\t{}\t{t}s\t{t}s\t{} MiB/s {}",
        name(o),
        c.dset_create.ok,
        c.dset_delete.ok,
        c.obj_create.ok,
        c.obj_read.ok,
        c.obj_stat.ok,
        c.obj_delete.ok,
        fixed(o.throughput_of(c, of.t), 2),
        c_exp(of.op_max, 4)
    )
}

pub fn detailed_line(o: &PhaseOutcome) -> String {
    detailed(o, &of_all(o))
}

pub fn detailed_rank_line(o: &PhaseOutcome, rank: usize) -> String {
    format!("{rank}: {}", detailed(o, &of_rank(o, rank)))
}

/// md-workbench's `stonewall wear out` line, when rank 0 reached the wall.
pub fn wear_out_line(o: &PhaseOutcome) -> Option<String> {
    let w = o.stonewall.filter(|w| w.wear_out && w.rank0_hit)?;
    Some(format!(
        "stonewall wear out {}s ({} iter)",
        fixed(w.time_s, 6),
        w.iterations
    ))
}

#[cfg(test)]
mod tests;
