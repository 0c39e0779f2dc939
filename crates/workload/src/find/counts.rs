//! What one rank counted during the walk: the type lives in `results::find`; how counts travel
//! between ranks is `Counts::encode`/`decode`.

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
        let bytes = c.encode(&[42, 43]);
        assert_eq!(Counts::decode::<2>(&bytes), Some((c, [42, 43])));
        assert_eq!(Counts::decode::<1>(&bytes), None);
        let mut sum = c;
        sum.add(&c);
        assert_eq!((sum.found, sum.spilled), (2, 22));
    }
}
