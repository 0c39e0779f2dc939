//! The engine conformance suite: the contract every engine passes before anything else uses
//! it (docs/engines.md). [`run`] makes the engine of one registry row with its default
//! options and runs the contracts its capabilities select, each in a fresh directory under
//! the one it is given. It is public, so that an engine registered from another crate (the
//! binary's table) runs the same suite; `crates/engine/tests/conformance.rs` runs it for
//! every row of [`crate::ENGINES`].

mod check;
mod info;
mod io;
mod meta;
mod queue;

use std::path::Path;

use crate::{Caps, Engine, EngineConfig, EngineInfo};

pub use check::Outcome;

/// One contract: its name, which engines it applies to, and the test.
struct Contract {
    name: &'static str,
    applies: fn(&Caps) -> bool,
    test: fn(&dyn Engine, &Path) -> Outcome,
}

const fn contract(
    name: &'static str,
    applies: fn(&Caps) -> bool,
    test: fn(&dyn Engine, &Path) -> Outcome,
) -> Contract {
    Contract {
        name,
        applies,
        test,
    }
}

#[rustfmt::skip]
const CONTRACTS: &[Contract] = &[
    contract("positional writes and reads round-trip", |c| c.does_io && !c.queued, io::round_trip),
    contract("reads at the end of a file are short, then 0", |c| c.does_io && !c.queued, io::end_of_file),
    contract("open modes: truncate, keep, read-only", |c| c.does_io && !c.queued, io::open_modes),
    contract("sync", |c| c.does_io && !c.queued, io::sync),
    contract("file_size and remove", |c| c.does_io && !c.queued, io::size_and_remove),
    contract("errors carry errno names", |c| c.does_io && !c.queued, io::errno_names),
    contract("queued: the depth bounds the requests, each token returns once", |c| c.queued, queue::bound_and_tokens),
    contract("queued: writes and reads round-trip in any completion order", |c| c.queued && c.does_io, queue::round_trip),
    contract("metadata operations", |c| c.metadata && c.does_io, meta::operations),
    contract("no metadata operations: Unsupported", |c| !c.metadata, meta::unsupported),
    contract("no I/O: every call succeeds, nothing is made", |c| !c.does_io, meta::no_trace),
    contract("target_info of a directory and of a missing path", |_| true, info::target_info),
    contract("alloc_buffer honours the alignment", |_| true, info::buffers),
];

/// What a run of the suite found.
#[derive(Debug, Default)]
pub struct Findings {
    /// The contracts that ran, in order.
    pub ran: Vec<&'static str>,
    /// "contract: what went wrong", one per failed contract.
    pub failures: Vec<String>,
}

/// Runs the contracts `info`'s engine (default options, rank 0) selects by its
/// capabilities, each in a new directory under `dir`.
pub fn run(info: &EngineInfo, dir: &Path) -> Findings {
    run_with(info, &EngineConfig::new(info.name), dir)
}

/// As [`run`], with the options of `cfg` (the dummy engine's queued mode, for one).
pub fn run_with(info: &EngineInfo, cfg: &EngineConfig, dir: &Path) -> Findings {
    run_engine(&|| info.make(cfg, 0), dir)
}

/// As [`run`], for engines that `make` builds (a fresh one per contract).
pub fn run_engine(make: &dyn Fn() -> Box<dyn Engine>, dir: &Path) -> Findings {
    let mut findings = Findings::default();
    for (i, c) in CONTRACTS.iter().enumerate() {
        let engine = make();
        if !(c.applies)(&engine.caps()) {
            continue;
        }
        findings.ran.push(c.name);
        let own = dir.join(format!("contract-{i}"));
        let outcome = std::fs::create_dir(&own)
            .map_err(|e| format!("cannot make {}: {e}", own.display()))
            .and_then(|()| (c.test)(&*engine, &own));
        if let Err(why) = outcome {
            findings.failures.push(format!("{}: {why}", c.name));
        }
    }
    findings
}
