//! Reading the IO500's text files back: result.txt (sections of `key = value` pairs with
//! `; ERROR INVALID` and `; WARNING` comments) and result_summary.txt (one line per phase and
//! the score lines), both as the IO500 and iogauge write them (reference §7).

use crate::io500::hash::parse_line;

/// What one of the files says about a run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    /// `version` (`io500-sc24_v1`, `iogauge-0.1.0`).
    pub version: String,
    /// `standard` or `extended`; empty when the file does not say.
    pub mode: String,
    pub procs: Option<u64>,
    pub config_hash: Option<String>,
    pub result_dir: Option<String>,
    /// `; START` and `; END`, or the first `t_start` and last `t_end` (`%Y-%m-%d %H:%M:%S`,
    /// local time of the run, no zone).
    pub start: Option<String>,
    pub end: Option<String>,
    /// `[run]`'s `; ERROR INVALID` reasons.
    pub run_invalid: Vec<String>,
    pub phases: Vec<PhaseText>,
    pub score: Option<ScoreText>,
    pub scorex: Option<ScoreText>,
}

/// One phase's section (or summary line).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PhaseText {
    pub name: String,
    pub score: Option<f64>,
    /// `t_delta` (the summary's `time`).
    pub time_s: Option<f64>,
    pub invalid: Vec<String>,
    /// The summary marks the line `[INVALID]` (result.txt says why instead).
    pub marked_invalid: bool,
    pub warnings: Vec<String>,
    pub exe: Option<String>,
    /// Every other pair, in order (`found`, `total-files`, `throughput-stonewall`, ...).
    pub pairs: Vec<(String, String)>,
}

impl PhaseText {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// `[SCORE]` / `[SCOREX]`: the three figures as printed, validity and hash.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScoreText {
    /// BW, MD, SCORE as printed (`%f`).
    pub bw: String,
    pub md: String,
    pub total: String,
    pub valid: bool,
    pub hash: Option<String>,
}

/// The comment tags that start a line of their own, not the continuation of a reason.
const TAGS: [&str; 5] = [
    "ERROR INVALID",
    "WARNING",
    "START",
    "END",
    "Checking for pause",
];

/// result.txt.
pub fn parse_result_txt(text: &str) -> Parsed {
    let mut p = Parsed::default();
    let mut section = String::new();
    // A reason of several lines goes on in `; ` lines without a tag.
    let mut continues = false;
    let (mut first_start, mut last_end) = (None, None);
    for line in text.lines() {
        if let Some(c) = line.trim().strip_prefix(';') {
            continues = comment(&mut p, &section, c.trim(), continues);
            continue;
        }
        continues = false;
        let Some((is_section, key, value)) = parse_line(line) else {
            continue;
        };
        if is_section {
            section = key.to_string();
            match key {
                "run" => {}
                "SCORE" => p.score = Some(ScoreText::default()),
                "SCOREX" => p.scorex = Some(ScoreText::default()),
                _ => p.phases.push(PhaseText {
                    name: key.to_string(),
                    ..Default::default()
                }),
            }
            continue;
        }
        match section.as_str() {
            "run" => run_pair(&mut p, key, value),
            "SCORE" | "SCOREX" => {
                let s = if section == "SCORE" {
                    p.score.as_mut()
                } else {
                    p.scorex.as_mut()
                };
                score_pair(s.expect("section seen"), key, value);
            }
            _ => {
                match key {
                    "t_start" if first_start.is_none() => first_start = Some(value.to_string()),
                    "t_end" => last_end = Some(value.to_string()),
                    _ => {}
                }
                if let Some(ph) = p.phases.last_mut() {
                    phase_pair(ph, key, value);
                }
            }
        }
    }
    // Without `; START` / `; END` (older versions), the phases' own times.
    p.start = p.start.or(first_start);
    p.end = p.end.or(last_end);
    p
}

fn run_pair(p: &mut Parsed, key: &str, value: &str) {
    match key {
        "version" => p.version = value.to_string(),
        "mode" => p.mode = value.to_string(),
        "procs" => p.procs = value.parse().ok(),
        "config-hash" => p.config_hash = Some(value.to_string()),
        "result-dir" => p.result_dir = Some(value.to_string()),
        _ => {}
    }
}

