//! The query: pfind's three predicates, parsed into plain data, and the matcher the ranks
//! evaluate once the `-newer` reference has been read.

use std::path::PathBuf;

use engine::FileStat;

use plan::find::FindParams;

use super::glob::{NamePattern, PatternError};

/// What the user asked for. All given predicates must hold (an implicit `-a`, as in pfind).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    /// `-newer F`: ctime of the entry ≥ ctime of F, whole seconds, both via `lstat`.
    pub newer: Option<PathBuf>,
    /// `-size Nc`: exactly N bytes (`st_size`, via `lstat`).
    pub size: Option<u64>,
    /// `-name GLOB`: unanchored match on the entry name.
    pub name: Option<NamePattern>,
}

impl Query {
    /// The predicates of a plan; its `-name` pattern is checked here.
    pub fn of(p: &FindParams) -> Result<Query, PatternError> {
        Ok(Query {
            newer: p.newer.clone(),
            size: p.size,
            name: p.name.as_deref().map(NamePattern::parse).transpose()?,
        })
    }

    /// Whether a name match must be confirmed with an `lstat`.
    pub fn needs_stat(&self) -> bool {
        self.newer.is_some() || self.size.is_some()
    }
}

/// `-size` argument: `Nc` only, N a plain decimal byte count (pfind refuses every other unit).
pub fn parse_size(arg: &str) -> Result<u64, String> {
    let Some(digits) = arg.strip_suffix('c') else {
        return Err(format!(
            "-size {arg}: only sizes in bytes with the c suffix are supported, as in pfind (e.g. -size 3901c)"
        ));
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "-size {arg}: expected a number of bytes followed by c, e.g. -size 3901c (no +/- ranges)"
        ));
    }
    digits
        .parse()
        .map_err(|_| format!("-size {arg}: {digits} is too large"))
}

/// The query as the ranks evaluate it: the reference file reduced to its ctime second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matcher {
    pub newer_ctime: Option<i64>,
    pub size: Option<u64>,
    pub name: Option<NamePattern>,
}

impl Matcher {
    pub fn new(query: &Query, newer_ctime: Option<i64>) -> Self {
        Matcher {
            newer_ctime,
            size: query.size,
            name: query.name.clone(),
        }
    }

    pub fn needs_stat(&self) -> bool {
        self.newer_ctime.is_some() || self.size.is_some()
    }

    #[inline]
    pub fn name_ok(&self, name: &[u8]) -> bool {
        match &self.name {
            Some(p) => p.matches(name),
            None => true,
        }
    }

    /// The stat-based predicates; `true` when none is given.
    #[inline]
    pub fn stat_ok(&self, st: &FileStat) -> bool {
        let newer = match self.newer_ctime {
            Some(t) => st.ctime_sec >= t,
            None => true,
        };
        newer
            && match self.size {
                Some(s) => st.size == s,
                None => true,
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(size: u64, ctime_sec: i64) -> FileStat {
        FileStat {
            size,
            is_dir: false,
            kind: engine::FileKind::File,
            ctime_sec,
            ctime_nsec: 999_999_999,
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("3901c"), Ok(3901));
        assert_eq!(parse_size("0c"), Ok(0));
        for bad in [
            "3901",
            "3901k",
            "c",
            "+3901c",
            "-1c",
            "1.5c",
            "",
            "99999999999999999999999c",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size("3901").unwrap_err().contains("-size 3901c"));
    }

    #[test]
    fn newer_is_ctime_and_at_least_in_whole_seconds() {
        let q = Query {
            newer: Some("ref".into()),
            ..Query::default()
        };
        let m = Matcher::new(&q, Some(100));
        assert!(m.needs_stat());
        assert!(m.stat_ok(&st(0, 100)), "same second counts (>=)");
        assert!(m.stat_ok(&st(0, 101)));
        assert!(!m.stat_ok(&st(0, 99)), "nanoseconds do not matter");
    }

    #[test]
    fn all_predicates_must_hold() {
        let q = Query {
            newer: Some("ref".into()),
            size: Some(3901),
            name: Some(NamePattern::parse("*01*").unwrap()),
        };
        let m = Matcher::new(&q, Some(10));
        assert!(m.name_ok(b"f.101") && !m.name_ok(b"f.100"));
        assert!(m.stat_ok(&st(3901, 10)));
        assert!(!m.stat_ok(&st(3900, 10)) && !m.stat_ok(&st(3901, 9)));
        let none = Matcher::new(&Query::default(), None);
        assert!(!none.needs_stat() && none.name_ok(b"x") && none.stat_ok(&st(1, 1)));
    }
}
