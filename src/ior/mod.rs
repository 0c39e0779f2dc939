//! `iogauge ior`: parse IOR's command line, check everything before any I/O, run the ranks,
//! and feed rank 0's results to the IOR-format printer and the result document as they come.

pub mod cli;
pub mod output;

use std::io::Write;
use std::path::{Path, PathBuf};

use results::{Parameters, RunResult, Sink};
use workload::ior::preflight::{preflight, Existing};
use workload::ior::{self, validate::validate, IorParams};
use workload::session::Session;

use crate::world::{Global, RankSetup};
use output::{ctime_now, Header, IorPrinter, IorRankCsv, IorReport};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Bad input: message and status 2, agreed with the other MPI ranks (`world::bad_input`).
fn usage(message: impl std::fmt::Display) -> u8 {
    crate::world::bad_input(format!("iogauge {message}"))
}

/// Parent directories of output files must exist before we start.
fn check_output_paths(cmd: &cli::IorCommand) -> Result<(), String> {
    let p = &cmd.params;
    let outputs = [
        ("--json", cmd.launch.json.as_deref()),
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

/// The one stderr line about files from before the run that the write replaces.
fn replacing(files: &[PathBuf]) -> Option<String> {
    let first = files.first()?.display();
    Some(match files.len() {
        1 => format!("iogauge ior: replacing {first}, which existed before this run (as IOR does)"),
        n => format!(
            "iogauge ior: replacing {n} test files that existed before this run, {first} first \
             (as IOR does)"
        ),
    })
}

pub fn main(args: &[String], global: &Global) -> u8 {
    let (cmd, setup) = match crate::optparse::start::<cli::IorCommand>(args, global) {
        Ok(started) => started,
        Err(code) => return code,
    };
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
    let replaced = match preflight(
        p,
        tasks as u64,
        Existing::Replace,
        &*info.make(&p.engine, 0),
    ) {
        Ok(pre) => {
            warnings.extend(pre.warnings);
            pre.replaced
        }
        Err(e) => return usage(format!("ior: {e}")),
    };
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
    if let Err(code) = crate::world::proceed(global) {
        return code;
    }
    if crate::world::is_root() {
        if cmd.overwrite {
            eprintln!(
                "iogauge ior: note: --overwrite is no longer needed: the test files named by -o \
                 are replaced as IOR replaces them"
            );
        }
        if let Some(line) = replacing(&replaced) {
            eprintln!("{line}");
        }
    }
    // IOR prints its own argv; ours is the tool's words after `iogauge ior` (the global
    // options iogauge took out of the line are not IOR's).
    let command_line = format!("iogauge ior {}", args.join(" "));
    run(&cmd, &setup, out, warnings, global, command_line)
}

/// The IOR report and the per-rank CSV a plan asks for (on the reporting process only).
pub fn sinks(p: &IorParams, header: Header, out: Box<dyn Write + Send>) -> Vec<Box<dyn Sink>> {
    let tasks = header.tasks;
    let mut own: Vec<Box<dyn Sink>> = vec![Box::new(IorReport {
        printer: IorPrinter::new(out, p, header),
    })];
    if let Some(path) = &p.rank_details_csv {
        own.push(Box::new(IorRankCsv {
            path: path.clone(),
            tasks,
        }));
    }
    own
}

/// IOR's header lines: the machine, the first test file, its file system, the tasks.
pub fn header(
    p: &IorParams,
    setup: &RankSetup,
    command_line: String,
    env: &results::Environment,
) -> Header {
    let node_map = setup.node_map();
    Header {
        version: VERSION.to_string(),
        began: ctime_now(),
        command_line,
        machine: format!("{} {}", env.os, env.hostname),
        path: ior::naming::test_file_path(p, 0, 0).display().to_string(),
        fs_line: crate::fs_line::fs_line(&*engine::for_target(&p.engine), &test_dir(p)),
        nodes: node_map.num_nodes(),
        tasks: setup.ranks(),
        tasks_per_node: node_map.tasks_on_node0(),
    }
}

fn run(
    cmd: &cli::IorCommand,
    setup: &RankSetup,
    out: Box<dyn Write + Send>,
    warnings: Vec<String>,
    global: &Global,
    command_line: String,
) -> u8 {
    let p = &cmd.params;
    let mut doc = RunResult::new(
        Parameters::Ior(p.clone()),
        std::env::args().collect(),
        VERSION,
    );
    doc.environment = results::capture(Some((&*engine::for_target(&p.engine), &test_dir(p))));
    doc.ranks = setup.result_ranks();
    doc.warnings = warnings;
    let header = header(p, setup, command_line, &doc.environment);
    let json: Vec<PathBuf> = cmd.launch.json.iter().cloned().collect();
    let fanout = crate::sinks::choose(sinks(p, header, out), json, global);
    let ranks = setup.into_ranks();
    // From here SIGINT/SIGTERM stop the ranks and keep what they measured (docs/safety.md);
    // find and the IO500 do not poll the flag yet and keep the default exit.
    exec::interrupt::install();
    let done = ior::run(
        p,
        &ranks,
        &Session::new(doc, fanout, ranks.local()).with_checks(crate::checks::get()),
    );
    if let Some(msg) = &done.failure {
        eprintln!("iogauge: {msg}");
    }
    if done.errors > 0 {
        let errors = done.errors;
        eprintln!("iogauge: data verification failed: {errors} transfer(s) did not read back what was written");
    }
    if let Some(line) = done.interrupted_line() {
        eprintln!("{line}");
    }
    done.exit_code()
}
