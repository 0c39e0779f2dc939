//! mdtest's directory tree and item counts, as pure functions.
//!
//! Directories are numbered like a heap: the root is 0 and the children of `d` are
//! `d*b + 1 ..= d*b + b` (with `b = 1` a chain 0, 1, 2, ...). Item `k` of a rank lives in
//! directory `k / items_per_dir`. mdtest creates and removes items in depth-first pre-order of
//! their directories, and stats, reads and renames them in item-number order; the two orders
//! agree when `b <= 1`.

use serde::{Deserialize, Serialize};

/// Depth (`-z`) and branching factor (`-b`) of one tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tree {
    pub depth: u32,
    pub branch: u64,
}

impl Tree {
    /// The tree of a plan's `-z`/`-b`.
    pub fn of(p: &plan::mdtest::MdtestParams) -> Tree {
        Tree {
            depth: p.depth,
            branch: p.branch,
        }
    }

    /// Directories in the tree (mdtest's `num_dirs_in_tree`); `None` when it does not fit u64.
    pub fn num_dirs(&self) -> Option<u64> {
        let (b, z) = (self.branch, self.depth);
        if z == 0 || b == 0 {
            return Some(1);
        }
        if b == 1 {
            return u64::from(z).checked_add(1);
        }
        // (b^(z+1) - 1) / (b - 1), without overflowing on the way.
        let top = b.checked_pow(z.checked_add(1)?)?;
        Some((top - 1) / (b - 1))
    }

    /// Directories at the deepest level (`b^z`; 1 for a chain or a lone root).
    pub fn leaves(&self) -> u64 {
        if self.branch <= 1 {
            1
        } else {
            self.branch.saturating_pow(self.depth)
        }
    }

    /// Index of the first leaf; leaves are the indices `first_leaf()..num_dirs()`.
    pub fn first_leaf(&self) -> u64 {
        self.num_dirs().unwrap_or(u64::MAX) - self.leaves()
    }

    /// The directories from depth 1 down to `d` (empty for the root), the path below the root.
    pub fn chain(&self, d: u64, out: &mut Vec<u64>) {
        out.clear();
        let b = self.branch.max(1);
        let mut cur = d;
        while cur > 0 {
            out.push(cur);
            cur = (cur - 1) / b;
        }
        out.reverse();
    }

    /// Every directory in depth-first pre-order (the order mdtest creates them).
    pub fn pre_order(&self) -> PreOrder {
        PreOrder {
            tree: *self,
            stack: vec![(0, 0)],
        }
    }

    /// Every directory in depth-first post-order (the order mdtest removes them).
    pub fn post_order(&self) -> Vec<u64> {
        // Children before parents: the pre-order of the mirrored tree, reversed.
        let mut out = Vec::new();
        let mut stack = vec![(0u64, 0u32)];
        while let Some((d, level)) = stack.pop() {
            out.push(d);
            if level < self.depth && self.branch > 0 {
                let first = d * self.branch + 1;
                for c in first..first + self.branch {
                    stack.push((c, level + 1));
                }
            }
        }
        out.reverse();
        out
    }
}

/// Iterator over directory indices in pre-order; the stack holds (index, level).
pub struct PreOrder {
    tree: Tree,
    stack: Vec<(u64, u32)>,
}

impl Iterator for PreOrder {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        let (d, level) = self.stack.pop()?;
        let b = self.tree.branch;
        if level < self.tree.depth && b > 0 {
            let first = d * b + 1;
            // Pushed in reverse so the lowest-numbered child comes out first.
            for c in (first..first + b).rev() {
                self.stack.push((c, level + 1));
            }
        }
        Some(d)
    }
}

/// How a rank's items spread over the tree, and over test directories (`-n` with `-I`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shape {
    pub tree: Tree,
    pub num_dirs: u64,
    pub items_per_dir: u64,
    /// `-L`: items only in the leaves.
    pub leaf_only: bool,
    /// `test-dir.<iter>-<loop>` directories per iteration (`-n N -I I` gives N / I).
    pub loops: u64,
}

