//! Compare arithmetic on crafted documents: percent difference, the direction of each figure,
//! the baseline with three runs, min/median/max over iterations, the trend rule.

use crate::docs::{crafted, infos, phase, runs, with_latency, with_time, writes};
use report::{compare, Delta, Direction, Metric, Spread, Trend, Verdict};
use results::Operation;

fn row<'a>(c: &'a report::Comparison, phase: &str, m: Metric) -> &'a report::MetricRow {
    c.phases
        .iter()
        .find(|p| p.phase == phase)
        .unwrap_or_else(|| panic!("no phase {phase}"))
        .rows
        .iter()
        .find(|r| r.metric == m)
        .unwrap_or_else(|| panic!("no {m:?} in {phase}"))
}

#[test]
fn percent_difference_and_direction() {
    let a = with_time(
        with_latency(phase(Operation::Write, 0, 200.0, 1000.0), 400, 4000),
        2.0,
    );
    let b = with_time(
        with_latency(phase(Operation::Write, 0, 150.0, 1300.0), 500, 3000),
        1.0,
    );
    let docs = vec![crafted(2, 1, vec![a]), crafted(2, 1, vec![b])];
    let infos = infos(2);
    let c = compare(&runs(&docs, &infos));
    let delta = |m| row(&c, "write", m).cells[1].delta.expect("a delta");
    // (150 - 200) / 200: lower bandwidth is worse.
    assert_eq!(
        delta(Metric::BandwidthMibS).percent,
        (150.0 - 200.0) / 200.0 * 100.0
    );
    assert_eq!(delta(Metric::BandwidthMibS).verdict, Verdict::Worse);
    assert_eq!(delta(Metric::Iops).verdict, Verdict::Better);
    // Shorter time and lower latency are better, higher latency worse.
    assert_eq!(delta(Metric::TimeS).percent, (1.0 - 2.0) / 2.0 * 100.0);
    assert_eq!(delta(Metric::TimeS).verdict, Verdict::Better);
    assert_eq!(delta(Metric::LatencyP50Ns).verdict, Verdict::Worse);
    assert_eq!(delta(Metric::LatencyP99Ns).verdict, Verdict::Better);
    assert_eq!(
        row(&c, "write", Metric::BandwidthMibS).cells[0].delta,
        None,
        "baseline"
    );
    assert_eq!(Metric::LatencyP99Ns.direction(), Direction::LowerIsBetter);
    assert_eq!(Metric::ScoreKiops.direction(), Direction::HigherIsBetter);
}

#[test]
fn small_changes_are_the_same_and_zero_baselines_have_no_percentage() {
    let d = Delta::between(1000.0, 1005.0, Direction::HigherIsBetter).unwrap();
    assert_eq!(d.verdict, Verdict::Same);
    assert!(d.text().contains('≈'));
    let d = Delta::between(1000.0, 1020.0, Direction::HigherIsBetter).unwrap();
    assert_eq!((d.verdict, d.text().as_str()), (Verdict::Better, "+2.0% ▲"));
    assert_eq!(Delta::between(0.0, 5.0, Direction::HigherIsBetter), None);
}

#[test]
fn three_runs_compare_against_the_first() {
    let docs = vec![
        crafted(2, 1, writes(&[100.0])),
        crafted(2, 1, writes(&[150.0])),
        crafted(2, 1, writes(&[50.0])),
    ];
    let infos = infos(3);
    let c = compare(&runs(&docs, &infos));
    assert_eq!(c.runs[0].id, "a");
    let r = row(&c, "write", Metric::BandwidthMibS);
    assert_eq!(r.cells[1].delta.unwrap().percent, 50.0);
    assert_eq!(r.cells[2].delta.unwrap().percent, -50.0);
    // Against the first run, not against the previous one.
    assert_eq!(r.cells[2].delta.unwrap().verdict, Verdict::Worse);
}

