use super::*;

fn ext(offset: u64, len: u64) -> Extent {
    Extent { offset, len }
}

fn strided(first: u64, len: u64, stride: u64, count: u64) -> Strided {
    Strided {
        first,
        len,
        stride,
        count,
    }
}

/// Whether `x` lies inside one piece of `set`.
fn inside(set: &Strided, x: &Extent) -> bool {
    x.offset >= set.first && {
        let (i, into) = (
            (x.offset - set.first) / set.stride,
            (x.offset - set.first) % set.stride,
        );
        i < set.count && into + x.len <= set.len
    }
}

#[test]
fn small_sets_are_checked_whole() {
    let (w, sampled) = plan_windows(&strided(4096, 100, 1000, 3), 4096);
    assert!(!sampled);
    assert_eq!(w, [ext(4096, 100), ext(5096, 100), ext(6096, 100)]);
    assert_eq!(plan_windows(&Strided::whole(0, 0), 4096), (vec![], false));
}

/// Every window lies inside one piece; the sample keeps to the budget and the window count,
/// and reaches from the first piece into the last tenth of the set.
fn check_sample(set: Strided) {
    let (w, sampled) = plan_windows(&set, 4096);
    assert!(sampled);
    assert_eq!(w.len(), MAX_WINDOWS);
    let sum: u64 = w.iter().map(|x| x.len).sum();
    assert!(sum <= CHECK_BUDGET_BYTES, "{sum}");
    assert!(w.iter().all(|x| x.len > 0 && inside(&set, x)));
    assert_eq!(w[0].offset, set.first);
    let end = set.first + set.stride * (set.count - 1) + set.len;
    assert!(w[MAX_WINDOWS - 1].offset >= end / 10 * 9);
}

#[test]
fn large_and_many_pieces_are_sampled() {
    check_sample(Strided::whole(0, 64 << 30));
    // IOR's shared-file layout: 10 million segments of a 47008-byte block, 4 ranks, rank 1.
    let b = 47008;
    check_sample(strided(b, b, 4 * b, 10_000_000));
    check_sample(strided(0, 100, 200, 5000));
}

proptest::proptest! {
    #[test]
    fn windows_stay_in_their_pieces(
        first in 0u64..(1 << 40),
        len in 1u64..(1 << 32),
        gap in 0u64..(1 << 20),
        count in 1u64..100_000,
    ) {
        let set = strided(first, len, len + gap, count);
        let (w, sampled) = plan_windows(&set, 4096);
        proptest::prop_assert_eq!(
            sampled,
            set.bytes() > CHECK_BUDGET_BYTES || count > MAX_WINDOWS as u64
        );
        proptest::prop_assert!(w.iter().all(|x| x.len > 0 && inside(&set, x)));
        if !sampled {
            proptest::prop_assert_eq!(w.iter().map(|x| x.len).sum::<u64>(), set.bytes());
        }
    }
}

/// A directory on a disk-backed file system, if this machine has one where tests may write.
fn disk_dir() -> Option<tempfile::TempDir> {
    ["/var/tmp", "/tmp"]
        .iter()
        .map(Path::new)
        .filter(|p| p.is_dir() && !in_memory_fs(p))
        .find_map(|p| tempfile::tempdir_in(p).ok())
}

fn whole(path: &Path) -> Residency {
    let len = std::fs::metadata(path).unwrap().len();
    let (w, _) = plan_windows(&Strided::whole(0, len), page_size());
    residency(path, &w).unwrap()
}

#[test]
fn a_fresh_file_is_resident_and_a_dropped_one_is_not() {
    let Some(dir) = disk_dir() else {
        eprintln!("no disk-backed temporary directory: skipped");
        return;
    };
    assert!(!in_memory_fs(dir.path()));
    let f = dir.path().join("data");
    std::fs::write(&f, vec![7u8; 8 << 20]).unwrap();
    let fresh = whole(&f);
    assert_eq!(fresh.checked_bytes, 8 << 20);
    let before = fresh.fraction().unwrap();
    assert!(before > 0.9, "a file just written: {before}");
    drop_file(&f).unwrap();
    let after = whole(&f).fraction().unwrap();
    assert!(after < 0.1, "after fsync and DONTNEED: {after}");
    eprintln!(
        "disk {}: fresh {before:.3}, dropped {after:.3}",
        dir.path().display()
    );
}

#[test]
fn tmpfs_keeps_its_pages() {
    let shm = Path::new("/dev/shm");
    if !shm.is_dir() {
        return;
    }
    assert!(in_memory_fs(shm));
    let dir = tempfile::tempdir_in(shm).unwrap();
    let f = dir.path().join("data");
    std::fs::write(&f, vec![7u8; 1 << 20]).unwrap();
    drop_file(&f).unwrap();
    let after = whole(&f).fraction().unwrap();
    assert!(after > 0.9, "tmpfs pages are the data: {after}");
    eprintln!("tmpfs: after a drop {after:.3}");
}

#[test]
fn windows_past_the_end_count_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("short");
    std::fs::write(&f, vec![1u8; 100]).unwrap();
    let r = residency(&f, &[ext(1 << 20, 4096)]).unwrap();
    assert_eq!(r, Residency::default());
    assert_eq!(r.fraction(), None);
    let empty = dir.path().join("empty");
    std::fs::write(&empty, b"").unwrap();
    assert_eq!(whole(&empty).checked_bytes, 0);
    assert!(residency(&dir.path().join("missing"), &[ext(0, 1)]).is_err());
}