fn score_pair(s: &mut ScoreText, key: &str, value: &str) {
    match key {
        "MD" => s.md = value.to_string(),
        "BW" => s.bw = value.to_string(),
        "SCORE" => {
            s.total = value.split_whitespace().next().unwrap_or("").to_string();
            s.valid = !value.contains("[INVALID]");
        }
        "hash" => s.hash = Some(value.to_string()),
        _ => {}
    }
}

fn phase_pair(ph: &mut PhaseText, key: &str, value: &str) {
    match key {
        "score" => ph.score = value.parse().ok(),
        "t_delta" => ph.time_s = value.parse().ok(),
        "exe" => ph.exe = Some(value.to_string()),
        _ => ph.pairs.push((key.to_string(), value.to_string())),
    }
}

/// A `;` line; returns whether the next untagged one continues an invalid reason.
fn comment(p: &mut Parsed, section: &str, c: &str, continues: bool) -> bool {
    let tagged = TAGS.iter().any(|t| c.starts_with(t));
    let reasons = match (section, p.phases.last_mut()) {
        ("run", _) | ("", _) => &mut p.run_invalid,
        (_, Some(ph)) => &mut ph.invalid,
        (_, None) => return false,
    };
    if let Some(reason) = c.strip_prefix("ERROR INVALID") {
        reasons.push(reason.trim().to_string());
        return true;
    }
    if continues && !tagged {
        if let Some(last) = reasons.last_mut() {
            last.push('\n');
            last.push_str(c);
        }
        return true;
    }
    if let Some(w) = c.strip_prefix("WARNING") {
        if let Some(ph) = p.phases.last_mut().filter(|_| section != "run") {
            ph.warnings.push(w.trim().to_string());
        }
    } else if let Some(d) = c.strip_prefix("START") {
        p.start = Some(d.trim().to_string());
    } else if let Some(d) = c.strip_prefix("END") {
        p.end = Some(d.trim().to_string());
    }
    false
}

/// result_summary.txt: `IO500 version V (mode)`, `[RESULT] name score unit : time T seconds`,
/// `[SCORE ] Bandwidth B GiB/s : IOPS M kiops : TOTAL S`, each maybe ending in `[INVALID]`.
/// The IO500 of 2020 wrote `[RESULT-invalid]` and `[SCORE-invalid]` instead.
pub fn parse_summary(text: &str) -> Parsed {
    let mut p = Parsed::default();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("IO500 version ") {
            let (v, mode) = rest.split_once(" (").unwrap_or((rest, ""));
            p.version = v.trim().to_string();
            p.mode = mode.trim_end_matches(')').to_string();
            continue;
        }
        let Some((tag, rest)) = line.strip_prefix('[').and_then(|l| l.split_once(']')) else {
            continue;
        };
        let invalid = tag.ends_with("-invalid") || rest.trim_end().ends_with("[INVALID]");
        let words: Vec<&str> = rest.split_whitespace().collect();
        match tag.trim().trim_end_matches("-invalid") {
            "SCORE" | "SCOREX" => {
                // Bandwidth B GiB/s : IOPS M kiops : TOTAL S
                let s = ScoreText {
                    bw: words.get(1).unwrap_or(&"").to_string(),
                    md: words.get(5).unwrap_or(&"").to_string(),
                    total: words.get(9).unwrap_or(&"").to_string(),
                    valid: !invalid,
                    hash: None,
                };
                if tag.trim() == "SCOREX" {
                    p.scorex = Some(s);
                } else {
                    p.score = Some(s);
                }
            }
            // name score unit : time T seconds
            _ if words.len() >= 6 => p.phases.push(PhaseText {
                name: words[0].to_string(),
                score: words[1].parse().ok(),
                time_s: words[5].parse().ok(),
                marked_invalid: invalid,
                ..Default::default()
            }),
            _ => {}
        }
    }
    p
}