#[test]
fn phases_match_by_name_and_missing_ones_stay_empty() {
    let mut only_b = phase(Operation::Read, 0, 80.0, 10.0);
    only_b.io500_phase = None;
    let docs = vec![
        crafted(2, 1, writes(&[100.0])),
        crafted(2, 1, [writes(&[110.0]), vec![only_b]].concat()),
    ];
    let infos = infos(2);
    let c = compare(&runs(&docs, &infos));
    let keys: Vec<&str> = c.phases.iter().map(|p| p.phase.as_str()).collect();
    assert_eq!(keys, ["write", "read"]);
    let read = row(&c, "read", Metric::BandwidthMibS);
    assert_eq!(read.cells[0].spread, None);
    assert_eq!(read.cells[1].delta, None, "no baseline to compare with");
}

#[test]
fn iterations_give_min_median_max() {
    let docs = vec![
        crafted(2, 1, writes(&[120.0, 100.0, 300.0, 110.0])),
        crafted(2, 1, writes(&[90.0, 200.0, 95.0])),
    ];
    let infos = infos(2);
    let c = compare(&runs(&docs, &infos));
    let r = row(&c, "write", Metric::BandwidthMibS);
    let a = r.cells[0].spread.unwrap();
    assert_eq!(
        (a.min, a.median, a.max, a.n),
        (100.0, (110.0 + 120.0) / 2.0, 300.0, 4)
    );
    let b = r.cells[1].spread.unwrap();
    assert_eq!((b.min, b.median, b.max, b.n), (90.0, 95.0, 200.0, 3));
    // The change compares the medians.
    assert_eq!(
        r.cells[1].delta.unwrap().percent,
        (95.0 - 115.0) / 115.0 * 100.0
    );
    assert_eq!(Spread::of(&[]), None);
}

#[test]
fn the_trend_rule() {
    let hi = Direction::HigherIsBetter;
    // Ten back-to-back writes drifting from 164 down to 94: degrading by (164-94)/164.
    let drop = [
        164.0, 160.0, 151.0, 155.0, 140.0, 131.0, 120.0, 118.0, 101.0, 94.0,
    ];
    match Trend::of(&drop, hi) {
        Trend::Degrading { percent } => assert_eq!(percent, (164.0 - 94.0) / 164.0 * 100.0),
        t => panic!("expected degrading, got {t:?}"),
    }
    // One slow last iteration is not a trend (one step of nine goes down).
    let outlier = [
        160.0, 161.0, 159.0, 160.0, 162.0, 160.0, 161.0, 160.0, 159.0, 80.0,
    ];
    assert_eq!(Trend::of(&outlier, hi), Trend::Steady);
    // Too small a change, or too few iterations.
    assert_eq!(Trend::of(&[100.0, 97.0, 95.0, 92.0], hi), Trend::Steady);
    assert_eq!(Trend::of(&[100.0, 50.0], hi), Trend::Steady);
    // A cold first write followed by warm ones improves.
    assert!(matches!(
        Trend::of(&[95.0, 3662.0, 3700.0], hi),
        Trend::Improving { .. }
    ));
    // For latencies rising is degrading.
    let lat = [1000.0, 1200.0, 1500.0];
    assert!(matches!(
        Trend::of(&lat, Direction::LowerIsBetter),
        Trend::Degrading { .. }
    ));
    assert!(matches!(Trend::of(&lat, hi), Trend::Improving { .. }));
}

#[test]
fn comparison_carries_the_trend_of_each_run() {
    let docs = vec![crafted(2, 1, writes(&[164.0, 150.0, 120.0, 94.0]))];
    let infos = infos(1);
    let c = compare(&runs(&docs, &infos));
    let cell = &row(&c, "write", Metric::BandwidthMibS).cells[0];
    assert!(matches!(cell.trend, Trend::Degrading { .. }));
    assert!(cell.trend.note().starts_with("degrading"));
}

