use super::*;
use proptest::prelude::*;

const MIB: u64 = 1 << 20;
const GIB: u64 = 1 << 30;

fn room(free: u64, inodes: u64, memory: u64) -> Room {
    Room {
        free_bytes: Some(free),
        free_inodes: Some(inodes),
        memory_bytes: Some(memory),
    }
}

fn above_floor(s: &Sizes) -> bool {
    s.ior_easy_block > FLOOR.ior_easy_block
        && s.ior_hard_segments > FLOOR.ior_hard_segments
        && s.mdtest_easy_files > FLOOR.mdtest_easy_files
        && s.mdtest_hard_files > FLOOR.mdtest_hard_files
}

#[test]
fn a_worked_example() {
    // Memory is the smaller: three quarters of 16 GiB is the budget; 3/8 of it for each IOR
    // phase, 1/8 for each mdtest phase, split over 4 ranks.
    let s = sizes(&room(100 * GIB, 1 << 30, 16 * GIB), 4);
    assert_eq!(
        s,
        Sizes {
            budget: 12 * GIB,
            ior_easy_block: 1152 * MIB,
            ior_hard_segments: 25696,
            mdtest_easy_files: 393216,
            mdtest_hard_files: 78643,
        }
    );
    assert!(peak_bytes(&s, 4) <= s.budget);
    assert_eq!(fits(&room(100 * GIB, 1 << 30, 16 * GIB), &s, 4), Ok(()));
}

#[test]
fn free_space_binds_when_its_half_is_the_smaller() {
    let s = sizes(&room(10 * GIB, 1 << 30, 64 * GIB), 1);
    assert_eq!(s.budget, 5 * GIB);
    assert_eq!(s.ior_easy_block, 1920 * MIB);
    assert_eq!(s.ior_hard_segments, 42828);
    assert_eq!((s.mdtest_easy_files, s.mdtest_hard_files), (655360, 131072));
}

#[test]
fn free_inodes_cap_the_file_counts() {
    // 100000 free inodes: half for the run, half of that for each mdtest phase.
    let s = sizes(&room(100 * GIB, 100_000, 100 * GIB), 1);
    assert_eq!((s.mdtest_easy_files, s.mdtest_hard_files), (25000, 25000));
    // A file system that does not count inodes leaves the bytes to decide.
    let mut r = room(100 * GIB, 0, 100 * GIB);
    r.free_inodes = None;
    assert!(sizes(&r, 1).mdtest_easy_files > 25000);
}

#[test]
fn a_nearly_full_directory_gets_the_floors_and_is_refused() {
    let r = room(8 * MIB, 1 << 20, 16 * GIB);
    let s = sizes(&r, 2);
    assert_eq!(
        (
            s.ior_easy_block,
            s.ior_hard_segments,
            s.mdtest_easy_files,
            s.mdtest_hard_files
        ),
        (
            FLOOR.ior_easy_block,
            FLOOR.ior_hard_segments,
            FLOOR.mdtest_easy_files,
            FLOOR.mdtest_hard_files
        )
    );
    assert_eq!(fits(&r, &s, 2), Err((peak_bytes(&s, 2), 8 * MIB)));
}

#[test]
fn what_is_not_known_does_not_limit() {
    let mut r = room(u64::MAX, 1 << 40, 8 * GIB);
    r.free_bytes = None;
    assert_eq!(sizes(&r, 1).budget, 6 * GIB);
    assert_eq!(fits(&r, &sizes(&r, 1), 1), Ok(()));
    r.memory_bytes = None;
    assert_eq!(sizes(&r, 1).budget, 0, "nothing known: only the floors");
    assert_eq!(sizes(&r, 3).ior_easy_block, FLOOR.ior_easy_block);
}

