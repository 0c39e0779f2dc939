//! Task reordering for read-back (`-C`, `-Q`, `-Z`, `-X`): which rank's data each rank reads.
//! IOR computes a `rankOffset`; the pretend rank is `(rank + rankOffset) mod N`.
//!
//! `-C`: offset = Q * shift mod N, where shift is the rank distance of one node (ranks on rank
//! 0's node with block placement, 1 with round-robin). The write check (`-W`) uses (Q+1)*shift.
//! `-Z` once: an independent random offset per rank, at least Q nodes away (collisions allowed).
//! `-Z -Z`: a seeded permutation of the ranks. Seeds come from a dedicated generator, so the
//! drawn offsets differ from IOR's `rand()`-based ones (the distribution is the same).

use exec::NodeMap;

use crate::rng::SplitMix;

/// What the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReorderSpec {
    pub constant: bool,
    pub random: u32,
    pub task_per_node_offset: u64,
    pub seed: i64,
}

/// Which pass the offset is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    Read,
    WriteCheck,
}

/// IOR's `-X` rule: a negative seed means `-X + repetition` (new every repetition).
pub fn effective_seed(x: i64, repetition: u32) -> i64 {
    if x >= 0 {
        x
    } else {
        -x + repetition as i64
    }
}

/// The rank offset of `rank` (0 for writes and when no reordering is asked for).
pub fn rank_offset(
    spec: &ReorderSpec,
    pass: Pass,
    rank: u64,
    map: &NodeMap,
    repetition: u32,
) -> u64 {
    let n = map.ranks() as u64;
    if spec.constant {
        let shift = map.node_shift() as u64;
        let q = match pass {
            Pass::Read => spec.task_per_node_offset,
            Pass::WriteCheck => spec.task_per_node_offset + 1,
        };
        return (q * shift) % n;
    }
    let seed = effective_seed(spec.seed, repetition) as u64;
    match spec.random {
        0 => 0,
        1 => {
            let node_offset = spec.task_per_node_offset.min(map.num_nodes() as u64 - 1);
            let min = node_offset * map.tasks_on_node0() as u64;
            let mut rng = SplitMix::new(seed.wrapping_add(rank));
            loop {
                let off = rng.below(n);
                if off >= min {
                    return off;
                }
            }
        }
        _ => {
            let target = random_permutation(n, seed)[rank as usize];
            (target + n - rank) % n
        }
    }
}

/// Fisher-Yates permutation of `0..n` with a seeded generator (same on every rank).
pub fn random_permutation(n: u64, seed: u64) -> Vec<u64> {
    let mut p: Vec<u64> = (0..n).collect();
    let mut rng = SplitMix::new(seed);
    for i in (1..p.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        p.swap(i, j);
    }
    p
}

/// The pretend rank: whose data `rank` accesses.
pub fn pretend_rank(rank: u64, offset: u64, tasks: u64) -> u64 {
    (rank + offset) % tasks
}

/// True when the reorder maps every rank to itself (IOR's silent `-C` no-op on one node).
pub fn is_identity(spec: &ReorderSpec, pass: Pass, map: &NodeMap, repetition: u32) -> bool {
    (0..map.ranks() as u64).all(|r| rank_offset(spec, pass, r, map, repetition) == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use exec::Placement;
    use proptest::prelude::*;

    fn spec(constant: bool, random: u32, q: u64, seed: i64) -> ReorderSpec {
        ReorderSpec {
            constant,
            random,
            task_per_node_offset: q,
            seed,
        }
    }

    fn targets(s: &ReorderSpec, pass: Pass, map: &NodeMap) -> Vec<u64> {
        let n = map.ranks() as u64;
        (0..n)
            .map(|r| pretend_rank(r, rank_offset(s, pass, r, map, 0), n))
            .collect()
    }

    #[test]
    fn constant_reorder_reads_the_next_node() {
        let map = NodeMap::new(8, 2, Placement::Block);
        assert_eq!(
            targets(&spec(true, 0, 1, 0), Pass::Read, &map),
            [4, 5, 6, 7, 0, 1, 2, 3]
        );
        let rr = NodeMap::new(4, 2, Placement::RoundRobin);
        assert_eq!(targets(&spec(true, 0, 1, 0), Pass::Read, &rr), [1, 2, 3, 0]);
    }

    #[test]
    fn constant_reorder_is_a_no_op_on_one_node() {
        let map = NodeMap::single_node(4);
        assert!(is_identity(&spec(true, 0, 1, 0), Pass::Read, &map, 0));
    }

    #[test]
    fn write_check_goes_one_node_further() {
        let map = NodeMap::new(6, 3, Placement::Block);
        assert_eq!(
            rank_offset(&spec(true, 0, 1, 0), Pass::WriteCheck, 0, &map, 0),
            4
        );
    }

    #[test]
    fn negative_seed_changes_every_repetition() {
        assert_eq!(effective_seed(5, 3), 5);
        assert_eq!(effective_seed(-5, 3), 8);
    }

    proptest! {
        #[test]
        fn constant_reorder_is_a_permutation(n in 1usize..40, nodes in 1usize..6, rr: bool, q in 0u64..5) {
            let map = NodeMap::new(n, nodes, if rr { Placement::RoundRobin } else { Placement::Block });
            let mut t = targets(&spec(true, 0, q, 0), Pass::Read, &map);
            t.sort();
            prop_assert_eq!(t, (0..n as u64).collect::<Vec<_>>());
        }

        #[test]
        fn random_permutation_reorder_is_a_permutation(n in 1usize..40, seed in -100i64..100) {
            let map = NodeMap::single_node(n);
            let mut t = targets(&spec(false, 2, 1, seed), Pass::Read, &map);
            t.sort();
            prop_assert_eq!(t, (0..n as u64).collect::<Vec<_>>());
        }

        #[test]
        fn random_once_reads_at_least_q_nodes_away(n_nodes in 2usize..5, ppn in 1usize..5, q in 1u64..4, seed in 0i64..100) {
            let map = NodeMap::new(n_nodes * ppn, n_nodes, Placement::Block);
            let min = q.min(n_nodes as u64 - 1) * ppn as u64;
            for r in 0..map.ranks() as u64 {
                let off = rank_offset(&spec(false, 1, q, seed), Pass::Read, r, &map, 0);
                prop_assert!(off >= min && off < map.ranks() as u64);
            }
        }
    }
}