impl Shape {
    /// mdtest's item arithmetic (`mdtest_run`): `-n` alone is spread evenly over the
    /// directories that hold items and rounded down; `-I` alone is per directory; both (without
    /// `-u`) give `n / I` test directories of `I` items per directory.
    pub fn resolve(
        items: u64,
        items_per_dir: u64,
        tree: Tree,
        leaf_only: bool,
        unique_dir: bool,
    ) -> Result<Shape, String> {
        let num_dirs = tree.num_dirs().ok_or_else(|| {
            format!(
                "-z {} -b {}: the tree has more directories than fit in 64 bits",
                tree.depth, tree.branch
            )
        })?;
        let mut shape = Shape {
            tree,
            num_dirs,
            items_per_dir,
            leaf_only,
            loops: 1,
        };
        let holding = shape.holding_dirs();
        match (items, items_per_dir) {
            (0, 0) => {
                return Err(
                    "-n 0: give the items per task (-n N) or per directory (-I N)".to_string(),
                )
            }
            (n, 0) => {
                shape.items_per_dir = n / holding;
                if shape.items_per_dir == 0 {
                    return Err(format!(
                        "-n {n} is fewer items than the {holding} directories that hold items \
                         (-z {} -b {}{}); mdtest would create none: use -n {holding} or more",
                        tree.depth,
                        tree.branch,
                        if leaf_only { " -L" } else { "" }
                    ));
                }
            }
            (0, _) => {}
            (_, _) if unique_dir => {
                return Err(
                    "-n and -I together with -u: give the number of items (-n) or the number of \
                     items per directory (-I), not both (as mdtest)"
                        .to_string(),
                )
            }
            (n, i) if n % i != 0 => {
                return Err(format!(
                    "-n {n} is not a multiple of -I {i} (with both, mdtest makes n / I test \
                     directories of I items per directory)"
                ))
            }
            (n, i) => shape.loops = n / i,
        }
        shape
            .items_per_rank()
            .ok_or_else(|| "the item count per task does not fit in 64 bits".to_string())?;
        Ok(shape)
    }

    /// Directories that hold items: all, or the leaves with `-L`.
    pub fn holding_dirs(&self) -> u64 {
        if self.leaf_only {
            self.tree.leaves()
        } else {
            self.num_dirs
        }
    }

    /// The first directory that holds items; holding directories are `first..num_dirs`.
    pub fn first_holding(&self) -> u64 {
        if self.leaf_only {
            self.num_dirs - self.tree.leaves()
        } else {
            0
        }
    }

    /// Items of one rank in one test directory.
    pub fn items_per_loop(&self) -> u64 {
        self.items_per_dir * self.holding_dirs()
    }

    /// Items of one rank in one iteration (all test directories); `None` on overflow.
    pub fn items_per_rank(&self) -> Option<u64> {
        self.items_per_dir
            .checked_mul(self.holding_dirs())?
            .checked_mul(self.loops)
    }

    /// The item number at position `pos` of item-number order (stat, read, rename).
    #[inline]
    pub fn numbered(&self, pos: u64) -> u64 {
        self.first_holding() * self.items_per_dir + pos
    }

    /// The holding directories in creation order (pre-order).
    pub fn creation_dirs(&self) -> Vec<u64> {
        let first = self.first_holding();
        self.tree.pre_order().filter(|&d| d >= first).collect()
    }

