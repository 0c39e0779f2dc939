//! Runs the IO500's phases for `iogauge io500`: the [`Driver`] that parses each phase's IO500
//! argv with the `iogauge ior` / `mdtest` / `find` parsers (one source of truth for what the
//! argv means), runs the workload on the thread ranks, writes the phase's text output and
//! per-rank CSV to the result directory, and keeps iogauge's result document up to date.

mod find;
pub mod follow;
mod ior;
mod mdtest;

use std::path::PathBuf;

use results::io500::{Io500Phase, ScoreUnit};
use results::{PhaseResult, RunResult};
use workload::io500::argv::{Built, Command};
use workload::io500::measured::Measured;
use workload::io500::phases::Phase;
use workload::io500::run::{Driver, Record};

use crate::world::RankSetup;

/// Width of the per-interval series buckets.
const INTERVAL_NS: u64 = 1_000_000_000;

/// What one tool run left for the result document.
struct Ran {
    measured: Measured,
    phase: PhaseResult,
    verification_errors: u64,
}

pub struct Io500Driver {
    /// Every rank of the run (find may use fewer: `nproc`).
    pub setup: RankSetup,
    pub doc: RunResult,
    /// Where the document is rewritten after every phase.
    pub json: Vec<PathBuf>,
    pending: Option<PhaseResult>,
}

/// The tool a command runs.
enum Tool<'a> {
    Ior(&'a [String]),
    Mdtest(&'a [String]),
    Find(&'a [String]),
    Script(&'a str),
}

fn tool(c: &Command) -> Result<Tool<'_>, String> {
    match c {
        Command::Shell(s) => Ok(Tool::Script(s)),
        Command::Argv(v) => match v[0].as_str() {
            "./ior" => Ok(Tool::Ior(&v[1..])),
            "./mdtest" => Ok(Tool::Mdtest(&v[1..])),
            "./pfind" => Ok(Tool::Find(&v[1..])),
            other => Err(format!("no tool for {other}")),
        },
    }
}

impl Io500Driver {
    pub fn new(setup: RankSetup, doc: RunResult, json: Vec<PathBuf>) -> Self {
        Io500Driver {
            setup,
            doc,
            json,
            pending: None,
        }
    }

    /// Rewrites the document; a path that cannot be written is dropped with a warning.
    pub fn save(&mut self) {
        let doc = &self.doc;
        self.json
            .retain(|path| match results::write_json(path, doc) {
                Ok(()) => true,
                Err(e) => {
                    eprintln!("iogauge: warning: cannot write {}: {e}", path.display());
                    false
                }
            });
    }

    /// The ranks of a phase (find's `nproc`), on the run's node map.
    fn ranks(&self, n: usize) -> RankSetup {
        RankSetup {
            tasks: Some(n),
            ..self.setup
        }
    }
}

impl Driver for Io500Driver {
    fn check(&mut self, _phase: &Phase, built: &Built) -> Result<(), String> {
        match tool(&built.command)? {
            Tool::Ior(args) => ior::check(args, built.ranks).map(drop),
            Tool::Mdtest(args) => mdtest::check(args, built.ranks).map(drop),
            Tool::Find(args) => find::check(args).map(drop),
            Tool::Script(_) => Ok(()),
        }
    }

    fn preflight(&mut self, _phase: &Phase, built: &Built) -> Result<(), String> {
        match tool(&built.command)? {
            Tool::Ior(args) => ior::preflight(args, built.ranks).map(drop),
            Tool::Mdtest(args) => mdtest::preflight(args, built.ranks).map(drop),
            Tool::Find(_) | Tool::Script(_) => Ok(()),
        }
    }

    fn run(&mut self, phase: &Phase, built: &Built, result_dir: &str) -> Result<Measured, String> {
        let setup = self.ranks(built.ranks);
        let txt = PathBuf::from(format!("{result_dir}/{}.txt", phase.name));
        let csv = PathBuf::from(format!("{result_dir}/{}.csv", phase.name));
        let equivalent = built.command.iogauge(built.ranks).unwrap_or_default();
        let t = tool(&built.command)?;
        let (name, args): (&str, &[String]) = match t {
            Tool::Ior(a) => ("ior", a),
            Tool::Mdtest(a) => ("mdtest", a),
            Tool::Find(a) => ("find", a),
            Tool::Script(_) => ("script", &[]),
        };
        follow::announce(&follow::Order::Run {
            phase: phase.name.to_string(),
            tool: name.to_string(),
            args: args.to_vec(),
            ranks: built.ranks,
            fake_nodes: setup.fake_nodes,
        });
        let ran = match t {
            Tool::Ior(args) => ior::run(args, &setup, &txt, &equivalent)?,
            Tool::Mdtest(args) => mdtest::run(phase, args, &setup, &txt)?,
            Tool::Find(args) => find::run(args, &setup, &txt, &csv)?,
            Tool::Script(cmd) => find::script(cmd)?,
        };
        self.doc.verification_errors += ran.verification_errors;
        self.pending = Some(ran.phase);
        Ok(ran.measured)
    }

    fn done(&mut self, r: &Record) {
        if let Some(mut p) = self.pending.take() {
            p.io500_phase = Some(r.phase.name.to_string());
            p.warnings
                .extend(r.invalid.iter().map(|w| format!("INVALID: {w}")));
            p.warnings.extend(r.warnings.iter().cloned());
            self.doc.phases.push(p);
        }
        let unit = if r.phase.unit() == ScoreUnit::GibPerS.label() {
            ScoreUnit::GibPerS
        } else {
            ScoreUnit::Kiops
        };
        let io500 = self.doc.io500.get_or_insert_with(Default::default);
        io500.phases.push(Io500Phase {
            phase: r.phase.name.to_string(),
            score: r.score,
            unit,
            time_s: r.runtime_s,
            valid: r.valid,
            invalid: r.invalid.clone(),
            ran: r.ran,
            error: r.error.clone(),
        });
        self.save();
        // Under MPI a failure of rank 0 leaves the other ranks inside the phase: end the job
        // now that the phase is on record (result.txt and the document keep what ran).
        crate::world::abort_if_root_failed(1);
    }
}

/// The environment facts of the run's data directory (its nearest existing ancestor).
pub fn environment_of(data_dir: &str) -> results::Environment {
    let mut p = PathBuf::from(data_dir);
    while !p.exists() {
        if !p.pop() || p.as_os_str().is_empty() {
            p = PathBuf::from(".");
            break;
        }
    }
    results::capture(Some(&p))
}

/// The first rank that failed on its own (the others only report that a peer failed).
fn first_failure<T, E: std::fmt::Display>(
    ranks: &[exec::threads::RankOutcome<T, E>],
    peer: impl Fn(&E) -> bool,
) -> Option<String> {
    use exec::threads::RankFailure;
    let own = ranks.iter().enumerate().find_map(|(rank, r)| match r {
        Err(RankFailure::Error(e)) if !peer(e) => Some(format!("rank {rank}: {e}")),
        Err(RankFailure::Panic(m)) => Some(format!("rank {rank} panicked: {m}")),
        _ => None,
    });
    own.or_else(|| {
        ranks.iter().find_map(|r| match r {
            Err(RankFailure::Error(e)) => Some(e.to_string()),
            _ => None,
        })
    })
}
