use super::*;
use proptest::prelude::*;

/// The marker segments before the scan: (marker byte, segment length with header), and the
/// offset where the entropy-coded data starts. Panics on a malformed header.
fn segments(jpeg: &[u8]) -> (Vec<(u8, usize)>, usize) {
    assert_eq!(jpeg[..2], [0xff, 0xd8], "SOI");
    let mut at = 2;
    let mut found = Vec::new();
    loop {
        assert_eq!(jpeg[at], 0xff, "marker at {at}");
        let marker = jpeg[at + 1];
        let len = usize::from(u16::from_be_bytes([jpeg[at + 2], jpeg[at + 3]]));
        found.push((marker, len + 2));
        at += len + 2;
        if marker == 0xda {
            return (found, at);
        }
    }
}

fn jpeg_of(dims: Dims, key: u64) -> Vec<u8> {
    let mut out = Vec::new();
    encode(dims, key, &mut JpegScratch::default(), &mut out).unwrap();
    out
}

#[test]
fn a_file_is_jfif_then_comments_then_the_image_at_the_exact_size() {
    let dims = Dims {
        rows: 568,
        cols: 569,
    };
    let out = jpeg_of(dims, 1);
    assert_eq!(out.len() as u64, dims.sample_bytes());
    let (found, scan) = segments(&out);
    assert_eq!(found[0], (0xe0, 18), "JFIF APP0 first");
    assert_eq!(found[1].0, 0xfe, "COM second");
    let comments: usize = found.iter().filter(|s| s.0 == 0xfe).map(|s| s.1).sum();
    assert!(comments as u64 > dims.sample_bytes() * 9 / 10, "{comments}");
    assert!(found.iter().any(|s| s.0 == 0xc0), "baseline SOF0");
    assert_eq!(out[out.len() - 2..], [0xff, 0xd9], "EOI last");
    assert!(out.len() - scan > 1000, "an image was coded");
}

#[test]
fn large_targets_take_several_comment_segments() {
    let dims = Dims {
        rows: 1500,
        cols: 1000,
    };
    let out = jpeg_of(dims, 2);
    assert_eq!(out.len(), 1_500_000);
    let (found, _) = segments(&out);
    let comments: Vec<usize> = found.iter().filter(|s| s.0 == 0xfe).map(|s| s.1).collect();
    assert!(comments.len() >= 22, "{comments:?}");
    assert!(comments.iter().all(|&c| c <= 65537));
}

#[test]
fn a_target_below_the_smallest_jpeg_gets_the_smallest_jpeg() {
    let out = jpeg_of(Dims { rows: 10, cols: 10 }, 3);
    assert!(out.len() > 100 && out.len() < 1000, "{}", out.len());
    let (found, _) = segments(&out);
    assert!(found.iter().all(|s| s.0 != 0xfe));
    let sof = found.iter().position(|s| s.0 == 0xc0).unwrap();
    assert!(sof > 0);
}

#[test]
fn files_differ_by_key() {
    let dims = Dims {
        rows: 300,
        cols: 300,
    };
    assert_eq!(jpeg_of(dims, 4), jpeg_of(dims, 4));
    assert_ne!(jpeg_of(dims, 4), jpeg_of(dims, 5));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn comment_segments_add_up_to_the_gap(gap in 4u64..1_000_000) {
        let sizes = com_segments(gap);
        prop_assert_eq!(sizes.iter().sum::<u64>(), gap);
        prop_assert!(sizes.iter().all(|&s| (4..=65537).contains(&s)));
        prop_assert_eq!(sizes.len() as u64, gap.div_ceil(65537));
    }

    #[test]
    fn every_target_from_a_small_image_up_is_hit_exactly(rows in 30u64..400, cols in 30u64..400, key: u64) {
        let dims = Dims { rows, cols };
        let out = jpeg_of(dims, key);
        prop_assert_eq!(out.len() as u64, dims.sample_bytes());
        segments(&out);
    }
}
