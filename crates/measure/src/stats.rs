//! Statistics across repetitions, ranks or phases.
//!
//! Both standard deviations are kept because the field disagrees: IOR reports the population SD
//! across repetitions, mdtest the sample SD.

/// Summary statistics of a set of values. An empty set gives zeros, never NaN.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    /// sqrt(Σ(x − mean)² / n)
    pub stddev_population: f64,
    /// sqrt(Σ(x − mean)² / (n − 1)); 0 for a single value.
    pub stddev_sample: f64,
    pub count: usize,
}

impl Stats {
    pub fn of(values: &[f64]) -> Stats {
        let count = values.len();
        if count == 0 {
            return Stats::default();
        }
        let n = count as f64;
        let mean = values.iter().sum::<f64>() / n;
        // Two passes: numerically stable enough for benchmark figures, and n is small.
        let sq: f64 = values.iter().map(|x| (x - mean) * (x - mean)).sum();
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Stats {
            min,
            max,
            mean,
            stddev_population: (sq / n).sqrt(),
            stddev_sample: if count > 1 {
                (sq / (n - 1.0)).sqrt()
            } else {
                0.0
            },
            count,
        }
    }
}

/// Geometric mean, as the IO500 scores. Empty input, or any value that is zero or negative,
/// gives 0: a phase that scored nothing makes the whole score zero.
pub fn geometric_mean(values: &[f64]) -> f64 {
    if values.is_empty() || values.iter().any(|&v| v.is_nan() || v <= 0.0) {
        return 0.0;
    }
    let log_sum: f64 = values.iter().map(|v| v.ln()).sum();
    (log_sum / values.len() as f64).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round2(x: f64) -> f64 {
        (x * 100.0).round() / 100.0
    }

    #[test]
    fn ior_reference_values() {
        // From the IOR -i 3 example: mean 1862.92, population StdDev 332.44.
        let s = Stats::of(&[2329.01, 1683.19, 1576.55]);
        assert_eq!(s.count, 3);
        assert_eq!(round2(s.mean), 1862.92);
        assert_eq!(round2(s.stddev_population), 332.44);
        assert_eq!(round2(s.stddev_sample), 407.16);
        assert_eq!(s.min, 1576.55);
        assert_eq!(s.max, 2329.01);
    }

    #[test]
    fn empty_and_single() {
        assert_eq!(Stats::of(&[]), Stats::default());
        let s = Stats::of(&[7.5]);
        assert_eq!((s.min, s.max, s.mean, s.count), (7.5, 7.5, 7.5, 1));
        assert_eq!((s.stddev_population, s.stddev_sample), (0.0, 0.0));
    }

    #[test]
    fn geometric_mean_cases() {
        assert!((geometric_mean(&[2.0, 8.0]) - 4.0).abs() < 1e-12);
        assert!((geometric_mean(&[1.0, 10.0, 100.0]) - 10.0).abs() < 1e-9);
        assert_eq!(geometric_mean(&[]), 0.0);
        assert_eq!(geometric_mean(&[3.0, 0.0]), 0.0);
        assert_eq!(geometric_mean(&[3.0, -1.0]), 0.0);
    }
}
