//! Sample sizes as DLIO draws them.
//!
//! DLIO (`DataGenerator.get_dimension`, `ConfigArguments.derive_configurations`) does not draw a
//! byte count: it draws a 2-D image shape per file. With L = `record_length_bytes` and
//! s = `record_length_bytes_stdev`:
//!
//! * mean side μ = ⌊√L⌋, side stdev σ = s / 2 / √L;
//! * s = 0: every file is μ × μ (so a sample is ⌊√L⌋² bytes, a little under L);
//! * s > 0: two sides per file, each `max(int(x), 1)` of x ~ N(μ, σ) (`int` truncates toward zero).
//!
//! A sample is rows × cols bytes; all samples of a file share the shape. The product's mean is
//! about (μ − ½)² and its stdev about s / √2: DLIO's data sets are spread less than the configured
//! stdev says, and we reproduce DLIO's distribution, not the configured one. `record_length_bytes_resize`
//! plays no part in generation (DLIO's readers use it), so it is not an input here.
//!
//! DLIO draws every file's shape from one NumPy stream seeded 10 on every rank; we key each
//! file's draw on (seed, split, index) instead, so a rank makes its share without the others.

use crate::rng::{mix2, SplitMix};

use super::layout::Split;

/// One file's drawn shape: each of its samples is `rows × cols` bytes of uint8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dims {
    pub rows: u64,
    pub cols: u64,
}

impl Dims {
    /// Bytes of one sample (DLIO's record).
    pub fn sample_bytes(self) -> u64 {
        self.rows * self.cols
    }
}

/// DLIO's shape distribution for one data set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SizeModel {
    mean_side: u64,
    side_stdev: f64,
    seed: u64,
}

impl SizeModel {
    /// From `record_length_bytes`, `record_length_bytes_stdev` and the generation seed.
    pub fn new(record_length: u64, record_length_stdev: u64, seed: u64) -> SizeModel {
        SizeModel {
            mean_side: mean_side(record_length),
            side_stdev: side_stdev(record_length, record_length_stdev),
            seed,
        }
    }

    /// μ = ⌊√record_length⌋: DLIO's `dimension`, also the `size` feature of its TFRecords.
    pub fn mean_side(&self) -> u64 {
        self.mean_side
    }

    /// σ: DLIO's `dimension_stdev`.
    pub fn side_stdev(&self) -> f64 {
        self.side_stdev
    }

    /// The shape of file `index` of `split` (the same on every rank).
    pub fn dims(&self, split: Split, index: u64) -> Dims {
        if self.side_stdev <= 0.0 {
            return Dims {
                rows: self.mean_side,
                cols: self.mean_side,
            };
        }
        let mut rng = SplitMix::new(mix2(mix2(self.seed, split.tag()), index));
        let (a, b) = standard_normal_pair(&mut rng);
        Dims {
            rows: self.side(a),
            cols: self.side(b),
        }
    }

    /// The file of the first `count` of `split` with the most sample bytes, and its shape
    /// (`None` for none): what one writer must hold at once, known before any I/O.
    pub fn largest(&self, split: Split, count: u64) -> Option<(u64, Dims)> {
        (0..count)
            .map(|i| (i, self.dims(split, i)))
            .max_by_key(|(_, d)| d.sample_bytes())
    }

    /// `max(int(μ + σ·z), 1)`, as DLIO clips.
    fn side(&self, z: f64) -> u64 {
        let x = self.mean_side as f64 + self.side_stdev * z;
        // `as u64` truncates toward zero and maps negatives to 0, then the floor of 1.
        (x.trunc() as u64).max(1)
    }
}

/// ⌊√L⌋ exactly (no float rounding at large L).
pub fn mean_side(record_length: u64) -> u64 {
    record_length.isqrt()
}

/// s / 2 / √L (0 when L = 0: nothing to spread).
pub fn side_stdev(record_length: u64, record_length_stdev: u64) -> f64 {
    if record_length == 0 {
        return 0.0;
    }
    record_length_stdev as f64 / 2.0 / (record_length as f64).sqrt()
}

/// Two independent N(0, 1) draws (Box–Muller).
fn standard_normal_pair(rng: &mut SplitMix) -> (f64, f64) {
    // u1 in (0, 1] so that ln(u1) is finite; u2 in [0, 1).
    let u1 = ((rng.next_u64() >> 11) + 1) as f64 / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    let r = (-2.0 * u1.ln()).sqrt();
    let angle = std::f64::consts::TAU * u2;
    (r * angle.cos(), r * angle.sin())
}

#[cfg(test)]
#[path = "sizes_tests.rs"]
mod tests;
