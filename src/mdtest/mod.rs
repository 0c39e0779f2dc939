//! `iogauge mdtest`: parse mdtest's command line, check everything before any I/O, run the
//! ranks, and feed rank 0's results to the mdtest-format printer and the result document.

pub mod cli;
pub mod output;

use std::io::Write;
use std::path::PathBuf;

use results::{MdtestParameters, MdtestResolved, Parameters, RunResult, Sink};
use workload::mdtest::{self, validate::validate, MdtestParams, Shape};
use workload::session::Session;

use crate::world::{Global, RankSetup};
use cli::MdtestCommand;
use output::{csv, quote_args, Header, MdtestPrinter, MdtestRankCsv, MdtestReport};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Bad input: message and status 2, agreed with the other MPI ranks (`world::bad_input`).
fn usage(message: impl std::fmt::Display) -> u8 {
    crate::world::bad_input(format!("iogauge {message}"))
}

/// Parent directories of output files must exist before we start.
fn check_output_paths(cmd: &MdtestCommand) -> Result<(), String> {
    let p = &cmd.params;
    let status = p
        .status_file
        .as_deref()
        .filter(|_| p.phases.create && p.stonewall_s > 0.0);
    let outputs = [
        ("--json", cmd.launch.json.as_deref()),
        (
            "--saveRankPerformanceDetails",
            p.rank_details_csv.as_deref(),
        ),
        ("-x", status),
    ];
    crate::outputs::check_dirs_exist(&outputs)
}

pub fn main(args: &[String], global: &Global) -> u8 {
    let (cmd, setup) = match crate::optparse::start::<cli::MdtestCommand>(args, global) {
        Ok(started) => started,
        Err(code) => return code,
    };
    let tasks = setup.ranks();
    let p = &cmd.params;
    let (shape, mut warnings) = match validate(p, tasks) {
        Ok(v) => v,
        Err(e) => return usage(format!("mdtest: {e}")),
    };
    for dir in &p.dirs {
        if let Err(e) = workload::target::check_tree_root(
            "-d",
            dir,
            global.allow_root_target,
            &*engine::for_target(&p.engine),
        ) {
            return usage(format!("mdtest: {e}"));
        }
    }
    let info = match engine::lookup(&p.engine.api) {
        Ok(i) => i,
        Err(e) => return usage(format!("mdtest: {e}")),
    };
    let pre = match mdtest::preflight::preflight(p, &shape, &*info.make(&p.engine, 0)) {
        Ok(pre) => pre,
        Err(e) => return usage(format!("mdtest: {e}")),
    };
    warnings.extend(pre.warnings);
    if let Err(e) = check_output_paths(&cmd) {
        return usage(format!("mdtest: {e}"));
    }
    if p.phases.read && p.files && p.read_bytes == 0 {
        // mdtest's own warning, worded as mdtest prints it.
        warnings.insert(
            0,
            "Read bytes is 0, thus, a read test will actually just open/close".into(),
        );
    }
    // mdtest truncates the per-rank CSV and writes its header while validating.
    if let Some(path) = p
        .rank_details_csv
        .as_ref()
        .filter(|_| crate::world::is_root())
    {
        if let Err(e) = csv::write_header(path) {
            return usage(format!(
                "mdtest: --saveRankPerformanceDetails {}: {e}",
                path.display()
            ));
        }
    }
    if let Err(code) = crate::world::proceed(global) {
        return code;
    }
    run(
        &cmd,
        &setup,
        shape,
        pre.status_items,
        warnings,
        args,
        global,
    )
}

/// The directory whose file system the header and the environment describe: the first -d.
fn fs_dir(p: &MdtestParams) -> PathBuf {
    crate::outputs::existing_dir_or_parent(&p.dirs[0])
}

/// mdtest's header lines; `quoted_args` is the command line as mdtest prints it.
pub fn header(p: &MdtestParams, shape: &Shape, setup: &RankSetup, quoted_args: String) -> Header {
    let node_map = setup.node_map();
    Header {
        version: VERSION.to_string(),
        quoted_args,
        tasks: setup.ranks(),
        nodes: node_map.num_nodes(),
        nodemap: setup.nodemap(),
        path: p.dirs[0].display().to_string(),
        fs_line: crate::fs_line::fs_line(&*engine::for_target(&p.engine), &fs_dir(p)),
        stride: mdtest::naming::effective_stride(
            p.nstride,
            node_map.num_nodes(),
            node_map.tasks_on_node0(),
            node_map.is_block_mapped(),
        ),
        items_per_task: shape.items_per_rank().unwrap_or(0),
    }
}

/// The mdtest report and the per-rank CSV rows a plan asks for.
pub fn sinks(p: &MdtestParams, header: Header, out: Box<dyn Write + Send>) -> Vec<Box<dyn Sink>> {
    let (tasks, items) = (header.tasks, header.items_per_task);
    let mut own: Vec<Box<dyn Sink>> = vec![Box::new(MdtestReport::new(MdtestPrinter::new(
        out, p, header,
    )))];
    if let Some(path) = &p.rank_details_csv {
        own.push(Box::new(MdtestRankCsv::new(
            path.clone(),
            tasks,
            p.iterations,
            items,
        )));
    }
    own
}

/// The document of an mdtest run before it starts: the plan and what it resolved to.
pub fn document(
    p: &MdtestParams,
    header: &Header,
    shape: &Shape,
    status_items: Option<u64>,
    setup: &RankSetup,
) -> RunResult {
    let resolved = MdtestResolved {
        num_dirs: shape.num_dirs,
        items_per_dir: shape.items_per_dir,
        directory_loops: shape.loops,
        items_per_task: header.items_per_task,
        items_per_task_from_status_file: status_items,
        nstride: header.stride,
        data_seed: None,
        random_seed_task0: None,
    };
    let params = Parameters::Mdtest(MdtestParameters {
        plan: p.clone(),
        resolved,
    });
    let mut doc = RunResult::new(params, std::env::args().collect(), VERSION);
    doc.environment = results::capture(Some((&*engine::for_target(&p.engine), &fs_dir(p))));
    doc.ranks = setup.result_ranks();
    doc
}

fn run(
    cmd: &MdtestCommand,
    setup: &RankSetup,
    shape: Shape,
    status_items: Option<u64>,
    warnings: Vec<String>,
    args: &[String],
    global: &Global,
) -> u8 {
    let p = &cmd.params;
    let header = header(p, &shape, setup, quote_args(args));
    let mut doc = document(p, &header, &shape, status_items, setup);
    doc.warnings = warnings;
    let json: Vec<PathBuf> = cmd.launch.json.iter().cloned().collect();
    let fanout = crate::sinks::choose(sinks(p, header, Box::new(std::io::stdout())), json, global);
    let plan = mdtest::Plan {
        params: p,
        shape,
        status_items,
    };
    let ranks = setup.into_ranks();
    // SIGINT/SIGTERM from here: the ranks stop and remove their tree (docs/safety.md).
    exec::interrupt::install();
    let done = mdtest::run(
        plan,
        &ranks,
        &Session::new(doc, fanout, ranks.local()).with_checks(crate::checks::get()),
    );
    if let Some(msg) = &done.failure {
        eprintln!("iogauge: {msg}");
    }
    if done.errors > 0 {
        let checks = done.outcomes.iter().map(|o| o.verification.as_ref());
        crate::outputs::verification_failed(done.errors, checks, "file(s)");
    }
    if let Some(line) = done.interrupted_line() {
        eprintln!("{line}");
    }
    done.exit_code()
}
