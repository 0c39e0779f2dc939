//! `iogauge io500`: the IO500 suite. Loads the `.ini` (or the `--quick` preset), answers
//! `--list`, `--verify` and `--config-hash`, or runs the phases through
//! `workload::io500::run` with the thread-rank driver, and reports where the results are.

pub mod cli;
mod creatable;
pub mod driver;
pub mod quick;
mod result_dir;

use std::path::{Path, PathBuf};

use measure::{local_now, IO500_TIMESTAMP_FORMAT};
use plan::io500::Io500Params;
use results::{Alert, AlertId, RunResult, Sink};

use workload::io500::config::{template, template_mandatory, Config};
use workload::io500::format::pair;
use workload::io500::hash;
use workload::io500::layout::Layout;
use workload::io500::run::{self, Outcome, Settings};
use workload::io500::seeds::check_timestamp;
use workload::session::{DropCaches, Session};

use crate::command::{Supports, WorkloadInfo};

use crate::world::{usage, Global, RankSetup};
use cli::{Io500Command, HELP};
use driver::{environment_of, follow, Io500Driver};
use result_dir::ResultDir;

/// result.txt's `version`: which implementation and release wrote it.
fn version() -> String {
    format!("iogauge-{}", crate::VERSION)
}

fn load(path: &Path) -> Result<Config, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("io500: cannot read {}: {e}", path.display()))?;
    Config::parse(&text).map_err(|e| format!("io500: {}", e.in_file(&path.display().to_string())))
}

/// The IO500's row in the workload table. A suite of its own (rank 0 leads, the other MPI
/// ranks follow its orders; every phase is a workload run through its own `run`), so its
/// `main` is below; it takes the command path's session and sinks, and passes the global
/// options to its phases.
pub const ROW: WorkloadInfo = WorkloadInfo {
    name: "io500",
    about: "The IO500 suite: an IO500 .ini unchanged, or --quick (see `iogauge io500 --help`)",
    args: "[CONFIG.ini] [--quick] [--dry-run] [--list] [--verify RESULT.txt] [--tasks N] ...",
    examples: &[
        (
            "iogauge io500 --quick",
            "the IO500 suite, briefly (not a valid submission)",
        ),
        (
            "iogauge io500 config.ini --tasks 8",
            "an IO500 .ini, unchanged (iogauge io500 --help)",
        ),
    ],
    main,
    supports: Supports {
        drop_caches: true,
        root_target: true,
        dry_run: true,
    },
    knob,
};

fn knob(name: &str) -> Result<crate::sweep::names::Knob, String> {
    crate::sweep::names::ranks_knob("io500", name)
}

/// Under MPI rank 0 runs the suite and the other ranks follow its orders (`follow`).
pub fn main(args: &[String], global: &Global) -> u8 {
    if !crate::world::is_root() {
        return follow::follow();
    }
    let code = lead(args, global);
    follow::announce(&follow::Order::Done { code });
    code
}

fn lead(args: &[String], global: &Global) -> u8 {
    let cmd = match cli::parse(args) {
        Ok(c) => c,
        Err(e) => return usage("io500", e),
    };
    if let Err(e) = ROW.supports.check(ROW.name, global) {
        return usage("io500", format!("io500: {e}"));
    }
    if cmd.help {
        crate::out!("{HELP}");
        return 0;
    }
    if let Some(result) = &cmd.verify {
        return verify(&cmd, result);
    }
    // Thread ranks default to one per CPU, MPI ranks to the whole job.
    let ranks = cmd.tasks.or(global.setup.tasks).unwrap_or_else(|| {
        if crate::world::is_mpi() {
            RankSetup::default().ranks()
        } else {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        }
    });
    let mut quick_run = None;
    let mut config = match (&cmd.config, cmd.quick) {
        (Some(path), _) => match load(path) {
            Ok(c) => c,
            Err(e) => return usage("io500", e),
        },
        (None, true) => {
            let dir = cmd.dir.clone().unwrap_or_else(quick::default_data_dir);
            let q = quick::Quick::measure(ranks, &dir);
            if !cmd.dry_run && !cmd.list && !cmd.list_mandatory && !cmd.config_hash {
                if let Err(e) = q.check_space() {
                    return usage("io500", e);
                }
            }
            let c = q.config();
            quick_run = Some(q);
            c
        }
        (None, false) => Config::defaults(),
    };
    if let (Some(dir), false) = (&cmd.dir, cmd.quick) {
        if let Err(e) = config.set("global", "datadir", &dir.display().to_string()) {
            return usage("io500", format!("io500: --dir: {e}"));
        }
    }
    if cmd.list || cmd.list_mandatory {
        let t = if cmd.list {
            template(&config)
        } else {
            template_mandatory(&config)
        };
        crate::out!("{t}");
        return 0;
    }
    if cmd.config_hash {
        crate::out!("{}", pair("config-hash", format!("{:X}", config.hash())));
        return 0;
    }
    if cmd.config.is_none() && !cmd.quick {
        return usage(
            "io500",
            "io500: no config file given: run `iogauge io500 --quick` for a short run, or write \
             a config with `iogauge io500 --list > my.ini` and run `iogauge io500 my.ini`",
        );
    }
    if let Err(e) = crate::outputs::check_dirs_exist(&[("--json", cmd.json.as_deref())]) {
        return usage("io500", format!("io500: {e}"));
    }
    let timestamp = cmd
        .timestamp
        .clone()
        .unwrap_or_else(|| local_now(IO500_TIMESTAMP_FORMAT));
    if let Err(e) = check_timestamp(&timestamp) {
        return usage("io500", format!("io500: {e}"));
    }
    let original_ini = match &cmd.config {
        Some(_) => config.raw_text().to_string(),
        None => {
            "# iogauge io500 --quick: no config file; config.ini holds the settings used\n".into()
        }
    };
    let settings = Settings {
        verbosity: cmd
            .verbosity
            .unwrap_or_else(|| config.u64("global", "verbosity").unwrap_or(1) as u32),
        config,
        mode: cmd.mode,
        ranks,
        timestamp,
        dry_run: cmd.dry_run,
        cleanup_only: cmd.cleanup,
        version: version(),
        original_ini,
    };
    execute(&cmd, settings, global, quick_run.as_ref())
}

