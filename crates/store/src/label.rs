//! Labels: `key=value` pairs a user attaches to a run (`--label tuning=nps4`) to find and
//! group runs later.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Label {
    pub key: String,
    pub value: String,
}

impl Label {
    /// `key=value`: the key is letters, digits, `_`, `-`, `.` or `/`; the value is everything
    /// after the first `=` (it may be empty or hold `=` itself).
    pub fn parse(text: &str) -> Result<Label, String> {
        let Some((key, value)) = text.split_once('=') else {
            return Err(format!("label '{text}' is not key=value"));
        };
        if key.is_empty() {
            return Err(format!("label '{text}' has no key before the '='"));
        }
        let bad = |c: char| !(c.is_ascii_alphanumeric() || "_-./".contains(c));
        if let Some(c) = key.chars().find(|&c| bad(c)) {
            return Err(format!(
                "label key '{key}' has '{c}': use letters, digits, '_', '-', '.' or '/'"
            ));
        }
        Ok(Label {
            key: key.to_string(),
            value: value.to_string(),
        })
    }

    pub fn new(key: &str, value: &str) -> Label {
        Label {
            key: key.to_string(),
            value: value.to_string(),
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, self.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let l = Label::parse("tuning=nps4").unwrap();
        assert_eq!(l, Label::new("tuning", "nps4"));
        assert_eq!(l.to_string(), "tuning=nps4");
        assert_eq!(Label::parse("opts=a=b").unwrap().value, "a=b");
        assert_eq!(Label::parse("note=").unwrap().value, "");
        assert_eq!(Label::parse("fs/stripe=4").unwrap().key, "fs/stripe");
    }

    #[test]
    fn refuses_what_is_no_label() {
        assert!(Label::parse("tuning")
            .unwrap_err()
            .contains("not key=value"));
        assert!(Label::parse("=x").unwrap_err().contains("no key"));
        let e = Label::parse("my key=x").unwrap_err();
        assert!(e.contains("has ' '"), "{e}");
    }
}
