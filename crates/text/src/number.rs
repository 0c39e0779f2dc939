//! Size arguments and human-readable sizes, as IOR reads and prints them.
//!
//! Sizes are integers with an optional binary suffix (k = 2^10 ... p = 2^50), like IOR's
//! `string_to_bytes`; integer options go through the same rules, so `-s 1k` means 1024.
//! IOR reads the suffix letter and ignores what follows it, so `4KiB`, `4kB` and `4kb` are
//! 4k there, and here (a `B` never means 1000). Unlike IOR, junk, fractions, overflow and
//! (for sizes) negative numbers are errors, not silent values: IOR reads `1.5m` as 1 byte.
//! Times (`-d 0.5`) are [`parse_decimal`]'s: there a fraction means what it says.

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

/// Whether `t` is a number with a fraction (`1.5`, `.5m`, `0.25k`): the digits, one dot, more
/// digits, then at most a suffix.
fn is_fraction(t: &str) -> bool {
    let body = t.strip_prefix(['+', '-']).unwrap_or(t);
    let body = body.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let Some((int, frac)) = body.split_once('.') else {
        return false;
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    !(int.is_empty() && frac.is_empty()) && digits(int) && digits(frac)
}

/// What is wrong with `text` that is not an integer with a suffix.
fn not_integer(text: &str, what: &str) -> String {
    let t = text.trim();
    if !is_fraction(t) {
        return format!("\"{text}\" is not {what} ({EXPECTED})");
    }
    // IOR's sscanf("%lld %c") takes the digits before the dot and drops the rest.
    let int = t
        .trim_start_matches(['+', '-'])
        .split('.')
        .next()
        .unwrap_or("");
    let read = if int.is_empty() {
        String::new()
    } else {
        let sign = if t.starts_with('-') { "-" } else { "" };
        format!("; IOR's parser would silently read {sign}{int}")
    };
    format!("\"{text}\" is not a whole number ({EXPECTED}{read})")
}

/// Splits `text` (trimmed, without a sign) into its digits and a suffix shift (0: bytes).
/// The unit letter may be followed by `b` or `ib` (`4KiB`, `1MB`); a bare `b` is bytes.
fn split(t: &str) -> Option<(&str, u32)> {
    let mut rest = t;
    if let Some(r) = rest.strip_suffix(['b', 'B']) {
        // `ib` only after a unit letter: `1kib`, not `1ib`.
        rest = r
            .strip_suffix(['i', 'I'])
            .filter(|r| r.chars().last().and_then(suffix_shift).is_some())
            .unwrap_or(r);
    }
    let (digits, shift) = match rest.chars().last().and_then(suffix_shift) {
        Some(shift) => (&rest[..rest.len() - 1], shift),
        None => (rest, 0),
    };
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some((digits, shift))
}

/// `digits << shift`, or `None` when it does not fit 64 bits.
fn scaled(digits: &str, shift: u32) -> Option<u64> {
    let n: u64 = digits.parse().ok()?;
    (n.leading_zeros() >= shift).then(|| n << shift)
}

/// IOR's `string_to_bytes`: an integer with an optional binary suffix k/K = 2^10, m/M = 2^20,
/// g/G = 2^30, t/T = 2^40, p/P = 2^50 (`4KiB` and `4kB` too); a bare number is bytes, and may
/// carry a `+`. Empty text, junk, fractions, negative numbers and values that do not fit 64
/// bits are errors naming the text.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(format!("empty size ({EXPECTED})"));
    }
    if t.starts_with('-') {
        return Err(format!("\"{text}\" is negative; a size must be 0 or more"));
    }
    let body = t.strip_prefix('+').unwrap_or(t);
    let (digits, shift) = split(body).ok_or_else(|| not_integer(text, "a size"))?;
    scaled(digits, shift).ok_or_else(|| format!("\"{text}\" is too large (the limit is 2^64 - 1)"))
}

