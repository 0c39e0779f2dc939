//! The content of generated samples: random bytes, fast.
//!
//! DLIO fills samples with `np.random.randint(255)` (uniform bytes, incompressible, every file
//! different). A storage benchmark must not let its data generator set the pace, so this is
//! wyrand: one 64×64→128-bit multiply per 8 bytes, several GiB/s on one core. It is not a
//! cryptographic or statistical-quality generator; it only has to defeat compression and dedup.

use crate::rng::mix64;

/// A stream of random bytes keyed on a 64-bit key.
#[derive(Debug, Clone)]
pub struct RandomBytes {
    state: u64,
}

impl RandomBytes {
    pub fn new(key: u64) -> RandomBytes {
        // Mixed, so that near keys (1, 2) do not start near each other on wyrand's sequence.
        RandomBytes { state: mix64(key) }
    }

    /// Fill `buf`; the stream moves on by whole 8-byte words (a partial last word is dropped).
    pub fn fill(&mut self, buf: &mut [u8]) {
        let mut words = buf.chunks_exact_mut(8);
        for word in &mut words {
            word.copy_from_slice(&self.next_word().to_le_bytes());
        }
        let tail = words.into_remainder();
        if !tail.is_empty() {
            let last = self.next_word().to_le_bytes();
            tail.copy_from_slice(&last[..tail.len()]);
        }
    }

    #[inline]
    fn next_word(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        let product = u128::from(self.state) * u128::from(self.state ^ 0xe703_7ed1_a0b4_28db);
        (product >> 64) as u64 ^ product as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_keyed_and_spread_over_all_values() {
        let mut a = vec![0u8; 1 << 16];
        let mut b = vec![0u8; 1 << 16];
        RandomBytes::new(1).fill(&mut a);
        RandomBytes::new(1).fill(&mut b);
        assert_eq!(a, b);
        RandomBytes::new(2).fill(&mut b);
        let same = a.iter().zip(&b).filter(|(x, y)| x == y).count();
        assert!(same < 400, "{same} equal bytes of 65536");
        let mut counts = [0u32; 256];
        for &x in &a {
            counts[x as usize] += 1;
        }
        // 256 per value expected; a broken generator leaves values out or piles them up.
        assert!(
            counts.iter().all(|&c| (150..380).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn a_partial_word_is_filled_too() {
        let mut buf = [0u8; 13];
        RandomBytes::new(9).fill(&mut buf);
        assert!(buf[8..].iter().any(|&x| x != 0));
    }
}
