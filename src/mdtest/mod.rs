//! `iogauge mdtest`: parse mdtest's command line, check everything before any I/O, run the
//! ranks, and feed rank 0's results to the mdtest-format printer and the result document.

pub use cmdline::mdtest as cli;
pub mod output;

use std::io::Write;
use std::path::PathBuf;

use results::{MdtestParameters, MdtestResolved, Parameters, RunResult, Sink};
use workload::mdtest::{self, validate::validate, MdtestParams, Shape};
use workload::session::{Finished, Session};

use crate::command::{Checked, Context, Supports, Workload};
use crate::sweep::names::Knob;
use crate::world::RankSetup;
use cli::MdtestCommand;
use output::{csv, quote_args, Header, MdtestOutput, MdtestPrinter, MdtestRankCsv};

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

/// `iogauge mdtest`, as the command path runs it.
pub struct Mdtest;

/// What the checks of an mdtest command line resolved: the item layout and the items per
/// task a stonewall status file imposes.
pub struct Prepared {
    shape: Shape,
    status_items: Option<u64>,
}

crate::command::ior_style_invocation!(MdtestCommand);

impl Workload for Mdtest {
    const NAME: &'static str = "mdtest";
    const ABOUT: &'static str =
        "mdtest-compatible metadata benchmark (see `iogauge mdtest --help`)";
    const ARGS: &'static str = "mdtest options, e.g. -n 1000 -u -F -d /tmp/md";
    const EXAMPLES: &'static [(&'static str, &'static str)] = &[(
        "iogauge mdtest --tasks 4 -n 2000 -F -u -d /tmp/md",
        "mdtest-compatible metadata test",
    )];
    const SUPPORTS: Supports = Supports {
        drop_caches: true,
        root_target: true,
        dry_run: false,
    };
    type Command = MdtestCommand;
    type Prepared = Prepared;
    type Outcome = mdtest::PhaseOutcome;

    fn parse(args: &[String]) -> Result<MdtestCommand, String> {
        cli::parse(args).map_err(|e| e.0)
    }

    fn help() -> String {
        cli::help_text()
    }

    fn knob(name: &str) -> Result<Knob, String> {
        crate::sweep::names::in_table(&cli::options::TABLE, name)
    }

    fn check(cmd: &MdtestCommand, ctx: &Context) -> Result<Checked<Prepared>, String> {
        let p = &cmd.params;
        let (shape, mut warnings) = validate(p, ctx.setup.ranks())?;
        for dir in &p.dirs {
            workload::target::check_tree_root("-d", dir, ctx.allow_root_target, &*ctx.engine)?;
        }
        engine::lookup(&p.engine.api).map_err(|e| e.to_string())?;
        let pre = mdtest::preflight::preflight(p, &shape, &*ctx.engine)?;
        warnings.extend(pre.warnings);
        check_output_paths(cmd)?;
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
            csv::write_header(path)
                .map_err(|e| format!("--saveRankPerformanceDetails {}: {e}", path.display()))?;
        }
        Ok(Checked {
            prepared: Prepared {
                shape,
                status_items: pre.status_items,
            },
            warnings,
        })
    }

    fn document(cmd: &MdtestCommand, prepared: &Prepared, ctx: &Context) -> RunResult {
        let p = &cmd.params;
        let header = header(
            p,
            &prepared.shape,
            &ctx.setup,
            quote_args(ctx.args),
            &*ctx.engine,
        );
        document(
            p,
            &header,
            &prepared.shape,
            prepared.status_items,
            &ctx.setup,
            &*ctx.engine,
        )
    }

    fn sinks(
        cmd: &MdtestCommand,
        prepared: &Prepared,
        ctx: &Context,
        _doc: &RunResult,
    ) -> Result<Vec<Box<dyn Sink>>, String> {
        let p = &cmd.params;
        let header = header(
            p,
            &prepared.shape,
            &ctx.setup,
            quote_args(ctx.args),
            &*ctx.engine,
        );
        Ok(sinks(p, header, Box::new(std::io::stdout())))
    }

    fn run(
        cmd: &MdtestCommand,
        prepared: &Prepared,
        ranks: &exec::Ranks,
        session: &Session,
    ) -> Finished<mdtest::PhaseOutcome> {
        let run = mdtest::Prepared {
            params: &cmd.params,
            shape: prepared.shape,
            status_items: prepared.status_items,
        };
        mdtest::run(run, ranks, session)
    }

    fn after(done: &Finished<mdtest::PhaseOutcome>) {
        if done.errors > 0 {
            let checks = done.outcomes.iter().map(|o| o.verification.as_ref());
            crate::outputs::verification_failed(done.errors, checks, "file(s)");
        }
    }
}

/// The directory whose file system the header and the environment describe: the first -d.
fn fs_dir(p: &MdtestParams) -> PathBuf {
    crate::outputs::existing_dir_or_parent(&p.dirs[0])
}

/// mdtest's header lines; `quoted_args` is the command line as mdtest prints it.
pub fn header(
    p: &MdtestParams,
    shape: &Shape,
    setup: &RankSetup,
    quoted_args: String,
    engine: &dyn engine::Engine,
) -> Header {
    let node_map = setup.node_map();
    Header {
        version: crate::VERSION.to_string(),
        quoted_args,
        tasks: setup.ranks(),
        nodes: node_map.num_nodes(),
        nodemap: setup.nodemap(),
        path: p.dirs[0].display().to_string(),
        fs_line: crate::fs_line::fs_line(engine, &fs_dir(p)),
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
    let mut own: Vec<Box<dyn Sink>> = vec![Box::new(MdtestOutput::new(MdtestPrinter::new(
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
    engine: &dyn engine::Engine,
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
    let mut doc = RunResult::new(params, std::env::args().collect(), crate::VERSION);
    doc.environment = results::capture(Some((engine, &fs_dir(p))));
    doc.ranks = setup.result_ranks();
    doc
}
