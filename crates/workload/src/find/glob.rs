//! `-name GLOB` as pfind evaluates it.
//!
//! pfind turns the glob into a POSIX basic regular expression (`*` → `.*`, `.` → `[.]`, `"`
//! dropped) and runs `regexec` on the entry name without anchors. With only `*` and literal
//! characters left, that is "the literal pieces between the stars occur in the name, in order,
//! without overlapping", so `*01*` and `01` both mean "contains 01". Characters whose meaning
//! differs between pfind's regex and a shell glob (`?`, `[`, `]`, `\`, `^`, `$`) are refused
//! rather than given one of the two meanings silently.

use std::fmt;

/// Characters refused in a pattern, with what pfind would do with them.
const REFUSED: [(char, &str); 6] = [
    (
        '?',
        "a literal '?' for pfind, any one character for GNU find",
    ),
    ('[', "a bracket expression"),
    (']', "part of a bracket expression"),
    ('\\', "an escape"),
    ('^', "an anchor at the start of the name"),
    ('$', "an anchor at the end of the name"),
];

/// A compiled `-name` pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamePattern {
    glob: String,
    /// The non-empty literal pieces between `*`s, in order.
    pieces: Vec<Vec<u8>>,
}

/// Why a pattern was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatternError {
    /// Nothing left once quotes are dropped (pfind's empty regex would match every name).
    Empty,
    /// A character with regex meaning in pfind; the second field says what it would do.
    Unsupported(char, &'static str),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Empty => f.write_str("the pattern is empty; give a name or a part of one"),
            PatternError::Unsupported(c, what) => write!(
                f,
                "'{c}' is not supported (in pfind it is {what}); use only '*' and literal characters"
            ),
        }
    }
}

impl NamePattern {
    pub fn parse(glob: &str) -> Result<Self, PatternError> {
        if let Some(&(c, what)) = REFUSED.iter().find(|(c, _)| glob.contains(*c)) {
            return Err(PatternError::Unsupported(c, what));
        }
        // pfind erases double quotes before compiling.
        let bare: String = glob.chars().filter(|&c| c != '"').collect();
        if bare.is_empty() {
            return Err(PatternError::Empty);
        }
        let pieces = bare
            .split('*')
            .filter(|p| !p.is_empty())
            .map(|p| p.as_bytes().to_vec())
            .collect();
        Ok(NamePattern {
            glob: glob.to_string(),
            pieces,
        })
    }

    /// The pattern as given.
    pub fn as_str(&self) -> &str {
        &self.glob
    }

    /// Unanchored match on an entry name. The leftmost occurrence of each piece leaves the most
    /// room for the next, so a greedy scan decides the regex exactly.
    #[inline]
    pub fn matches(&self, name: &[u8]) -> bool {
        let mut rest = name;
        for piece in &self.pieces {
            match find(rest, piece) {
                Some(at) => rest = &rest[at + piece.len()..],
                None => return false,
            }
        }
        true
    }
}

/// First position of `needle` (non-empty) in `hay`. Names are short, so a first-byte scan
/// plus a compare beats building a searcher.
#[inline]
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, tail) = needle.split_first()?;
    if hay.len() < needle.len() {
        return None;
    }
    let last_start = hay.len() - needle.len();
    let mut i = 0;
    while i <= last_start {
        let at = i + hay[i..=last_start].iter().position(|&b| b == first)?;
        if &hay[at + 1..at + needle.len()] == tail {
            return Some(at);
        }
        i = at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(glob: &str, name: &str) -> bool {
        NamePattern::parse(glob).unwrap().matches(name.as_bytes())
    }

    #[test]
    fn io500_pattern_is_contains_01() {
        for name in [
            "file.mdtest.0.101",
            "01",
            "x01",
            "01x",
            "file.mdtest.1.1001",
        ] {
            assert!(m("*01*", name), "{name}");
            assert!(m("01", name), "unanchored: {name}");
        }
        for name in ["file.mdtest.0.100", "0", "1", "10", "0x1", ""] {
            assert!(!m("*01*", name), "{name}");
        }
    }

    #[test]
    fn unanchored_pieces_in_order() {
        assert!(m("a*b", "xxaYYbzz"));
        assert!(!m("a*b", "b_then_a"));
        assert!(
            m("ab*b", "abb") && !m("ab*ab", "aba"),
            "pieces do not overlap"
        );
        assert!(m("file", "myfile.txt"), "no anchors: `file` matches inside");
        assert!(m("*", "") && m("**", "anything"));
        assert!(m("aa*aa", "aaaa") && !m("aa*aa", "aaa"));
    }

    #[test]
    fn dot_is_literal() {
        assert!(m("*.txt", "a.txt"));
        assert!(
            !m("*.txt", "atxt"),
            "`.` is `[.]` in pfind, not any character"
        );
        assert!(m("x.y", "ax.yb"));
    }

    #[test]
    fn quotes_are_dropped_as_pfind_does() {
        assert!(m("\"*01*\"", "a01"));
        assert_eq!(NamePattern::parse("\"\"").unwrap_err(), PatternError::Empty);
        assert_eq!(NamePattern::parse("").unwrap_err(), PatternError::Empty);
    }

    #[test]
    fn regex_characters_are_refused() {
        for (glob, c) in [
            ("file?", '?'),
            ("[ab]*", '['),
            ("a]", ']'),
            ("a\\b", '\\'),
            ("^a", '^'),
            ("a$", '$'),
        ] {
            match NamePattern::parse(glob) {
                Err(PatternError::Unsupported(got, _)) => assert_eq!(got, c, "{glob}"),
                other => panic!("{glob}: {other:?}"),
            }
        }
        let msg = NamePattern::parse("f?").unwrap_err().to_string();
        assert!(msg.contains("'?'") && msg.contains("GNU find"), "{msg}");
    }

    #[test]
    fn non_utf8_names_match_bytewise() {
        let p = NamePattern::parse("*01*").unwrap();
        assert!(p.matches(b"\xff\xfe01\x80"));
        assert!(!p.matches(b"\xff0\xfe1"));
    }
}
