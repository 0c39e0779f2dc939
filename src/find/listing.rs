//! Where a rank's matching paths go in listing mode (`iogauge find` without `-C`).

use std::io::Write;
use std::sync::Mutex;

use exec::Comm;
use workload::find::Lister;

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
        if crate::world::is_mpi() {
            Listing::Held(Mutex::new(Vec::new()))
        } else {
            Listing::Stdout
        }
    }

    /// After the walk, on every rank: rank 0 prints what the ranks held (MPI; a no-op with
    /// thread ranks, whose lines are out already).
    fn print_held(&self, comm: &dyn Comm) -> Result<(), exec::CommError> {
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
    fn after_walk(&self, comm: &dyn Comm) -> Result<(), exec::CommError> {
        self.print_held(comm)
    }

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
