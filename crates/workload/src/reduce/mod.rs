//! What ranks send rank 0 after a phase, the same for every workload: one report type
//! ([`RankFigures`]), one wire format (`wire`), one gather ([`gather`]). Each workload maps its
//! rank's figures into a report and folds the gathered reports into its own outcome.

mod error;
mod report;
mod wire;

#[cfg(test)]
mod tests;

use exec::{Comm, CommError};

use crate::session::Session;

pub use error::WireError;
pub use report::{FirstError, RankFigures, Verify};
pub use wire::{decode, encode, VERSION};

/// Every rank sends `mine` (a collective); rank 0 gets every rank's report, the others `None`.
/// On a job over several nodes, each node's system figures of the phase follow to rank 0's
/// `session` (`crate::system::gather_nodes`).
pub fn gather(
    session: Option<&Session>,
    comm: &dyn Comm,
    mine: &RankFigures,
) -> Result<Option<Gathered>, CommError> {
    let all = comm.gather_bytes(&encode(mine), 0)?;
    crate::system::gather_nodes(session, comm)?;
    Ok(all.map(|all| Gathered { all }))
}

/// The reports rank 0 received, still in their bytes.
pub struct Gathered {
    all: Vec<Vec<u8>>,
}

impl Gathered {
    /// How many ranks reported.
    pub fn len(&self) -> usize {
        self.all.len()
    }

    pub fn is_empty(&self) -> bool {
        self.all.is_empty()
    }

    /// Each rank's report with its rank, in rank order, decoded one at a time: a decoded
    /// histogram takes ~270 KB, too much to hold one per rank and kind at once on a large job.
    pub fn reports(&self) -> impl Iterator<Item = Result<(usize, RankFigures), WireError>> + '_ {
        self.all.iter().enumerate().map(|(rank, bytes)| {
            decode(bytes)
                .map(|r| (rank, r))
                .map_err(|e| WireError::Rank {
                    rank,
                    error: Box::new(e),
                })
        })
    }
}
