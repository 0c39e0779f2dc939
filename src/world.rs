//! How many ranks, on how many nodes, and whether they are threads or MPI processes.
//!
//! Thread ranks are the default. In a build with the `mpi` feature, `main` starts MPI when a
//! launcher started the process (or with `--mpi`) and records the world here; from then on
//! [`RankSetup::into_ranks`] gives the workloads MPI ranks instead, [`is_root`] tells the
//! process that prints and writes results, and [`RankSetup`] takes its rank count and node map
//! from MPI.

use exec::{NodeMap, Placement};

#[cfg(feature = "mpi")]
static MPI_WORLD: std::sync::OnceLock<exec::mpi::MpiWorld> = std::sync::OnceLock::new();

/// Makes every later [`run`] use MPI ranks.
#[cfg(feature = "mpi")]
pub fn use_mpi(world: exec::mpi::MpiWorld) {
    let _ = MPI_WORLD.set(world);
}

#[cfg(feature = "mpi")]
fn mpi_world() -> Option<&'static exec::mpi::MpiWorld> {
    MPI_WORLD.get()
}

#[cfg(not(feature = "mpi"))]
fn mpi_world() -> Option<&'static NoMpi> {
    None
}

/// Stands in for the MPI world in builds without MPI, so callers need no `cfg`.
#[cfg(not(feature = "mpi"))]
struct NoMpi;

#[cfg(not(feature = "mpi"))]
impl NoMpi {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn host_map(&self, ranks: usize) -> NodeMap {
        NodeMap::single_node(ranks)
    }
    fn hosts(&self) -> &[String] {
        &[]
    }
}

/// Ranks are MPI processes.
pub fn is_mpi() -> bool {
    mpi_world().is_some()
}

/// This process prints and writes results: always with thread ranks, MPI rank 0 otherwise.
pub fn is_root() -> bool {
    mpi_world().is_none_or(|w| w.rank() == 0)
}

/// This process's MPI rank (0 with thread ranks).
pub fn rank() -> usize {
    mpi_world().map_or(0, |w| w.rank())
}

/// The host of every MPI rank, by rank (empty with thread ranks).
pub fn hosts() -> Vec<String> {
    mpi_world().map_or_else(Vec::new, |w| w.hosts().to_vec())
}

/// The job as the metrics endpoint needs it (`monitoring`).
pub fn job() -> crate::monitoring::Job<'static> {
    crate::monitoring::Job {
        rank: rank(),
        hosts: hosts(),
        broadcast: &broadcast_from_root,
    }
}

/// What the result document names as the launcher.
pub fn launcher_name() -> &'static str {
    if is_mpi() {
        "mpi"
    } else {
        "threads"
    }
}

/// Ends the MPI job with `code` if rank 0 failed in a run: the other ranks may be waiting
/// for it in a collective. Call once rank 0 has saved its results. No-op otherwise.
pub fn abort_if_root_failed(code: i32) {
    if !exec::root_failed() {
        return;
    }
    #[cfg(not(feature = "mpi"))]
    let _ = code;
    #[cfg(feature = "mpi")]
    if let Some(w) = mpi_world() {
        use std::io::Write;
        let _ = std::io::stdout().flush();
        w.abort(code.max(1));
    }
}

/// The options every command takes (`--tasks` and `--fake-nodes` before the command; the
/// others anywhere on the line, see `global_opts`).
#[derive(Debug, Default)]
pub struct Global {
    /// `--tasks`, `--fake-nodes`.
    pub setup: RankSetup,
    /// `--events PATH`: the event log.
    pub events: Option<std::path::PathBuf>,
    /// `--json PATH` given before the command: more copies of the result document.
    pub json: Vec<std::path::PathBuf>,
    /// `--db`, `--no-store`, `--label` and the store opened for the run.
    pub storing: crate::storing::Storing,
    /// `--metrics`, `--influx` and their endpoint and pusher.
    pub monitoring: crate::monitoring::Monitoring,
    /// `--quiet`: no progress display either.
    pub quiet: bool,
    /// `--allow-root-target`: see `workload::target`.
    pub allow_root_target: bool,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct RankSetup {
    pub tasks: Option<usize>,
    pub fake_nodes: Option<usize>,
    pub round_robin: bool,
}

impl RankSetup {
    /// The ranks a command line's own options ask for (`None` fields fall back to the global
    /// options: [`RankSetup::or`]).
    pub fn of(launch: &cmdline::Launch) -> RankSetup {
        RankSetup {
            tasks: launch.tasks,
            fake_nodes: launch.fake_nodes,
            round_robin: launch.round_robin,
        }
    }

    /// Options given to the workload win over the global ones.
    pub fn or(self, global: RankSetup) -> RankSetup {
        RankSetup {
            tasks: self.tasks.or(global.tasks),
            fake_nodes: self.fake_nodes.or(global.fake_nodes),
            round_robin: self.round_robin || global.round_robin,
        }
    }

    /// Ranks to run: `--tasks`/`-N`, else every MPI rank, else 1 (like IOR without mpirun).
    pub fn ranks(&self) -> usize {
        self.tasks
            .unwrap_or_else(|| mpi_world().map_or(1, |w| w.size()))
    }

    /// `--fake-nodes` splits the ranks into pretend nodes; otherwise thread ranks are one
    /// node and MPI ranks are where their hosts are (placement detected from the host names).
    pub fn node_map(&self) -> NodeMap {
        let placement = if self.round_robin {
            Placement::RoundRobin
        } else {
            Placement::Block
        };
        match (self.fake_nodes, mpi_world()) {
            (Some(k), _) => NodeMap::new(self.ranks(), k, placement),
            (None, Some(w)) => w.host_map(self.ranks()),
            (None, None) => NodeMap::new(self.ranks(), 1, placement),
        }
    }

