//! Durations on a command line: `10ms`, `1.5s`, `250us`, `0`; a bare number is seconds.

/// The units a duration may carry, in seconds each; the longest suffix is tried first.
const UNITS: [(&str, f64); 5] = [
    ("ns", 1e-9),
    ("us", 1e-6),
    ("µs", 1e-6),
    ("ms", 1e-3),
    ("s", 1.0),
];

/// Seconds from a decimal with an optional unit (`ns`, `us`, `µs`, `ms`, `s`); negative
/// values, exponents, `inf` and `nan` are refused with a message naming the text.
pub fn parse_duration(text: &str) -> Result<f64, String> {
    let t = text.trim();
    let (number, scale) = UNITS
        .iter()
        .find_map(|(u, s)| t.strip_suffix(u).map(|n| (n, *s)))
        .unwrap_or((t, 1.0));
    let plain = !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && number.bytes().filter(|&b| b == b'.').count() <= 1
        && number != ".";
    match number.parse::<f64>() {
        Ok(v) if plain && v.is_finite() => Ok(v * scale),
        _ => Err(format!(
            "\"{text}\" is not a duration (expected e.g. 10ms, 1.5s, 250us or 0; a bare number is seconds)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_bare_seconds() {
        assert_eq!(parse_duration("10ms"), Ok(0.01));
        assert_eq!(parse_duration("1.5s"), Ok(1.5));
        assert_eq!(parse_duration("2"), Ok(2.0));
        assert_eq!(parse_duration("0"), Ok(0.0));
        assert_eq!(parse_duration(".5"), Ok(0.5));
        assert!((parse_duration("250us").unwrap() - 250e-6).abs() < 1e-15);
        assert!((parse_duration("7µs").unwrap() - 7e-6).abs() < 1e-15);
        assert!((parse_duration("40ns").unwrap() - 40e-9).abs() < 1e-18);
    }

    #[test]
    fn junk_is_named() {
        for bad in [
            "", "ms", "-1s", "1e3", "inf", "nan", "1.2.3", "5min", "1 s x", ".", "1k",
        ] {
            let e = parse_duration(bad).unwrap_err();
            assert!(e.contains(&format!("\"{bad}\"")), "{bad}: {e}");
        }
    }
}
