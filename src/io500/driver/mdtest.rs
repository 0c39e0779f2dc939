//! An mdtest phase of the IO500: the IO500 argv through `iogauge mdtest`'s parser, the run on
//! the ranks, mdtest's text output to `<phase>.txt` and its per-rank CSV.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use exec::CommError;
use workload::io500::measured::{MdWall, Measured};
use workload::io500::phases::{How, MdStep, Phase};
use workload::mdtest::{self, validate::validate, Ctx, Event, MdError, Op, PhaseOutcome, Shape};

use super::{first_failure, Ran, INTERVAL_NS};
use crate::mdtest::cli::{self, MdtestCommand};
use crate::mdtest::output::{csv, quote_args, Header, MdtestPrinter};
use crate::mdtest::result::phase_result;
use crate::world::RankSetup;

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Parses and validates the argv (no I/O).
pub fn check(args: &[String], ranks: usize) -> Result<(MdtestCommand, Shape, Vec<String>), String> {
    let cmd = cli::parse(args).map_err(|e| e.to_string())?;
    let (shape, warnings) = validate(&cmd.params, ranks).map_err(|e| format!("mdtest: {e}"))?;
    engine::lookup(&cmd.params.engine.api).map_err(|e| format!("mdtest: {e}"))?;
    Ok((cmd, shape, warnings))
}

/// The checks against the file system (`iogauge mdtest`'s preflight).
pub fn preflight(args: &[String], ranks: usize) -> Result<mdtest::preflight::Preflight, String> {
    let (cmd, shape, _) = check(args, ranks)?;
    let info = engine::lookup(&cmd.params.engine.api).map_err(|e| format!("mdtest: {e}"))?;
    mdtest::preflight::preflight(&cmd.params, &shape, info.caps.does_io)
        .map_err(|e| format!("mdtest: {e}"))
}

/// The operation whose rate is the phase's score.
fn scored_op(phase: &Phase) -> Op {
    match phase.how {
        How::Mdtest(_, MdStep::Create) => Op::FileCreate,
        How::Mdtest(_, MdStep::Stat) => Op::FileStat,
        How::Mdtest(_, MdStep::Read) => Op::FileRead,
        _ => Op::FileRemove,
    }
}

struct Sink {
    printer: MdtestPrinter<Box<dyn Write + Send>>,
    outcomes: Vec<PhaseOutcome>,
}

pub fn run(phase: &Phase, args: &[String], setup: &RankSetup, txt: &Path) -> Result<Ran, String> {
    let tasks = setup.ranks();
    let (cmd, shape, mut warnings) = check(args, tasks)?;
    let p = &cmd.params;
    let info = engine::lookup(&p.engine.api).map_err(|e| format!("mdtest: {e}"))?;
    // Rank 0 checked the file system before announcing the phase; another rank that sees it
    // differently must still take part (what it read is replaced by rank 0's in the run).
    let pre = if crate::world::is_root() {
        preflight(args, tasks)?
    } else {
        preflight(args, tasks).unwrap_or_default()
    };
    warnings.extend(pre.warnings);
    let file = std::fs::File::create(txt).map_err(|e| format!("{}: {e}", txt.display()))?;
    let node_map = setup.node_map();
    let root = p.dirs[0].clone();
    let fs_dir = if root.is_dir() {
        root.clone()
    } else {
        root.parent()
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    };
    let stride = mdtest::naming::effective_stride(
        p.nstride,
        node_map.num_nodes(),
        node_map.tasks_on_node0(),
        node_map.is_block_mapped(),
    );
    let header = Header {
        version: VERSION.to_string(),
        quoted_args: format!("--tasks {tasks} {}", quote_args(args)),
        tasks,
        nodes: node_map.num_nodes(),
        nodemap: "1".repeat(tasks),
        path: root.display().to_string(),
        fs_line: crate::fs_line::fs_line(&fs_dir),
        stride,
        items_per_task: shape.items_per_rank().unwrap_or(0),
    };
    let out: Box<dyn Write + Send> = Box::new(std::io::BufWriter::new(file));
    let mut printer = MdtestPrinter::new(out, p, header);
    let _ = printer.start(&warnings);
    let rank0 = crate::world::is_root();
    if let Some(path) = p.rank_details_csv.as_ref().filter(|_| rank0) {
        csv::write_header(path).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    let sink = Mutex::new(Sink {
        printer,
        outcomes: Vec::new(),
    });
    let status_items = pre.status_items;
    let ranks = crate::world::run(setup, |comm| {
        let engine = info.make(&p.engine, comm.rank());
        let status_items = crate::world::rank0_value(comm, status_items)?;
        let ctx = Ctx::new(p, shape, comm, engine.as_ref(), INTERVAL_NS, status_items);
        let mut on = |ev: Event| {
            let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
            match ev {
                Event::Begin {
                    random_seed,
                    items_from_status,
                    ..
                } => drop(s.printer.begin(random_seed, items_from_status)),
                Event::Stonewall(w) => drop(s.printer.stonewall(w)),
                Event::Phase(o) => {
                    let _ = s.printer.phase(o);
                    s.outcomes.push(o.clone());
                }
                Event::Warning(w) => drop(s.printer.warning(&w)),
            }
        };
        mdtest::run(&ctx, &mut on)
    });
    let mut sink = sink.into_inner().unwrap_or_else(|e| e.into_inner());
    let errors = ranks
        .iter()
        .find_map(|r| r.as_ref().ok())
        .map_or(0, |t| t.errors);
    let _ = sink.printer.finish(&sink.outcomes, errors);
    if let Some(path) = p.rank_details_csv.as_ref().filter(|_| rank0) {
        let items = sink
            .outcomes
            .iter()
            .find_map(|o| o.stonewall.map(|s| s.items_max))
            .or(status_items)
            .unwrap_or(shape.items_per_rank().unwrap_or(0));
        let rows = csv::rows(&sink.outcomes, p.iterations, tasks, items);
        if let Err(e) = csv::append_rows(path, &rows) {
            eprintln!("iogauge: warning: cannot write {}: {e}", path.display());
        }
    }
    let peer = |e: &MdError| matches!(e, MdError::Comm(CommError::PeerFailed { .. }));
    if let Some(msg) = first_failure(&ranks, peer) {
        return Err(msg);
    }
    let op = scored_op(phase);
    let o = sink
        .outcomes
        .iter()
        .find(|o| o.op == op)
        .ok_or_else(|| format!("mdtest reported no {} phase", op.label()))?;
    Ok(Ran {
        measured: Measured::Mdtest {
            items: o.items(),
            time_s: o.time(),
            errors,
            wall: o.stonewall.map(|s| MdWall {
                time_s: s.time_s,
                items_sum: s.items_sum,
            }),
        },
        phase: phase_result(o, p.write_bytes),
        verification_errors: errors,
    })
}
