use exec::{NodeMap, Ranks};
use measure::{IntervalSeries, LatencyHistogram};
use proptest::prelude::*;
use results::ior::VerifyOutcome;

use super::*;

fn histogram(latencies: &[u64]) -> LatencyHistogram {
    let mut h = LatencyHistogram::new();
    latencies.iter().for_each(|&ns| h.record(ns));
    h
}

fn series(interval: u64, epoch: u64, ops: &[(u64, u64)]) -> IntervalSeries {
    let mut s = IntervalSeries::new(interval, epoch);
    for &(at, bytes) in ops {
        s.record(epoch + at, bytes);
    }
    s
}

prop_compose! {
    fn any_report()(
        seconds in prop::collection::vec(any::<f64>(), 0..8),
        stamps_ns in prop::collection::vec(any::<u64>(), 0..8),
        counts in prop::collection::vec(any::<u64>(), 0..20),
        errors in any::<u64>(),
        checked in any::<u64>(),
        first in prop::option::of((".{0,40}", any::<u64>())),
        latency in prop::collection::vec(prop::collection::vec(0u64..1u64 << 40, 0..50), 0..4),
        series_ops in prop::option::of((1u64..1u64 << 32, 0u64..1u64 << 50,
            prop::collection::vec((0u64..1u64 << 36, any::<u32>()), 0..30))),
        notes in prop::collection::vec(".{0,30}", 0..5),
    ) -> RankFigures {
        RankFigures {
            seconds,
            stamps_ns,
            counts,
            verify: Verify {
                errors,
                checked,
                first_error: first.map(|(file, offset)| FirstError { file, offset }),
            },
            latency: latency.iter().map(|l| histogram(l)).collect(),
            series: series_ops.map(|(interval, epoch, ops)| {
                let ops: Vec<(u64, u64)> = ops.into_iter().map(|(at, b)| (at, u64::from(b))).collect();
                series(interval, epoch, &ops)
            }),
            notes,
        }
    }
}

/// Field by field: the f64s by their bits, histograms and series by their own encodings.
fn same(a: &RankFigures, b: &RankFigures) -> bool {
    let bits = |v: &[f64]| v.iter().map(|s| s.to_bits()).collect::<Vec<_>>();
    let hist = |v: &[LatencyHistogram]| v.iter().map(|h| h.to_bytes()).collect::<Vec<_>>();
    bits(&a.seconds) == bits(&b.seconds)
        && a.stamps_ns == b.stamps_ns
        && a.counts == b.counts
        && a.verify == b.verify
        && hist(&a.latency) == hist(&b.latency)
        && a.series.as_ref().map(|s| s.to_bytes()) == b.series.as_ref().map(|s| s.to_bytes())
        && a.notes == b.notes
}

proptest! {
    #[test]
    fn every_report_comes_back_as_sent(r in any_report()) {
        let bytes = encode(&r);
        let back = decode(&bytes).unwrap();
        prop_assert!(same(&r, &back), "{r:?}\n{back:?}");
        prop_assert_eq!(encode(&back), bytes);
    }

    #[test]
    fn a_cut_report_is_refused_as_truncated(r in any_report(), cut in any::<prop::sample::Index>()) {
        let bytes = encode(&r);
        let at = cut.index(bytes.len());
        match decode(&bytes[..at]) {
            Err(WireError::Foreign) => prop_assert!(at < 4),
            Err(WireError::Truncated(_)) => prop_assert!(at >= 4),
            other => prop_assert!(false, "cut at {at} of {}: {other:?}", bytes.len()),
        }
    }

    #[test]
    fn bytes_after_a_report_are_refused(r in any_report(), extra in prop::collection::vec(any::<u8>(), 1..9)) {
        let mut bytes = encode(&r);
        bytes.extend_from_slice(&extra);
        prop_assert_eq!(decode(&bytes).unwrap_err(), WireError::Trailing(extra.len()));
    }

    #[test]
    fn garbage_is_an_error_not_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut with_header = b"igrr\x01".to_vec();
        with_header.extend_from_slice(&bytes);
        let _ = decode(&bytes);
        let _ = decode(&with_header);
    }
}