#[test]
fn io500_phases_match_by_their_names_and_scores_compare() {
    use results::io500::ScoreUnit::{GibPerS, Kiops};
    let a = crate::docs::io500(
        &[
            ("ior-easy-write", Operation::Write, 2.0, GibPerS),
            ("ior-hard-write", Operation::Write, 0.5, GibPerS),
            ("mdtest-easy-write", Operation::FileCreate, 40.0, Kiops),
        ],
        [1.0, 40.0, 6.3],
    );
    let b = crate::docs::io500(
        &[
            ("ior-easy-write", Operation::Write, 3.0, GibPerS),
            ("ior-hard-write", Operation::Write, 0.25, GibPerS),
            ("mdtest-easy-write", Operation::FileCreate, 40.0, Kiops),
        ],
        [0.9, 40.0, 6.0],
    );
    let docs = vec![a, b];
    let infos = infos(2);
    let c = compare(&runs(&docs, &infos));
    let keys: Vec<&str> = c.phases.iter().map(|p| p.phase.as_str()).collect();
    assert_eq!(
        keys,
        ["ior-easy-write", "ior-hard-write", "mdtest-easy-write"]
    );
    assert_eq!(
        row(&c, "ior-easy-write", Metric::ScoreGibS).cells[1]
            .delta
            .unwrap()
            .percent,
        50.0
    );
    assert_eq!(
        row(&c, "ior-hard-write", Metric::ScoreGibS).cells[1]
            .delta
            .unwrap()
            .percent,
        -50.0
    );
    assert_eq!(
        row(&c, "mdtest-easy-write", Metric::ScoreKiops).cells[1]
            .delta
            .unwrap()
            .verdict,
        Verdict::Same
    );
    let total = c
        .io500
        .iter()
        .find(|r| r.metric == Metric::Io500Total)
        .unwrap();
    assert_eq!(
        total.cells[1].delta.unwrap().percent,
        (6.0 - 6.3) / 6.3 * 100.0
    );
}

#[test]
fn rows_zero_in_every_run_are_left_out_and_figures_select() {
    let docs = vec![
        crafted(2, 1, vec![phase(Operation::Write, 0, 100.0, 0.0)]),
        crafted(2, 1, vec![phase(Operation::Write, 0, 90.0, 0.0)]),
    ];
    let infos = infos(2);
    let mut c = compare(&runs(&docs, &infos));
    let metrics: Vec<Metric> = c.phases[0].rows.iter().map(|r| r.metric).collect();
    assert!(metrics.contains(&Metric::BandwidthMibS));
    assert!(!metrics.contains(&Metric::Iops), "{metrics:?}");
    c.keep(&report::Figures::parse("iops").unwrap());
    assert!(c.phases.is_empty(), "no IOPS row is left, nor its phase");
}

#[test]
fn more_than_three_runs_take_the_compact_layout() {
    let docs: Vec<_> = [100.0, 96.9, 110.0, 100.2]
        .iter()
        .map(|&bw| crafted(2, 1, vec![phase(Operation::Write, 0, bw, bw * 10.0)]))
        .collect();
    let mut infos = infos(4);
    for (i, info) in infos.iter_mut().enumerate() {
        info.labels.insert("mds".into(), (i + 1).to_string());
    }
    let c = compare(&runs(&docs, &infos));
    let table = report::render(&c, report::Format::Table);
    let figures = &table[table.find("Figures:").unwrap()..];
    let header = figures.lines().nth(2).unwrap();
    assert_eq!(
        header.matches('┆').count(),
        2 + 4 - 1,
        "one column per run: {header}"
    );
    assert!(!figures.contains("vs baseline"), "{figures}");
    // Labels above the phases, the change in the run's own cell.
    let mds = figures.find("│ label ┆ mds ").expect("a row per label key");
    let write = figures.find("│ write ").unwrap();
    assert!(mds < write, "{figures}");
    assert!(figures.contains("(−3.1 % ▼)"), "{figures}");
    assert!(figures.contains("(+10.0 % ▲)"), "{figures}");
    // Three runs keep the wide layout.
    let three = compare(&runs(&docs[..3], &infos[..3]));
    assert!(report::render(&three, report::Format::Table).contains("vs baseline"));
}
