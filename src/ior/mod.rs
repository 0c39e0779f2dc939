//! `iogauge ior`: parse IOR's command line, check everything before any I/O, run the ranks,
//! and feed rank 0's results to the IOR-format printer and the result document as they come.

pub use cmdline::ior as cli;
pub mod output;

use std::io::Write;
use std::path::{Path, PathBuf};

use results::{Parameters, RunResult, Sink};
use workload::ior::preflight::{preflight, Existing};
use workload::ior::{self, validate::validate, IorParams};
use workload::session::{Finished, Session};

use crate::command::{Checked, Context, Supports, Workload};
use crate::sweep::names::Knob;
use crate::world::RankSetup;
use output::{ctime_now, Header, IorOutput, IorPrinter, IorRankCsv};

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

/// `iogauge ior`, as the command path runs it.
pub struct Ior;

/// What the checks of an IOR command line found: the test files from before the run that the
/// write replaces, and the output the report goes to.
pub struct Prepared {
    replaced: Vec<PathBuf>,
}

crate::command::ior_style_invocation!(cli::IorCommand);

impl Workload for Ior {
    const NAME: &'static str = "ior";
    const ABOUT: &'static str = "IOR-compatible bandwidth benchmark (see `iogauge ior --help`)";
    const ARGS: &'static str = "IOR options, e.g. -t 1m -b 64m -F -o /tmp/x/file";
    const EXAMPLES: &'static [(&'static str, &'static str)] = &[
        (
            "iogauge ior -N 4 -t 1m -b 64m -F -C -e -o /tmp/x/testfile",
            "IOR-compatible bandwidth test",
        ),
        (
            "iogauge ior -N 2 -t 47008 -b 47008 -s 20000 -C -Q 1 -g -e -o /dev/shm/y/file",
            "IO500 ior-hard pattern",
        ),
        ("iogauge ior --help", "every IOR option iogauge supports"),
    ];
    // The test files are named by -o; IOR makes no tree of its own.
    const SUPPORTS: Supports = Supports {
        drop_caches: true,
        root_target: false,
        dry_run: false,
    };
    type Command = cli::IorCommand;
    type Prepared = Prepared;
    type Outcome = ior::PhaseOutcome;

    fn parse(args: &[String]) -> Result<cli::IorCommand, String> {
        cli::parse(args).map_err(|e| e.0)
    }

    fn help() -> String {
        cli::help_text()
    }

    fn knob(name: &str) -> Result<Knob, String> {
        crate::sweep::names::in_table(&cli::options::TABLE, name)
    }

    fn check(cmd: &cli::IorCommand, ctx: &Context) -> Result<Checked<Prepared>, String> {
        let tasks = ctx.setup.ranks();
        let p = &cmd.params;
        let mut warnings = cmd.warnings.clone();
        warnings.extend(validate(p, tasks)?);
        engine::lookup(&p.engine.api).map_err(|e| e.to_string())?;
        if p.fsync_per_write && ctx.engine.caps().queued {
            return Err(format!(
                "-Y fsyncs after every write, one at a time; -a {} keeps {} writes in flight: \
                 use -e (one fsync once the queue has drained)",
                p.engine.api,
                ctx.engine.depth()
            ));
        }
        let pre = preflight(p, tasks as u64, Existing::Replace, &*ctx.engine)?;
        warnings.extend(pre.warnings);
        check_output_paths(cmd)?;
        Ok(Checked {
            prepared: Prepared {
                replaced: pre.replaced,
            },
            warnings,
        })
    }

    fn announce(cmd: &cli::IorCommand, prepared: &Prepared) {
        if cmd.overwrite {
            eprintln!(
                "iogauge ior: note: --overwrite is no longer needed: the test files named by -o \
                 are replaced as IOR replaces them"
            );
        }
        if let Some(line) = replacing(&prepared.replaced) {
            eprintln!("{line}");
        }
    }

    fn document(cmd: &cli::IorCommand, _prepared: &Prepared, ctx: &Context) -> RunResult {
        let p = &cmd.params;
        let mut doc = RunResult::new(
            Parameters::Ior(p.clone()),
            std::env::args().collect(),
            crate::VERSION,
        );
        doc.environment = results::capture(Some((&*ctx.engine, &test_dir(p))));
        doc.ranks = ctx.setup.result_ranks();
        doc
    }

    fn sinks(
        cmd: &cli::IorCommand,
        _prepared: &Prepared,
        ctx: &Context,
        doc: &RunResult,
    ) -> Result<Vec<Box<dyn Sink>>, String> {
        let p = &cmd.params;
        let out: Box<dyn Write + Send> = match &p.summary_file {
            Some(f) => {
                let file = std::fs::File::create(f)
                    .map_err(|e| format!("-O summaryFile={}: {e}", f.display()))?;
                crate::outln!("Writing output to {}", f.display());
                Box::new(std::io::BufWriter::new(file))
            }
            None => Box::new(std::io::stdout()),
        };
        // IOR prints its own argv; ours is the tool's words after `iogauge ior` (the global
        // options iogauge took out of the line are not IOR's).
        let command_line = format!("iogauge ior {}", ctx.args.join(" "));
        let header = header(p, &ctx.setup, command_line, &doc.environment, &*ctx.engine);
        Ok(sinks(p, header, out))
    }

    fn run(
        cmd: &cli::IorCommand,
        _prepared: &Prepared,
        ranks: &exec::Ranks,
        session: &Session,
    ) -> Finished<ior::PhaseOutcome> {
        ior::run(&cmd.params, ranks, session)
    }

    fn after(done: &Finished<ior::PhaseOutcome>) {
        if done.errors > 0 {
            let errors = done.errors;
            eprintln!("iogauge: data verification failed: {errors} transfer(s) did not read back what was written");
        }
    }
}

/// The IOR report and the per-rank CSV a plan asks for (on the reporting process only).
pub fn sinks(p: &IorParams, header: Header, out: Box<dyn Write + Send>) -> Vec<Box<dyn Sink>> {
    let tasks = header.tasks;
    let mut own: Vec<Box<dyn Sink>> = vec![Box::new(IorOutput {
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
    engine: &dyn engine::Engine,
) -> Header {
    let node_map = setup.node_map();
    Header {
        version: crate::VERSION.to_string(),
        began: ctime_now(),
        command_line,
        machine: format!("{} {}", env.os, env.hostname),
        path: ior::naming::test_file_path(p, 0, 0).display().to_string(),
        fs_line: crate::fs_line::fs_line(engine, &test_dir(p)),
        nodes: node_map.num_nodes(),
        tasks: setup.ranks(),
        tasks_per_node: node_map.tasks_on_node0(),
        api_version: engine.api_version(),
    }
}
