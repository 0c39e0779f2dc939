//! Which rank makes which file: DLIO's generators walk one list, the train files then the valid
//! files, and rank r of n makes entries r, r + n, r + 2n, ... (`range(my_rank, total, comm_size)`).

use super::layout::Split;

/// The files rank `rank` of `ranks` makes, in the order it makes them.
pub fn rank_files(
    num_train: u64,
    num_valid: u64,
    rank: u64,
    ranks: u64,
) -> impl Iterator<Item = (Split, u64)> {
    assert!(rank < ranks, "rank {rank} of {ranks}");
    (rank..num_train + num_valid)
        .step_by(ranks as usize)
        .map(move |j| {
            if j < num_train {
                (Split::Train, j)
            } else {
                (Split::Valid, j - num_train)
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ranks_take_turns_over_train_then_valid() {
        let got: Vec<_> = rank_files(5, 3, 1, 3).collect();
        assert_eq!(
            got,
            [(Split::Train, 1), (Split::Train, 4), (Split::Valid, 2)]
        );
    }

    proptest! {
        #[test]
        fn every_file_is_made_once(train in 0u64..200, valid in 0u64..50, ranks in 1u64..17) {
            let mut seen = std::collections::HashSet::new();
            for rank in 0..ranks {
                for file in rank_files(train, valid, rank, ranks) {
                    prop_assert!(seen.insert(file));
                }
            }
            prop_assert_eq!(seen.len() as u64, train + valid);
        }
    }
}
