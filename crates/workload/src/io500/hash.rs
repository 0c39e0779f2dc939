//! The score hash (tamper evidence, reference §4.4) and `--verify`, which recomputes the
//! config hash from a config and the score hash from a result.txt's `%f` strings.

use super::config::kv;
use super::format::cf;
use super::phases::should_hash;
use super::score::{Scored, Scores};

/// The standard run's hash: the version, every scored non-optional phase's `%f` score, MD,
/// BW and SCORE, and `valid = NO` for an invalid run.
pub fn standard(version: &str, measured: &[Scored], s: &Scores, valid: bool) -> u32 {
    let mut h = kv(0, "version", version);
    for m in measured {
        if m.phase.scored() && !m.phase.optional() {
            h = kv(h, m.phase.name, &cf(m.score));
        }
    }
    finish(h, s, valid)
}

/// The extended run's hash (`[SCOREX]`): only the optional scored phases, then the extended
/// MD, BW and SCORE; the IO500 starts it without the version.
pub fn extended(measured: &[Scored], s: &Scores, valid: bool) -> u32 {
    let mut h = 0;
    for m in measured {
        if m.phase.scored() && m.phase.optional() {
            h = kv(h, m.phase.name, &cf(m.score));
        }
    }
    finish(h, s, valid)
}

fn finish(mut h: u32, s: &Scores, valid: bool) -> u32 {
    h = kv(h, "MD", &cf(s.md));
    h = kv(h, "BW", &cf(s.bw));
    h = kv(h, "SCORE", &cf(s.total));
    if !valid {
        h = kv(h, "valid", "NO");
    }
    h
}

/// What `--verify` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    /// The text to print, as the IO500's verifier prints it.
    pub report: String,
    /// 0 `[OK]`; 1 invalid run or a hash mismatch.
    pub code: u8,
}

/// A result.txt line: `[section]` (true, name, "") or `key = value` (false, key, value: up to
/// a `#`/`;`, trimmed); None for blank and comment lines.
pub fn parse_line(line: &str) -> Option<(bool, &str, &str)> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
        return None;
    }
    if let Some(name) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        return Some((true, name.trim(), ""));
    }
    let (k, v) = t.split_once('=')?;
    let v = v.split(['#', ';']).next().unwrap_or("").trim();
    Some((false, k.trim(), v))
}

/// What a result.txt records and what its `%f` strings hash to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rehashed {
    /// The `version` lines (one in a whole file).
    pub versions: Vec<String>,
    /// `config-hash` of `[run]`.
    pub config_hash: Option<String>,
    /// `hash` of `[SCORE]`.
    pub hash: Option<String>,
    /// The score hash of a valid run with these strings (`kv(.., "valid", "NO")` on top of it
    /// is an invalid run's).
    pub computed: u32,
}

/// Recomputes the score hash from a result.txt's text (`u_verify_result_files`).
pub fn rehash(result: &str) -> Rehashed {
    let (mut h, mut section) = (0u32, None::<&str>);
    let mut out = Rehashed {
        versions: Vec::new(),
        config_hash: None,
        hash: None,
        computed: 0,
    };
    for line in result.lines() {
        let Some((is_section, key, val)) = parse_line(line) else {
            continue;
        };
        if is_section {
            section = Some(key);
            continue;
        }
        if key == "version" {
            out.versions.push(val.to_string());
            h = kv(h, key, val);
            continue;
        }
        if key == "config-hash" {
            out.config_hash = Some(val.to_string());
            continue;
        }
        match section {
            Some("SCORE") => match key {
                "SCORE" => h = kv(h, key, val.split_whitespace().next().unwrap_or("")),
                "hash" => out.hash = Some(val.to_string()),
                _ => h = kv(h, key, val),
            },
            Some(s) if key == "score" && should_hash(s) => h = kv(h, s, val),
            _ => {}
        }
    }
    out.computed = h;
    out
}

/// How a recorded score hash compares with the recomputed one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HashCheck {
    Valid,
    /// The hash of the same figures in a run marked invalid.
    Invalid,
    Mismatch,
}

impl Rehashed {
    /// None when the file has no `[SCORE]` hash.
    pub fn check(&self) -> Option<HashCheck> {
        let read = self.hash.as_deref()?;
        Some(if format!("{:X}", self.computed) == read {
            HashCheck::Valid
        } else if format!("{:X}", kv(self.computed, "valid", "NO")) == read {
            HashCheck::Invalid
        } else {
            HashCheck::Mismatch
        })
    }
}

