//! One find walk on the ranks with the right work-stealing pool: thread ranks share one
//! [`StealingPool`]; MPI ranks, which share no memory, each get a [`MessagePool`] that steals
//! through messages. Used by `iogauge find` and the IO500's find phases.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

use exec::threads::RankOutcome;
use exec::Comm;
use workload::find::{DirPool, Lister, MessagePool, StealingPool, VictimChoice};

use crate::find::cli::FindCommand;
use crate::world::{self, RankSetup};

/// Walks in this process so far: every rank runs the same walks in the same order, so the
/// count is the same walk id everywhere.
static WALKS: AtomicU32 = AtomicU32::new(0);

/// What the pool needs from a find command line.
pub struct Walk {
    pub roots: Vec<PathBuf>,
    pub queue_length: usize,
    pub victims: VictimChoice,
}

impl Walk {
    pub fn of(cmd: &FindCommand) -> Walk {
        Walk {
            roots: cmd.paths.clone(),
            queue_length: cmd.queue_length,
            victims: if cmd.steal_next {
                VictimChoice::PreviousHalfTheTime
            } else {
                VictimChoice::Random
            },
        }
    }
}

/// Runs `body` on every rank with its pool.
pub fn run<T, E, F>(setup: &RankSetup, walk: &Walk, body: F) -> Vec<RankOutcome<T, E>>
where
    T: Send,
    E: Send + std::fmt::Display,
    F: Fn(&dyn Comm, &dyn DirPool) -> Result<T, E> + Sync,
{
    let walk_id = WALKS.fetch_add(1, Ordering::Relaxed);
    if world::is_mpi() {
        return world::run(setup, |comm| {
            let pool = MessagePool::new(
                comm,
                walk.roots.clone(),
                walk.queue_length,
                walk.victims,
                walk_id,
            );
            body(comm, &pool)
        });
    }
    let pool = StealingPool::new(
        setup.ranks(),
        walk.roots.clone(),
        walk.queue_length,
        walk.victims,
    );
    world::run(setup, |comm| body(comm, &pool))
}

/// Where a rank's matching paths go in listing mode. Thread ranks write whole lines to the
/// one stdout as they find them. MPI ranks hold theirs until the walk ends and rank 0 prints
/// every rank's, in rank order: a launcher forwards each process's stdout in chunks that
/// split lines, so lines printed by several processes would come out mangled.
pub enum Listing {
    Stdout,
    Held(Mutex<Vec<u8>>),
}

impl Listing {
    pub fn new() -> Listing {
        if world::is_mpi() {
            Listing::Held(Mutex::new(Vec::new()))
        } else {
            Listing::Stdout
        }
    }

    /// After the walk, on every rank: rank 0 prints what the ranks held (MPI; a no-op with
    /// thread ranks, whose lines are out already).
    pub fn print_held(&self, comm: &dyn Comm) -> Result<(), exec::CommError> {
        let Listing::Held(held) = self else {
            return Ok(());
        };
        let mine = std::mem::take(&mut *held.lock().unwrap_or_else(|e| e.into_inner()));
        if let Some(all) = comm.gather_bytes(&mine, 0)? {
            let mut out = std::io::stdout().lock();
            for part in all {
                let _ = out.write_all(&part);
            }
            let _ = out.flush();
        }
        Ok(())
    }
}

impl Lister for Listing {
    fn write(&self, lines: &[u8]) {
        match self {
            // A closed pipe must not stop the walk.
            Listing::Stdout => drop(std::io::stdout().lock().write_all(lines)),
            Listing::Held(h) => h
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend_from_slice(lines),
        }
    }
}
