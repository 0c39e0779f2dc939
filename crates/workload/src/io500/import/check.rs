//! Recomputing an imported run's scores from its phase values with the IO500's own formula
//! (`score::aggregate`) and saying where they disagree with what the files print.

use crate::io500::phases::{by_name, Group};
use crate::io500::score::{aggregate, Scored, Scores};

/// Half a unit of `%f`'s last digit: how far a printed value may be from the double it shows.
const HALF: f64 = 5e-7;

/// Notes on the aggregates of `[SCORE]` (or, `extended`, `[SCOREX]`) that the phase values
/// do not reproduce; `file` names where the printed figures come from. Empty when all agree.
pub fn scores(phases: &[(&str, f64)], printed: &Scores, extended: bool, file: &str) -> Vec<String> {
    let mut notes = Vec::new();
    let mut known = Vec::new();
    for &(name, score) in phases {
        match by_name(name) {
            Some(phase) => known.push(Scored { phase, score }),
            // Phases of older IO500 versions (ior-rnd4K-write, ...): no group known here.
            None if extended => notes.push(format!(
                "phase {name} is not in this iogauge's IO500 table: [SCOREX] is recomputed without it"
            )),
            None => {}
        }
    }
    let again = aggregate(&known, extended);
    let values = |group: Group| -> Vec<f64> {
        known
            .iter()
            .filter(|m| m.phase.group == group && (extended || !m.phase.optional()))
            .map(|m| m.score)
            .collect()
    };
    let bw_slack = slack(&values(Group::Bw), again.bw);
    let md_slack = slack(&values(Group::Md), again.md);
    // TOTAL = sqrt(BW * MD): half of each relative error, plus its own printing.
    let rel = |s: f64, v: f64| if v > 0.0 { s / v } else { 0.0 };
    let total_slack =
        again.total * (rel(bw_slack, again.bw) + rel(md_slack, again.md)) / 2.0 + HALF;
    let section = if extended { "SCOREX" } else { "SCORE" };
    for (name, mine, theirs, allowed) in [
        ("BW", again.bw, printed.bw, bw_slack),
        ("MD", again.md, printed.md, md_slack),
        ("SCORE", again.total, printed.total, total_slack),
    ] {
        // Written so that a figure that did not parse (NaN) disagrees too.
        let agrees = (mine - theirs).abs() <= allowed;
        if !agrees {
            notes.push(format!(
                "[{section}] {name}: the phase scores give {mine:.6}, {file} says {theirs:.6}"
            ));
        }
    }
    notes
}

/// The largest difference between a geometric mean `mean` of `values` as printed and the
/// IO500's from the unrounded doubles: each value may be off by HALF (a relative error that
/// the mean passes on averaged), the printed mean by HALF more.
fn slack(values: &[f64], mean: f64) -> f64 {
    let positive: Vec<f64> = values.iter().copied().filter(|v| *v > 0.0).collect();
    if positive.is_empty() {
        return HALF;
    }
    let rel = positive.iter().map(|v| HALF / v).sum::<f64>() / positive.len() as f64;
    mean * (rel + 1e-12) + HALF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_printed_sc24_figures_agree_and_a_changed_one_does_not() {
        let phases: Vec<(&str, f64)> = crate::io500::sc24_tests::S731.to_vec();
        let printed = Scores {
            bw: 127.506288,
            md: 290.299474,
            total: 192.392849,
        };
        assert_eq!(
            scores(&phases, &printed, false, "result.txt"),
            Vec::<String>::new()
        );
        let off = Scores {
            md: 290.3,
            ..printed
        };
        let notes = scores(&phases, &off, false, "result.txt");
        assert_eq!(notes.len(), 1, "{notes:?}"); // the printed TOTAL still agrees
        assert_eq!(
            notes[0],
            "[SCORE] MD: the phase scores give 290.299473, result.txt says 290.300000"
        );
    }

    #[test]
    fn skewed_values_widen_the_allowance() {
        // 0.01 printed may stand for 0.0099995: a geometric mean with 10000 moves by 2.5e-4.
        let phases = [("ior-easy-write", 0.01), ("ior-easy-read", 10000.0)];
        let s = |bw: f64| Scores {
            bw,
            md: 0.0,
            total: 0.0,
        };
        assert!(scores(&phases, &s(9.99975), false, "f").is_empty());
        assert_eq!(scores(&phases, &s(9.9990), false, "f").len(), 1);
    }
}
