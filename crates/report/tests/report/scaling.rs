//! Scaling efficiency on crafted documents.

use crate::docs::{crafted, infos, phase, runs, writes};
use report::{scaling, ScaleBy, ScalingError};
use results::Operation;

#[test]
fn efficiency_against_the_smallest_count() {
    // Given out of order: 4 ranks, 1 rank, 2 ranks.
    let docs = vec![
        crafted(4, 1, writes(&[300.0])),
        crafted(1, 1, writes(&[100.0, 90.0, 110.0])),
        crafted(2, 1, writes(&[190.0])),
    ];
    let infos = infos(3);
    let s = scaling(&runs(&docs, &infos), None).unwrap();
    assert_eq!(s.by, ScaleBy::Ranks, "node counts are equal");
    let p = &s.phases[0];
    let counts: Vec<u64> = p.points.iter().map(|x| x.count).collect();
    assert_eq!(counts, [1, 2, 4]);
    let names: Vec<&str> = p.points.iter().map(|x| x.run.as_str()).collect();
    assert_eq!(names, ["b", "c", "a"]);
    // The reference is the 1-rank run's median per rank: 100.
    let per_unit_1 = 100.0 / 1.0;
    let expect = [(100.0, 1.0), (190.0, 2.0), (300.0, 4.0)];
    for (pt, (agg, n)) in p.points.iter().zip(expect) {
        assert_eq!(pt.aggregate, agg);
        assert_eq!(pt.per_unit, agg / n);
        assert_eq!(pt.efficiency, agg / (n * per_unit_1));
    }
}

#[test]
fn nodes_are_chosen_when_they_differ() {
    let docs = vec![
        crafted(8, 1, writes(&[100.0])),
        crafted(16, 2, writes(&[150.0])),
        crafted(32, 4, writes(&[360.0])),
    ];
    let infos = infos(3);
    let r = runs(&docs, &infos);
    let s = scaling(&r, None).unwrap();
    assert_eq!(s.by, ScaleBy::Nodes);
    let eff: Vec<f64> = s.phases[0].points.iter().map(|p| p.efficiency).collect();
    assert_eq!(eff, [1.0, 150.0 / (2.0 * 100.0), 360.0 / (4.0 * 100.0)]);
    // Asked for ranks, the same runs scale over ranks.
    let by_ranks = scaling(&r, Some(ScaleBy::Ranks)).unwrap();
    assert_eq!(by_ranks.phases[0].points[2].per_unit, 360.0 / 32.0);
}

#[test]
fn a_metadata_phase_scales_on_its_rate_and_equal_counts_are_refused() {
    let md = |ops: f64| vec![phase(Operation::FileCreate, 0, 0.0, ops)];
    let docs = vec![crafted(1, 1, md(1000.0)), crafted(3, 1, md(2400.0))];
    let infos = infos(2);
    let s = scaling(&runs(&docs, &infos), None).unwrap();
    assert_eq!(s.phases[0].metric, report::Metric::Iops);
    assert_eq!(s.phases[0].points[1].efficiency, 2400.0 / (3.0 * 1000.0));
    let same = vec![crafted(2, 1, md(1.0)), crafted(2, 1, md(2.0))];
    let infos = crate::docs::infos(2);
    assert_eq!(
        scaling(&runs(&same, &infos), None),
        Err(ScalingError::NoDifference)
    );
}
