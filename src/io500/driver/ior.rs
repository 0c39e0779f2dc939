//! An IOR phase of the IO500: the IO500 argv through `iogauge ior`'s parser, the run on the
//! ranks, IOR's text output to `<phase>.txt` and the per-rank CSV it asks for.

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use exec::CommError;
use workload::io500::measured::{IorWall, Measured};
use workload::ior::{self, validate::validate, Ctx, Event, IorError, PhaseOutcome};

use super::{first_failure, Ran, INTERVAL_NS};
use crate::ior::cli::{self, IorCommand};
use crate::ior::output::csv::append_rank_csv;
use crate::ior::output::{write_rank_csv, Header, IorPrinter};
use crate::ior::result::phase_result;
use crate::world::RankSetup;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Parses and validates the argv (no I/O).
pub fn check(args: &[String], ranks: usize) -> Result<IorCommand, String> {
    let cmd = cli::parse(args).map_err(|e| e.to_string())?;
    validate(&cmd.params, ranks).map_err(|e| format!("ior: {e}"))?;
    engine::lookup(&cmd.params.engine.api).map_err(|e| format!("ior: {e}"))?;
    Ok(cmd)
}

/// The checks against the file system (`iogauge ior`'s preflight); Ok carries its warnings.
pub fn preflight(args: &[String], ranks: usize) -> Result<Vec<String>, String> {
    let cmd = check(args, ranks)?;
    let p = &cmd.params;
    let info = engine::lookup(&p.engine.api).map_err(|e| format!("ior: {e}"))?;
    let pre = ior::preflight::preflight(p, ranks as u64, false, info.caps.does_io)
        .map_err(|e| format!("ior: {e}"))?;
    Ok(pre.warnings)
}

struct Sink {
    printer: IorPrinter<Box<dyn Write + Send>>,
    outcomes: Vec<PhaseOutcome>,
}

pub fn run(
    args: &[String],
    setup: &RankSetup,
    txt: &Path,
    equivalent: &str,
) -> Result<Ran, String> {
    let cmd = check(args, setup.ranks())?;
    let p = &cmd.params;
    let tasks = setup.ranks();
    let info = engine::lookup(&p.engine.api).map_err(|e| format!("ior: {e}"))?;
    let mut warnings = cmd.warnings.clone();
    let root = crate::world::is_root();
    if root {
        // Other MPI ranks follow rank 0's decision (`follow`), so only it checks.
        warnings.extend(preflight(args, tasks)?);
    }
    let file = std::fs::File::create(txt).map_err(|e| format!("{}: {e}", txt.display()))?;
    let node_map = setup.node_map();
    let env = results::capture(None);
    let first = ior::naming::test_file_path(p, 0, 0);
    let dir = first.parent().unwrap_or(Path::new("."));
    let header = Header {
        version: VERSION.to_string(),
        began: chrono::Local::now()
            .format("%a %b %e %H:%M:%S %Y")
            .to_string(),
        command_line: equivalent.to_string(),
        machine: format!("{} {}", env.os, env.hostname),
        path: first.display().to_string(),
        fs_line: crate::fs_line::fs_line(dir),
        nodes: node_map.num_nodes(),
        tasks,
        tasks_per_node: node_map.tasks_on_node0(),
    };
    let out: Box<dyn Write + Send> = Box::new(std::io::BufWriter::new(file));
    let mut printer = IorPrinter::new(out, p, header);
    let _ = printer.start();
    for w in &warnings {
        let _ = printer.warning(w);
    }
    if let Some(path) = p.rank_details_csv.as_ref().filter(|_| root) {
        write_rank_csv(path, &[], tasks).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let sink = Mutex::new(Sink {
        printer,
        outcomes: Vec::new(),
    });
    let ranks = crate::world::run(setup, |comm| {
        let engine = info.make(&p.engine, comm.rank());
        let ctx = Ctx::new(p, comm, engine.as_ref(), INTERVAL_NS);
        let mut on = |ev: Event| {
            let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
            match ev {
                Event::RepetitionStart { iteration, .. } => {
                    drop(s.printer.repetition_start(iteration))
                }
                Event::Phase(o) => {
                    let _ = s.printer.phase(o);
                    s.outcomes.push(o.clone());
                }
                Event::WriteCheck(c) => drop(s.printer.check(c)),
                Event::Remove { iteration, time_s } => drop(s.printer.remove(iteration, time_s)),
                Event::Warning(w) => drop(s.printer.warning(&w)),
            }
        };
        ior::run(&ctx, &mut on)
    });
    let mut sink = sink.into_inner().unwrap_or_else(|e| e.into_inner());
    let _ = sink.printer.finish(
        &chrono::Local::now()
            .format("%a %b %e %H:%M:%S %Y")
            .to_string(),
    );
    if let Some(path) = p.rank_details_csv.as_ref().filter(|_| root) {
        if let Err(e) = append_rank_csv(path, &sink.outcomes, tasks) {
            eprintln!("iogauge: warning: cannot write {}: {e}", path.display());
        }
    }
    let peer = |e: &IorError| matches!(e, IorError::Comm(CommError::PeerFailed { .. }));
    if let Some(msg) = first_failure(&ranks, peer) {
        return Err(msg);
    }
    let errors = ranks
        .iter()
        .find_map(|r| r.as_ref().ok())
        .map_or(0, |t| t.errors);
    let o = sink.outcomes.pop().ok_or("ior reported no phase")?;
    Ok(Ran {
        measured: Measured::Ior {
            bytes: o.bytes,
            time_s: o.total_s,
            errors,
            wall: o.stonewall.map(|s| IorWall {
                time_s: s.time_s,
                bytes_mean: s.bytes_mean,
                pairs: s.pairs_max,
            }),
        },
        phase: phase_result(&o),
        verification_errors: errors,
    })
}
