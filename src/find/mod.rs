//! `iogauge find`: parse, check the paths and the reference before walking, walk on the
//! ranks with work stealing (`find_pool`), then print pfind's result lines (last:
//! `MATCHED <found>/<examined>`) and write the result document.

pub mod cli;
pub mod pool;
pub mod result;

use std::io::Write;

use engine::{Engine, PosixEngine};
use exec::threads::{self, RankFailure};
use exec::CommError;
use workload::find::{self, FindError, FindOutcome, Lister};

use crate::world::RankSetup;
use cli::FindCommand;
use pool::{Listing, Walk};
use result::result_document;

/// Below this runtime the rate says more about start-up than about the file system.
const SHORT_RUN_S: f64 = 1.0;

/// Bad input: message and status 2, agreed with the other MPI ranks (`world::bad_input`).
fn usage(message: impl std::fmt::Display) -> u8 {
    crate::world::bad_input(format!("iogauge {message}"))
}

/// Problems found before any directory is read: exit status 2.
fn preflight(cmd: &FindCommand, engine: &dyn Engine) -> Result<(), String> {
    for p in &cmd.paths {
        match engine.stat(p) {
            Ok(st) if st.is_dir => {}
            Ok(_) => return Err(format!("find: {}: not a directory", p.display())),
            Err(e) => return Err(format!("find: {}: {e}", p.display())),
        }
    }
    if let Some(r) = &cmd.query.newer {
        engine
            .lstat(r)
            .map_err(|e| format!("find: -newer {}: {e}", r.display()))?;
    }
    crate::outputs::check_dirs_exist(&[("--json", cmd.json.as_deref())])
        .map_err(|e| format!("find: {e}"))
}

pub fn main(args: &[String], global: RankSetup) -> u8 {
    let cmd = match cli::parse(args) {
        Ok(c) => c,
        Err(e) => return usage(e),
    };
    if cmd.help {
        print!("{}", cli::HELP);
        return crate::world::exit_early(0);
    }
    let setup = RankSetup {
        tasks: cmd.tasks,
        ..RankSetup::default()
    }
    .or(global);
    if let Err(e) = setup.check() {
        return usage(format!("find: {e}"));
    }
    if let Err(e) = preflight(&cmd, &PosixEngine::new(false)) {
        return usage(e);
    }
    if let Err(code) = crate::world::proceed() {
        return code;
    }
    run(&cmd, &setup)
}

fn run(cmd: &FindCommand, setup: &RankSetup) -> u8 {
    let ranks = pool::run(setup, &Walk::of(cmd), |comm, pool| {
        let engine = PosixEngine::new(false);
        let listing = Listing::new();
        let list: Option<&dyn Lister> = if cmd.count_only { None } else { Some(&listing) };
        let outcome = find::run(&find::FindCtx {
            comm,
            engine: &engine,
            pool,
            query: &cmd.query,
            list,
        })?;
        listing.print_held(comm)?;
        Ok(outcome)
    });

    let failure = first_failure(&ranks);
    let outcome = ranks.into_iter().next().and_then(|r| r.ok()).flatten();
    let mut warnings = Vec::new();
    if let Some(o) = &outcome {
        warnings = outcome_warnings(o);
        for w in &warnings {
            eprintln!("iogauge find: warning: {w}");
        }
        let _ = print_result(cmd, o);
    }
    let code = match &failure {
        Some(msg) => {
            eprintln!("iogauge find: {msg}");
            warnings.push(msg.clone());
            1
        }
        None => 0,
    };
    if let Some(path) = cmd.json.as_ref().filter(|_| crate::world::is_root()) {
        let doc = result_document(cmd, setup, outcome.as_ref(), warnings, code);
        if let Err(e) = results::write_json(path, &doc) {
            eprintln!(
                "iogauge find: warning: cannot write {}: {e}",
                path.display()
            );
        }
    }
    code
}

fn outcome_warnings(o: &FindOutcome) -> Vec<String> {
    let t = &o.total;
    let mut w = Vec::new();
    if t.unreadable_dirs > 0 {
        w.push(format!(
            "{} director{} could not be read and {} not counted: {}{}",
            t.unreadable_dirs,
            if t.unreadable_dirs == 1 { "y" } else { "ies" },
            if t.unreadable_dirs == 1 {
                "its contents are"
            } else {
                "their contents are"
            },
            o.unreadable.join("; "),
            if (o.unreadable.len() as u64) < t.unreadable_dirs {
                "; ..."
            } else {
                ""
            }
        ));
    }
    if t.stat_errors > 0 {
        w.push(format!(
            "{} entr{} could not be stat'ed (vanished or no permission) and did not match",
            t.stat_errors,
            if t.stat_errors == 1 { "y" } else { "ies" }
        ));
    }
    let runtime = o.runtime_s();
    if runtime < SHORT_RUN_S {
        w.push(format!(
            "short run ({runtime:.3} s): thread start and timer costs weigh on the rate; walk a larger tree for a representative figure"
        ));
    }
    w
}

/// pfind's `[DONE]` line (and `-P`'s per-rank lines), iogauge's counts, rate, and the
/// `MATCHED` line last.
fn print_result(cmd: &FindCommand, o: &FindOutcome) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    let line = |label: &str, c: &find::Counts| {
        format!(
            "[{label}] found: {} (scanned {} files, scanned dirents: {}, unknown dirents: {})",
            c.found, c.examined, c.dirents, c.unknown
        )
    };
    if cmd.per_rank {
        for (r, rc) in o.ranks.iter().enumerate() {
            let c = &rc.counts;
            writeln!(
                out,
                "{} directories: {} lstat: {} stole: {} in {} tries runtime: {:.6} s",
                line(&r.to_string(), c),
                c.dirs,
                c.stats,
                c.stolen,
                c.steal_tries,
                rc.runtime_s()
            )?;
        }
    }
    let t = &o.total;
    writeln!(out, "{}", line("DONE", t))?;
    writeln!(
        out,
        "ranks: {}  directories: {}  lstat calls: {}  directories stolen: {}  errors: {}",
        o.ranks.len(),
        t.dirs,
        t.stats,
        t.stolen,
        t.unreadable_dirs + t.stat_errors
    )?;
    writeln!(
        out,
        "runtime: {:.6} s (slowest rank)  rate: {:.3} kIOPS (examined entries / runtime)",
        o.runtime_s(),
        o.rate() / 1000.0
    )?;
    writeln!(out, "MATCHED {}/{}", t.found, t.examined)?;
    out.flush()
}

/// The error that ended the run: the first rank that failed on its own.
fn first_failure(ranks: &[threads::RankOutcome<Option<FindOutcome>, FindError>]) -> Option<String> {
    let own = ranks.iter().enumerate().find_map(|(rank, r)| match r {
        Err(RankFailure::Error(FindError::Comm(CommError::PeerFailed { .. }))) | Ok(_) => None,
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