fn any_room() -> impl Strategy<Value = Room> {
    (
        proptest::option::of(0u64..1 << 50),
        proptest::option::of(0u64..1 << 34),
        proptest::option::of(0u64..1 << 42),
    )
        .prop_map(|(f, i, m)| Room {
            free_bytes: f,
            free_inodes: i,
            memory_bytes: m,
        })
}

proptest! {
    #[test]
    fn a_part_is_exact_and_never_overflows(x: u64, num in 1u64..8, extra in 0u64..8) {
        let den = num + extra;
        prop_assert_eq!(part(x, (num, den)) as u128, x as u128 * num as u128 / den as u128);
    }

    #[test]
    fn the_budget_is_a_fraction_of_free_space_and_memory(r in any_room(), ranks in 1usize..2048) {
        let s = sizes(&r, ranks);
        if let Some(free) = r.free_bytes {
            prop_assert!(s.budget <= free / 2);
        }
        if let Some(memory) = r.memory_bytes {
            prop_assert!(s.budget as u128 * 4 <= memory as u128 * 3);
        }
        // The data stays within the budget, except where a floor lifts a size above it.
        prop_assert!(peak_bytes(&s, ranks) <= s.budget + peak_bytes(&FLOOR, ranks));
        if above_floor(&s) {
            prop_assert!(peak_bytes(&s, ranks) <= s.budget);
            prop_assert_eq!(fits(&r, &s, ranks), Ok(()));
        }
    }

    #[test]
    fn the_sizes_are_valid_ior_and_mdtest_values(r in any_room(), ranks in 1usize..2048) {
        let s = sizes(&r, ranks);
        prop_assert_eq!(s.ior_easy_block % IOR_EASY_TRANSFER, 0);
        prop_assert!(s.ior_easy_block >= FLOOR.ior_easy_block);
        prop_assert!(s.ior_hard_segments >= FLOOR.ior_hard_segments);
        prop_assert!(s.mdtest_easy_files >= FLOOR.mdtest_easy_files);
        prop_assert!(s.mdtest_hard_files >= FLOOR.mdtest_hard_files);
    }

    #[test]
    fn the_files_stay_within_half_the_free_inodes(r in any_room(), ranks in 1usize..2048) {
        let s = sizes(&r, ranks);
        if let (Some(inodes), true) = (r.free_inodes, above_floor(&s)) {
            let files = (s.mdtest_easy_files + s.mdtest_hard_files) * ranks as u64;
            prop_assert!(files <= inodes / 2);
        }
    }

    #[test]
    fn more_room_never_means_less_data(
        r in any_room(),
        more in 0u64..1 << 40,
        ranks in 1usize..2048,
    ) {
        let s = sizes(&r, ranks);
        let grow = |x: Option<u64>| x.map(|v| v + more);
        for bigger in [
            Room { free_bytes: grow(r.free_bytes), ..r },
            Room { free_inodes: grow(r.free_inodes), ..r },
            Room { memory_bytes: grow(r.memory_bytes), ..r },
        ] {
            let b = sizes(&bigger, ranks);
            prop_assert!(b.budget >= s.budget);
            prop_assert!(b.ior_easy_block >= s.ior_easy_block);
            prop_assert!(b.ior_hard_segments >= s.ior_hard_segments);
            prop_assert!(b.mdtest_easy_files >= s.mdtest_easy_files);
            prop_assert!(b.mdtest_hard_files >= s.mdtest_hard_files);
        }
    }

    #[test]
    fn more_ranks_share_the_same_budget(r in any_room(), ranks in 1usize..1024) {
        let (one, more) = (sizes(&r, ranks), sizes(&r, ranks + 1));
        prop_assert_eq!(one.budget, more.budget);
        prop_assert!(more.ior_easy_block <= one.ior_easy_block);
        prop_assert!(more.ior_hard_segments <= one.ior_hard_segments);
        prop_assert!(more.mdtest_easy_files <= one.mdtest_easy_files);
        prop_assert!(more.mdtest_hard_files <= one.mdtest_hard_files);
    }
}