fn execute(
    cmd: &Io500Command,
    s: Settings,
    global: &Global,
    quick_run: Option<&quick::Quick>,
) -> u8 {
    let layout = Layout::resolve(&s.config, &s.timestamp);
    // The directory the phases fill and empty (datadir, or its timestamped subdirectory).
    let data = Path::new(&layout.data);
    let allow = global.allow_root_target;
    let posix = engine::PosixEngine::new(false);
    if let Err(e) = workload::target::check_tree_root("datadir", data, allow, &posix) {
        return usage("io500", format!("io500: {e}"));
    }
    // `--fake-nodes K` (global) lets -C -Q shift reads to another pretend node.
    let setup = RankSetup {
        tasks: Some(s.ranks),
        fake_nodes: global.setup.fake_nodes,
        round_robin: false,
    };
    if let Err(e) = setup.check() {
        return usage("io500", format!("io500: {e}"));
    }
    let params = results::Parameters::Io500(parameters(&s, &layout, cmd.quick));
    let mut doc = RunResult::new(params, std::env::args().collect(), crate::VERSION);
    doc.environment = environment_of(&layout.data);
    doc.ranks = setup.result_ranks();
    doc.io500 = Some(Default::default());
    let mut driver = Io500Driver::new(setup);
    let prepared = match run::check(&s, &mut driver) {
        Ok(p) => p,
        Err(e) => return usage("io500", e),
    };
    // The result store is the last check: a run that writes nothing is not stored.
    if !s.dry_run && !s.cleanup_only {
        for (what, dir) in [("datadir", &layout.data), ("resultdir", &layout.result)] {
            if let Err(e) = creatable::check(what, Path::new(dir)) {
                return usage("io500", format!("io500: {e}"));
            }
        }
        // The other ranks learn the endpoint with each phase's order (`follow`), so only
        // this process prepares the outputs (the command path's `world::proceed` is
        // collective).
        if let Err(e) = crate::world::prepare_outputs(global) {
            return usage("io500", e);
        }
    }
    let mut json = Vec::new();
    if !s.dry_run && !s.cleanup_only {
        json.push(layout.result_path("result.json"));
        json.extend(cmd.json.clone());
    }
    let quick_console = quick_run.filter(|_| !s.dry_run).map(|q| {
        crate::out!("{}", q.header(&layout.data));
        doc.warnings.push(q.warning());
        q.console()
    });
    if let Some(a) = same_node(&s, &doc) {
        doc.alerts.push(a);
    }
    if s.dry_run {
        crate::outln!(
            "iogauge io500 --dry-run: nothing runs and nothing is written. Each phase shows the `exe` \
             line of result.txt and, as a `; iogauge ...` comment, the equivalent iogauge command; \
             every phase scores 0 and the run is INVALID, as in the IO500.\n"
        );
    }
    let writes = !s.dry_run && !s.cleanup_only;
    let result_dir = PathBuf::from(&layout.result);
    let dir = ResultDir::new(
        writes.then_some(result_dir.as_path()),
        s.dry_run,
        quick_console,
    );
    let own: Vec<Box<dyn Sink>> = vec![Box::new(dir)];
    let local = setup.into_ranks().local();
    let sinks = crate::command::fanout(own, json.clone(), global);
    let session = crate::command::new_session(doc, sinks, local);
    // SIGINT/SIGTERM from here: the phase running stops, the data is removed (docs/safety.md).
    exec::interrupt::install();
    // Marks (`iogauge mark`) go to the suite's document.
    let ran = crate::control::during(&session, || run::run(&s, &prepared, &mut driver, &session));
    let outcome = match ran {
        Ok(o) => o,
        Err(e) => return usage("io500", e),
    };
    finish(cmd, &s, &session, &outcome, &json)
}

