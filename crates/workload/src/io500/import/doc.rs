//! An IO500 run read from its text files, as a result document. What the files do not hold
//! (the host, bytes, operations, latencies) stays unknown ("unknown", 0, empty), never guessed.

use results::io500::{Io500Phase, Io500Result, Io500Score, ScoreUnit};
use results::{Environment, Parameters, PhaseResult, Ranks, RunResult, Tool, SCHEMA_VERSION};

use super::text::{Parsed, PhaseText, ScoreText};
use crate::io500::config::Config;
use crate::io500::phases::by_name;
use crate::io500::validity;
use plan::io500::Io500Params;

const UNKNOWN: &str = "unknown";

/// The document of `p`; `config` is the result directory's config.ini when it could be read,
/// `warnings` what the import found (they lead the document's warnings).
pub fn document(p: &Parsed, config: Option<&Config>, warnings: Vec<String>) -> RunResult {
    let dry_run = p.run_invalid.iter().any(|r| r == validity::DRY_RUN);
    let started = p.start.as_deref().and_then(rfc3339).unwrap_or_default();
    // Only a run that reached its [SCORE] is over.
    let finished = match &p.score {
        Some(_) => p.end.as_deref().and_then(rfc3339).unwrap_or_default(),
        None => String::new(),
    };
    let stamp = p
        .start
        .as_deref()
        .and_then(compact)
        .unwrap_or(UNKNOWN.into());
    let key = p.score.as_ref().and_then(|s| s.hash.clone());
    let key = key.or(p.config_hash.clone());
    let (tool, version) = match p.version.strip_prefix("iogauge-") {
        Some(v) => ("iogauge", v),
        None => ("io500", p.version.as_str()),
    };
    let mut doc = RunResult {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: tool.into(),
            version: version.into(),
        },
        // The time and the score hash in place of a process id: importing the same files
        // again gives the same id. (The store recognises a copy by its content hash.)
        run_id: format!("io500-{stamp}-{}", key.as_deref().unwrap_or("")),
        command_line: Vec::new(),
        started,
        finished,
        environment: Environment {
            hostname: UNKNOWN.into(),
            kernel: UNKNOWN.into(),
            os: UNKNOWN.into(),
            arch: UNKNOWN.into(),
            cpus: 0,
            memory_bytes: 0,
            target: None,
        },
        ranks: Ranks {
            count: p.procs.unwrap_or(0),
            nodes: 0,
            tasks_per_node: 0,
            placement: UNKNOWN.into(),
            launcher: UNKNOWN.into(),
        },
        parameters: Parameters::Io500(parameters(p, config, dry_run)),
        phases: p.phases.iter().filter_map(measured).collect(),
        summary: Vec::new(),
        warnings,
        verification_errors: 0,
        exit_code: 0,
        io500: None,
        alerts: Vec::new(),
        mix: None,
        dlio: None,
        invalid: Vec::new(),
        marks: Vec::new(),
    };
    doc.warnings
        .extend(p.run_invalid.iter().map(|r| format!("INVALID run: {r}")));
    doc.io500 = Some(Io500Result {
        phases: p.phases.iter().map(|ph| io500_phase(ph, dry_run)).collect(),
        score: p.score.as_ref().map(score),
        scorex: p.scorex.as_ref().map(score),
        run_invalid: p.run_invalid.clone(),
    });
    // An invalid score stays invalid in the store: never a baseline.
    doc.derive_invalid();
    if key.is_none() {
        // A result_summary.txt alone has neither hash: the content's tells runs apart.
        let content = results::content_hash(&doc);
        doc.run_id.push_str(&content[..8].to_uppercase());
    }
    doc
}

fn parameters(p: &Parsed, config: Option<&Config>, dry_run: bool) -> Io500Params {
    let result_dir = p.result_dir.clone().unwrap_or_default();
    // `$R` ends in the run's timestamp unless `timestamp-resultdir = FALSE`.
    let last = result_dir.rsplit('/').next().unwrap_or("");
    let stamp = |i: usize, b: u8| match i {
        4 | 7 | 13 | 16 => b == b'.',
        10 => b == b'-',
        _ => b.is_ascii_digit(),
    };
    let is_stamp = last.len() == 19 && last.bytes().enumerate().all(|(i, b)| stamp(i, b));
    let timestamp = if is_stamp { last } else { "" }.to_string();
    Io500Params {
        version: p.version.clone(),
        mode: p.mode.clone(),
        timestamp,
        ranks: p.procs.unwrap_or(0),
        data_dir: data_dir(p).unwrap_or_default(),
        result_dir,
        quick: false,
        dry_run,
        config_hash: p.config_hash.clone().unwrap_or_default(),
        config: config.map(|c| c.resolved_sections()).unwrap_or_default(),
    }
}

