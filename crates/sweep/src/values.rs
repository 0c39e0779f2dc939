//! One `--vary NAME=VALUES`: a list (`t=4k,64k,1m`), a range (`tasks=1..16:x2`, `b=1m..4m:+1m`,
//! `n=1..4`) or a file (`t=@sizes.txt`, one value a line, `#` starts a comment).

use std::path::Path;

use serde::{Deserialize, Serialize};

/// The most values one axis may have: a typo in a range (`1..1000000`) is refused, not run.
const MAX_VALUES: usize = 10_000;

/// One varied parameter and its values, as typed (a range's values are written out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Axis {
    pub name: String,
    pub values: Vec<String>,
}

/// Parses `NAME=VALUES`; `read` reads a file named by `@PATH`. Err is one line naming the
/// problem.
pub fn parse_vary(
    spec: &str,
    read: impl Fn(&Path) -> Result<String, String>,
) -> Result<Axis, String> {
    let Some((name, body)) = spec.split_once('=') else {
        return Err(format!(
            "--vary {spec}: expected NAME=VALUES (t=4k,64k or tasks=1..16:x2)"
        ));
    };
    let name = name.trim();
    if name.is_empty() || name.starts_with('-') {
        return Err(format!(
            "--vary {spec}: the name comes without dashes, as `t` or `transferSize`"
        ));
    }
    let values = if let Some(path) = body.strip_prefix('@') {
        let text = read(Path::new(path)).map_err(|e| format!("--vary {name}=@{path}: {e}"))?;
        from_file(&text)
    } else if body.contains("..") {
        range(body).map_err(|e| format!("--vary {name}={body}: {e}"))?
    } else {
        body.split(',').map(|v| v.trim().to_string()).collect()
    };
    if values.is_empty() || values.iter().any(String::is_empty) {
        return Err(format!("--vary {name}={body}: a value is empty"));
    }
    if values.len() > MAX_VALUES {
        return Err(format!(
            "--vary {name}={body}: {} values; at most {MAX_VALUES}",
            values.len()
        ));
    }
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = values.iter().find(|v| !seen.insert(v.as_str())) {
        return Err(format!("--vary {name}: the value {dup} is given twice"));
    }
    Ok(Axis {
        name: name.to_string(),
        values,
    })
}

