use super::*;
use crate::table::{Matrix, Sample};
use crate::values::Axis;
use proptest::prelude::*;

fn axis(name: &str, values: &[&str]) -> Axis {
    Axis {
        name: name.into(),
        values: values.iter().map(|s| s.to_string()).collect(),
    }
}

/// One axis, each value with its repeats' write figures.
fn curve(name: &str, points: &[(&str, &[f64])]) -> Matrix {
    curve_of(name, ("write", "MiB/s"), points)
}

/// One axis, each value with its repeats' values of figure (name, unit).
fn curve_of(name: &str, figure: (&str, &str), points: &[(&str, &[f64])]) -> Matrix {
    let values: Vec<&str> = points.iter().map(|p| p.0).collect();
    let mut samples = Vec::new();
    for (v, reps) in points {
        for (i, w) in reps.iter().enumerate() {
            samples.push(Sample {
                values: vec![v.to_string()],
                repeat: i as u32 + 1,
                run: 0,
                figures: vec![(figure.0.into(), figure.1.into(), *w)],
            });
        }
    }
    let repeats = points.iter().map(|p| p.1.len()).max().unwrap_or(1) as u32;
    Matrix::build(&[axis(name, &values)], repeats, &samples)
}

fn of(f: &[Finding], kind: Kind) -> Vec<&Finding> {
    f.iter().filter(|x| x.kind == kind).collect()
}

#[test]
fn a_curve_with_a_known_knee() {
    let m = curve(
        "tasks",
        &[
            ("1", &[100.0]),
            ("2", &[200.0]),
            ("4", &[400.0]),
            ("8", &[410.0]),
            ("16", &[415.0]),
        ],
    );
    let f = advise(&m, DEFAULT_THRESHOLD_PERCENT);
    let best = of(&f, Kind::Best);
    assert_eq!(best.len(), 1);
    assert_eq!(best[0].value, "16");
    assert!(
        best[0]
            .text
            .contains("next tasks=8 at 410.0 MiB/s (-1.2 %)"),
        "{}",
        best[0].text
    );
    let knee = of(&f, Kind::DiminishingReturns);
    assert_eq!(knee[0].value, "4", "{f:#?}");
    assert!(
        knee[0]
            .text
            .contains("from 400.0 MiB/s to 410.0 MiB/s (+2.5 %"),
        "{}",
        knee[0].text
    );
    assert!(knee[0]
        .text
        .contains("each doubling before it improved it by 100.0 % or more"));
    let sat = of(&f, Kind::Saturation);
    assert_eq!(sat[0].value, "4");
    assert!(of(&f, Kind::Decline).is_empty());
    assert!(
        of(&f, Kind::NotSignificant).is_empty(),
        "one repeat: nothing to judge"
    );
}

#[test]
fn the_threshold_moves_the_knee() {
    let m = curve(
        "t",
        &[
            ("1k", &[100.0]),
            ("2k", &[150.0]),
            ("4k", &[180.0]),
            ("8k", &[200.0]),
        ],
    );
    let at = |th| {
        of(&advise(&m, th), Kind::DiminishingReturns)
            .first()
            .map(|f| f.value.clone())
    };
    assert_eq!(at(5.0), None, "every doubling adds 11 % or more");
    assert_eq!(at(15.0), Some("4k".to_string()), "4k to 8k adds 11 %");
    assert_eq!(at(25.0), Some("2k".to_string()), "2k to 4k adds 20 %");
    assert_eq!(at(60.0), Some("1k".to_string()));
}

#[test]
fn overlapping_repeats_are_not_significant() {
    let m = curve(
        "t",
        &[
            ("4k", &[90.0, 100.0, 110.0]),
            ("64k", &[105.0, 108.0, 112.0]),
        ],
    );
    let f = advise(&m, 5.0);
    assert_eq!(of(&f, Kind::Best)[0].value, "64k");
    let ns = of(&f, Kind::NotSignificant);
    assert_eq!(ns.len(), 1);
    assert!(
        ns[0]
            .text
            .contains("t=64k [105.0–112.0] overlap those of t=4k [90.00–110.0]"),
        "{}",
        ns[0].text
    );
    let apart = curve("t", &[("4k", &[90.0, 100.0]), ("64k", &[105.0, 112.0])]);
    assert!(of(&advise(&apart, 5.0), Kind::NotSignificant).is_empty());
}

#[test]
fn decline_after_the_peak_and_words_have_no_order() {
    let m = curve(
        "tasks",
        &[("1", &[100.0]), ("2", &[300.0]), ("4", &[200.0])],
    );
    let f = advise(&m, 5.0);
    let d = of(&f, Kind::Decline);
    assert_eq!(d[0].value, "2");
    assert!(d[0].text.contains("(-33.3 %)"), "{}", d[0].text);
    let flags = curve("F", &[("on", &[100.0]), ("off", &[300.0])]);
    let f = advise(&flags, 5.0);
    assert_eq!(of(&f, Kind::Best)[0].value, "off");
    assert_eq!(f.len(), 1, "no order, no knee: {f:#?}");
}

