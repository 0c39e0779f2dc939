//! Min, median and max over a point's repeats: the reports' spread over iterations, and
//! whether two of them overlap.

/// A figure over a point's repeats (`n` of them).
pub use report::Spread as Stats;

/// Whether the ranges of two points' repeats overlap: then the difference of their medians
/// may be noise.
pub fn overlaps(a: &Stats, b: &Stats) -> bool {
    a.min <= b.max && b.min <= a.max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlap() {
        let a = Stats::of(&[1.0, 2.0]).unwrap();
        assert!(overlaps(&a, &Stats::of(&[2.0, 5.0]).unwrap()));
        assert!(!overlaps(&a, &Stats::of(&[2.5, 5.0]).unwrap()));
        assert!(
            overlaps(&Stats::of(&[0.0, 9.0]).unwrap(), &a),
            "one inside the other"
        );
    }
}
