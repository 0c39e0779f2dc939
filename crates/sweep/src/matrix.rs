//! The matrix: every combination of the axes' values, each repeated, in the order the axes
//! were given (the first varies slowest), or shuffled from a seed the sweep prints and keeps.

use serde::{Deserialize, Serialize};

use crate::values::Axis;

/// One run of the sweep: a value per axis (in the axes' order) and which repeat it is (1..).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Point {
    pub values: Vec<String>,
    pub repeat: u32,
}

/// Every combination, each `repeats` times in a row.
pub fn expand(axes: &[Axis], repeats: u32) -> Vec<Point> {
    let mut combos: Vec<Vec<String>> = vec![Vec::new()];
    for axis in axes {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                axis.values.iter().map(move |v| {
                    let mut next = c.clone();
                    next.push(v.clone());
                    next
                })
            })
            .collect();
    }
    combos
        .into_iter()
        .flat_map(|values| {
            (1..=repeats).map(move |repeat| Point {
                values: values.clone(),
                repeat,
            })
        })
        .collect()
}

/// The points in an order drawn from `seed`: the same seed, the same order (a resumed sweep
/// keeps the order it started with).
pub fn shuffle(points: &mut [Point], seed: u64) {
    fastrand::Rng::with_seed(seed).shuffle(points);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    fn axis(name: &str, values: &[&str]) -> Axis {
        Axis {
            name: name.into(),
            values: values.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn first_axis_varies_slowest_and_repeats_stay_together() {
        let p = expand(&[axis("tasks", &["1", "2"]), axis("t", &["4k", "1m"])], 2);
        let text: Vec<String> = p
            .iter()
            .map(|p| format!("{}#{}", p.values.join("/"), p.repeat))
            .collect();
        assert_eq!(
            text,
            ["1/4k#1", "1/4k#2", "1/1m#1", "1/1m#2", "2/4k#1", "2/4k#2", "2/1m#1", "2/1m#2"]
        );
        assert_eq!(expand(&[], 3).len(), 3, "no axis: the command, repeated");
    }

    proptest! {
        /// Every combination appears exactly `repeats` times, and nothing else does.
        #[test]
        fn complete_and_unique(sizes in proptest::collection::vec(1usize..5, 0..4),
                               repeats in 1u32..4, seed in any::<u64>()) {
            let axes: Vec<Axis> = sizes.iter().enumerate().map(|(i, &n)| Axis {
                name: format!("a{i}"),
                values: (0..n).map(|v| v.to_string()).collect(),
            }).collect();
            let mut points = expand(&axes, repeats);
            let total: usize = sizes.iter().product::<usize>() * repeats as usize;
            prop_assert_eq!(points.len(), total);
            let unique: HashSet<_> = points.iter().cloned().collect();
            prop_assert_eq!(unique.len(), total);
            for p in &points {
                prop_assert_eq!(p.values.len(), axes.len());
                for (v, a) in p.values.iter().zip(&axes) {
                    prop_assert!(a.values.contains(v));
                }
            }
            let before = unique;
            shuffle(&mut points, seed);
            let after: HashSet<_> = points.iter().cloned().collect();
            prop_assert_eq!(before, after);
            let mut again = expand(&axes, repeats);
            shuffle(&mut again, seed);
            prop_assert_eq!(points, again);
        }
    }
}
