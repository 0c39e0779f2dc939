//! What one rank counted during the walk, and how counts travel between ranks.

use super::pool::StealStats;

/// One rank's counters (or their sum). Field order is the wire order of [`Counts::encode`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Non-directory entries that matched every predicate (pfind's `found`).
    pub found: u64,
    /// Non-directory entries examined: the IO500's `total-files` and the rate's numerator.
    pub examined: u64,
    /// Directories read (roots included).
    pub dirs: u64,
    /// Entries returned by readdir, `.` and `..` excluded (pfind's "scanned dirents").
    pub dirents: u64,
    /// `lstat` calls made.
    pub stats: u64,
    /// Entries whose type readdir did not report (DT_UNKNOWN); each needed an `lstat`.
    pub unknown: u64,
    /// Entries that could not be stat'ed (vanished, permission).
    pub stat_errors: u64,
    /// Directories that could not be read; their contents are not counted.
    pub unreadable_dirs: u64,
    pub steal_tries: u64,
    pub stolen: u64,
    pub spilled: u64,
}

const FIELDS: usize = 11;

impl Counts {
    fn fields(&self) -> [u64; FIELDS] {
        [
            self.found,
            self.examined,
            self.dirs,
            self.dirents,
            self.stats,
            self.unknown,
            self.stat_errors,
            self.unreadable_dirs,
            self.steal_tries,
            self.stolen,
            self.spilled,
        ]
    }

    fn from_fields(f: [u64; FIELDS]) -> Self {
        Counts {
            found: f[0],
            examined: f[1],
            dirs: f[2],
            dirents: f[3],
            stats: f[4],
            unknown: f[5],
            stat_errors: f[6],
            unreadable_dirs: f[7],
            steal_tries: f[8],
            stolen: f[9],
            spilled: f[10],
        }
    }

    pub fn set_steals(&mut self, s: StealStats) {
        self.steal_tries = s.tries;
        self.stolen = s.stolen;
        self.spilled = s.spilled;
    }

    pub fn add(&mut self, other: &Counts) {
        let mut f = self.fields();
        for (a, b) in f.iter_mut().zip(other.fields()) {
            *a += b;
        }
        *self = Counts::from_fields(f);
    }

    /// Counters then `extra` values, little-endian u64s.
    pub fn encode(&self, extra: &[u64]) -> Vec<u8> {
        self.fields()
            .iter()
            .chain(extra)
            .flat_map(|v| v.to_le_bytes())
            .collect()
    }

    /// The inverse of [`Counts::encode`] with `N` extra values; `None` if the length is wrong.
    pub fn decode<const N: usize>(bytes: &[u8]) -> Option<(Counts, [u64; N])> {
        if bytes.len() != (FIELDS + N) * 8 {
            return None;
        }
        let mut vals = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")));
        let mut f = [0u64; FIELDS];
        f.iter_mut().for_each(|v| *v = vals.next().unwrap_or(0));
        let mut extra = [0u64; N];
        extra.iter_mut().for_each(|v| *v = vals.next().unwrap_or(0));
        Some((Counts::from_fields(f), extra))
    }
}

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
