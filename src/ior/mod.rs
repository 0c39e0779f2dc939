//! `iogauge ior`: parse IOR's command line, check everything before any I/O, run the ranks,
//! and feed rank 0's results to the IOR-format printer and the result document as they come.

pub mod cli;
pub mod output;
pub mod result;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use exec::threads::{self, RankFailure};
use exec::CommError;
use results::RunResult;
use workload::ior::{self, validate::validate, Ctx, Event, IorError, IorParams, PhaseOutcome};

use crate::world::RankSetup;
use output::csv::append_rank_csv;
use output::{write_rank_csv, Header, IorPrinter};
use result::{phase_result, summaries, verification};

const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Width of the per-interval series buckets.
const INTERVAL_NS: u64 = 1_000_000_000;

/// Bad input: message and status 2, agreed with the other MPI ranks (`world::bad_input`).
fn usage(message: impl std::fmt::Display) -> u8 {
    crate::world::bad_input(format!("iogauge {message}"))
}

/// Everything rank 0 updates as events arrive.
struct Sink {
    printer: IorPrinter<Box<dyn Write + Send>>,
    doc: RunResult,
    outcomes: Vec<PhaseOutcome>,
    json: Option<PathBuf>,
    /// `-O saveRankPerformanceDetailsCSV`: rows appended after every phase, as IOR does.
    rank_csv: Option<PathBuf>,
    tasks: usize,
}

impl Sink {
    fn handle(&mut self, ev: Event) {
        // Output errors (a closed pipe) must not stop the benchmark; the JSON keeps the data.
        match ev {
            Event::RepetitionStart { iteration, .. } => {
                let _ = self.printer.repetition_start(iteration);
            }
            Event::Phase(o) => {
                let _ = self.printer.phase(o);
                self.doc.verification_errors += o.verification.as_ref().map_or(0, |v| v.errors);
                self.doc.phases.push(phase_result(o));
                self.outcomes.push(o.clone());
                self.save();
                if let Some(path) = &self.rank_csv {
                    if let Err(e) = append_rank_csv(path, std::slice::from_ref(o), self.tasks) {
                        eprintln!("iogauge: warning: cannot write {}: {e}", path.display());
                    }
                }
            }
            Event::WriteCheck(c) => {
                let _ = self.printer.check(c);
                let v = verification(&c.verification);
                self.doc.verification_errors += v.errors;
                if let Some(e) = v.first_error {
                    self.doc.warnings.push(format!(
                        "write check (-W) iteration {}: {} bad transfer(s), first at {} offset {} (rank {})",
                        c.iteration, v.errors, e.file, e.offset, e.rank
                    ));
                }
            }
            Event::Remove { iteration, time_s } => {
                let _ = self.printer.remove(iteration, time_s);
            }
            Event::Warning(w) => {
                let _ = self.printer.warning(&w);
                self.doc.warnings.push(w);
            }
        }
    }

    /// Rewrite the JSON document after every phase, so a later failure loses nothing.
    fn save(&mut self) {
        if let Some(path) = &self.json {
            if let Err(e) = results::write_json(path, &self.doc) {
                eprintln!("iogauge: warning: cannot write {}: {e}", path.display());
                self.json = None;
            }
        }
    }
}

/// Parent directories of output files must exist before we start.
fn check_output_paths(cmd: &cli::IorCommand) -> Result<(), String> {
    let p = &cmd.params;
    let outputs = [
        ("--json", cmd.json.as_deref()),
        ("-O summaryFile", p.summary_file.as_deref()),
        (
            "-O saveRankPerformanceDetailsCSV",
            p.rank_details_csv.as_deref(),
        ),
        (
            "-O stoneWallingStatusFile",
            p.stonewall_status_file.as_deref(),
        ),
    ];
    crate::outputs::check_dirs_exist(&outputs)
}

fn test_dir(p: &IorParams) -> PathBuf {
    let first = ior::naming::test_file_path(p, 0, 0);
    let dir = first
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if p.file_per_proc && p.unique_dir {
        dir.parent().unwrap_or(Path::new(".")).to_path_buf()
    } else {
        dir.to_path_buf()
    }
}

fn ctime_now() -> String {
    chrono::Local::now()
        .format("%a %b %e %H:%M:%S %Y")
        .to_string()
}

