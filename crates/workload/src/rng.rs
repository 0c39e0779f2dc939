//! Small deterministic random functions, one seeded instance per purpose (IOR shares one
//! global `rand()` state between unrelated uses; we do not).

/// SplitMix64 finaliser: a strong 64-bit mixing function.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Hash of two words (order matters).
#[inline]
pub fn mix2(a: u64, b: u64) -> u64 {
    mix64(mix64(a) ^ b.rotate_left(17))
}

/// A seeded SplitMix64 stream.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0), without modulo bias (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        loop {
            let m = (self.next_u64() as u128) * (n as u128);
            let low = m as u64;
            if low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }
}

/// A seeded bijection of `0..len` computed on demand (no table): a balanced Feistel network
/// over the next power of four, cycle-walking values that fall outside the domain. Memory is
/// O(1), so shuffling millions of transfers costs nothing up front.
#[derive(Debug, Clone)]
pub struct Permutation {
    len: u64,
    half_bits: u32,
    keys: [u64; 4],
}

impl Permutation {
    pub fn new(len: u64, seed: u64) -> Permutation {
        let bits = 64 - len.saturating_sub(1).leading_zeros();
        let half_bits = bits.div_ceil(2).max(1);
        let mut rng = SplitMix::new(seed);
        let keys = [
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
        ];
        Permutation {
            len,
            half_bits,
            keys,
        }
    }

    pub fn len(&self) -> u64 {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn round_trip(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half_bits) - 1;
        let (mut l, mut r) = (x >> self.half_bits, x & mask);
        for k in self.keys {
            let f = mix2(r, k) & mask;
            (l, r) = (r, l ^ f);
        }
        (l << self.half_bits) | r
    }

    /// The image of `i` (< len).
    #[inline]
    pub fn apply(&self, i: u64) -> u64 {
        debug_assert!(i < self.len);
        let mut x = self.round_trip(i);
        while x >= self.len {
            x = self.round_trip(x);
        }
        x
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn permutation_is_a_bijection(len in 1u64..3000, seed: u64) {
            let p = Permutation::new(len, seed);
            let mut seen = vec![false; len as usize];
            for i in 0..len {
                let v = p.apply(i);
                prop_assert!(v < len);
                prop_assert!(!seen[v as usize]);
                seen[v as usize] = true;
            }
        }

        #[test]
        fn below_stays_in_range(n in 1u64..1000, seed: u64) {
            let mut r = SplitMix::new(seed);
            for _ in 0..50 { prop_assert!(r.below(n) < n); }
        }
    }

    #[test]
    fn permutation_actually_shuffles() {
        let p = Permutation::new(1000, 7);
        let fixed = (0..1000).filter(|&i| p.apply(i) == i).count();
        assert!(fixed < 20, "{fixed} fixed points");
        assert_ne!(Permutation::new(1000, 8).apply(0), p.apply(0));
    }
}
