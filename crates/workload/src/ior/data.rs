//! What is written, and how reads are checked.
//!
//! The content of a transfer is a function of (pattern, seed, pretend rank, file offset,
//! transfer size). A rank fills one buffer per phase (`fill`) and patches a few words before
//! each write (`stamp`: one 16-byte stamp per 4 KiB), so the per-transfer cost is t/4096 stores,
//! not a per-byte generator. Checking regenerates the same stamps into an expected copy and
//! compares whole buffers with `memcmp`.
//!
//! * `Incompressible` (iogauge's default): words from a SplitMix64 stream keyed on (seed, rank);
//!   the stamps hold the file offset, so every 4 KiB of a run differs (no dedup, no compression).
//! * `Timestamp` (IOR's default): word i = (rank << 32) | (seed + i); identical transfers.
//! * `Offset` (IOR's): timestamp words, word 0 of every 4 KiB = (u32(offset) * k) | (rank << 32).
//!
//! Words are stored in native byte order, as IOR does, so files written by IOR with
//! `-l timestamp`/`-l offset` and the same `-G` verify here and vice versa.

use crate::ior::DataPacket;
use crate::rng::mix64;

const STAMP_STRIDE: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataPattern {
    kind: DataPacket,
    seed: u64,
    rank: u64,
    key: u64,
}

impl DataPattern {
    /// `seed` is IOR's data signature (`-G` or rank 0's clock), `rank` the pretend rank.
    pub fn new(kind: DataPacket, seed: i64, rank: u64) -> DataPattern {
        let seed = seed as u64;
        DataPattern {
            kind,
            seed,
            rank,
            key: mix64(seed ^ mix64(rank.wrapping_add(0x5EED))),
        }
    }

    /// Fill a transfer buffer with the base content (before stamps).
    pub fn fill(&self, buf: &mut [u8]) {
        let words = buf.len() / 8;
        let (body, tail) = buf.split_at_mut(words * 8);
        for (i, w) in body.chunks_exact_mut(8).enumerate() {
            w.copy_from_slice(&self.base_word(i as u64).to_ne_bytes());
        }
        for (j, b) in tail.iter_mut().enumerate() {
            let index = (words * 8 + j) as u64;
            *b = match self.kind {
                DataPacket::Incompressible => mix64(self.key ^ !index) as u8,
                // IOR: trailing bytes hold the low byte of their index.
                DataPacket::Timestamp | DataPacket::Offset => index as u8,
            };
        }
    }

    #[inline]
    fn base_word(&self, i: u64) -> u64 {
        match self.kind {
            DataPacket::Incompressible => mix64(self.key.wrapping_add(i)),
            DataPacket::Timestamp | DataPacket::Offset => {
                (self.rank << 32) | self.seed.wrapping_add(i)
            }
        }
    }

    /// Patch the per-transfer stamps for a transfer at file `offset` (no-op for timestamp).
    #[inline]
    pub fn stamp(&self, buf: &mut [u8], offset: u64) {
        match self.kind {
            DataPacket::Timestamp => {}
            DataPacket::Offset => {
                let mut k: u32 = 1;
                let mut pos = 0;
                while pos + 8 <= buf.len() {
                    let w = ((offset as u32).wrapping_mul(k) as u64) | (self.rank << 32);
                    buf[pos..pos + 8].copy_from_slice(&w.to_ne_bytes());
                    pos += STAMP_STRIDE;
                    k = k.wrapping_add(1);
                }
            }
            DataPacket::Incompressible => {
                // The first 16 bytes of every stride (chunks, so no bounds check per word).
                let mut at = offset;
                for chunk in buf.chunks_mut(STAMP_STRIDE) {
                    if let Some(w) = chunk.get_mut(..16) {
                        let w0 = at ^ self.key;
                        w[..8].copy_from_slice(&w0.to_ne_bytes());
                        w[8..].copy_from_slice(&mix64(w0).to_ne_bytes());
                    }
                    at += STAMP_STRIDE as u64;
                }
            }
        }
    }
}

/// Checks transfers read back against the pattern of one pretend rank.
pub struct Checker {
    pattern: DataPattern,
    expected: Vec<u8>,
}