/// Recomputes both hashes (`u_verify_result_files`): `config_hash` is the hash of the config
/// the user gave, `result` the text of a result.txt. `our_version` only decides the warning.
pub fn verify(config_hash: u32, result: &str, our_version: &str) -> Result<Verified, String> {
    let r = rehash(result);
    let mut out = String::new();
    for v in &r.versions {
        out.push_str(&format!("result file ver = {v}\n"));
        if v != our_version {
            out.push_str("WARNING Verify the output with the matching version of the benchmark.\n");
        }
    }
    let cfg_read = r
        .config_hash
        .as_deref()
        .ok_or("ERROR: Empty config hash read (no config-hash in [run])")?;
    let hash_read = r
        .hash
        .as_deref()
        .ok_or("ERROR: no hash in the [SCORE] section")?;
    out.push_str("[run]\n");
    out.push_str(&format!("config-hash     = {cfg_read}\n"));
    out.push_str(&format!("score-hash      = {hash_read}\n"));
    let mut code = 0;
    let expected = format!("{config_hash:X}");
    if expected != cfg_read {
        out.push_str(&format!(
            "ERROR: Configuration hash expected: {expected} read: {cfg_read}\n"
        ));
        code = 1;
    }
    match r.check() {
        Some(HashCheck::Valid) => {}
        Some(HashCheck::Invalid) => {
            code = 1;
            out.push_str("\n[OK] But this is an invalid run!\n");
        }
        _ => {
            code = 1;
            out.push_str(&format!(
                "\nERROR: Score hash expected: \"{:X}\" read: \"{hash_read}\"\n",
                r.computed
            ));
        }
    }
    if code == 0 {
        out.push_str("\n[OK]\n");
    }
    Ok(Verified { report: out, code })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io500::phases::by_name;

    /// Submission 731's published per-phase values (one copy, in `sc24_tests`).
    const SC24_731: &[(&str, f64)] = &crate::io500::sc24_tests::S731;

    fn scored(v: &[(&'static str, f64)]) -> Vec<Scored<'static>> {
        v.iter()
            .map(|&(n, s)| Scored {
                phase: by_name(n).unwrap(),
                score: s,
            })
            .collect()
    }

    #[test]
    fn submission_731_hash() {
        let s = Scores {
            bw: 127.506288,
            md: 290.299474,
            total: 192.392849,
        };
        let h = standard("io500-sc24_v1", &scored(SC24_731), &s, true);
        assert_eq!(format!("{h:X}"), "F69F17DE");
        let invalid = standard("io500-sc24_v1", &scored(SC24_731), &s, false);
        assert_ne!(invalid, h);
    }

    #[test]
    fn verify_reads_what_the_run_wrote() {
        let mut txt = String::from("[run]\nprocs           = 200\nversion         = io500-sc24_v1\nconfig-hash     = 451AE3DE\n; START x\n\n\n");
        for (n, v) in SC24_731 {
            txt.push_str(&format!(
                "[{n}]\nexe             = ./x -name *01*\nscore           = {}\n\n",
                cf(*v)
            ));
        }
        txt.push_str("[timestamp]\nt_delta         = 0.0336\n\n[ior-rnd4K-easy-read]\nscore           = 9.000000\n");
        txt.push_str("\n[SCORE]\nMD              = 290.299474\nBW              = 127.506288\nSCORE           = 192.392849\nhash            = F69F17DE\n; END x\n");
        let ok = verify(0x451AE3DE, &txt, "io500-sc24_v1").unwrap();
        assert_eq!(ok.code, 0, "{}", ok.report);
        assert!(ok.report.ends_with("\n[OK]\n"), "{}", ok.report);
        assert!(!ok.report.contains("WARNING"));

        let bad_cfg = verify(0x1234, &txt, "io500-sc24_v1").unwrap();
        assert_eq!(bad_cfg.code, 1);
        assert!(bad_cfg
            .report
            .contains("ERROR: Configuration hash expected: 1234 read: 451AE3DE"));

        let tampered = txt.replace("score           = 36.108839", "score           = 37.108839");
        let t = verify(0x451AE3DE, &tampered, "x").unwrap();
        assert_eq!(t.code, 1);
        assert!(
            t.report.contains("ERROR: Score hash expected: \""),
            "{}",
            t.report
        );
        assert!(t
            .report
            .contains("WARNING Verify the output with the matching version"));
    }

    #[test]
    fn verify_recognises_an_invalid_run() {
        let s = Scores {
            bw: 1.0,
            md: 2.0,
            total: 2f64.sqrt(),
        };
        let m = scored(&[("find", 2.0)]);
        let h = standard("v", &m, &s, false);
        let txt = format!(
            "[run]\nversion = v\nconfig-hash = AB\n[find]\nscore = 2.000000\n[SCORE]\nMD = 2.000000\nBW = 1.000000\nSCORE = {} [INVALID]\nhash = {h:X}\n",
            cf(s.total)
        );
        let r = verify(0xAB, &txt, "v").unwrap();
        assert_eq!(r.code, 1);
        assert!(
            r.report.ends_with("\n[OK] But this is an invalid run!\n"),
            "{}",
            r.report
        );
    }
}
