//! `iogauge mdtest`: parse mdtest's command line, check everything before any I/O, run the
//! ranks, and feed rank 0's results to the mdtest-format printer and the result document.

pub mod cli;
pub mod output;
pub mod result;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use exec::threads::{self, RankFailure};
use exec::CommError;
use results::RunResult;
use workload::mdtest::{self, validate::validate, Ctx, Event, MdError, PhaseOutcome, Shape};

use crate::world::RankSetup;
use cli::MdtestCommand;
use output::{csv, quote_args, Header, MdtestPrinter};
use result::{phase_result, summaries};

const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Width of the per-interval series buckets.
const INTERVAL_NS: u64 = 1_000_000_000;

/// Bad input: message and status 2, agreed with the other MPI ranks (`world::bad_input`).
fn usage(message: impl std::fmt::Display) -> u8 {
    crate::world::bad_input(format!("iogauge {message}"))
}

/// Everything rank 0 updates as events arrive.
struct Sink {
    printer: MdtestPrinter<Box<dyn Write + Send>>,
    doc: RunResult,
    outcomes: Vec<PhaseOutcome>,
    json: Option<PathBuf>,
    write_bytes: u64,
    /// Items per task the later phases use (changed by a stonewall or a status file).
    items: u64,
}

impl Sink {
    fn handle(&mut self, ev: Event) {
        // Output errors (a closed pipe) must not stop the benchmark; the JSON keeps the data.
        match ev {
            Event::Begin {
                data_seed,
                random_seed,
                items_from_status,
            } => {
                let _ = self.printer.begin(random_seed, items_from_status);
                // The seeds a later -X run (-G) or a rerun (--random-seed) needs.
                if let results::Parameters::Mdtest(m) = &mut self.doc.parameters {
                    m.resolved.data_seed = Some(data_seed);
                    m.resolved.random_seed_task0 = random_seed;
                }
                if let Some(n) = items_from_status {
                    self.items = n;
                }
            }
            Event::Stonewall(s) => {
                let _ = self.printer.stonewall(s);
            }
            Event::Phase(o) => {
                let _ = self.printer.phase(o);
                if let Some(s) = o.stonewall {
                    self.items = s.items_max;
                }
                self.doc.verification_errors += o.verification.as_ref().map_or(0, |v| v.errors);
                self.doc.phases.push(phase_result(o, self.write_bytes));
                self.outcomes.push(o.clone());
                self.save();
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
fn check_output_paths(cmd: &MdtestCommand) -> Result<(), String> {
    let p = &cmd.params;
    let status = p
        .status_file
        .as_deref()
        .filter(|_| p.phases.create && p.stonewall_s > 0);
    let outputs = [
        ("--json", cmd.json.as_deref()),
        (
            "--saveRankPerformanceDetails",
            p.rank_details_csv.as_deref(),
        ),
        ("-x", status),
    ];
    crate::outputs::check_dirs_exist(&outputs)
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
        return usage(format!("mdtest: {e}"));
    }
    let tasks = setup.ranks();
    let p = &cmd.params;
    let (shape, mut warnings) = match validate(p, tasks) {
        Ok(v) => v,
        Err(e) => return usage(format!("mdtest: {e}")),
    };
    let info = match engine::lookup(&p.engine.api) {
        Ok(i) => i,
        Err(e) => return usage(format!("mdtest: {e}")),
    };
    let pre = match mdtest::preflight::preflight(p, &shape, info.caps.does_io) {
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
    if let Err(code) = crate::world::proceed() {
        return code;
    }
    run(&cmd, &setup, info, shape, pre.status_items, warnings, args)
}

fn run(
    cmd: &MdtestCommand,
    setup: &RankSetup,
    info: &'static engine::EngineInfo,
    shape: Shape,
    status_items: Option<u64>,
    warnings: Vec<String>,
    args: &[String],
) -> u8 {
    let p = &cmd.params;
    let tasks = setup.ranks();
    let node_map = setup.node_map();
    let items_per_task = shape.items_per_rank().unwrap_or(0);

    let root = p.dirs[0].clone();
    let fs_dir = if root.is_dir() {
        root.clone()
    } else {
        root.parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    };
    let stride = workload::mdtest::naming::effective_stride(
        p.nstride,
        node_map.num_nodes(),
        node_map.tasks_on_node0(),
        node_map.is_block_mapped(),
    );
    let resolved = results::MdtestResolved {
        num_dirs: shape.num_dirs,
        items_per_dir: shape.items_per_dir,
        directory_loops: shape.loops,
        items_per_task,
        items_per_task_from_status_file: status_items,
        nstride: stride,
        data_seed: None,
        random_seed_task0: None,
    };
    let params = results::Parameters::Mdtest(results::MdtestParameters {
        plan: p.clone(),
        resolved,
    });
    let mut doc = RunResult::new(params, std::env::args().collect(), VERSION);
    doc.environment = results::capture(Some(&fs_dir));
    doc.ranks = setup.result_ranks();

    let nodemap = (0..tasks)
        .map(|r| {
            if node_map.node_of(r) == node_map.node_of(0) {
                '1'
            } else {
                '0'
            }
        })
        .collect();
    let header = Header {
        version: VERSION.to_string(),
        quoted_args: quote_args(args),
        tasks,
        nodes: node_map.num_nodes(),
        nodemap,
        path: root.display().to_string(),
        fs_line: crate::fs_line::fs_line(&fs_dir),
        stride,
        items_per_task,
    };
    let out: Box<dyn Write + Send> = Box::new(std::io::stdout());
    let mut printer = MdtestPrinter::new(out, p, header);
    let _ = printer.start(&warnings);
    doc.warnings.extend(warnings);
    let sink = Mutex::new(Sink {
        printer,
        doc,
        outcomes: Vec::new(),
        json: cmd.json.clone().filter(|_| crate::world::is_root()),
        write_bytes: p.write_bytes,
        items: items_per_task,
    });
    sink.lock().unwrap_or_else(|e| e.into_inner()).save();

    let ranks = crate::world::run(setup, |comm| {
        let engine = info.make(&p.engine, comm.rank());
        let status_items = crate::world::rank0_value(comm, status_items)?;
        let ctx = Ctx::new(p, shape, comm, engine.as_ref(), INTERVAL_NS, status_items);
        let mut on = |ev: Event| sink.lock().unwrap_or_else(|e| e.into_inner()).handle(ev);
        mdtest::run(&ctx, &mut on)
    });

    let mut sink = sink.into_inner().unwrap_or_else(|e| e.into_inner());
    let failure = first_failure(&ranks);
    let errors = ranks
        .iter()
        .find_map(|r| r.as_ref().ok())
        .map_or(sink.doc.verification_errors, |t| t.errors);
    let _ = sink.printer.finish(&sink.outcomes, errors);
    if let Some(path) = p
        .rank_details_csv
        .as_ref()
        .filter(|_| crate::world::is_root())
    {
        let rows = csv::rows(&sink.outcomes, p.iterations, tasks, sink.items);
        if let Err(e) = csv::append_rows(path, &rows) {
            eprintln!("iogauge: warning: cannot write {}: {e}", path.display());
        }
    }
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
        let first = sink
            .outcomes
            .iter()
            .filter_map(|o| o.verification.as_ref()?.first_error.clone())
            .next();
        let at = first.map_or(String::new(), |e| {
            format!(
                "; first: {} at byte {} (read by rank {})",
                e.file, e.offset, e.rank
            )
        });
        eprintln!(
            "iogauge: data verification failed: {errors} file(s) did not read back as written{at}"
        );
    }
    sink.doc.summary = summaries(&sink.outcomes);
    sink.doc.finish(code as i32);
    sink.save();
    code
}

/// The error that ended the run: the first rank that failed on its own (the others only
/// report that a peer failed).
fn first_failure(ranks: &[threads::RankOutcome<mdtest::RunTotals, MdError>]) -> Option<String> {
    let own = ranks.iter().enumerate().find_map(|(rank, r)| match r {
        Err(RankFailure::Error(MdError::Comm(CommError::PeerFailed { .. }))) | Ok(_) => None,
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