fn from_file(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

/// `A..B` (step 1), `A..B:xF` (times F), `A..B:+S` (plus S); sizes take k/m/g/t.
fn range(body: &str) -> Result<Vec<String>, String> {
    let (span, step) = match body.split_once(':') {
        Some((s, t)) => (s, Some(t)),
        None => (body, None),
    };
    let (a, b) = span
        .split_once("..")
        .ok_or("expected A..B, A..B:xF or A..B:+S")?;
    let start = text::parse_size(a)?;
    let end = text::parse_size(b)?;
    if start > end {
        return Err(format!("the range starts above its end ({a} > {b})"));
    }
    let suffixed = [a, b]
        .iter()
        .any(|s| s.trim().ends_with(char::is_alphabetic));
    let next: Box<dyn Fn(u64) -> Option<u64>> = match step {
        None => Box::new(|v| v.checked_add(1)),
        Some(s) if s.starts_with('x') => {
            let f = text::parse_size(&s[1..])?;
            if f < 2 {
                return Err(format!("the factor {s} must be x2 or more"));
            }
            if start == 0 {
                return Err("a range that multiplies cannot start at 0".into());
            }
            Box::new(move |v| v.checked_mul(f))
        }
        Some(s) if s.starts_with('+') => {
            let d = text::parse_size(&s[1..])?;
            if d == 0 {
                return Err("the step +0 never ends".into());
            }
            Box::new(move |v| v.checked_add(d))
        }
        Some(s) => return Err(format!("the step {s} is neither xF nor +S")),
    };
    let mut out = Vec::new();
    let mut v = Some(start);
    while let Some(x) = v.filter(|&x| x <= end) {
        if out.len() == MAX_VALUES {
            return Err(format!("more than {MAX_VALUES} values"));
        }
        out.push(if suffixed {
            with_suffix(x)
        } else {
            x.to_string()
        });
        v = next(x);
    }
    Ok(out)
}

/// The shortest exact form with IOR's binary suffixes: 65536 -> 64k.
fn with_suffix(v: u64) -> String {
    for (shift, s) in [(40, "t"), (30, "g"), (20, "m"), (10, "k")] {
        let unit = 1u64 << shift;
        if v > 0 && v.is_multiple_of(unit) {
            return format!("{}{s}", v / unit);
        }
    }
    v.to_string()
}

/// A value as a number, for ordering and "doubling" (`64k` = 65536, `8` = 8); None for a
/// word (`on`, `round-robin`).
pub fn numeric(value: &str) -> Option<f64> {
    text::parse_size(value)
        .map(|v| v as f64)
        .ok()
        .or_else(|| text::parse_decimal(value).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn vary(s: &str) -> Result<Vec<String>, String> {
        parse_vary(s, |p| Err(format!("no file {}", p.display()))).map(|a| a.values)
    }

    #[test]
    fn lists_ranges_and_files() {
        assert_eq!(vary("t=4k, 64k,1m").unwrap(), ["4k", "64k", "1m"]);
        assert_eq!(vary("tasks=1..16:x2").unwrap(), ["1", "2", "4", "8", "16"]);
        assert_eq!(vary("tasks=1..10:x2").unwrap(), ["1", "2", "4", "8"]);
        assert_eq!(vary("n=1..3").unwrap(), ["1", "2", "3"]);
        assert_eq!(vary("b=1m..3m:+1m").unwrap(), ["1m", "2m", "3m"]);
        assert_eq!(
            vary("t=4k..1m:x4").unwrap(),
            ["4k", "16k", "64k", "256k", "1m"]
        );
        assert_eq!(vary("F=on,off").unwrap(), ["on", "off"]);
        let a = parse_vary("t=@sizes", |_| Ok("# sizes\n4k\n\n1m # big\n".into())).unwrap();
        assert_eq!(a.values, ["4k", "1m"]);
    }

    #[test]
    fn refuses_what_is_no_plan() {
        assert!(vary("tasks").unwrap_err().contains("NAME=VALUES"));
        assert!(vary("-t=1").unwrap_err().contains("without dashes"));
        assert!(vary("t=4k,,1m").unwrap_err().contains("empty"));
        assert!(vary("t=4k,4k").unwrap_err().contains("twice"));
        assert!(vary("n=5..1").unwrap_err().contains("above its end"));
        assert!(vary("n=1..4:x1").unwrap_err().contains("x2 or more"));
        assert!(vary("n=1..4:/2").unwrap_err().contains("neither"));
        assert!(vary("n=1..100000").unwrap_err().contains("more than"));
        assert!(vary("t=@f").unwrap_err().contains("no file f"));
    }

    #[test]
    fn numbers() {
        assert_eq!(numeric("64k"), Some(65536.0));
        assert_eq!(numeric("8"), Some(8.0));
        assert_eq!(numeric("0.5"), Some(0.5));
        assert_eq!(numeric("on"), None);
    }

    proptest! {
        /// A multiplying range holds the start, grows by the factor, and stops at the end.
        #[test]
        fn geometric_ranges(start in 1u64..1000, f in 2u64..5, end_mul in 0u64..5000) {
            let end = start + end_mul;
            let v: Vec<u64> = vary(&format!("n={start}..{end}:x{f}")).unwrap()
                .iter().map(|s| s.parse().unwrap()).collect();
            prop_assert_eq!(v[0], start);
            prop_assert!(v.windows(2).all(|w| w[1] == w[0] * f));
            prop_assert!(*v.last().unwrap() <= end);
            prop_assert!(v.last().unwrap() * f > end);
        }

        /// A suffixed value reads back as the number it was made from.
        #[test]
        fn suffixes_round_trip(v in 1u64..(1 << 50)) {
            prop_assert_eq!(text::parse_size(&with_suffix(v)).unwrap(), v);
        }
    }
}
