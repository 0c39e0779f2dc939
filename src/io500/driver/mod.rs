//! Runs the IO500's phases for `iogauge io500`: the [`Driver`] that parses each phase's IO500
//! argv once, with the parser of the tool the phase table names (`iogauge ior`, `mdtest`,
//! `find`: one source of truth for what the argv means), checks it, and runs the plan through
//! the same workload `run` function as the tool's own command, with the phase's text output
//! and per-rank CSV in the result directory.

mod find;
pub mod follow;
mod ior;
mod mdtest;
mod mdworkbench;

use std::io::Write;
use std::path::PathBuf;

use results::{Fanout, RunResult, Sink};
use workload::io500::argv::{Built, Command};
use workload::io500::phases::{How, Phase};
use workload::io500::plan::{PhasePlan, Planned};
use workload::io500::run::{Driver, PhaseRun, Record};
use workload::session::Session;

use crate::world::RankSetup;

pub struct Io500Driver {
    /// Every rank of the run (find may use fewer: `nproc`).
    pub setup: RankSetup,
}

/// Where a phase's tool writes on the reporting process, what it shows there, and the suite's
/// session whose live counters it records on.
pub struct PhaseFiles<'a> {
    pub suite: &'a Session,
    /// `<phase>.txt`: the tool's text output.
    pub txt: PathBuf,
    /// `<phase>.csv`: find's per-rank CSV (ior and mdtest name theirs in the argv).
    pub csv: PathBuf,
    /// The phase's argv after the tool name (mdtest prints it).
    pub args: Vec<String>,
    /// The equivalent iogauge command line (IOR prints it).
    pub equivalent: String,
    /// The plan's warnings, printed in the tool's output.
    pub warnings: Vec<String>,
}

impl PhaseFiles<'_> {
    /// The session of the phase's tool: nested in the suite's on the reporting process, a
    /// session of its own (with no sinks) on the ranks that only take part.
    pub fn session(
        files: Option<&Self>,
        doc: RunResult,
        own: Vec<Box<dyn Sink>>,
        setup: &RankSetup,
    ) -> Session {
        match files {
            Some(f) => Session::nested(doc, Fanout::new(own), f.suite),
            None => {
                // A rank that only takes part pushes its live figures to rank 0 (--metrics).
                let mut own = own;
                own.extend(crate::monitoring::follower_sink());
                crate::command::new_session(doc, Fanout::new(own), setup.into_ranks().local())
            }
        }
    }

    /// `<phase>.txt`, created (truncated) now.
    pub fn text_output(&self) -> Result<Box<dyn Write + Send>, String> {
        let file =
            std::fs::File::create(&self.txt).map_err(|e| format!("{}: {e}", self.txt.display()))?;
        Ok(Box::new(std::io::BufWriter::new(file)))
    }
}

/// Runs a phase's plan on `setup`'s ranks: the reporting process with its files, the others
/// (`files` = `None`, MPI ranks taking part) with none. Chosen by the plan's type.
pub fn run_plan(
    phase: &Phase,
    plan: &PhasePlan,
    setup: &RankSetup,
    files: Option<&PhaseFiles>,
) -> Result<PhaseRun, String> {
    match plan {
        PhasePlan::Ior(p) => ior::run(p, setup, files),
        PhasePlan::Mdtest { params, shape } => mdtest::run(phase, params, *shape, setup, files),
        PhasePlan::Find(p) => find::run(p, setup, files),
        PhasePlan::MdWorkbench(p) => mdworkbench::run(p, setup, files),
        PhasePlan::Script(cmd) if files.is_some() => find::script(cmd),
        // The script runs on rank 0 only.
        PhasePlan::Script(_) => Err("the external find script runs on rank 0".into()),
    }
}

impl Io500Driver {
    pub fn new(setup: RankSetup) -> Self {
        Io500Driver { setup }
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
    fn plan(&mut self, phase: &Phase, built: &Built) -> Result<Planned, String> {
        let args = built.command.args();
        match (phase.how, &built.command) {
            (How::Find(_), Command::Shell(cmd)) => Ok(Planned {
                plan: PhasePlan::Script(cmd.clone()),
                warnings: Vec::new(),
            }),
            (How::Ior(..), _) => ior::plan(args, built.ranks),
            (How::Mdtest(..), _) => mdtest::plan(args, built.ranks),
            (How::Find(_), _) => find::plan(args),
            (How::MdWorkbench(_), _) => mdworkbench::plan(args, built.ranks),
            _ => Err(format!("{} runs no tool", phase.name)),
        }
    }

    fn preflight(&mut self, _phase: &Phase, planned: &Planned) -> Result<(), String> {
        match &planned.plan {
            PhasePlan::Ior(p) => ior::preflight(p, self.setup.ranks()).map(drop),
            PhasePlan::Mdtest { params, shape } => mdtest::preflight(params, shape).map(drop),
            PhasePlan::MdWorkbench(p) => mdworkbench::preflight(p, self.setup.ranks()),
            PhasePlan::Find(_) | PhasePlan::Script(_) => Ok(()),
        }
    }

    fn run(
        &mut self,
        phase: &Phase,
        built: &Built,
        planned: &Planned,
        result_dir: &str,
        suite: &Session,
    ) -> Result<PhaseRun, String> {
        let setup = self.ranks(built.ranks);
        if !matches!(planned.plan, PhasePlan::Script(_)) {
            follow::announce(&follow::Order::Run {
                phase: phase.name.to_string(),
                plan: Box::new(planned.plan.clone()),
                ranks: built.ranks,
                fake_nodes: setup.fake_nodes,
                metrics: crate::monitoring::published(),
                // Set by the IO500's clean-up after a signal (`io500/run/interrupt.rs`).
                stop: exec::interrupt::requested()
                    .then(|| exec::interrupt::signal().unwrap_or(libc::SIGINT)),
            });
        }
        let tool = phase.tool().unwrap_or_default();
        let files = PhaseFiles {
            suite,
            txt: PathBuf::from(format!("{result_dir}/{}.txt", phase.name)),
            csv: PathBuf::from(format!("{result_dir}/{}.csv", phase.name)),
            args: built.command.args().to_vec(),
            equivalent: built.command.iogauge(tool, built.ranks).unwrap_or_default(),
            warnings: planned.warnings.clone(),
        };
        run_plan(phase, &planned.plan, &setup, Some(&files))
    }

    fn done(&mut self, _record: &Record) {
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
    results::capture(Some((&engine::PosixEngine::new(false), &p)))
}
