//! Tests of the message pool on thread ranks, one pool per rank as under MPI.

use super::*;
use exec::threads::{self, RankFailure};
use exec::{CommError, NodeMap};
use std::collections::BTreeSet;

/// Runs `f` on a thread and fails the test instead of hanging when it takes too long.
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(f()));
    rx.recv_timeout(Duration::from_secs(secs))
        .unwrap_or_else(|e| panic!("did not finish within {secs} s ({e})"))
}

/// Leftovers of walk `old` for every rank: DONE, a token, work, a request, a foreign tag.
fn forge_leftovers(comm: &dyn Comm, old: u32) -> Result<(), CommError> {
    let old = old.to_le_bytes();
    let mut work = old.to_vec();
    encode_paths(&mut work, &["999".into()]);
    for r in (0..comm.size()).filter(|&r| r != comm.rank()) {
        comm.send_to(r, TAG_DONE, &old)?;
        comm.send_to(r, TAG_TOKEN, &[&old[..], &[0; 16]].concat())?;
        comm.send_to(r, TAG_WORK, &work)?;
        comm.send_to(r, TAG_REQUEST, &old)?;
        comm.send_to(r, 7, b"not the pool's")?;
    }
    Ok(())
}

type Walked = Vec<(BTreeSet<u64>, StealStats)>;

/// One `MessagePool` per thread rank, `walks` walks one after the other on the same comm
/// (each after forged leftovers of the one before) of the synthetic tree of `pool.rs`:
/// directory `n` has children `n*fan+1 ..= n*fan+fan`, up to 400. Per walk, what each
/// rank was handed; every directory exactly once.
fn walks(
    ranks: usize,
    capacity: usize,
    victims: VictimChoice,
    fan: u64,
    walks: u32,
) -> Vec<Walked> {
    let total = 400;
    let out = threads::run(ranks, NodeMap::single_node(ranks), |comm| {
        let rank = comm.rank();
        let mut per_walk = Vec::new();
        for w in 0..walks {
            if w > 0 && rank == ranks - 1 {
                forge_leftovers(&comm, w - 1)?;
            }
            comm.barrier()?;
            let pool = MessagePool::new(&comm, vec!["0".into()], capacity, victims, w);
            let mut mine = BTreeSet::new();
            while let Some(d) = pool.next(rank) {
                let n: u64 = d.to_str().unwrap().parse().unwrap();
                assert!(mine.insert(n), "rank {rank} got {n} twice");
                for c in (n * fan + 1..=n * fan + fan).filter(|&c| c < total) {
                    pool.push(rank, PathBuf::from(c.to_string()));
                }
                // A little work per directory, so stealing happens.
                std::thread::sleep(Duration::from_micros(50));
                pool.finish(rank);
            }
            per_walk.push((mine, pool.steal_stats(rank)));
        }
        Ok::<_, CommError>(per_walk)
    });
    let per_rank: Vec<Vec<_>> = out.into_iter().map(|r| r.unwrap()).collect();
    (0..walks as usize)
        .map(|w| {
            let walked: Walked = per_rank.iter().map(|r| r[w].clone()).collect();
            let all: BTreeSet<u64> = walked.iter().flat_map(|(s, _)| s).copied().collect();
            let handed: usize = walked.iter().map(|(s, _)| s.len()).sum();
            assert_eq!(
                (all, handed),
                ((0..total).collect(), total as usize),
                "walk {w}"
            );
            walked
        })
        .collect()
}

#[test]
fn every_directory_once_on_one_to_four_ranks() {
    within(120, || {
        for ranks in 1..=4 {
            for capacity in [1, 2, 100] {
                for victims in [VictimChoice::Random, VictimChoice::PreviousHalfTheTime] {
                    let w = walks(ranks, capacity, victims, 3, 1).remove(0);
                    let sum = |f: fn(&StealStats) -> u64| w.iter().map(|(_, s)| f(s)).sum::<u64>();
                    assert_eq!(
                        sum(|s| s.spilled) > 0,
                        capacity < 3,
                        "{ranks} ranks -q {capacity}"
                    );
                    // Loot is read before a request can take it back (no ping-pong).
                    assert!(
                        sum(|s| s.stolen) < 800,
                        "{ranks} ranks -q {capacity}: {w:?}"
                    );
                    assert_eq!(sum(|s| s.tries) == 0, ranks == 1, "one rank sends nothing");
                }
            }
        }
    });
}

#[test]
fn idle_ranks_steal_from_a_wide_root() {
    within(60, || {
        for victims in [VictimChoice::Random, VictimChoice::PreviousHalfTheTime] {
            let w = walks(4, 100, victims, 40, 1).remove(0);
            assert!(w[1..].iter().any(|(_, s)| s.stolen > 0), "{w:?}");
            assert!(
                w.iter().filter(|(s, _)| !s.is_empty()).count() >= 2,
                "{w:?}"
            );
        }
    });
}

#[test]
fn later_walks_on_the_same_comm_ignore_earlier_leftovers() {
    within(60, || {
        assert_eq!(walks(3, 2, VictimChoice::Random, 3, 3).len(), 3)
    });
}

#[test]
fn roots_are_read_in_the_order_given() {
    let out = threads::run(1, NodeMap::single_node(1), |comm| {
        let roots = vec!["a".into(), "b".into(), "c".into()];
        let pool = MessagePool::new(&comm, roots, 10, VictimChoice::Random, 0);
        let mut order = Vec::new();
        while let Some(d) = pool.next(0) {
            order.push(d);
            pool.finish(0);
        }
        Ok::<_, CommError>(order)
    });
    let order = out.into_iter().next().unwrap().unwrap();
    assert_eq!(order, [PathBuf::from("a"), "b".into(), "c".into()]);
}

#[test]
fn paths_of_any_bytes_survive_the_encoding() {
    let paths: Vec<PathBuf> = vec![
        OsStr::from_bytes(b"/a/\xff\xfe/x").into(),
        "".into(),
        "/b c/\n".into(),
    ];
    let mut m = Vec::new();
    encode_paths(&mut m, &paths);
    assert_eq!(decode_paths(&m), Some(paths));
    assert_eq!(decode_paths(&m[..m.len() - 1]), None);
    assert_eq!(decode_paths(&[&m[..], b"x"].concat()), None);
    assert_eq!(decode_paths(&[255, 255, 255, 255]), None);
}

/// Rank 0 takes the only directory and, instead of finishing it, fails (its thread returns
/// an error: the others' comm reports PeerFailed) or aborts the pool. Every waiting rank's
/// `next` returns `None`.
#[test]
fn a_failed_or_aborting_rank_releases_the_others() {
    for fail in [true, false] {
        let out = within(30, move || {
            threads::run(3, NodeMap::single_node(3), |comm| {
                let pool =
                    MessagePool::new(&comm, vec!["root".into()], 10, VictimChoice::Random, 0);
                let rank = comm.rank();
                let first = if rank == 0 { pool.next(0) } else { None };
                // The others ask only once rank 0 holds the root.
                comm.barrier().map_err(|e| e.to_string())?;
                if rank == 0 {
                    assert_eq!(first, Some(PathBuf::from("root")));
                    std::thread::sleep(Duration::from_millis(50));
                    if fail {
                        return Err("disk on fire".to_string());
                    }
                    pool.abort();
                }
                Ok(pool.next(rank))
            })
        });
        assert_eq!(matches!(&out[0], Err(RankFailure::Error(_))), fail);
        for (r, o) in out.into_iter().enumerate().skip(usize::from(fail)) {
            assert_eq!(o.unwrap(), None, "rank {r}, fail {fail}");
        }
    }
}