/// `read-same-node` when every rank runs on this machine and nothing drops the page cache
/// between phases: the reads, reordered with -C to another node's data, find it cached here.
fn same_node(s: &Settings, doc: &RunResult) -> Option<Alert> {
    let checks = crate::policy::get();
    let one_machine = !crate::world::is_mpi() || doc.ranks.nodes == 1;
    let drops = s.config.bool("global", "drop-caches") || checks.drop_caches != DropCaches::Off;
    if s.dry_run || drops || !one_machine || !checks.thresholds.is_on(AlertId::ReadSameNode) {
        return None;
    }
    let note = "all ranks run on this machine: the read phases may be served from the page \
                cache (the IO500 reads another node's data with -C; set [global] drop-caches = \
                TRUE, give --drop-caches, or use API = POSIX --posix.odirect for the IOR phases)";
    Some(Alert::new(AlertId::ReadSameNode, note.to_string()).with("nodes", doc.ranks.nodes))
}

/// The resolved configuration and run facts, as the document's `parameters`.
fn parameters(s: &Settings, layout: &Layout, quick: bool) -> Io500Params {
    Io500Params {
        version: s.version.clone(),
        mode: s.mode.label().to_string(),
        timestamp: s.timestamp.clone(),
        ranks: s.ranks as u64,
        data_dir: layout.data.clone(),
        result_dir: layout.result.clone(),
        quick,
        dry_run: s.dry_run,
        config_hash: format!("{:X}", s.config.hash()),
        config: s.config.resolved_sections(),
    }
}

fn finish(
    cmd: &Io500Command,
    s: &Settings,
    session: &Session,
    o: &Outcome,
    json: &[PathBuf],
) -> u8 {
    for w in &o.cleanup_warnings {
        eprintln!("iogauge io500: warning: {w}");
    }
    for (phase, e) in o.failures() {
        eprintln!("iogauge io500: {phase} failed: {e}");
    }
    if let Some(sig) = o.interrupted {
        eprintln!(
            "iogauge io500: interrupted by {}: the phases that finished are kept, the cut one is \
             marked interrupted, the data was removed, and the run is stored as invalid",
            exec::interrupt::signal_name(sig)
        );
    }
    let doc = session.hub().doc().clone();
    let errors = doc.verification_errors;
    if errors > 0 {
        eprintln!("iogauge io500: data verification failed: {errors} error(s)");
    }
    let code = doc.exit_code as u8;
    if s.dry_run {
        return code;
    }
    crate::outln!();
    if s.cleanup_only {
        crate::outln!(
            "Cleaned up the data of run {} in {}",
            s.timestamp,
            o.data_dir
        );
        return code;
    }
    // A quick run's header said it is not valid; its result.json is in the result directory.
    let json = if cmd.quick { cmd.json.as_slice() } else { json };
    for j in json {
        crate::outln!("The result document (JSON): {}", j.display());
    }
    crate::outln!(
        "The result files are stored in the directory: {}",
        o.result_dir
    );
    code
}

/// `--verify RESULT.txt`: the config hash of the given config (or of the `config.ini` beside
/// the result file) and the score hash recomputed from result.txt's `%f` strings.
fn verify(cmd: &Io500Command, result: &Path) -> u8 {
    let config_path = cmd.config.clone().unwrap_or_else(|| {
        let dir = result
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let p: PathBuf = dir.join("config.ini");
        eprintln!(
            "iogauge io500: no config given: verifying against {}",
            p.display()
        );
        p
    });
    let config = match load(&config_path) {
        Ok(c) => c,
        Err(e) => return usage("io500", e),
    };
    let text = match std::fs::read_to_string(result) {
        Ok(t) => t,
        Err(e) => {
            return usage(
                "io500",
                format!("io500: --verify {}: {e}", result.display()),
            )
        }
    };
    match hash::verify(config.hash(), &text, &version()) {
        Ok(v) => {
            crate::out!("{}", v.report);
            v.code
        }
        Err(e) => {
            crate::outln!("{e}");
            1
        }
    }
}
