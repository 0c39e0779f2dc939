//! Marks: timestamped notes put into a running run from outside (`iogauge mark "disk 3
//! pulled"`), and the figures of a phase before, between and after them (the rebuild story:
//! "during: −37 %, after: −1.8 % against before"), computed from the phase's interval series.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::PhaseResult;

/// One mark, as the run received it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, JsonSchema)]
pub struct Mark {
    pub text: String,
    /// RFC 3339 UTC, when the run received it.
    pub time: String,
    /// Seconds since the run started.
    pub elapsed_s: f64,
    /// The index in `phases` of the phase running when it came; absent between phases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<usize>,
    /// Seconds from that phase's start event, which rank 0 sends just before the phase's
    /// opening barrier: its series' times are later by that barrier's wait (milliseconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase_t_s: Option<f64>,
}

/// A stretch of a phase between marks, with its throughput and the change against the first.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Stretch {
    /// `before "A"`, `between "A" and "B"`, `after "B"`.
    pub label: String,
    pub from_s: f64,
    pub to_s: f64,
    pub bytes: u64,
    pub ops: u64,
    pub mib_s: f64,
    pub ops_s: f64,
    /// Change of the stretch's rate (MiB/s where the phase moved bytes, else ops/s) against
    /// the first stretch, in percent; absent for the first and where that one is zero.
    pub change_pct: Option<f64>,
}

/// The stretches of phase `index` of a run cut at the marks that fell inside it (none with
/// no such mark). Each series bucket counts in the stretch its start falls in: a mark cuts
/// at the interval's resolution (1 s, wider in a very long phase), which `from_s`/`to_s` say.
pub fn stretches(phase: &PhaseResult, index: usize, marks: &[Mark]) -> Vec<Stretch> {
    let mut cuts: Vec<(&str, f64)> = marks
        .iter()
        .filter(|m| m.phase == Some(index))
        .filter_map(|m| m.phase_t_s.map(|t| (m.text.as_str(), t)))
        .collect();
    if cuts.is_empty() || phase.series.buckets.is_empty() {
        return Vec::new();
    }
    cuts.sort_by(|a, b| a.1.total_cmp(&b.1));
    let width = phase.series.interval_s.max(f64::MIN_POSITIVE);
    // Cut times snapped to the interval boundaries the buckets have.
    let snap = |t: f64| (t / width).round() * width;
    let end = phase
        .series
        .buckets
        .last()
        .map_or(0.0, |b| b.t_s + width)
        .max(phase.times.total_s);
    let mut bounds = vec![0.0];
    bounds.extend(cuts.iter().map(|c| snap(c.1).clamp(0.0, end)));
    bounds.push(end);
    let labels = labels(&cuts);
    let by_bytes = phase.bytes > 0;
    let mut out: Vec<Stretch> = Vec::with_capacity(labels.len());
    for (i, label) in labels.into_iter().enumerate() {
        let (from, to) = (bounds[i], bounds[i + 1]);
        let last = i + 2 == bounds.len();
        let (bytes, ops) = phase
            .series
            .buckets
            .iter()
            .filter(|b| b.t_s >= from - 1e-9 && (b.t_s < to - 1e-9 || last))
            .fold((0, 0), |(by, op), b| (by + b.bytes, op + b.ops));
        let secs = to - from;
        let rate = |x: u64| if secs > 0.0 { x as f64 / secs } else { 0.0 };
        let mib_s = rate(bytes) / 1_048_576.0;
        let ops_s = rate(ops);
        let change_pct = out.first().and_then(|first: &Stretch| {
            let (base, now) = match by_bytes {
                true => (first.mib_s, mib_s),
                false => (first.ops_s, ops_s),
            };
            (base > 0.0).then(|| (now / base - 1.0) * 100.0)
        });
        out.push(Stretch {
            label,
            from_s: from,
            to_s: to,
            bytes,
            ops,
            mib_s,
            ops_s,
            change_pct,
        });
    }
    out
}

fn labels(cuts: &[(&str, f64)]) -> Vec<String> {
    let mut labels = vec![format!("before \"{}\"", cuts[0].0)];
    labels.extend(
        cuts.windows(2)
            .map(|w| format!("between \"{}\" and \"{}\"", w[0].0, w[1].0)),
    );
    labels.push(format!("after \"{}\"", cuts[cuts.len() - 1].0));
    labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Operation;
    use measure::{SeriesPoint, SeriesSummary};

    fn mark(text: &str, t: f64) -> Mark {
        Mark {
            text: text.into(),
            time: String::new(),
            elapsed_s: t,
            phase: Some(0),
            phase_t_s: Some(t),
        }
    }

    /// 100 MiB/s for 10 s, 63 MiB/s for 10 s, 98.2 MiB/s for 10 s (in MiB per 1 s bucket).
    fn rebuild_phase() -> PhaseResult {
        let mut p = PhaseResult::new(Operation::Write, 0);
        let rate = |i: u64| match i {
            0..10 => 100,
            10..20 => 63,
            _ => 982,
        };
        p.series = SeriesSummary {
            interval_s: 1.0,
            buckets: (0..30)
                .map(|i| SeriesPoint {
                    t_s: i as f64,
                    bytes: if i < 20 {
                        rate(i) << 20
                    } else {
                        (rate(i) << 20) / 10
                    },
                    ops: 1,
                })
                .collect(),
        };
        p.bytes = p.series.buckets.iter().map(|b| b.bytes).sum();
        p.times.total_s = 30.0;
        p
    }

    #[test]
    fn two_marks_give_before_between_and_after_with_changes() {
        let p = rebuild_phase();
        let marks = [mark("disk failed", 10.2), mark("rebuild done", 19.9)];
        let s = stretches(&p, 0, &marks);
        let labels: Vec<&str> = s.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "before \"disk failed\"",
                "between \"disk failed\" and \"rebuild done\"",
                "after \"rebuild done\""
            ]
        );
        assert_eq!(s[0].mib_s, 100.0);
        assert_eq!(s[0].change_pct, None);
        assert!((s[1].change_pct.unwrap() + 37.0).abs() < 1e-9);
        assert!((s[2].change_pct.unwrap() + 1.8).abs() < 0.01);
        assert_eq!(s.iter().map(|x| x.bytes).sum::<u64>(), p.bytes);
    }

    #[test]
    fn marks_of_other_phases_or_between_phases_cut_nothing() {
        let p = rebuild_phase();
        let mut other = mark("x", 5.0);
        other.phase = Some(1);
        let mut between = mark("y", 5.0);
        between.phase = None;
        assert!(stretches(&p, 0, &[other, between]).is_empty());
    }
}