    /// The item number at position `pos` of creation order, given `creation_dirs()`.
    #[inline]
    pub fn created(&self, dirs: &[u64], pos: u64) -> u64 {
        let ipd = self.items_per_dir;
        dirs[(pos / ipd) as usize] * ipd + pos % ipd
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tree(depth: u32, branch: u64) -> Tree {
        Tree { depth, branch }
    }

    #[test]
    fn dir_counts_match_mdtest() {
        assert_eq!(tree(0, 5).num_dirs(), Some(1));
        assert_eq!(tree(3, 1).num_dirs(), Some(4));
        assert_eq!(tree(2, 2).num_dirs(), Some(7));
        assert_eq!(tree(2, 3).num_dirs(), Some(13));
        assert_eq!(tree(5, 10).num_dirs(), Some(111_111));
        assert_eq!(tree(80, 10).num_dirs(), None);
        assert_eq!((tree(2, 2).leaves(), tree(2, 2).first_leaf()), (4, 3));
        assert_eq!((tree(3, 1).leaves(), tree(3, 1).first_leaf()), (1, 3));
    }

    #[test]
    fn orders() {
        let t = tree(2, 2);
        assert_eq!(t.pre_order().collect::<Vec<_>>(), [0, 1, 3, 4, 2, 5, 6]);
        assert_eq!(t.post_order(), [3, 4, 1, 5, 6, 2, 0]);
        assert_eq!(tree(3, 1).pre_order().collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert_eq!(tree(0, 3).post_order(), [0]);
        let mut c = Vec::new();
        t.chain(5, &mut c);
        assert_eq!(c, [2, 5]);
        tree(3, 1).chain(3, &mut c);
        assert_eq!(c, [1, 2, 3]);
        t.chain(0, &mut c);
        assert!(c.is_empty());
    }

    #[test]
    fn counts_from_the_reference() {
        // -n 12 -z 2 -b 2: 7 directories with 1 item each.
        let s = Shape::resolve(12, 0, tree(2, 2), false, false).unwrap();
        assert_eq!((s.items_per_dir, s.items_per_rank()), (1, Some(7)));
        // -z 2 -b 3 -I 100 -u: 13 x 100.
        let s = Shape::resolve(0, 100, tree(2, 3), false, true).unwrap();
        assert_eq!(s.items_per_rank(), Some(1300));
        // -L: only the 9 leaves.
        let s = Shape::resolve(0, 100, tree(2, 3), true, true).unwrap();
        assert_eq!((s.items_per_rank(), s.first_holding()), (Some(900), 4));
        let s = Shape::resolve(100, 0, tree(2, 3), true, false).unwrap();
        assert_eq!((s.items_per_dir, s.items_per_rank()), (11, Some(99)));
        // -L on a chain: everything in the one leaf.
        let s = Shape::resolve(10, 0, tree(3, 1), true, false).unwrap();
        assert_eq!(
            (s.items_per_dir, s.first_holding(), s.numbered(0)),
            (10, 3, 30)
        );
        // -n with -I: n / I test directories.
        let s = Shape::resolve(1000, 100, tree(0, 1), false, false).unwrap();
        assert_eq!(
            (s.loops, s.items_per_loop(), s.items_per_rank()),
            (10, 100, Some(1000))
        );
    }

    #[test]
    fn bad_counts() {
        let e = |n, i, t, u| Shape::resolve(n, i, t, false, u).unwrap_err();
        assert!(e(0, 0, tree(0, 1), false).starts_with("-n 0"));
        assert!(e(5, 0, tree(2, 2), false).contains("fewer items than the 7"));
        assert!(e(10, 5, tree(0, 1), true).contains("not both"));
        assert!(e(10, 3, tree(0, 1), false).contains("not a multiple of -I 3"));
        assert!(e(1, 0, tree(80, 10), false).contains("64 bits"));
    }

    #[test]
    fn creation_order_of_the_reference_listing() {
        // mdtest -I 2 -z 2 -b 2 -L: leaves 3..6 hold items 6..13.
        let s = Shape::resolve(0, 2, tree(2, 2), true, false).unwrap();
        let dirs = s.creation_dirs();
        assert_eq!(dirs, [3, 4, 5, 6]);
        let items: Vec<u64> = (0..s.items_per_loop())
            .map(|p| s.created(&dirs, p))
            .collect();
        assert_eq!(items, [6, 7, 8, 9, 10, 11, 12, 13]);
        // Without -L creation goes depth first: 0, 1, 3, 4, 2, 5, 6.
        let s = Shape::resolve(0, 1, tree(2, 2), false, false).unwrap();
        let dirs = s.creation_dirs();
        let items: Vec<u64> = (0..7).map(|p| s.created(&dirs, p)).collect();
        assert_eq!(items, [0, 1, 3, 4, 2, 5, 6]);
    }

    proptest! {
        #[test]
        fn orders_visit_every_dir_once(depth in 0u32..5, branch in 0u64..5) {
            let t = tree(depth, branch);
            let n = t.num_dirs().unwrap();
            let mut pre: Vec<u64> = t.pre_order().collect();
            let mut post = t.post_order();
            // A parent comes before its children in pre-order and after them in post-order.
            let pos = |v: &[u64], d: u64| v.iter().position(|&x| x == d).unwrap();
            for d in 1..n {
                let parent = (d - 1) / branch.max(1);
                prop_assert!(pos(&pre, parent) < pos(&pre, d));
                prop_assert!(pos(&post, parent) > pos(&post, d));
            }
            pre.sort_unstable();
            post.sort_unstable();
            prop_assert_eq!(&pre, &(0..n).collect::<Vec<_>>());
            prop_assert_eq!(&post, &pre);
        }

        #[test]
        fn both_orders_hold_the_same_items(
            depth in 0u32..4, branch in 1u64..4, per_dir in 1u64..4, leaf in any::<bool>()
        ) {
            let s = Shape::resolve(0, per_dir, tree(depth, branch), leaf, false).unwrap();
            let dirs = s.creation_dirs();
            let total = s.items_per_loop();
            let mut created: Vec<u64> = (0..total).map(|p| s.created(&dirs, p)).collect();
            let numbered: Vec<u64> = (0..total).map(|p| s.numbered(p)).collect();
            // Every item sits in a holding directory, and with b = 1 the orders agree.
            for &k in &numbered {
                prop_assert!(k / per_dir >= s.first_holding() && k / per_dir < s.num_dirs);
            }
            if branch == 1 {
                prop_assert_eq!(&created, &numbered);
            }
            created.sort_unstable();
            prop_assert_eq!(created, numbered);
        }

        #[test]
        fn n_rounds_down_to_a_multiple_of_the_dirs(
            n in 1u64..10_000, depth in 0u32..4, branch in 1u64..4
        ) {
            let t = tree(depth, branch);
            let dirs = t.num_dirs().unwrap();
            match Shape::resolve(n, 0, t, false, false) {
                Ok(s) => {
                    let got = s.items_per_rank().unwrap();
                    prop_assert_eq!(got % dirs, 0);
                    prop_assert!(got <= n && n - got < dirs);
                }
                Err(_) => prop_assert!(n < dirs),
            }
        }
    }
}
