//! The sequence of a start-up run: rank 0 generates what the plan asks for (outside any timed
//! window) and lists what every rank reads; then per iteration the tree read and the common
//! file read; then rank 0 removes exactly what it made, also after a failure or a signal
//! (the ranks agree after the preparation and after each phase, `crate::stop`).

use engine::Target;
use std::collections::HashMap;

use engine::Engine;
use exec::{Comm, CommError, Ranks};
use plan::startup::StartupParams;
use results::startup::{summaries, PhaseOutcome};
use results::{Operation, Parameters};

use super::error::StartupError;
use super::manifest::Manifest;
use super::phase::{read_phase, Ctx, Reads};
use super::prepare::{self, Made};
use super::shape::generate;
use crate::cache::first_on_node;
use crate::session::{Collected, Finished, Session};
use crate::skeleton::{self, Engines, RankError, Stopped};

/// Runs `p` on `ranks`, reporting through `session` from start to end.
pub fn run(p: &StartupParams, ranks: &Ranks, session: &Session) -> Finished<PhaseOutcome> {
    let phases = Collected::new();
    let ended = skeleton::run(session, ranks, Engines::Posix, |r| {
        let mut made = Made::default();
        let engine = r.engine;
        let result = run_rank(p, r.comm, engine, session, &phases, r.slot, &mut made);
        if r.comm.rank() == 0 {
            finish_files(p, engine, session, &made);
        }
        result.map(Stopped)
    });
    let phases = phases.into_inner();
    let summary = summaries(&phases);
    ended.finish(session, phases, summary)
}

impl RankError for StartupError {
    fn is_peer(&self) -> bool {
        matches!(self, StartupError::Comm(CommError::PeerFailed { .. }))
    }
}

fn run_rank(
    p: &StartupParams,
    comm: &dyn Comm,
    engine: &dyn Engine,
    session: &Session,
    phases: &Collected<PhaseOutcome>,
    slot: usize,
    made: &mut Made,
) -> Result<Option<i32>, StartupError> {
    let root = comm.rank() == 0;
    // Rank 0 prepares and lists; a failure there reaches the others through the broadcast.
    let listed = if root {
        prepare_and_list(p, engine, session, made)
    } else {
        Ok((Manifest::default(), 0))
    };
    let (manifest, common_bytes) = share(comm, listed)?;
    // A signal during the preparation: no phase runs; rank 0 removes what it made.
    if let Some(sig) = crate::stop::agreed(comm)? {
        exec::interrupt::resume();
        return Ok(Some(sig));
    }
    let reads = Reads {
        tree: (!manifest.files.is_empty()).then_some(&manifest),
        common: p.common_path().map(|path| (path, common_bytes)),
    };
    let ctx = Ctx {
        p,
        comm,
        engine,
        session,
        phases,
        slot,
        index: reader_index(comm, p.ranks_per_node),
        drops: first_on_node(comm),
    };
    let mut stopped = None;
    'run: for iteration in 0..p.iterations {
        for (op, planned) in [
            (Operation::TreeRead, reads.tree.is_some()),
            (Operation::CommonRead, reads.common.is_some()),
        ] {
            if planned {
                stopped = read_phase(&ctx, op, iteration, &reads)?;
                if stopped.is_some() {
                    break 'run;
                }
            }
        }
    }
    // Nobody reads any more when rank 0 removes the files.
    comm.barrier()?;
    Ok(stopped)
}

/// Rank 0: makes what the plan generates, lists the tree, sizes the common file; the
/// document learns what was found.
fn prepare_and_list(
    p: &StartupParams,
    engine: &dyn Engine,
    session: &Session,
    made: &mut Made,
) -> Result<(Manifest, u64), String> {
    let layout = p.generates_tree().then(|| generate(p.files, p.seed));
    prepare::make(engine, p, layout.as_ref(), made).map_err(|e| e.to_string())?;
    let manifest = match (p.tree_root(), &layout) {
        (Some(root), Some(l)) => Manifest::generated(&root, l),
        (Some(root), None) => Manifest::walk(&root)?,
        (None, _) => Manifest::default(),
    };
    let common_bytes = match p.common_path() {
        Some(path) => {
            engine
                .stat(Target::from(&path))
                .map_err(|e| format!("stat {}: {e}", path.display()))?
                .size
        }
        None => 0,
    };
    let mut hub = session.hub();
    if let Parameters::Startup(s) = &mut hub.doc_mut().parameters {
        let r = &mut s.resolved;
        r.tree_root = p.tree_root();
        r.tree_files = manifest.files.len() as u64;
        r.tree_dirs = manifest.dirs;
        r.tree_bytes = manifest.bytes();
        r.tree_skipped = manifest.skipped;
        r.common_path = p.common_path();
        r.common_bytes = common_bytes;
        r.run_dir = p.run_dir();
    }
    Ok((manifest, common_bytes))
}

/// Rank 0's list (or its error) to every rank: `[ok, common bytes, manifest]`.
fn share(
    comm: &dyn Comm,
    listed: Result<(Manifest, u64), String>,
) -> Result<(Manifest, u64), StartupError> {
    let mine = match &listed {
        Ok((m, c)) => [vec![1], c.to_le_bytes().to_vec(), m.encode()].concat(),
        Err(e) => [vec![0], e.as_bytes().to_vec()].concat(),
    };
    let got = comm.broadcast_bytes(&mine, 0)?;
    match got.split_first() {
        Some((1, rest)) if rest.len() >= 8 => {
            let common = u64::from_le_bytes(rest[..8].try_into().unwrap_or_default());
            let m = Manifest::decode(&rest[8..]).map_err(StartupError::Wire)?;
            Ok((m, common))
        }
        Some((0, why)) if comm.rank() == 0 => {
            Err(StartupError::Prepare(String::from_utf8_lossy(why).into()))
        }
        Some((0, _)) => Err(StartupError::Comm(CommError::PeerFailed {
            rank: 0,
            message: "preparing the files failed".into(),
        })),
        _ => Err(StartupError::Wire("empty list from rank 0".into())),
    }
}

/// This rank's place among the readers of its node (`None`: it waits, beyond
/// `--ranks-per-node`), counted over the job so staggering runs across all nodes.
fn reader_index(comm: &dyn Comm, per_node: Option<u64>) -> Option<u64> {
    let map = comm.node_map();
    // Ranks seen so far on each node, and readers before this rank: one pass.
    let mut on_node: HashMap<usize, u64> = HashMap::new();
    let mut readers = 0;
    for r in 0..=comm.rank() {
        let seen = on_node.entry(map.node_of(r)).or_default();
        let reads = per_node.is_none_or(|n| *seen < n);
        *seen += 1;
        if r == comm.rank() {
            return reads.then_some(readers);
        }
        readers += u64::from(reads);
    }
    None
}

/// Rank 0, at the end: removes what the run made (or says where it was kept).
fn finish_files(p: &StartupParams, engine: &dyn Engine, session: &Session, made: &Made) {
    if made.dirs.is_empty() && made.files.is_empty() {
        return;
    }
    if p.keep {
        // Asked for: the terminal report names the directory.
        return;
    }
    for w in prepare::remove(engine, made) {
        session.hub().warning(&w);
    }
}
