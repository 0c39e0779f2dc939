//! A minimal CSV writer (RFC 4180 quoting): every renderer's CSV goes through it.

/// Rows of fields; a field is quoted when it holds a comma, a quote or a line break.
#[derive(Default)]
pub struct Csv {
    out: String,
}

impl Csv {
    pub fn new(header: &[&str]) -> Csv {
        let mut c = Csv::default();
        c.row(header.iter().map(|s| s.to_string()));
        c
    }

    pub fn row<I: IntoIterator<Item = String>>(&mut self, fields: I) {
        let line: Vec<String> = fields.into_iter().map(|f| quote(&f)).collect();
        self.out.push_str(&line.join(","));
        self.out.push('\n');
    }

    pub fn finish(self) -> String {
        self.out
    }
}

fn quote(f: &str) -> String {
    if f.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_string()
    }
}

/// A number for CSV: full precision, empty when absent, so a spreadsheet sums what was
/// measured rather than a rounded display form.
pub fn num(x: Option<f64>) -> String {
    match x {
        Some(v) if v.is_finite() => v.to_string(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_when_needed() {
        let mut c = Csv::new(&["a", "b"]);
        c.row(["x,y".to_string(), "say \"hi\"".to_string()]);
        c.row(["plain".to_string(), num(Some(1.5))]);
        c.row(["line\r\nbreak".to_string(), String::new()]);
        assert_eq!(
            c.finish(),
            "a,b\n\"x,y\",\"say \"\"hi\"\"\"\nplain,1.5\n\"line\r\nbreak\",\n"
        );
        assert_eq!(num(None), "");
        assert_eq!(num(Some(f64::NAN)), "");
    }
}