pub fn main(args: &[String], global: RankSetup) -> u8 {
    let cmd = match cli::parse(args) {
        Ok(c) => c,
        Err(e) => return usage(e),
    };
    if cmd.help {
        print!("{}", cli::help_text());
        return crate::world::exit_early(0);
    }
    let setup = RankSetup {
        tasks: cmd.tasks,
        fake_nodes: cmd.fake_nodes,
        round_robin: cmd.round_robin,
    }
    .or(global);
    if let Err(e) = setup.check() {
        return usage(format!("ior: {e}"));
    }
    let tasks = setup.ranks();
    let p = &cmd.params;
    let mut warnings = cmd.warnings.clone();
    match validate(p, tasks) {
        Ok(w) => warnings.extend(w),
        Err(e) => return usage(format!("ior: {e}")),
    }
    let info = match engine::lookup(&p.engine.api) {
        Ok(i) => i,
        Err(e) => return usage(format!("ior: {e}")),
    };
    match ior::preflight::preflight(p, tasks as u64, cmd.overwrite, info.caps.does_io) {
        Ok(pre) => warnings.extend(pre.warnings),
        Err(e) => return usage(format!("ior: {e}")),
    }
    if let Err(e) = check_output_paths(&cmd) {
        return usage(format!("ior: {e}"));
    }
    // Only rank 0 prints and writes results (other MPI ranks' stdout is quiet anyway).
    let out: Box<dyn Write + Send> = match &p.summary_file {
        Some(_) if !crate::world::is_root() => Box::new(std::io::sink()),
        Some(f) => match std::fs::File::create(f) {
            Ok(file) => {
                println!("Writing output to {}", f.display());
                Box::new(std::io::BufWriter::new(file))
            }
            Err(e) => return usage(format!("ior: -O summaryFile={}: {e}", f.display())),
        },
        None => Box::new(std::io::stdout()),
    };
    if let Err(code) = crate::world::proceed() {
        return code;
    }
    run(&cmd, &setup, info, out, warnings)
}

fn run(
    cmd: &cli::IorCommand,
    setup: &RankSetup,
    info: &'static engine::EngineInfo,
    out: Box<dyn Write + Send>,
    warnings: Vec<String>,
) -> u8 {
    let p = &cmd.params;
    let tasks = setup.ranks();
    let node_map = setup.node_map();
    let command_line = format!(
        "iogauge ior {}",
        std::env::args().skip(2).collect::<Vec<_>>().join(" ")
    );

    let mut doc = RunResult::new(
        results::Parameters::Ior(p.clone()),
        std::env::args().collect(),
        VERSION,
    );
    let dir = test_dir(p);
    doc.environment = results::capture(Some(&dir));
    doc.ranks = setup.result_ranks();

    let header = Header {
        version: VERSION.to_string(),
        began: ctime_now(),
        command_line,
        machine: format!("{} {}", doc.environment.os, doc.environment.hostname),
        path: ior::naming::test_file_path(p, 0, 0).display().to_string(),
        fs_line: crate::fs_line::fs_line(&dir),
        nodes: node_map.num_nodes(),
        tasks,
        tasks_per_node: node_map.tasks_on_node0(),
    };
    let mut printer = IorPrinter::new(out, p, header);
    let _ = printer.start();
    for w in &warnings {
        let _ = printer.warning(w);
        doc.warnings.push(w.clone());
    }
    // IOR truncates the per-rank CSV and writes its header when it parses the option.
    let root = crate::world::is_root();
    if let Some(path) = p.rank_details_csv.as_ref().filter(|_| root) {
        if let Err(e) = write_rank_csv(path, &[], tasks) {
            eprintln!("iogauge: warning: cannot write {}: {e}", path.display());
        }
    }
    let sink = Mutex::new(Sink {
        printer,
        doc,
        outcomes: Vec::new(),
        json: cmd.json.clone().filter(|_| root),
        rank_csv: p.rank_details_csv.clone().filter(|_| root),
        tasks,
    });
    sink.lock().unwrap_or_else(|e| e.into_inner()).save();

    let ranks = crate::world::run(setup, |comm| {
        let engine = info.make(&p.engine, comm.rank());
        let ctx = Ctx::new(p, comm, engine.as_ref(), INTERVAL_NS);
        let mut on = |ev: Event| sink.lock().unwrap_or_else(|e| e.into_inner()).handle(ev);
        ior::run(&ctx, &mut on)
    });

    let mut sink = sink.into_inner().unwrap_or_else(|e| e.into_inner());
    let failure = first_failure(&ranks);
    let errors = ranks
        .iter()
        .find_map(|r| r.as_ref().ok())
        .map_or(0, |t| t.errors);
    let _ = sink.printer.finish(&ctime_now());
    let code = if failure.is_some() || errors > 0 {
        1
    } else {
        0
    };
    if let Some(msg) = &failure {
        eprintln!("iogauge: {msg}");
        sink.doc.warnings.push(msg.clone());
    }
    if errors > 0 {
        eprintln!("iogauge: data verification failed: {errors} transfer(s) did not read back what was written");
    }
    sink.doc.summary = summaries(&sink.outcomes);
    sink.doc.finish(code as i32);
    sink.save();
    code
}

/// The error that ended the run: the first rank that failed on its own (the others only
/// report that a peer failed).
fn first_failure(ranks: &[threads::RankOutcome<ior::RunTotals, IorError>]) -> Option<String> {
    let own = ranks.iter().enumerate().find_map(|(rank, r)| match r {
        Err(RankFailure::Error(IorError::Comm(CommError::PeerFailed { .. }))) | Ok(_) => None,
        Err(RankFailure::Error(e)) => Some(format!("rank {rank}: {e}")),
        Err(RankFailure::Panic(m)) => Some(format!("rank {rank} panicked: {m}")),
    });
    own.or_else(|| {
        ranks.iter().find_map(|r| match r {
            Err(RankFailure::Error(e)) => Some(e.to_string()),
            _ => None,
        })
    })
}
