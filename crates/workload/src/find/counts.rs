//! What one rank counted during the walk: the type lives in `results::find`; the counts travel
//! between ranks in the rank report (`crate::reduce`), in the order of `Counts::fields`.

pub use results::find::Counts;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_sum() {
        let c = Counts {
            found: 1,
            examined: 2,
            dirs: 3,
            dirents: 4,
            stats: 5,
            unknown: 6,
            stat_errors: 7,
            unreadable_dirs: 8,
            steal_tries: 9,
            stolen: 10,
            spilled: 11,
        };
        assert_eq!(Counts::from_fields(c.fields()), c);
        let mut sum = c;
        sum.add(&c);
        assert_eq!((sum.found, sum.spilled), (2, 22));
    }
}
