use super::*;
use crate::cache::{CacheDrop, DropMethod, PageCache};
use crate::{Parameters, RankTimes};

const GIB: u64 = 1 << 30;

/// A run on `nodes` nodes of 4 GiB each.
fn doc(nodes: u64) -> RunResult {
    let mut d = RunResult::new(Parameters::Ior(Default::default()), vec![], "x");
    d.environment.memory_bytes = 4 * GIB;
    d.ranks.nodes = nodes;
    d
}

/// A phase that should raise nothing: long, flushed, even ranks, little cached, big data.
fn clean(op: Operation, bytes: u64, mib_s: f64) -> PhaseResult {
    let mut p = PhaseResult::new(op, 0);
    p.bytes = bytes;
    p.times.total_s = 60.0;
    p.bandwidth_mib_s = mib_s;
    p.per_rank = (0..4)
        .map(|r| RankTimes {
            rank: r,
            close_stop_s: 59.0 + r as f64 * 0.25,
            ops: 10,
            ..Default::default()
        })
        .collect();
    p.spread = p.rank_spread();
    if op == Operation::Write {
        p.flushed = Some(true);
    } else {
        p.page_cache = Some(measured(0.1));
    }
    p
}

fn measured(f: f64) -> PageCache {
    PageCache {
        status: CacheStatus::Measured,
        resident_fraction: Some(f),
        resident_bytes: (f * 1e6) as u64,
        checked_bytes: 1_000_000,
        data_bytes: 1_000_000,
        sampled: false,
        note: None,
        drop: None,
    }
}

fn ids(doc: &RunResult, p: &PhaseResult, t: &Thresholds) -> Vec<String> {
    phase_alerts(doc, p, t).into_iter().map(|a| a.id).collect()
}

/// A run with a clean write before `read`.
fn with_write(read: &PhaseResult, write_mib_s: f64) -> RunResult {
    let mut d = doc(1);
    d.phases
        .push(clean(Operation::Write, read.bytes, write_mib_s));
    d
}

#[test]
fn a_clean_run_raises_nothing() {
    let t = Thresholds::default();
    let read = clean(Operation::Read, 10 * GIB, 1000.0);
    let d = with_write(&read, 900.0);
    assert!(ids(&d, &d.phases[0], &t).is_empty());
    assert!(ids(&d, &read, &t).is_empty());
    let md = clean(Operation::FileStat, 0, 0.0);
    assert!(ids(&d, &md, &t).is_empty());
}

#[test]
fn each_check_fires_on_its_case() {
    let t = Thresholds::default();
    let big = 10 * GIB;
    let case = |f: &dyn Fn(&mut PhaseResult), op| {
        let mut p = clean(op, big, 1000.0);
        f(&mut p);
        let d = with_write(&p, 900.0);
        ids(&d, &p, &t)
    };
    assert_eq!(
        case(&|p| p.times.total_s = 4.9, Operation::Write),
        ["short-phase"]
    );
    assert_eq!(
        case(&|p| p.flushed = Some(false), Operation::Write),
        ["write-no-fsync"]
    );
    assert_eq!(
        case(&|p| p.page_cache = Some(measured(0.51)), Operation::Read),
        ["read-cached"]
    );
    let slow = |p: &mut PhaseResult| {
        p.per_rank[3].close_stop_s = 59.0 * 1.6;
        p.spread = p.rank_spread();
    };
    assert_eq!(case(&slow, Operation::Write), ["straggler"]);
    // Two nodes with 4 GiB each; 7 GiB read is 3.5 GiB a node.
    let small = |p: &mut PhaseResult| p.bytes = 7 * GIB;
    let mut p = clean(Operation::Read, 0, 1000.0);
    small(&mut p);
    assert_eq!(ids(&doc(2), &p, &t), ["dataset-fits-memory"]);
    assert!(ids(
        &doc(1),
        &{
            let mut q = p.clone();
            q.bytes = 9 * GIB;
            q
        },
        &t
    )
    .is_empty());
    let fast = clean(Operation::Read, big, 3000.1);
    assert_eq!(
        ids(&with_write(&fast, 1000.0), &fast, &t),
        ["read-faster-than-write"]
    );
}

#[test]
fn rules_hold_at_their_edges() {
    let t = Thresholds::default();
    let big = 10 * GIB;
    // Exactly at a threshold is not over it.
    let mut p = clean(Operation::Read, big, 3000.0);
    p.times.total_s = 5.0;
    p.page_cache = Some(measured(0.5));
    assert!(ids(&with_write(&p, 1000.0), &p, &t).is_empty());
    // A read of other data (other bytes) is not compared with the write.
    let mut other = clean(Operation::Read, big / 2, 1e6);
    other.page_cache = None;
    assert!(ids(
        &with_write(&clean(Operation::Read, big, 0.0), 1.0),
        &other,
        &t
    )
    .is_empty());
    // Not measured, or not applicable: no cache warnings, whatever the figures.
    let mut direct = clean(Operation::Read, 1, 1000.0);
    direct.page_cache = Some(PageCache::not_applicable(1));
    assert!(ids(&doc(1), &direct, &t).is_empty());
    // A write that moved nothing (DUMMY has no flush to miss) and a single rank.
    let mut w = clean(Operation::Write, 0, 0.0);
    w.flushed = Some(false);
    w.per_rank.truncate(1);
    w.per_rank[0].close_stop_s = 1e9;
    assert!(ids(&doc(1), &w, &t).is_empty());
}

#[test]
fn thresholds_move_and_silence_the_checks() {
    let mut t = Thresholds::default();
    let mut p = clean(Operation::Read, 10 * GIB, 1000.0);
    p.times.total_s = 8.0;
    p.page_cache = Some(measured(0.7));
    let d = with_write(&p, 900.0);
    assert!(!ids(&d, &p, &t).is_empty());
    t.set("short-phase=10s").unwrap();
    assert_eq!(ids(&d, &p, &t), ["short-phase", "read-cached"]);
    t.set("read-cached=0.8").unwrap();
    t.set("short-phase=off").unwrap();
    assert!(ids(&d, &p, &t).is_empty());
}

#[test]
fn messages_carry_their_evidence() {
    let t = Thresholds::default();
    let mut p = clean(Operation::Read, 10 * GIB, 1000.0);
    let mut c = measured(0.97);
    c.drop = Some(CacheDrop {
        method: DropMethod::Files,
        resident_fraction_before: Some(1.0),
        note: Some("tmpfs keeps its data in memory".into()),
    });
    p.page_cache = Some(c);
    p.io500_phase = Some("ior-easy-read".into());
    let a = &phase_alerts(&doc(1), &p, &t)[0];
    assert!(a.is(AlertId::ReadCached));
    assert!(
        a.message.starts_with("ior-easy-read: 97 % of the data"),
        "{}",
        a.message
    );
    assert!(
        a.message
            .contains("after --drop-caches (files: tmpfs keeps"),
        "{}",
        a.message
    );
    assert_eq!(a.evidence["resident_fraction"], 0.97);
    assert_eq!(a.evidence["threshold"], 0.5);
    assert_eq!(a.evidence["drop_method"], "files");
    assert_eq!(a.evidence["checked_bytes"], 1_000_000);
}