#[test]
fn foreign_input_and_other_versions_are_named() {
    assert_eq!(decode(b"{\"start\":1}").unwrap_err(), WireError::Foreign);
    assert_eq!(decode(b"").unwrap_err(), WireError::Foreign);
    let mut bytes = encode(&RankFigures::default());
    bytes[4] = VERSION + 1;
    let e = decode(&bytes).unwrap_err();
    let (got, reads) = (VERSION + 1, VERSION);
    assert_eq!(e, WireError::Version { got, reads });
    assert!(e.to_string().contains("version 2"), "{e}");
    // A count that claims more than the bytes hold is refused before anything is allocated.
    let huge = [b"igrr\x01".as_slice(), &[0xff; 9], &[0x01]].concat();
    assert_eq!(decode(&huge).unwrap_err(), WireError::Truncated("seconds"));
}

#[test]
fn the_accessors_check_the_shape_a_workload_sends() {
    let r = RankFigures {
        counts: vec![1, 2, 3],
        latency: vec![histogram(&[5, 7])],
        ..RankFigures::default()
    };
    assert_eq!(r.counts_n::<3>().unwrap(), [1, 2, 3]);
    assert!(matches!(r.counts_n::<2>(), Err(WireError::Shape(_))));
    assert!(r.stamps_n::<0>().is_ok() && r.seconds_n::<1>().is_err());
    assert!(r.series().is_err());
    let mut two = [LatencyHistogram::new(), LatencyHistogram::new()];
    assert!(r.merge_latency(&mut two).is_err());
    let mut one = [histogram(&[9])];
    r.merge_latency(&mut one).unwrap();
    assert_eq!(one[0].count(), 3);
}

#[test]
fn checks_fold_with_the_lowest_ranks_first_error() {
    let mut total = VerifyOutcome::default();
    let at = |file: &str| Verify {
        errors: 2,
        checked: 5,
        first_error: Some(FirstError {
            file: file.into(),
            offset: 8,
        }),
    };
    Verify::default().add_to(0, &mut total);
    at("a").add_to(1, &mut total);
    at("b").add_to(2, &mut total);
    assert_eq!((total.errors, total.checked), (4, 10));
    let first = total.first_error.unwrap();
    assert_eq!((first.rank, first.file.as_str()), (1, "a"));
}

#[test]
fn rank_0_gets_every_ranks_report_in_order() {
    let ranks = Ranks::threads(NodeMap::single_node(3));
    let out = ranks.run(|comm| {
        let mine = RankFigures {
            counts: vec![comm.rank() as u64 * 10],
            ..RankFigures::default()
        };
        let Some(all) = gather(None, comm, &mine)? else {
            return Ok(None);
        };
        let got: Vec<(usize, u64)> = all
            .reports()
            .map(|r| r.map(|(rank, r)| (rank, r.counts[0])).unwrap())
            .collect();
        Ok::<_, exec::CommError>(Some(got))
    });
    let got: Vec<_> = out.into_iter().map(|o| o.unwrap()).collect();
    assert_eq!(got[0], Some(vec![(0, 0), (1, 10), (2, 20)]));
    assert_eq!((got[1].clone(), got[2].clone()), (None, None));
}

#[test]
fn a_bad_report_names_its_rank() {
    let all = Gathered {
        all: vec![encode(&RankFigures::default()), b"oops".to_vec()],
    };
    let errors: Vec<String> = all
        .reports()
        .filter_map(|r| r.err().map(|e| e.to_string()))
        .collect();
    assert_eq!(
        errors,
        ["rank 1: not a rank report (it does not start with \"igrr\")"]
    );
}