#[test]
fn one_curve_per_value_of_the_other_parameter() {
    let axes = [axis("tasks", &["1", "2"]), axis("t", &["4k", "1m"])];
    let mut samples = Vec::new();
    for (tasks, t, w) in [
        ("1", "4k", 10.0),
        ("2", "4k", 30.0),
        ("1", "1m", 100.0),
        ("2", "1m", 101.0),
    ] {
        samples.push(Sample {
            values: vec![tasks.into(), t.into()],
            repeat: 1,
            run: 0,
            figures: vec![("write".into(), "MiB/s".into(), w)],
        });
    }
    let f = advise(&Matrix::build(&axes, 1, &samples), 5.0);
    let tasks: Vec<&Finding> = f
        .iter()
        .filter(|x| x.parameter == "tasks" && x.kind == Kind::DiminishingReturns)
        .collect();
    assert_eq!(tasks.len(), 1, "{f:#?}");
    assert_eq!(tasks[0].context, [("t".to_string(), "1m".to_string())]);
    assert!(tasks[0]
        .text
        .starts_with("write MiB/s (with t=1m): diminishing returns from tasks=1"));
}

#[test]
fn a_time_is_best_where_it_is_shortest() {
    // A start-up's time until the last rank is done, against the files of its tree.
    let m = curve_of(
        "files",
        ("tree-read", "s"),
        &[("2", &[0.0002]), ("50", &[0.0009]), ("400", &[0.0018])],
    );
    let f = advise(&m, 5.0);
    let best = of(&f, Kind::Best);
    assert_eq!(best[0].value, "2", "{f:#?}");
    assert!(best[0].text.contains("200.0 µs"), "{}", best[0].text);
    // Longer with every step: a decline from the best, not a saturation.
    let d = of(&f, Kind::Decline);
    assert_eq!(d[0].value, "2", "{f:#?}");
    assert!(d[0].text.contains("grows after files=2"), "{}", d[0].text);
    assert!(of(&f, Kind::Saturation).is_empty());
    // Halving the time per doubling is an improvement of 100 %: no diminishing return.
    let m = curve_of(
        "tasks",
        ("common-read", "s"),
        &[("1", &[8.0]), ("2", &[4.0]), ("4", &[2.0]), ("8", &[1.98])],
    );
    let f = advise(&m, 5.0);
    assert_eq!(of(&f, Kind::Best)[0].value, "8");
    assert_eq!(of(&f, Kind::DiminishingReturns)[0].value, "4", "{f:#?}");
}

#[test]
fn a_plateau_that_dips_is_a_diminishing_return_and_a_lone_point_no_plateau() {
    let m = curve(
        "tasks",
        &[
            ("1", &[100.0]),
            ("2", &[200.0]),
            ("4", &[199.0]),
            ("8", &[201.0]),
        ],
    );
    let f = advise(&m, 5.0);
    assert_eq!(of(&f, Kind::DiminishingReturns)[0].value, "2", "{f:#?}");
    assert_eq!(of(&f, Kind::Saturation)[0].value, "2", "{f:#?}");
    // A dip followed by a jump: no value from which every step stays under the threshold.
    let m = curve(
        "tasks",
        &[
            ("1", &[100.0]),
            ("2", &[200.0]),
            ("4", &[198.0]),
            ("8", &[420.0]),
        ],
    );
    assert!(of(&advise(&m, 5.0), Kind::DiminishingReturns).is_empty());
    // 4 % a doubling: diminishing from the start, but only one value after 4, so no plateau
    // there, and 112 is 7.7 % above 104.
    let m = curve(
        "tasks",
        &[
            ("1", &[100.0]),
            ("2", &[104.0]),
            ("4", &[108.0]),
            ("8", &[112.0]),
        ],
    );
    let f = advise(&m, 5.0);
    assert_eq!(of(&f, Kind::DiminishingReturns)[0].value, "1", "{f:#?}");
    assert!(of(&f, Kind::Saturation).is_empty(), "{f:#?}");
}

proptest! {
    /// The best value has the highest median; not-significant is said exactly when another
    /// value's repeats overlap the best's; the knee is the first doubling under the threshold.
    #[test]
    fn findings_agree_with_the_numbers(
        reps in proptest::collection::vec(proptest::collection::vec(1.0f64..1000.0, 2..4), 2..6),
        th in 1.0f64..50.0,
    ) {
        let names: Vec<String> = (0..reps.len()).map(|i| (1u64 << i).to_string()).collect();
        let points: Vec<(&str, &[f64])> =
            names.iter().zip(&reps).map(|(n, r)| (n.as_str(), r.as_slice())).collect();
        let m = curve("tasks", &points);
        let f = advise(&m, th);
        let stats: Vec<Stats> = m.rows.iter().map(|r| r.cells[0].unwrap()).collect();
        let best = of(&f, Kind::Best)[0];
        let bi = names.iter().position(|n| *n == best.value).unwrap();
        prop_assert!(stats.iter().all(|s| s.median <= stats[bi].median));
        let overlap = stats.iter().enumerate().any(|(i, s)| i != bi && crate::stats::overlaps(s, &stats[bi]));
        prop_assert_eq!(overlap, !of(&f, Kind::NotSignificant).is_empty());
        // Each step doubles the parameter: the gain per doubling is the ratio of medians.
        let gains: Vec<f64> = stats.windows(2).map(|w| w[1].median / w[0].median - 1.0).collect();
        let first_low = (0..gains.len()).find(|&i| gains[i..].iter().all(|g| *g < th / 100.0));
        let knee = of(&f, Kind::DiminishingReturns).first().map(|k| k.value.clone());
        prop_assert_eq!(knee, first_low.map(|i| names[i].clone()));
        for s in of(&f, Kind::Saturation) {
            let i = names.iter().position(|n| *n == s.value).unwrap();
            prop_assert!(stats.len() - i > 2, "two later values at least");
            prop_assert!(stats[i + 1..]
                .iter()
                .all(|q| (q.median - stats[i].median).abs() <= stats[i].median * th / 100.0));
        }
    }
}
