//! numpy's legacy global generator (`np.random.seed`, `np.random.shuffle`, `np.random.normal`,
//! `np.random.uniform`), draw for draw: DLIO shuffles its file and sample lists and draws
//! computation times with it, so the same seed must give the same order here.
//!
//! Legacy `RandomState` is MT19937 seeded with `init_genrand` for a 32-bit integer seed; doubles
//! take 53 bits from two 32-bit outputs; the Gaussian is the polar method that keeps its second
//! value for the next call (the cache is cleared by a new seed).

use rand_mt::Mt;

/// The state behind numpy's `np.random.*` functions after `np.random.seed(seed)`.
#[derive(Clone)]
pub struct LegacyRandomState {
    mt: Mt,
    /// The polar method's second value, returned by the next Gaussian draw.
    cached_gauss: Option<f64>,
}

impl std::fmt::Debug for LegacyRandomState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LegacyRandomState").finish_non_exhaustive()
    }
}

impl LegacyRandomState {
    /// `np.random.seed(seed)` for an integer seed (numpy refuses seeds above 2^32 - 1).
    pub fn seeded(seed: u32) -> Self {
        LegacyRandomState {
            mt: Mt::new(seed),
            cached_gauss: None,
        }
    }

    /// `np.random.seed(seed)` on an existing state.
    pub fn reseed(&mut self, seed: u32) {
        *self = Self::seeded(seed);
    }

    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    fn next_u64(&mut self) -> u64 {
        let high = u64::from(self.next_u32());
        (high << 32) | u64::from(self.next_u32())
    }

    /// `random_sample()`: 53 random bits in [0, 1).
    pub fn next_double(&mut self) -> f64 {
        let a = f64::from(self.next_u32() >> 5);
        let b = f64::from(self.next_u32() >> 6);
        (a * 67_108_864.0 + b) / 9_007_199_254_740_992.0
    }

    /// A uniform integer in [0, max] by masked rejection: 32-bit draws while the bound fits.
    pub fn random_interval(&mut self, max: u64) -> u64 {
        if max == 0 {
            return 0;
        }
        let mask = u64::MAX >> max.leading_zeros();
        if max <= u64::from(u32::MAX) {
            loop {
                let value = u64::from(self.next_u32()) & mask;
                if value <= max {
                    return value;
                }
            }
        }
        loop {
            let value = self.next_u64() & mask;
            if value <= max {
                return value;
            }
        }
    }

    /// `np.random.shuffle(list)`: Fisher-Yates from the end, one `random_interval(i)` per step.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.random_interval(i as u64) as usize;
            items.swap(i, j);
        }
    }

    /// The standard normal of numpy's legacy `gauss` (polar method, second value cached).
    pub fn gauss(&mut self) -> f64 {
        if let Some(value) = self.cached_gauss.take() {
            return value;
        }
        loop {
            let x1 = 2.0 * self.next_double() - 1.0;
            let x2 = 2.0 * self.next_double() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.cached_gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// `np.random.normal(loc, scale)` for scalars.
    pub fn normal(&mut self, loc: f64, scale: f64) -> f64 {
        loc + scale * self.gauss()
    }

    /// `np.random.uniform(low, high)` for scalars.
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.next_double()
    }
}

#[cfg(test)]
#[path = "numpy_rng_tests.rs"]
mod tests;
