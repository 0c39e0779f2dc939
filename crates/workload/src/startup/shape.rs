//! The generated tree: a seeded, deterministic shape like an installed Python package set
//! (`site-packages`), which every rank of a start-up reads as an application's imports do.
//!
//! * Top-level packages fall off in size: each takes 10–35 % of the files still to place, so
//!   a few large packages come first and many small ones follow; a package of one file is a
//!   top-level module (`mod<k>.py`).
//! * A package is a directory `pkg<k>` with an `__init__.py`, its own modules
//!   (`mod<m>.py`) and, with 8 or more files left and fewer than [`MAX_DEPTH`] levels above,
//!   1–4 subpackages (`sub<s>`, at least 2 files each) that take 20–60 % of its files and
//!   nest the same way.
//! * Sizes: a module takes one of four octaves with equal chance (1–2, 2–4, 4–8, 8–16 KiB)
//!   and a size within it (median about 4 KiB, mean about 5.6 KiB); an `__init__.py` is empty
//!   one time in four, else 64 B to 2 KiB the same way.
//!
//! The order of the files is the read order: a package's `__init__.py`, its modules, then its
//! subpackages depth first, as an import of a package reaches them.

use std::path::PathBuf;

use crate::rng::{mix2, SplitMix};

/// Levels of packages at most (`pkg/sub/sub/sub`).
pub const MAX_DEPTH: u32 = 4;

/// What a tree holds, relative to its root.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layout {
    /// Directories, each after its parent (the root itself not among them).
    pub dirs: Vec<PathBuf>,
    /// Files with their sizes, in read order.
    pub files: Vec<(PathBuf, u64)>,
}

impl Layout {
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.1).sum()
    }
}

/// The tree of `files` files for `seed`.
pub fn generate(files: u64, seed: u64) -> Layout {
    // One stream per purpose: this one is the shape (the data has its own).
    let mut rng = SplitMix::new(mix2(seed, 0x7472_6565));
    let mut out = Layout::default();
    let mut left = files;
    let mut k = 0u64;
    while left > 0 {
        let share = 10 + rng.below(26);
        let budget = (left * share / 100).clamp(1, left);
        if budget == 1 {
            let size = module_size(&mut rng);
            out.files
                .push((PathBuf::from(format!("mod{k:03}.py")), size));
        } else {
            package(
                &mut out,
                PathBuf::from(format!("pkg{k:03}")),
                1,
                budget,
                &mut rng,
            );
        }
        left -= budget;
        k += 1;
    }
    out
}

/// A package of `budget` (at least 2) files at `dir`, `depth` levels below the root.
fn package(out: &mut Layout, dir: PathBuf, depth: u32, budget: u64, rng: &mut SplitMix) {
    out.dirs.push(dir.clone());
    out.files.push((dir.join("__init__.py"), init_size(rng)));
    let mut rest = budget - 1;
    let subs = if depth < MAX_DEPTH && rest >= 8 {
        1 + rng.below((rest / 8).min(4))
    } else {
        0
    };
    let own = if subs == 0 {
        rest
    } else {
        (rest * (40 + rng.below(41)) / 100).clamp(1, rest - 2 * subs)
    };
    for m in 0..own {
        out.files
            .push((dir.join(format!("mod{m:02}.py")), module_size(rng)));
    }
    rest -= own;
    for s in 0..subs {
        let after = subs - s - 1;
        // At least 2 files here and 2 for each subpackage after this one.
        let b = if after == 0 {
            rest
        } else {
            2 + rng.below(rest - 2 * (after + 1) + 1)
        };
        package(out, dir.join(format!("sub{s}")), depth + 1, b, rng);
        rest -= b;
    }
}

/// A size in one of `octaves` octaves from `lowest` bytes, each as likely.
fn octaves(rng: &mut SplitMix, lowest: u64, octaves: u64) -> u64 {
    let base = lowest << rng.below(octaves);
    base + rng.below(base)
}

fn module_size(rng: &mut SplitMix) -> u64 {
    octaves(rng, 1024, 4)
}

fn init_size(rng: &mut SplitMix) -> u64 {
    if rng.below(4) == 0 {
        0
    } else {
        octaves(rng, 64, 5)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::path::Path;

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn the_default_tree_looks_like_a_package_set() {
        let t = generate(600, 1);
        assert_eq!(t, generate(600, 1), "the same seed, the same tree");
        assert_ne!(t, generate(600, 2));
        assert_eq!(t.files.len(), 600);
        let inits = t.files.iter().filter(|f| f.0.ends_with("__init__.py"));
        assert_eq!(inits.count(), t.dirs.len(), "one __init__.py per package");
        // Nested: packages with subpackages with subpackages.
        let deepest = t
            .dirs
            .iter()
            .map(|d| d.components().count())
            .max()
            .unwrap_or(0);
        assert!(
            (3..=MAX_DEPTH as usize).contains(&deepest),
            "{deepest} levels"
        );
        let tops = t
            .dirs
            .iter()
            .filter(|d| d.components().count() == 1)
            .count();
        assert!((10..60).contains(&tops), "{tops} top-level packages");
        let mean = t.bytes() / 600;
        assert!((3 << 10..8 << 10).contains(&mean), "mean size {mean}");
        assert_eq!(generate(0, 1), Layout::default());
        assert_eq!(generate(1, 1).files[0].0, Path::new("mod000.py"));
    }

    proptest! {
        #[test]
        fn every_shape_is_a_sound_tree(files in 0u64..3000, seed in any::<u64>()) {
            let t = generate(files, seed);
            prop_assert_eq!(t.files.len() as u64, files);
            let mut seen: HashSet<&Path> = HashSet::new();
            for d in &t.dirs {
                let parent = d.parent().unwrap();
                prop_assert!(parent.as_os_str().is_empty() || seen.contains(parent));
                prop_assert!(d.components().count() as u32 <= MAX_DEPTH);
                prop_assert!(seen.insert(d));
            }
            for (f, size) in &t.files {
                let parent = f.parent().unwrap();
                prop_assert!(parent.as_os_str().is_empty() || seen.contains(parent));
                prop_assert!(seen.insert(f), "{} twice", f.display());
                prop_assert!(*size < 16 << 10);
            }
        }
    }
}
