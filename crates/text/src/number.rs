//! Size arguments and human-readable sizes, as IOR reads and prints them.
//!
//! Sizes are integers with an optional binary suffix (k = 2^10 ... p = 2^50), like IOR's
//! `string_to_bytes`; integer options go through the same rules, so `-s 1k` means 1024.
//! Unlike IOR, junk, overflow and (for sizes) negative numbers are errors, not silent values.

/// The shift of a binary suffix letter (`k`/`K` = 10 ... `p`/`P` = 50).
fn suffix_shift(c: char) -> Option<u32> {
    match c.to_ascii_lowercase() {
        'k' => Some(10),
        'm' => Some(20),
        'g' => Some(30),
        't' => Some(40),
        'p' => Some(50),
        _ => None,
    }
}

const EXPECTED: &str = "expected an integer with an optional k, m, g, t or p suffix";

/// Splits `text` (trimmed) into its digits and an optional suffix shift.
fn split(text: &str) -> Result<(&str, u32), String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(format!("empty size ({EXPECTED})"));
    }
    let (digits, shift) = match t.chars().last().and_then(suffix_shift) {
        Some(shift) => (&t[..t.len() - 1], shift),
        None => (t, 0),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("\"{text}\" is not a size ({EXPECTED})"));
    }
    Ok((digits, shift))
}

/// IOR's `string_to_bytes`: an integer with an optional binary suffix k/K = 2^10, m/M = 2^20,
/// g/G = 2^30, t/T = 2^40, p/P = 2^50; a bare number is bytes. Empty text, junk, negative
/// numbers and values that do not fit 64 bits are errors naming the text.
pub fn parse_size(text: &str) -> Result<u64, String> {
    if text.trim().starts_with('-') {
        return Err(format!("\"{text}\" is negative; a size must be 0 or more"));
    }
    let (digits, shift) = split(text)?;
    let too_big = || format!("\"{text}\" is too large (the limit is 2^64 - 1 bytes)");
    let n: u64 = digits.parse().map_err(|_| too_big())?;
    if shift > 0 && n.leading_zeros() < shift {
        return Err(too_big());
    }
    Ok(n << shift)
}

/// A signed integer with the same optional suffixes (seeds, `-i`, `-d`, `-A`, which IOR lets
/// go negative).
pub fn parse_signed(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (digits, shift) = split(body).map_err(|_| format!("\"{text}\" is not an integer"))?;
    let too_big = || format!("\"{text}\" is out of range for a 64-bit integer");
    let n: u64 = digits.parse().map_err(|_| too_big())?;
    if shift > 0 && n.leading_zeros() < shift {
        return Err(too_big());
    }
    let n = n << shift;
    if negative {
        if n > i64::MAX as u64 + 1 {
            return Err(too_big());
        }
        Ok((n as i64).wrapping_neg())
    } else {
        i64::try_from(n).map_err(|_| too_big())
    }
}

/// A size as IOR's `ShowSetup` prints it (`HumanReadable(.., BASE_TWO)`): whole multiples of
/// the largest unit reached print as `"1 MiB"`, others with two decimals (`"17.51 GiB"`);
/// below 1 MiB the plain byte count (`"47008 bytes"`).
pub fn human_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB")];
    for (unit, name) in UNITS {
        if bytes >= unit {
            return if bytes % unit == 0 {
                format!("{} {name}", bytes / unit)
            } else {
                format!("{:.2} {name}", bytes as f64 / unit as f64)
            };
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_are_binary_and_case_insensitive() {
        assert_eq!(parse_size("1k"), Ok(1024));
        assert_eq!(parse_size("1K"), Ok(1024));
        assert_eq!(parse_size("2m"), Ok(2 << 20));
        assert_eq!(parse_size("3G"), Ok(3 << 30));
        assert_eq!(parse_size("1t"), Ok(1 << 40));
        assert_eq!(parse_size("1P"), Ok(1 << 50));
        assert_eq!(parse_size("9920000m"), Ok(9_920_000 << 20));
    }

    #[test]
    fn bare_numbers_are_bytes() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("47008"), Ok(47008));
        assert_eq!(parse_size("0"), Ok(0));
        assert_eq!(parse_size(" 64 "), Ok(64));
    }

    #[test]
    fn junk_is_refused_with_the_text() {
        for bad in [
            "", " ", "k", "1x", "1.5m", "abc", "1mm", "m1", "0x10", "1 m",
        ] {
            let err = parse_size(bad).unwrap_err();
            assert!(
                err.contains(bad.trim()) || bad.trim().is_empty(),
                "{bad}: {err}"
            );
        }
        assert!(parse_size("-1").unwrap_err().contains("negative"));
    }

    #[test]
    fn overflow_is_refused() {
        assert!(parse_size("18446744073709551615").is_ok());
        assert!(parse_size("18446744073709551616").is_err());
        assert!(parse_size("16384p").is_err());
        assert_eq!(parse_size("16383p"), Ok(16383 << 50));
    }

    #[test]
    fn signed_values() {
        assert_eq!(parse_signed("-1"), Ok(-1));
        assert_eq!(parse_signed("27"), Ok(27));
        assert_eq!(parse_signed("+3"), Ok(3));
        assert_eq!(parse_signed("-2k"), Ok(-2048));
        assert_eq!(parse_signed("-9223372036854775808"), Ok(i64::MIN));
        assert!(parse_signed("9223372036854775808").is_err());
        assert!(parse_signed("-").is_err());
        assert!(parse_signed("x").unwrap_err().contains("\"x\""));
    }

    #[test]
    fn human_sizes_match_ior_show_setup() {
        assert_eq!(human_size(1 << 20), "1 MiB");
        assert_eq!(human_size(256 << 20), "256 MiB");
        assert_eq!(human_size(512 << 20), "512 MiB");
        assert_eq!(human_size(47008), "47008 bytes");
        assert_eq!(human_size(4096), "4096 bytes");
        assert_eq!(human_size(0), "0 bytes");
        // ior-hard: 2 tasks x 20000 segments x 47008 bytes.
        assert_eq!(human_size(2 * 20000 * 47008), "1.75 GiB");
        assert_eq!(human_size(18_803_200_000), "17.51 GiB");
        assert_eq!(human_size(3 << 30), "3 GiB");
        assert_eq!(human_size(1 << 40), "1 TiB");
        assert_eq!(human_size((1 << 40) + (1 << 39)), "1.50 TiB");
        assert_eq!(human_size((1 << 20) + 1), "1.00 MiB");
    }
}
