//! The warnings every finished phase is judged for (`Hub::phase_end`), whatever its workload:
//! each returns an [`Alert`] with its evidence when a figure may say more about a cache, a
//! short run or a straggler than about the storage. Pure functions of the phase, the document
//! before it and the thresholds; `docs/warnings.md` states each rule.

use crate::alert::{Alert, AlertId, Thresholds};
use crate::cache::CacheStatus;
use crate::{Operation, PhaseResult, RunResult};

const MIB: f64 = 1_048_576.0;
const GIB: f64 = 1_073_741_824.0;

/// The alerts phase `p` calls for; `doc` holds the phases before it.
pub fn phase_alerts(doc: &RunResult, p: &PhaseResult, t: &Thresholds) -> Vec<Alert> {
    [
        short_phase(p, t),
        straggler(p, t),
        write_no_fsync(p, t),
        read_cached(p, t),
        dataset_fits_memory(doc, p, t),
        read_faster_than_write(doc, p, t),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// `write (iteration 0)`, or the IO500 phase's name.
pub fn phase_label(p: &PhaseResult) -> String {
    match &p.io500_phase {
        Some(name) => name.clone(),
        None => format!("{} (iteration {})", p.operation, p.iteration),
    }
}

/// `1.234 s`, or `0.000123 s` below a tenth: short phases keep their digits.
pub fn seconds(x: f64) -> String {
    if x >= 0.1 {
        format!("{x:.3} s")
    } else {
        format!("{x:.6} s")
    }
}

/// Phases that read data a write made, and the operation that wrote it.
fn written_by(op: Operation) -> Option<Operation> {
    match op {
        Operation::Read => Some(Operation::Write),
        Operation::FileRead => Some(Operation::FileCreate),
        _ => None,
    }
}

fn short_phase(p: &PhaseResult, t: &Thresholds) -> Option<Alert> {
    let min = t.get(AlertId::ShortPhase)?;
    let took = p.times.total_s;
    (took < min).then(|| {
        Alert::new(
            AlertId::ShortPhase,
            format!(
                "{}: the phase took {took:.3} s, less than {min} s: start-up, barriers and timer \
                 costs weigh on its figures; run it longer (more data, or a stonewall)",
                phase_label(p)
            ),
        )
        .with("total_s", took)
        .with("threshold_s", min)
    })
}

fn straggler(p: &PhaseResult, t: &Thresholds) -> Option<Alert> {
    let max = t.get(AlertId::Straggler)?;
    let s = p.spread.filter(|_| p.working_ranks().count() > 1)?;
    let ratio = s.slowest_to_median?;
    (ratio > max).then(|| {
        Alert::new(
            AlertId::Straggler,
            format!(
                "{}: rank {} finished at {}, {ratio:.2}× the median rank's {} (first done {}): \
                 the phase's figure includes waiting for it",
                phase_label(p),
                s.last_done_rank,
                seconds(s.last_done_s),
                seconds(s.median_done_s),
                seconds(s.first_done_s)
            ),
        )
        .with("rank", s.last_done_rank)
        .with("last_done_s", s.last_done_s)
        .with("median_done_s", s.median_done_s)
        .with("first_done_s", s.first_done_s)
        .with("ratio", ratio)
        .with("threshold", max)
    })
}

fn write_no_fsync(p: &PhaseResult, t: &Thresholds) -> Option<Alert> {
    t.get(AlertId::WriteNoFsync)?;
    (p.flushed == Some(false) && p.bytes > 0).then(|| {
        Alert::new(
            AlertId::WriteNoFsync,
            format!(
                "{}: the timed window ends without fsync (IOR -e, mdtest -y or -Y): the figure \
                 may count data that reached only this node's page cache, not the storage",
                phase_label(p)
            ),
        )
        .with("bytes", p.bytes)
    })
}

fn read_cached(p: &PhaseResult, t: &Thresholds) -> Option<Alert> {
    let max = t.get(AlertId::ReadCached)?;
    let c = p
        .page_cache
        .as_ref()
        .filter(|c| c.status == CacheStatus::Measured)?;
    let f = c.resident_fraction?;
    if f <= max {
        return None;
    }
    // After a drop its note says why the data stayed; else what would move it out.
    let (dropped, advice) = match &c.drop {
        Some(d) => (
            format!(
                " after --drop-caches ({}{})",
                d.method.label(),
                d.note
                    .as_deref()
                    .map(|n| format!(": {n}"))
                    .unwrap_or_default()
            ),
            "",
        ),
        None => (String::new(), cache_advice(p.operation)),
    };
    let mut a = Alert::new(
        AlertId::ReadCached,
        format!(
            "{}: {:.0} % of the data to read was in the readers' page cache when the phase \
             started{dropped}: the figure may measure memory, not the storage{advice}",
            phase_label(p),
            f * 100.0
        ),
    )
    .with("resident_fraction", f)
    .with("threshold", max)
    .with("checked_bytes", c.checked_bytes)
    .with("data_bytes", c.data_bytes)
    .with("sampled", c.sampled);
    if let Some(d) = &c.drop {
        a = a.with("drop_method", d.method.label());
    }
    Some(a)
}

/// What would move a phase's data out of the readers' page cache, in the workload's own
/// options.
fn cache_advice(op: Operation) -> &'static str {
    match op {
        Operation::Read => "; use --drop-caches, -C with ranks on other nodes, or O_DIRECT",
        Operation::FileRead => "; use --drop-caches, or -N with ranks on other nodes",
        _ => "; use --drop-caches (as root it drops the node's caches)",
    }
}

fn dataset_fits_memory(doc: &RunResult, p: &PhaseResult, t: &Thresholds) -> Option<Alert> {
    let factor = t.get(AlertId::DatasetFitsMemory)?;
    written_by(p.operation)?;
    let memory = doc.environment.memory_bytes;
    let applies = p.page_cache.as_ref().is_none_or(|c| c.applies());
    if !applies || p.bytes == 0 || memory == 0 {
        return None;
    }
    let nodes = doc.ranks.nodes.max(1);
    let per_node = p.bytes / nodes;
    ((per_node as f64) < factor * memory as f64).then(|| {
        Alert::new(
            AlertId::DatasetFitsMemory,
            format!(
                "{}: the data read, {:.2} MiB per node, is less than {factor}× a node's memory \
                 ({:.2} GiB): the page cache can hold all of it; read more data than the nodes' \
                 memory for a figure of the storage",
                phase_label(p),
                per_node as f64 / MIB,
                memory as f64 / GIB
            ),
        )
        .with("bytes_per_node", per_node)
        .with("memory_bytes", memory)
        .with("nodes", nodes)
        .with("factor", factor)
    })
}

fn read_faster_than_write(doc: &RunResult, p: &PhaseResult, t: &Thresholds) -> Option<Alert> {
    let max = t.get(AlertId::ReadFasterThanWrite)?;
    let writer = written_by(p.operation)?;
    // The write of the same data: the latest earlier one of the iteration with the same bytes.
    let w = doc.phases.iter().rev().find(|w| {
        w.operation == writer && w.iteration == p.iteration && w.bytes == p.bytes && w.bytes > 0
    })?;
    if w.bandwidth_mib_s <= 0.0 {
        return None;
    }
    let ratio = p.bandwidth_mib_s / w.bandwidth_mib_s;
    (ratio > max).then(|| {
        Alert::new(
            AlertId::ReadFasterThanWrite,
            format!(
                "{}: {ratio:.1}× the bandwidth of {} on the same data ({:.1} against {:.1} \
                 MiB/s): reads this much faster than writes usually come from a cache",
                phase_label(p),
                phase_label(w),
                p.bandwidth_mib_s,
                w.bandwidth_mib_s
            ),
        )
        .with("read_mib_s", p.bandwidth_mib_s)
        .with("write_mib_s", w.bandwidth_mib_s)
        .with("ratio", ratio)
        .with("threshold", max)
    })
}

#[cfg(test)]
#[path = "warnings_tests.rs"]
mod tests;