/// `$D`, from ior-easy-write's `-o $D/ior-easy/ior_file_easy`.
fn data_dir(p: &Parsed) -> Option<String> {
    let exe = p
        .phases
        .iter()
        .find(|ph| ph.name == "ior-easy-write")?
        .exe
        .as_deref()?;
    let mut words = exe.split_whitespace();
    words.find(|w| *w == "-o")?;
    let file = words.next()?;
    Some(file.strip_suffix("/ior-easy/ior_file_easy")?.to_string())
}

/// The unit the IO500 prints, chosen by the name's first letter (as `Phase::unit`, which
/// also covers names no longer in the table).
fn unit(name: &str) -> ScoreUnit {
    if name.starts_with('i') {
        ScoreUnit::GibPerS
    } else {
        ScoreUnit::Kiops
    }
}

fn io500_phase(ph: &PhaseText, dry_run: bool) -> Io500Phase {
    Io500Phase {
        phase: ph.name.clone(),
        score: ph.score.unwrap_or(0.0),
        unit: unit(&ph.name),
        time_s: ph.time_s.unwrap_or(0.0),
        valid: ph.invalid.is_empty() && !ph.marked_invalid,
        invalid: ph.invalid.clone(),
        // The files do not say whether a phase's tool was disabled; a dry run ran nothing.
        ran: !dry_run,
        error: None,
    }
}

/// A phase whose tool is one of iogauge's workloads, with the IO500's figure as its
/// bandwidth (GiB/s phases) or rate (kIOPS phases) and the IO500's wall time as its time.
fn measured(ph: &PhaseText) -> Option<PhaseResult> {
    let operation = by_name(&ph.name)?.operation()?;
    let score = ph.score?;
    let mut p = PhaseResult::new(operation, 0);
    p.io500_phase = Some(ph.name.clone());
    p.times.total_s = ph.time_s.unwrap_or(0.0);
    match unit(&ph.name) {
        ScoreUnit::GibPerS => p.bandwidth_mib_s = score * 1024.0,
        ScoreUnit::Kiops => p.iops = score * 1000.0,
    }
    for (key, name) in [("found", "found"), ("total-files", "examined")] {
        if let Some(n) = ph.get(key).and_then(|v| v.parse().ok()) {
            p.counters.insert(name.to_string(), n);
        }
    }
    p.warnings = ph.invalid.iter().map(|r| format!("INVALID: {r}")).collect();
    p.warnings.extend(ph.warnings.iter().cloned());
    Some(p)
}

fn score(s: &ScoreText) -> Io500Score {
    let f = |t: &str| t.parse().unwrap_or(0.0);
    Io500Score {
        bandwidth_gib_s: f(&s.bw),
        iops_kiops: f(&s.md),
        total: f(&s.total),
        valid: s.valid,
        hash: s.hash.clone().unwrap_or_default(),
        text: [s.bw.clone(), s.md.clone(), s.total.clone()],
    }
}

/// `2024-11-11 00:01:32` (the IO500's date) as `2024-11-11T00:01:32.000Z`. The files carry no
/// time zone; the import reads them as UTC and says so.
pub fn rfc3339(date: &str) -> Option<String> {
    let (day, time) = date.trim().split_once(' ')?;
    let digits = |s: &str, sep: char, n: usize| {
        let parts: Vec<&str> = s.split(sep).collect();
        parts.len() == n
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    (day.len() == 10 && time.len() == 8 && digits(day, '-', 3) && digits(time, ':', 3))
        .then(|| format!("{day}T{time}.000Z"))
}

/// `2024-11-11 00:01:32` as `20241111T000132Z`, the time part of a run id.
fn compact(date: &str) -> Option<String> {
    let r = rfc3339(date)?;
    Some(format!("{}Z", r[..19].replace(['-', ':'], "")))
}
