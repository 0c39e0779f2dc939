//! Runs on thread ranks in a temporary directory: the FIFO keeps every data set at `-P`
//! objects and moves it on by `-I` per iteration, data checks pass and catch a changed
//! object, and a run split into `-1`, `-2`, `-3` leaves nothing behind.

use std::path::Path;

use exec::{NodeMap, Ranks};
use plan::mdworkbench::{MdWorkbenchParams, Phases};
use results::{Fanout, MdWorkbenchParameters, Operation, Parameters, RunResult};

use super::preflight::preflight;
use super::{run, Prepared};
use crate::session::{Finished, Session};

fn go(p: &MdWorkbenchParams, ranks: usize) -> Finished<super::PhaseOutcome> {
    let pre = preflight(p, ranks as u64, &engine::PosixEngine::new(false)).expect("preflight");
    let params = Parameters::MdWorkbench(MdWorkbenchParameters {
        plan: p.clone(),
        resolved: Default::default(),
    });
    let session = Session::new(
        RunResult::new(params, vec![], "t"),
        Fanout::default(),
        ranks,
    );
    let ranks = Ranks::threads(NodeMap::single_node(ranks));
    run(
        Prepared {
            params: p,
            start: pre.start,
        },
        &ranks,
        &session,
    )
}

fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for set in std::fs::read_dir(dir).unwrap() {
        let set = set.unwrap();
        out.push(set.file_name().to_string_lossy().into_owned());
        for f in std::fs::read_dir(set.path()).unwrap() {
            let f = f.unwrap().file_name();
            out.push(format!(
                "{}/{}",
                set.file_name().to_string_lossy(),
                f.to_string_lossy()
            ));
        }
    }
    out.sort();
    out
}

fn phases(precreate: bool, benchmark: bool, cleanup: bool) -> Phases {
    Phases {
        precreate,
        benchmark,
        cleanup,
    }
}

#[test]
fn the_fifo_moves_on_and_the_cleanup_takes_all() {
    let t = tempfile::tempdir().unwrap();
    let mut p = MdWorkbenchParams {
        dir: t.path().join("out"),
        run_info_file: t.path().join("status"),
        precreate_per_set: 3,
        objects_per_set: 2,
        data_sets: 2,
        iterations: 2,
        object_size: 100,
        seed: Some(5),
        verify_read: true,
        phases: phases(true, true, false),
        ..Default::default()
    };
    let done = go(&p, 3);
    assert_eq!(done.failure, None);
    assert_eq!(done.errors, 0);
    let ops: Vec<Operation> = done.outcomes.iter().map(|o| o.phase).collect();
    use Operation::{Benchmark, Precreate};
    assert_eq!(ops, [Precreate, Benchmark, Benchmark]);
    // Two iterations of two moved every set from 0..3 to 4..7.
    let l = listing(&p.dir);
    assert_eq!(l.len(), 3 * 2 * 4);
    for r in 0..3 {
        for d in 0..2 {
            for i in 4..7 {
                assert!(l.contains(&format!("{r}_{d}/file-{i}")), "{l:?}");
            }
        }
    }
    let st = std::fs::read_to_string(&p.run_info_file).unwrap();
    assert!(st.starts_with("pos: 4\n"), "{st}");
    let b = &done.outcomes[1];
    let c = b.counts();
    assert_eq!(
        (c.obj_read.ok, c.obj_stat.ok, c.obj_create.ok),
        (12, 12, 12)
    );
    assert_eq!(b.verification.as_ref().unwrap().checked, 12);

    // A changed object fails its check in the next benchmark; the run goes on.
    std::fs::write(p.dir.join("2_0/file-4"), vec![0u8; 100]).unwrap();
    p.phases = phases(false, true, false);
    p.iterations = 1;
    p.objects_per_set = 1;
    let done = go(&p, 3);
    assert_eq!(done.failure, None);
    assert_eq!(done.errors, 1);
    let v = done.outcomes[0].verification.clone().unwrap();
    assert!(v.first_error.unwrap().file.ends_with("2_0/file-4"));

    // The cleanup removes the five left in each set, the sets and -o (the precreate made it).
    p.phases = phases(false, false, true);
    let done = go(&p, 3);
    assert_eq!(done.failure, None);
    assert!(!p.dir.exists(), "{:?}", listing(&p.dir));
    assert_eq!(done.outcomes[0].counts().obj_delete.ok, 3 * 2 * 3);
}

#[test]
fn a_missing_object_stops_the_benchmark_and_wear_out_agrees() {
    let t = tempfile::tempdir().unwrap();
    let mut p = MdWorkbenchParams {
        dir: t.path().join("out"),
        run_info_file: t.path().join("status"),
        precreate_per_set: 4,
        objects_per_set: 4,
        data_sets: 1,
        iterations: 1,
        object_size: 10,
        phases: phases(true, false, false),
        ..Default::default()
    };
    assert_eq!(go(&p, 2).failure, None);
    std::fs::remove_file(p.dir.join("1_0/file-0")).unwrap();
    p.phases = phases(false, true, true);
    let done = go(&p, 2);
    let failure = done.failure.unwrap();
    assert!(
        failure.contains("stat") && failure.contains("1_0/file-0"),
        "{failure}"
    );
    assert!(failure.contains("was it precreated?"), "{failure}");

    // A deadline in the past: every rank stops after its first group and they agree.
    let t = tempfile::tempdir().unwrap();
    p.dir = t.path().join("out");
    p.phases = Phases::default();
    p.stonewall_s = 1e-9;
    p.wear_out = true;
    let done = go(&p, 2);
    assert_eq!(done.failure, None);
    let s = done.outcomes[1].stonewall.unwrap();
    assert_eq!((s.iterations, s.reached_min, s.reached_max), (1, 1, 1));
    assert!(!p.dir.exists());
}