/// A signed integer with the same optional suffixes (seeds, `-i`, `-A`, which IOR lets go
/// negative).
pub fn parse_signed(text: &str) -> Result<i64, String> {
    let t = text.trim();
    let (negative, body) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (digits, shift) = split(body).ok_or_else(|| not_integer(text, "an integer"))?;
    let too_big = || format!("\"{text}\" is out of range for a 64-bit integer");
    let n = scaled(digits, shift).ok_or_else(too_big)?;
    if negative {
        if n > i64::MAX as u64 + 1 {
            return Err(too_big());
        }
        Ok((n as i64).wrapping_neg())
    } else {
        i64::try_from(n).map_err(|_| too_big())
    }
}

/// A time (seconds, minutes): a decimal fraction (`0.5`, `.25`, `-1.5`) or an integer with
/// [`parse_signed`]'s suffixes (`1k` = 1024, as IOR reads it). IOR's parser cuts `0.5` to 0;
/// here it is half a unit. Exponents, `inf` and `nan` are refused, and so are fractions
/// beyond 2^53 (they would not be a time anyone waits for, and `Duration` cannot hold all).
pub fn parse_decimal(text: &str) -> Result<f64, String> {
    if let Ok(n) = parse_signed(text) {
        return Ok(n as f64);
    }
    let t = text.trim();
    let plain = is_fraction(t) && !t.ends_with(|c: char| c.is_ascii_alphabetic());
    match t.parse::<f64>() {
        Ok(v) if plain && v.abs() <= (1u64 << 53) as f64 => Ok(v),
        Ok(_) if plain => Err(format!("\"{text}\" is out of range")),
        _ => Err(format!(
            "\"{text}\" is not a number (expected a decimal such as 5, 0.5 or 1k)"
        )),
    }
}

/// A size as IOR's `ShowSetup` prints it (`HumanReadable(.., BASE_TWO)`): whole multiples of
/// the largest unit reached print as `"1 MiB"`, others with two decimals (`"17.51 GiB"`);
/// below 1 MiB the plain byte count (`"47008 bytes"`).
pub fn human_size(bytes: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB")];
    for (unit, name) in UNITS {
        if bytes >= unit {
            return if bytes.is_multiple_of(unit) {
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
            "", " ", "k", "1x", "1.5m", "abc", "1mm", "m1", "0x10", "1 m", "1ib", "kb", "1bb",
            "1e3", "++1", "1k5",
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
    fn what_ior_reads_after_the_letter() {
        // IOR's sscanf reads the letter and ignores the rest: 4KiB = 4kB = 4k; B is bytes.
        assert_eq!(parse_size("4KiB"), Ok(4096));
        assert_eq!(parse_size("4kib"), Ok(4096));
        assert_eq!(parse_size("4kB"), Ok(4096));
        assert_eq!(parse_size("1MB"), Ok(1 << 20));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("512B"), Ok(512));
        assert_eq!(parse_size("+4k"), Ok(4096));
        assert_eq!(parse_signed("-2KiB"), Ok(-2048));
    }

    #[test]
    fn fractions_are_refused_with_what_ior_would_read() {
        let e = parse_size("1.5m").unwrap_err();
        assert!(e.contains("\"1.5m\" is not a whole number"), "{e}");
        assert!(e.contains("silently read 1)"), "{e}");
        assert!(parse_signed("-2.5").unwrap_err().contains("read -2)"));
        assert!(!parse_size(".5").unwrap_err().contains("silently"));
    }

    #[test]
    fn decimals_for_times() {
        assert_eq!(parse_decimal("0.1"), Ok(0.1));
        assert_eq!(parse_decimal(".5"), Ok(0.5));
        assert_eq!(parse_decimal("2."), Ok(2.0));
        assert_eq!(parse_decimal("5"), Ok(5.0));
        assert_eq!(parse_decimal("-1.5"), Ok(-1.5));
        assert_eq!(parse_decimal("1k"), Ok(1024.0));
        assert!(parse_decimal("99999999999999999999.5")
            .unwrap_err()
            .contains("out of range"));
        for bad in ["", "x", "0.5k", "1e3", "inf", "nan", ".", "1.2.3", "0x1"] {
            let e = parse_decimal(bad).unwrap_err();
            assert!(e.contains("is not a number"), "{bad}: {e}");
        }
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
