//! C's printf number forms that IOR's and mdtest's outputs depend on: `%.<p>f` and `%.<p>e`.
//! Rust differs in two places: non-finite values (`NaN` for C's `nan`) and the exponent, which
//! C signs and pads to two digits (`e-01` where Rust writes `e-1`).

/// C prints non-finite doubles as `nan` / `inf` / `-inf`.
fn non_finite(v: f64) -> Option<&'static str> {
    if v.is_nan() {
        Some("nan")
    } else if v == f64::INFINITY {
        Some("inf")
    } else if v == f64::NEG_INFINITY {
        Some("-inf")
    } else {
        None
    }
}

/// C's `%.<prec>f`.
pub fn fixed(v: f64, prec: usize) -> String {
    match non_finite(v) {
        Some(s) => s.to_string(),
        None => format!("{v:.prec$}"),
    }
}

/// C's `%.<prec>e`: mantissa with `prec` decimals, exponent signed and at least two digits
/// (`1.2500000000e-01`).
pub fn c_exp(v: f64, prec: usize) -> String {
    if let Some(s) = non_finite(v) {
        return s.to_string();
    }
    let rust = format!("{v:.prec$e}");
    let (mantissa, exp) = rust.split_once('e').unwrap_or((&rust, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_matches_printf() {
        assert_eq!(fixed(896.7612, 2), "896.76");
        assert_eq!(fixed(0.5, 0), "0");
        assert_eq!(fixed(1.0, 4), "1.0000");
        assert_eq!(fixed(f64::NAN, 2), "nan");
        assert_eq!(fixed(f64::INFINITY, 2), "inf");
        assert_eq!(fixed(f64::NEG_INFINITY, 2), "-inf");
    }

    #[test]
    fn c_exp_matches_printf() {
        assert_eq!(c_exp(0.125, 10), "1.2500000000e-01");
        assert_eq!(c_exp(896.7612, 10), "8.9676120000e+02");
        assert_eq!(c_exp(0.0, 10), "0.0000000000e+00");
        assert_eq!(c_exp(1.5e-120, 3), "1.500e-120");
        assert_eq!(c_exp(-2.0, 2), "-2.00e+00");
        assert_eq!(c_exp(f64::INFINITY, 10), "inf");
        assert_eq!(c_exp(f64::NAN, 10), "nan");
    }

    #[test]
    fn c_exp_as_mdtest_prints_its_csv() {
        assert_eq!(c_exp(12345.678901234, 10), "1.2345678901e+04");
        assert_eq!(c_exp(0.000123, 10), "1.2300000000e-04");
        assert_eq!(c_exp(1.5e300, 10), "1.5000000000e+300");
    }
}
