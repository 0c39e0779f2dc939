//! Import: a run from the files it left, as a result document for the store, so that a
//! published IO500 submission can sit next to one's own runs. Reads an IO500 result directory
//! (the IO500's own, or iogauge's, which writes the same files plus `result.json`) or an
//! iogauge JSON document. The scores are recomputed from the phase values with the IO500's
//! formula and the score hash from result.txt's strings; what does not agree is said in
//! [`Imported::notes`].

mod check;
mod doc;
#[cfg(test)]
mod tests;
mod text;

use std::path::{Path, PathBuf};

use results::RunResult;

use super::config::Config;
use super::hash::{rehash, HashCheck};
use super::score::Scores;
use text::{parse_result_txt, parse_summary, Parsed};

/// What an import read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// An iogauge JSON document given as a file.
    Document(PathBuf),
    /// An IO500 result directory and the file of it that was read: `result.json` (iogauge's),
    /// else `result.txt`, else `result_summary.txt`.
    Io500Dir { dir: PathBuf, file: PathBuf },
}

#[derive(Debug, Clone)]
pub struct Imported {
    pub doc: RunResult,
    pub origin: Origin,
    /// Where the files disagree with themselves (recomputed scores, the score hash) or miss
    /// something; also among the document's warnings when the import wrote the document.
    pub notes: Vec<String>,
}

/// A directory is an IO500 result directory; `result.txt` or `result_summary.txt` names the
/// file of one to read; any other file is an iogauge JSON document.
pub fn read(path: &Path) -> Result<Imported, String> {
    if path.is_dir() {
        return read_dir(path);
    }
    let dir = || path.parent().unwrap_or(Path::new(".")).to_path_buf();
    match path.file_name().and_then(|n| n.to_str()) {
        Some("result.txt" | "result_summary.txt") => from_text(&dir(), path),
        _ => {
            let doc = results::read_json(path)?;
            let notes = check_document(&doc, path);
            Ok(Imported {
                doc,
                origin: Origin::Document(path.to_path_buf()),
                notes,
            })
        }
    }
}

/// An IO500 result directory: its `result.json` when iogauge wrote one (the whole document),
/// else its `result.txt`, else its `result_summary.txt`.
pub fn read_dir(dir: &Path) -> Result<Imported, String> {
    let json = dir.join("result.json");
    if json.is_file() {
        let doc = results::read_json(&json)?;
        let notes = check_document(&doc, &json);
        let origin = Origin::Io500Dir {
            dir: dir.to_path_buf(),
            file: json,
        };
        return Ok(Imported { doc, origin, notes });
    }
    for name in ["result.txt", "result_summary.txt"] {
        if dir.join(name).is_file() {
            return from_text(dir, &dir.join(name));
        }
    }
    Err(format!(
        "{}: no result.json, result.txt or result_summary.txt: not an IO500 result directory",
        dir.display()
    ))
}

/// An iogauge document's IO500 scores against its own phase scores.
fn check_document(doc: &RunResult, path: &Path) -> Vec<String> {
    let Some(io500) = &doc.io500 else {
        return Vec::new();
    };
    let phases: Vec<(&str, f64)> = io500
        .phases
        .iter()
        .map(|p| (p.phase.as_str(), p.score))
        .collect();
    let file = path.display().to_string();
    let mut notes = Vec::new();
    for (s, extended) in [(&io500.score, false), (&io500.scorex, true)] {
        if let Some(s) = s {
            let printed = Scores {
                bw: s.bandwidth_gib_s,
                md: s.iops_kiops,
                total: s.total,
            };
            notes.extend(check::scores(&phases, &printed, extended, &file));
        }
    }
    notes
}

/// result.txt or result_summary.txt of `dir`, with the directory's config.ini.
fn from_text(dir: &Path, file: &Path) -> Result<Imported, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let summary = name == "result_summary.txt";
    let parsed = if summary {
        parse_summary(&text)
    } else {
        parse_result_txt(&text)
    };
    if parsed.version.is_empty() && parsed.phases.is_empty() {
        return Err(format!("{}: no IO500 result in it", file.display()));
    }
    let (config, mut notes) = config(dir);
    notes.extend(check_text(&parsed, &text, name, summary));
    let mut warnings = vec![format!(
        "imported from {}: a phase's bandwidth or rate is its IO500 score (GiB/s, kIOPS) and its \
         time the IO500's t_delta; bytes, operations, latencies and the host are not in the file",
        file.display()
    )];
    if parsed.start.is_some() {
        warnings.push("the IO500 writes local times without a zone: read as UTC".into());
    }
    warnings.extend(notes.iter().cloned());
    Ok(Imported {
        doc: doc::document(&parsed, config.as_ref(), warnings),
        origin: Origin::Io500Dir {
            dir: dir.to_path_buf(),
            file: file.to_path_buf(),
        },
        notes,
    })
}

/// The directory's `config.ini`, else `config-orig.ini`; notes when one is there but does not
/// parse (a config of an older IO500 version).
fn config(dir: &Path) -> (Option<Config>, Vec<String>) {
    let mut notes = Vec::new();
    for name in ["config.ini", "config-orig.ini"] {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            continue;
        };
        match Config::parse(&text) {
            Ok(c) => return (Some(c), Vec::new()),
            Err(e) => notes.push(format!("configuration not imported: {}", e.in_file(name))),
        }
    }
    (None, notes)
}

/// The printed aggregates against the phase scores, and result.txt's score hash.
fn check_text(p: &Parsed, text: &str, file: &str, summary: bool) -> Vec<String> {
    let Some(score) = &p.score else {
        return vec![format!(
            "{file} has no [SCORE]: the run did not finish; its phases are imported, incomplete"
        )];
    };
    let phases: Vec<(&str, f64)> = p
        .phases
        .iter()
        .filter_map(|ph| Some((ph.name.as_str(), ph.score?)))
        .collect();
    let mut notes = Vec::new();
    for (s, extended) in [(Some(score), false), (p.scorex.as_ref(), true)] {
        if let Some(s) = s {
            let f = |t: &str| t.parse().unwrap_or(f64::NAN);
            let printed = Scores {
                bw: f(&s.bw),
                md: f(&s.md),
                total: f(&s.total),
            };
            notes.extend(check::scores(&phases, &printed, extended, file));
        }
    }
    if summary {
        return notes; // the summary has no hash
    }
    match (rehash(text).check(), score.valid) {
        (None, _) => notes.push("result.txt has no score hash in [SCORE]".into()),
        (Some(HashCheck::Valid), true) | (Some(HashCheck::Invalid), false) => {}
        (Some(HashCheck::Mismatch), _) => notes.push(format!(
            "the score hash {} does not match result.txt's figures (changed after the run, or \
             hashed by another IO500 version)",
            score.hash.as_deref().unwrap_or("")
        )),
        (Some(h), _) => notes.push(format!(
            "the score hash is that of {} run, [SCORE] says otherwise",
            if h == HashCheck::Valid {
                "a valid"
            } else {
                "an invalid"
            }
        )),
    }
    notes
}
