//! How figures read in tables: rates with as many decimals as their size needs, latencies in
//! the unit that fits, byte counts in binary units (MiB = 2^20, as IOR).

/// 3 or 4 significant digits: `95.04`, `164.5`, `3662`, `321385`.
pub fn number(x: f64) -> String {
    let a = x.abs();
    if !x.is_finite() {
        "n/a".to_string()
    } else if a >= 1000.0 || a == 0.0 {
        format!("{x:.0}")
    } else if a >= 100.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.4}")
    }
}

/// A latency in nanoseconds in ns, µs, ms or s.
pub fn duration_ns(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.3} s", ns / 1e9)
    }
}

/// A figure with its unit: latencies (unit `ns`) in the unit that fits, the rest as
/// `number unit`.
pub fn figure(x: f64, unit: &str) -> String {
    match unit {
        "ns" => duration_ns(x),
        // A time of seconds in the unit that fits: a start-up of 0.0003 s reads 300.0 µs.
        "s" if x.abs() < 1.0 => duration_ns(x * 1e9),
        "" => number(x),
        u => format!("{} {u}", number(x)),
    }
}

/// `3595 MiB/s (3591–3595)`: the median with its unit, then min–max over iterations (each
/// with its unit for latencies, whose unit changes with size); the value alone for one
/// iteration.
pub fn spread(s: &crate::spread::Spread, unit: &str) -> String {
    let median = figure(s.median, unit);
    match (s.n, unit) {
        (0 | 1, _) => median,
        (_, "ns") => format!("{median} ({}–{})", duration_ns(s.min), duration_ns(s.max)),
        _ => format!("{median} ({}–{})", number(s.min), number(s.max)),
    }
}

/// Bytes in B, KiB, MiB, GiB or TiB.
pub fn bytes(b: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < UNITS.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[i])
    }
}

/// The "complete" cell of a run: `yes` or `no` for a run made by iogauge; `imported` for one
/// read from the files another run left (`imported, unfinished` when they show it cut short),
/// which never ran here and so cannot have failed here.
pub fn completion(complete: bool, imported: bool) -> &'static str {
    match (imported, complete) {
        (true, true) => "imported",
        (true, false) => "imported, unfinished",
        (false, c) => yes_no(c),
    }
}

pub fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        assert_eq!(number(95.0431), "95.04");
        assert_eq!(number(164.54), "164.5");
        assert_eq!(number(3661.78), "3662");
        assert_eq!(number(0.01234), "0.0123");
        assert_eq!(number(f64::NAN), "n/a");
        assert_eq!(duration_ns(180095.0), "180.1 µs");
        assert_eq!(duration_ns(2_500_000.0), "2.50 ms");
        assert_eq!(figure(1.5, "GiB/s"), "1.50 GiB/s");
        assert_eq!(bytes(3 * 1_048_576), "3.0 MiB");
        assert_eq!(bytes(1000), "1000 B");
        let s = crate::spread::Spread::of(&[3591.2, 3595.0, 3594.9]).unwrap();
        assert_eq!(spread(&s, "MiB/s"), "3595 MiB/s (3591–3595)");
        let s = crate::spread::Spread::of(&[2200.0, 1_100_000.0]).unwrap();
        assert_eq!(spread(&s, "ns"), "551.1 µs (2.2 µs–1.10 ms)");
    }
}
