//! DLIO's question of a sweep over the ranks (`iogauge sweep --vary tasks=1..16 dlio ...`):
//! how many emulated accelerators the storage keeps busy, i.e. the most ranks whose runs keep
//! the accelerator utilisation (AU) at or above the workload's `metric.au` in every repeat.

use crate::advice::{Finding, Kind};
use crate::values::numeric;

/// One stored dlio run of a sweep: the varied parameter's value and the run's mean AU.
#[derive(Debug, Clone, PartialEq)]
pub struct AuPoint {
    pub value: String,
    pub au_percent: f64,
    /// The workload's `metric.au`, in percent.
    pub threshold_percent: f64,
    pub run: i64,
}

/// The lowest AU of each value's repeats (a value passes only if every repeat does), in the
/// values' numeric order: (value, lowest AU, its run, threshold).
fn lowest_per_value(points: &[AuPoint]) -> Vec<(f64, &AuPoint)> {
    let mut lowest: Vec<(f64, &AuPoint)> = Vec::new();
    for p in points {
        let Some(v) = numeric(&p.value) else { continue };
        match lowest.iter_mut().find(|(x, _)| *x == v) {
            Some(slot) if p.au_percent < slot.1.au_percent => slot.1 = p,
            Some(_) => {}
            None => lowest.push((v, p)),
        }
    }
    lowest.sort_by(|a, b| a.0.total_cmp(&b.0));
    lowest
}

/// The finding: the largest value whose every repeat keeps AU ≥ the threshold, with the next
/// larger value's AU when one was measured; or that none does. `None` without dlio runs.
pub fn most_accelerators(parameter: &str, points: &[AuPoint]) -> Option<Finding> {
    let lowest = lowest_per_value(points);
    let threshold = lowest.first()?.1.threshold_percent;
    let best = lowest
        .iter()
        .rposition(|(_, p)| p.au_percent >= p.threshold_percent);
    let (value, text) = match best {
        Some(i) => {
            let (_, p) = lowest[i];
            let mut text = format!(
                "{parameter} = {}: the most emulated accelerators with AU ≥ {threshold:.0} % in \
                 every repeat (lowest AU {:.1} %, run {})",
                p.value, p.au_percent, p.run
            );
            if let Some((_, next)) = lowest.get(i + 1) {
                text.push_str(&format!(
                    "; at {} AU falls to {:.1} % (run {})",
                    next.value, next.au_percent, next.run
                ));
            }
            (p.value.clone(), text)
        }
        None => {
            let (_, p) = lowest[0];
            let text = format!(
                "no value of {parameter} keeps AU ≥ {threshold:.0} %: at {} it is {:.1} % (run {})",
                p.value, p.au_percent, p.run
            );
            (p.value.clone(), text)
        }
    };
    Some(Finding {
        parameter: parameter.to_string(),
        figure: "AU %".to_string(),
        context: Vec::new(),
        kind: Kind::MostAccelerators,
        value,
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(value: &str, au: f64, run: i64) -> AuPoint {
        AuPoint {
            value: value.into(),
            au_percent: au,
            threshold_percent: 90.0,
            run,
        }
    }

    #[test]
    fn the_largest_value_whose_every_repeat_passes() {
        let points = [
            p("1", 99.0, 1),
            p("2", 97.0, 2),
            p("4", 93.0, 3),
            p("4", 89.5, 4),
            p("8", 60.0, 5),
            p("2", 95.0, 6),
        ];
        let f = most_accelerators("tasks", &points).unwrap();
        assert_eq!(f.kind, Kind::MostAccelerators);
        assert_eq!(f.value, "2");
        assert_eq!(
            f.text,
            "tasks = 2: the most emulated accelerators with AU ≥ 90 % in every repeat (lowest AU \
             95.0 %, run 6); at 4 AU falls to 89.5 % (run 4)"
        );
    }

    #[test]
    fn none_passing_and_no_runs() {
        let f = most_accelerators("tasks", &[p("16", 40.0, 9), p("8", 70.0, 8)]).unwrap();
        assert_eq!(f.value, "8");
        assert!(
            f.text
                .starts_with("no value of tasks keeps AU ≥ 90 %: at 8 it is 70.0 %"),
            "{}",
            f.text
        );
        assert!(most_accelerators("tasks", &[]).is_none());
    }
}