    /// One digit per rank, 1 where the rank is on rank 0's node (IOR's `Nodemap:` line).
    pub fn nodemap(&self) -> String {
        let m = self.node_map();
        (0..self.ranks())
            .map(|r| {
                if m.node_of(r) == m.node_of(0) {
                    '1'
                } else {
                    '0'
                }
            })
            .collect()
    }

    /// The ranks themselves, for a workload's `run`.
    pub fn into_ranks(self) -> exec::Ranks {
        #[cfg(feature = "mpi")]
        if let Some(w) = mpi_world() {
            return exec::Ranks::mpi(w.clone(), self.node_map());
        }
        exec::Ranks::threads(self.node_map())
    }

    /// The result document's `ranks` block.
    pub fn result_ranks(&self) -> results::Ranks {
        let m = self.node_map();
        results::Ranks {
            count: self.ranks() as u64,
            nodes: m.num_nodes() as u64,
            tasks_per_node: m.tasks_on_node0() as u64,
            placement: if m.is_block_mapped() {
                "block"
            } else {
                "round-robin"
            }
            .to_string(),
            launcher: launcher_name().to_string(),
        }
    }

    /// Problems found before any I/O (`cmdline::check_ranks`).
    pub fn check(&self) -> Result<(), String> {
        cmdline::check_ranks(self.tasks, self.fake_nodes, mpi_world().map(|w| w.size()))
    }
}

/// Bad usage of a command that runs once, not on ranks (the store's commands, sweeps,
/// presets, the IO500's leader): `iogauge <command>: <message>` (the message may name the
/// command itself) and exit status 2. A workload's bad input is [`bad_input`].
pub fn usage(command: &str, message: impl std::fmt::Display) -> u8 {
    let line = prefixed(command, message);
    eprintln!("iogauge {line}");
    2
}

/// `message` as a line of `name`'s: prefixed with `name: ` unless the checks already named it.
pub fn prefixed(name: &str, message: impl std::fmt::Display) -> String {
    let message = message.to_string();
    match message.strip_prefix(name) {
        Some(rest) if rest.starts_with(':') => message,
        _ => format!("{name}: {message}"),
    }
}

/// What a rank other than 0 would have printed when it stopped before the run.
static HELD_MESSAGE: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);

/// Bad input found before any I/O: the message (printed by rank 0; other MPI ranks hand
/// theirs to rank 0) and exit status 2, agreed with the other ranks.
pub fn bad_input(message: String) -> u8 {
    if is_root() {
        eprintln!("{message}");
    }
    *HELD_MESSAGE.lock().unwrap_or_else(|e| e.into_inner()) = Some(message);
    exit_early(2)
}

/// This process stops before the run with `code` (e.g. after `--help`); under MPI every
/// rank learns it, so none waits for it in the run.
pub fn exit_early(code: u8) -> u8 {
    agree(Some(code)).err().unwrap_or(code)
}

/// This process is ready to run; `Err(code)` if another MPI rank stopped before the run.
/// Every path through a command's checks ends in exactly one `proceed` or `exit_early`. The
/// reporting process opens the result store here, the last check before the run.
pub fn proceed(global: &Global) -> Result<(), u8> {
    if is_root() {
        if let Err(e) = prepare_outputs(global) {
            return Err(bad_input(format!("iogauge: {e}")));
        }
    }
    agree(None)?;
    global.monitoring.connect(&job());
    Ok(())
}

/// On the reporting process, the last checks before a run: the event log's directory, the
/// result store (opened, which creates its file: so after every other check) and the metrics
/// endpoint.
pub fn prepare_outputs(global: &Global) -> Result<(), String> {
    crate::outputs::check_dirs_exist(&[("--events", global.events.as_deref())])?;
    global.storing.prepare()?;
    global.monitoring.prepare(&job())
}

#[cfg(not(feature = "mpi"))]
fn agree(mine: Option<u8>) -> Result<(), u8> {
    mine.map_or(Ok(()), Err)
}

#[cfg(feature = "mpi")]
fn agree(mine: Option<u8>) -> Result<(), u8> {
    let Some(w) = mpi_world() else {
        return mine.map_or(Ok(()), Err);
    };
    let held = HELD_MESSAGE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    // [stops, code, message...]
    let mut mine_bytes = vec![u8::from(mine.is_some()), mine.unwrap_or(0)];
    mine_bytes.extend_from_slice(held.unwrap_or_default().as_bytes());
    let all = w.all_gather(&mine_bytes);
    let stops: Vec<(usize, u8, String)> = all
        .iter()
        .enumerate()
        .filter(|(_, b)| b.first() == Some(&1))
        .map(|(r, b)| (r, b[1], String::from_utf8_lossy(&b[2..]).into_owned()))
        .collect();
    if stops.is_empty() {
        return Ok(());
    }
    if w.rank() == 0 {
        // Rank 0 printed its own message; show what only other ranks saw, once each.
        let mut shown: Vec<&str> = Vec::new();
        for (r, _, m) in &stops {
            if m.is_empty() || shown.contains(&m.as_str()) {
                continue;
            }
            if *r != 0 {
                eprintln!("rank {r}: {m}");
            }
            shown.push(m);
        }
    }
    Err(mine.unwrap_or_else(|| stops.iter().map(|s| s.1).max().unwrap_or(2)))
}

/// Rank 0's `data` on every rank (MPI), or `data` itself (thread ranks).
pub fn broadcast_from_root(data: &[u8]) -> Vec<u8> {
    #[cfg(feature = "mpi")]
    if let Some(w) = mpi_world() {
        return w.broadcast(data);
    }
    data.to_vec()
}
