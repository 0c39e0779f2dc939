//! Times that may carry a fraction (`-d 0.5`, `-D 1.5`, mdtest `-W 0.5`) are `f64` in the plans.
//! A whole value is written as an integer, so a result document holds `300`, as it did when
//! these fields were integers, and earlier documents compare unchanged.

use serde::Serializer;

/// `v` as an integer when it is a whole number that `f64` holds exactly.
pub fn integer(v: f64) -> Option<u64> {
    const EXACT: f64 = (1u64 << 53) as f64;
    ((0.0..=EXACT).contains(&v) && v.fract() == 0.0).then_some(v as u64)
}

/// Serializes a whole `v` as an integer, any other as a float (`serialize_with`).
pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    match integer(*v) {
        Some(n) => s.serialize_u64(n),
        None => s.serialize_f64(*v),
    }
}

#[cfg(test)]
mod tests {
    use super::integer;

    #[test]
    fn whole_values_are_integers() {
        assert_eq!(integer(0.0), Some(0));
        assert_eq!(integer(300.0), Some(300));
        assert_eq!(integer(0.5), None);
        assert_eq!(integer(-1.0), None);
        assert_eq!(integer(f64::NAN), None);
        assert_eq!(integer(1e300), None);
    }
}
