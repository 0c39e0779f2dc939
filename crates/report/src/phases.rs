//! A run's phases grouped by what they did: the IO500 phase name when the run is an IO500 (its
//! `ior-easy-write` and `ior-hard-write` both time `write`), else the operation. Each group holds
//! its iterations in execution order; groups keep the order in which the run first reached them.

use results::io500::Io500Phase;
use results::{PhaseResult, RunResult};

/// One phase of a run over its iterations.
#[derive(Debug, Clone)]
pub struct PhaseGroup<'a> {
    /// `ior-easy-write`, `write`, `file-create`, ...
    pub key: String,
    pub iterations: Vec<&'a PhaseResult>,
    /// The IO500's score line for this phase, when the run is an IO500 and the phase ran.
    pub io500: Option<&'a Io500Phase>,
}

/// The name phases are matched by across runs.
pub fn phase_key(p: &PhaseResult) -> String {
    match &p.io500_phase {
        Some(name) => name.clone(),
        None => p.operation.label().to_string(),
    }
}

/// The run's phase groups in the order the run first reached them.
pub fn groups(doc: &RunResult) -> Vec<PhaseGroup<'_>> {
    let mut out: Vec<PhaseGroup<'_>> = Vec::new();
    for p in &doc.phases {
        let key = phase_key(p);
        match out.iter_mut().find(|g| g.key == key) {
            Some(g) => g.iterations.push(p),
            None => {
                let io500 = doc
                    .io500
                    .as_ref()
                    .and_then(|r| r.phases.iter().find(|s| s.phase == key && s.ran));
                out.push(PhaseGroup {
                    key,
                    iterations: vec![p],
                    io500,
                });
            }
        }
    }
    out
}

impl PhaseGroup<'_> {
    /// Whether the phase moves data (IOR, mdtest with -w/-e), so bandwidth means something.
    pub fn moves_bytes(&self) -> bool {
        self.iterations.iter().any(|p| p.bytes > 0)
    }

    /// Whether any iteration recorded a latency.
    pub fn has_latency(&self) -> bool {
        self.iterations.iter().any(|p| p.latency.count > 0)
    }
}

/// Every phase key of the runs, in the order of the first run that has it, then the phases
/// only later runs have.
pub fn union_keys<'a>(all: impl IntoIterator<Item = &'a [PhaseGroup<'a>]>) -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for groups in all {
        for g in groups {
            if !keys.contains(&g.key) {
                keys.push(g.key.clone());
            }
        }
    }
    keys
}

/// A DOM- and file-safe form of a phase key (IO500 names come from a document, so they are
/// cleaned rather than trusted).
pub fn slug(key: &str) -> String {
    key.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect()
}
