//! Property test: on random trees the parallel find counts and lists exactly what a plain
//! sequential `std::fs` walk decides, for every combination of predicates and 1, 2 and 4 ranks,
//! with the shared `StealingPool` and with one `MessagePool` per rank (two walks per comm).
//!
//! `-newer` needs entries on both sides of a whole-second boundary without sleeping per case:
//! a fixed "old" tree is made once, the test waits for the next second, makes the reference
//! file, and every generated tree (all newer) is walked together with the old one. The oracle
//! reads the same inodes, so it decides on identical ctimes.

use std::collections::BTreeSet;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use engine::PosixEngine;
use exec::{threads, NodeMap};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

use super::*;

#[derive(Debug, Clone)]
enum Node {
    File(String, u64),
    Link(String, String),
    Dir(String, Vec<Node>),
}

fn name() -> impl Strategy<Value = String> {
    let parts = prop::sample::select(vec![
        "a",
        "b",
        "01",
        "0",
        "1",
        ".",
        "x.y",
        "file.mdtest.1.10",
    ]);
    prop::collection::vec(parts, 1..4).prop_map(|v| {
        let n = v.concat();
        if n == "." || n == ".." {
            format!("n{n}")
        } else {
            n
        }
    })
}

fn tree() -> impl Strategy<Value = Vec<Node>> {
    let size = prop::sample::select(vec![0u64, 1, 3901, 3902, 47008]);
    let leaf = prop_oneof![
        6 => (name(), size).prop_map(|(n, s)| Node::File(n, s)),
        1 => (name(), name()).prop_map(|(n, t)| Node::Link(n, t)),
    ];
    let node = leaf.prop_recursive(4, 80, 8, |inner| {
        (name(), prop::collection::vec(inner, 0..8)).prop_map(|(n, c)| Node::Dir(n, c))
    });
    prop::collection::vec(node, 0..10)
}

fn build(dir: &Path, nodes: &[Node]) {
    for n in nodes {
        let (name, path) = match n {
            Node::File(m, _) | Node::Link(m, _) | Node::Dir(m, _) => (m, dir.join(m)),
        };
        if std::fs::symlink_metadata(&path).is_ok() {
            continue; // a duplicate name in this directory
        }
        match n {
            Node::File(_, size) => std::fs::write(&path, vec![7u8; *size as usize]).unwrap(),
            // Dangling or not, a symlink is a non-directory entry that is never followed.
            Node::Link(_, target) => std::os::unix::fs::symlink(target, &path).unwrap(),
            Node::Dir(_, children) => {
                std::fs::create_dir(&path).unwrap();
                build(&path, children);
            }
        }
        let _ = name;
    }
}

/// `*`-only glob, anchored, by backtracking: independent of the greedy matcher under test.
fn glob(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|i| glob(rest, &s[i..])),
        Some((c, rest)) => s.first() == Some(c) && glob(rest, &s[1..]),
    }
}

#[derive(Default, Debug, PartialEq)]
struct Oracle {
    found: u64,
    examined: u64,
    dirs: u64,
    /// Examined entries whose name matched: the ones pfind must stat.
    name_matched: u64,
    listed: BTreeSet<Vec<u8>>,
}

fn oracle(dir: &Path, q: &(Option<i64>, Option<u64>, Option<&str>), o: &mut Oracle) {
    o.dirs += 1;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let md = std::fs::symlink_metadata(&path).unwrap();
        if md.is_dir() {
            oracle(&path, q, o);
            continue;
        }
        o.examined += 1;
        let name = path.file_name().unwrap().as_bytes();
        if matches!(q.2, Some(p) if !glob(format!("*{p}*").as_bytes(), name)) {
            continue;
        }
        o.name_matched += 1;
        if !matches!(q.0, Some(t) if md.ctime() < t) && !matches!(q.1, Some(s) if md.len() != s) {
            o.found += 1;
            o.listed.insert(path.as_os_str().as_bytes().to_vec());
        }
    }
}

fn max_ctime(p: &Path) -> i64 {
    let md = std::fs::symlink_metadata(p).unwrap();
    let mut t = md.ctime();
    if md.is_dir() {
        for e in std::fs::read_dir(p).unwrap() {
            t = t.max(max_ctime(&e.unwrap().path()));
        }
    }
    t
}

struct Collect(Mutex<Vec<u8>>);

impl Lister for Collect {
    fn write(&self, lines: &[u8]) {
        self.0.lock().unwrap().extend_from_slice(lines);
    }
}

fn parallel(
    ranks: usize,
    roots: &[PathBuf],
    query: &Query,
    capacity: usize,
    victims: VictimChoice,
) -> (FindOutcome, BTreeSet<Vec<u8>>) {
    let pool = StealingPool::new(ranks, roots.to_vec(), capacity, victims);
    let list = Collect(Mutex::new(Vec::new()));
    let out = threads::run(ranks, NodeMap::single_node(ranks), |comm| {
        let engine = PosixEngine::new(false);
        run_rank(&FindCtx {
            comm: &comm,
            engine: &engine,
            pool: &pool,
            query,
            list: Some(&list),
            session: None,
            slot: 0,
        })
    });
    let outcome = out.into_iter().next().unwrap().unwrap().unwrap();
    (outcome, lines(&list.0.into_inner().unwrap()))
}

