//! The command lines of the workloads whose options follow IOR's rules (`option.c`, which
//! IOR, mdtest and md-workbench share; iogauge's mix takes the same rules): the tokenizer and
//! tables (`optparse`) and each tool's parser into its plan (`ior`, `mdtest`, `md-workbench`,
//! `mix`). A crate of its own so that the fuzz targets (`fuzz/`) link the parsers and nothing
//! of the binary's store, reports or servers.

pub mod dlio;
pub mod ior;
pub mod mdtest;
pub mod mdworkbench;
pub mod mix;
pub mod optparse;

use std::path::PathBuf;

/// What every workload's command line carries besides the workload's plan: iogauge's own
/// options and `--help`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Launch {
    /// `--tasks N` (IOR's `-N`); `None` when not given (`-N -1`, IOR's "all ranks", too).
    pub tasks: Option<usize>,
    /// `--fake-nodes K`: pretend the tasks run on K nodes (like `IOR_FAKE_NODES`).
    pub fake_nodes: Option<usize>,
    /// `--fake-placement round-robin` (default `block`).
    pub round_robin: bool,
    /// `--json PATH`: iogauge's full result document.
    pub json: Option<PathBuf>,
    /// `-h` / `--help`.
    pub help: bool,
}

/// Thread ranks one process starts at most: each is an OS thread with its own stack and
/// buffers, and far more of them than cores measure the scheduler, not the storage (a typo
/// such as `-N 100000` would otherwise start 100000 threads).
pub const MAX_THREAD_RANKS: usize = 4096;

/// The checks of `--tasks`/`-N` and `--fake-nodes` before any I/O: `mpi_size` is the MPI
/// job's size when the ranks are MPI processes (`None`: thread ranks). Err is the message.
pub fn check_ranks(
    tasks: Option<usize>,
    fake_nodes: Option<usize>,
    mpi_size: Option<usize>,
) -> Result<(), String> {
    if let (Some(t), Some(size)) = (tasks, mpi_size) {
        if t > size {
            return Err(format!(
                "--tasks/-N {t} is more than the {size} MPI ranks of this job"
            ));
        }
    }
    let ranks = tasks.or(mpi_size).unwrap_or(1);
    match (tasks, fake_nodes) {
        (Some(0), _) => Err("--tasks/-N must be at least 1".to_string()),
        (Some(t), _) if mpi_size.is_none() && t > MAX_THREAD_RANKS => Err(format!(
            "--tasks/-N {t}: more thread ranks than one process runs sensibly (at most \
             {MAX_THREAD_RANKS}); for more ranks run an MPI build under mpirun or srun (docs/mpi.md)"
        )),
        (_, Some(0)) => Err("--fake-nodes must be at least 1".to_string()),
        (_, Some(k)) if k > ranks => Err(format!("--fake-nodes {k} is more than the {ranks} task(s)")),
        _ => Ok(()),
    }
}