impl Checker {
    pub fn new(pattern: DataPattern, transfer_size: usize) -> Checker {
        let mut expected = vec![0u8; transfer_size];
        pattern.fill(&mut expected);
        Checker { pattern, expected }
    }

    /// `None` when `buf` (read from `offset`) is what was written, else the index of the first
    /// wrong byte.
    #[inline]
    pub fn check(&mut self, buf: &[u8], offset: u64) -> Option<usize> {
        self.pattern.stamp(&mut self.expected, offset);
        let expected = &self.expected[..buf.len()];
        if buf == expected {
            None
        } else {
            Some(
                buf.iter()
                    .zip(expected)
                    .position(|(a, b)| a != b)
                    .unwrap_or(buf.len().min(expected.len())),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transfer(kind: DataPacket, seed: i64, rank: u64, len: usize, offset: u64) -> Vec<u8> {
        let p = DataPattern::new(kind, seed, rank);
        let mut b = vec![0; len];
        p.fill(&mut b);
        p.stamp(&mut b, offset);
        b
    }

    #[test]
    fn timestamp_matches_ior_words() {
        let b = transfer(DataPacket::Timestamp, 27, 3, 24, 0);
        let w1 = u64::from_ne_bytes(b[8..16].try_into().unwrap());
        assert_eq!(w1, (3u64 << 32) | 28);
    }

    #[test]
    fn offset_pattern_stamps_every_4k() {
        let b = transfer(DataPacket::Offset, 1, 2, 8192, 1000);
        let w = |i: usize| u64::from_ne_bytes(b[i..i + 8].try_into().unwrap());
        assert_eq!(w(0), 1000 | (2u64 << 32));
        assert_eq!(w(4096), 2000 | (2u64 << 32));
        assert_eq!(w(8), (2u64 << 32) | 2);
    }

    #[test]
    fn incompressible_differs_by_offset_rank_and_seed() {
        let a = transfer(DataPacket::Incompressible, 5, 0, 8192, 0);
        assert_ne!(a, transfer(DataPacket::Incompressible, 5, 0, 8192, 8192));
        assert_ne!(a, transfer(DataPacket::Incompressible, 5, 1, 8192, 0));
        assert_ne!(a, transfer(DataPacket::Incompressible, 6, 0, 8192, 0));
        // every 4 KiB of one transfer differs too
        assert_ne!(a[..4096], a[4096..]);
    }

    #[test]
    fn incompressible_looks_random() {
        // A crude entropy check: byte histogram of 1 MiB is close to uniform.
        let b = transfer(DataPacket::Incompressible, 1, 0, 1 << 20, 0);
        let mut counts = [0u32; 256];
        b.iter().for_each(|&x| counts[x as usize] += 1);
        let expect = (1 << 20) / 256;
        assert!(counts
            .iter()
            .all(|&c| (c as i64 - expect as i64).abs() < expect as i64 / 10));
    }

    #[test]
    fn checker_accepts_good_and_finds_the_flipped_byte() {
        for kind in [
            DataPacket::Incompressible,
            DataPacket::Timestamp,
            DataPacket::Offset,
        ] {
            let mut c = Checker::new(DataPattern::new(kind, 9, 1), 47008);
            let good = transfer(kind, 9, 1, 47008, 47008 * 5);
            assert_eq!(c.check(&good, 47008 * 5), None);
            let mut bad = good.clone();
            bad[12345] ^= 0x40;
            assert_eq!(c.check(&bad, 47008 * 5), Some(12345));
            // other rank's data is wrong too
            assert!(c
                .check(&transfer(kind, 9, 2, 47008, 47008 * 5), 47008 * 5)
                .is_some());
        }
    }

    #[test]
    fn odd_lengths_fill_the_tail() {
        let b = transfer(DataPacket::Timestamp, 0, 0, 3901, 0);
        assert_eq!(b[3900], (3900 % 256) as u8);
        let mut c = Checker::new(DataPattern::new(DataPacket::Incompressible, 1, 0), 3901);
        assert_eq!(
            c.check(&transfer(DataPacket::Incompressible, 1, 0, 3901, 0), 0),
            None
        );
    }
}
