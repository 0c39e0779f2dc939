//! The SC24 reproduction (reference §9): the per-phase values of official submissions 722 and
//! 731, as printed in their result_summary.txt, give the printed BW / MD / TOTAL (within the
//! ±1e-6 the `%f` rounding of the inputs allows) and, from the `%f` strings, the exact score
//! hashes of their result.txt. The SC24 talk's rounded values agree to one decimal.

use super::format::cf;
use super::hash;
use super::phases::by_name;
use super::score::{aggregate, Scored, Scores};

type Vector = [(&'static str, f64); 12];

const S722: Vector = [
    ("ior-easy-write", 151.096382),
    ("mdtest-easy-write", 191.178970),
    ("ior-hard-write", 28.274478),
    ("mdtest-hard-write", 24.390204),
    ("find", 7516.716898),
    ("ior-easy-read", 284.203357),
    ("mdtest-easy-stat", 571.343765),
    ("ior-hard-read", 107.516766),
    ("mdtest-hard-stat", 272.657039),
    ("mdtest-easy-delete", 165.275025),
    ("mdtest-hard-read", 321.637907),
    ("mdtest-hard-delete", 29.443611),
];

/// Submission 731 (io500-sc24_v1), the `%f` strings of its result.txt; also used by `hash`'s tests.
pub(super) const S731: Vector = [
    ("ior-easy-write", 148.001603),
    ("mdtest-easy-write", 322.913191),
    ("ior-hard-write", 44.193659),
    ("mdtest-hard-write", 27.571390),
    ("find", 12203.137716),
    ("ior-easy-read", 310.400939),
    ("mdtest-easy-stat", 961.905678),
    ("ior-hard-read", 130.189815),
    ("mdtest-hard-stat", 327.164624),
    ("mdtest-easy-delete", 133.655903),
    ("mdtest-hard-read", 305.670500),
    ("mdtest-hard-delete", 36.108839),
];

fn scored(v: &Vector) -> Vec<Scored<'static>> {
    // The unscored timestamp phase is part of every run; it must not change anything.
    let mut out: Vec<Scored> = v
        .iter()
        .map(|&(n, s)| Scored {
            phase: by_name(n).unwrap(),
            score: s,
        })
        .collect();
    out.push(Scored {
        phase: by_name("timestamp").unwrap(),
        score: 0.0,
    });
    out
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn aggregates_reproduce_the_printed_scores() {
    for (v, bw, md, total) in [
        (&S722, 106.890354, 232.525419, 157.653812),
        (&S731, 127.506288, 290.299474, 192.392849),
    ] {
        let s = aggregate(&scored(v), false);
        assert!(close(s.bw, bw, 1.5e-6), "BW {} vs {bw}", s.bw);
        assert!(close(s.md, md, 1.5e-6), "MD {} vs {md}", s.md);
        assert!(
            close(s.total, total, 1.5e-6),
            "TOTAL {} vs {total}",
            s.total
        );
    }
}

#[test]
fn the_sc24_talk_rounds_the_same() {
    for (v, bw, md, total) in [(&S722, 106.9, 232.5, 157.7), (&S731, 127.5, 290.3, 192.4)] {
        let s = aggregate(&scored(v), false);
        let r1 = |x: f64| (x * 10.0).round() / 10.0;
        assert_eq!((r1(s.bw), r1(s.md), r1(s.total)), (bw, md, total));
    }
}

#[test]
fn score_hashes_match_result_txt() {
    for (v, version, printed, expect) in [
        (
            &S722,
            "io500-isc24_v3",
            (106.890354, 232.525419, 157.653812),
            "F01BF8AA",
        ),
        (
            &S731,
            "io500-sc24_v1",
            (127.506288, 290.299474, 192.392849),
            "F69F17DE",
        ),
    ] {
        // The hash covers the printed `%f` strings of the aggregates, not recomputed doubles.
        let s = Scores {
            bw: printed.0,
            md: printed.1,
            total: printed.2,
        };
        let h = hash::standard(version, &scored(v), &s, true);
        assert_eq!(format!("{h:X}"), expect, "{version}");
        assert_eq!(cf(s.total), format!("{:.6}", printed.2));
    }
}