fn lines(bytes: &[u8]) -> BTreeSet<Vec<u8>> {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

/// As `parallel`, with a `MessagePool` per rank, walking twice on the same comm (walk ids 0
/// and 1); both outcomes, each with what it listed.
fn parallel_messages(
    ranks: usize,
    roots: &[PathBuf],
    query: &Query,
    capacity: usize,
    victims: VictimChoice,
) -> Vec<(FindOutcome, BTreeSet<Vec<u8>>)> {
    let lists = [
        Collect(Mutex::new(Vec::new())),
        Collect(Mutex::new(Vec::new())),
    ];
    let out = threads::run(ranks, NodeMap::single_node(ranks), |comm| {
        let engine = PosixEngine::new(false);
        let mut outcomes = Vec::new();
        for (walk, list) in lists.iter().enumerate() {
            let pool = MessagePool::new(&comm, roots.to_vec(), capacity, victims, walk as u32);
            outcomes.push(run_rank(&FindCtx {
                comm: &comm,
                engine: &engine,
                pool: &pool,
                query,
                list: Some(list),
                session: None,
                slot: 0,
            })?);
        }
        Ok::<_, FindError>(outcomes)
    });
    let outcomes = out.into_iter().next().unwrap().unwrap();
    outcomes
        .into_iter()
        .zip(lists)
        .map(|(o, l)| (o.unwrap(), lines(&l.0.into_inner().unwrap())))
        .collect()
}

#[test]
fn parallel_find_agrees_with_a_sequential_walk() {
    let base = tempfile::tempdir().unwrap();
    let old = base.path().join("old");
    std::fs::create_dir(&old).unwrap();
    let mut runner = TestRunner::deterministic();
    build(&old, &tree().new_tree(&mut runner).unwrap().current());
    build(
        &old,
        &[
            Node::File("old01".into(), 3901),
            Node::Dir("d01".into(), vec![Node::File("x01".into(), 3901)]),
        ],
    );
    // Make the reference once every old entry is in an earlier second. File times come from a
    // coarse clock that may lag the system clock, so check the reference's own ctime.
    let old_max = max_ctime(&old);
    let reference = base.path().join("reference");
    let ref_ctime = loop {
        let _ = std::fs::remove_file(&reference);
        std::fs::write(&reference, b"").unwrap();
        let t = std::fs::symlink_metadata(&reference).unwrap().ctime();
        if t > old_max {
            break t;
        }
        std::thread::sleep(Duration::from_millis(20));
    };

    let patterns = prop::sample::select(vec!["*01*", "01", "a*b", "*.y*", "file", "1*0", "*"]);
    let sizes = prop::sample::select(vec![3901u64, 0, 1]);
    let strategy = (
        tree(),
        patterns,
        sizes,
        prop::sample::select(vec![1usize, 2, 100_000]),
        any::<bool>(),
    );
    let mut runner = TestRunner::new(Config {
        cases: 24,
        failure_persistence: None,
        ..Config::default()
    });
    let case = std::sync::atomic::AtomicUsize::new(0);
    runner
        .run(&strategy, |(nodes, pattern, size, capacity, next)| {
            let n = case.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let dir = base.path().join(format!("case{n}"));
            std::fs::create_dir(&dir).unwrap();
            build(&dir, &nodes);
            let roots = vec![dir.clone(), old.clone()];
            let victims = if next {
                VictimChoice::PreviousHalfTheTime
            } else {
                VictimChoice::Random
            };
            for mask in 0..8u8 {
                let query = Query {
                    newer: (mask & 1 != 0).then(|| reference.clone()),
                    size: (mask & 2 != 0).then_some(size),
                    name: (mask & 4 != 0).then(|| NamePattern::parse(pattern).unwrap()),
                };
                let q = (
                    query.newer.as_ref().map(|_| ref_ctime),
                    query.size,
                    query.name.as_ref().map(|_| pattern),
                );
                let mut want = Oracle::default();
                for r in &roots {
                    oracle(r, &q, &mut want);
                }
                for ranks in [1, 2, 4] {
                    // The shared-memory pool, and the message pool (two walks on one comm).
                    let shared = parallel(ranks, &roots, &query, capacity, victims);
                    let messages = parallel_messages(ranks, &roots, &query, capacity, victims);
                    for (got, listed) in std::iter::once(shared).chain(messages) {
                        let t = got.total;
                        prop_assert_eq!(
                            (t.found, t.examined, t.dirs),
                            (want.found, want.examined, want.dirs),
                            "ranks {} query {:?}",
                            ranks,
                            query
                        );
                        prop_assert_eq!(&listed, &want.listed, "ranks {} query {:?}", ranks, query);
                        prop_assert_eq!(t.unreadable_dirs + t.stat_errors, 0);
                        prop_assert_eq!(got.ranks.len(), ranks);
                        prop_assert_eq!(got.newer_ctime, query.newer.as_ref().map(|_| ref_ctime));
                        // One lstat per name match, and none without a stat predicate.
                        let stats = if query.needs_stat() {
                            want.name_matched
                        } else {
                            0
                        };
                        prop_assert_eq!(t.stats, stats + t.unknown, "query {:?}", query);
                    }
                }
            }
            std::fs::remove_dir_all(&dir).unwrap();
            Ok(())
        })
        .unwrap();
}
