//! The two ways a rank moves its transfers, chosen by the engine's model (`Caps::queued`):
//! one at a time (`mover`, the synchronous hot path) or many in flight (`queued`). A match per
//! phase step, never per transfer.

use std::path::Path;

use exec::interrupt::Stop;
use measure::Recorder;

use crate::ior::error::IorError;
use crate::ior::mover::{self, Mover};
use crate::ior::outcome::VerifyOutcome;
use crate::ior::pattern::AccessPattern;
use crate::ior::queued::{self, QueuedMover};

pub(crate) enum Movers<'a> {
    Sync(Mover<'a>),
    Queued(QueuedMover<'a>),
}

/// A queued rank's figures of a phase: its depth, and the time integral of its requests in
/// flight (ns × requests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct QueueUse {
    pub depth: u64,
    pub area: u64,
}

impl Movers<'_> {
    /// Transfers `from..to` (`mover::drive`, `queued::drive`).
    pub fn drive(
        &mut self,
        pattern: &AccessPattern,
        rec: &mut Recorder,
        from: u64,
        to: u64,
        start: u64,
        deadline_ns: u64,
    ) -> Result<(u64, Option<Stop>), IorError> {
        match self {
            Movers::Sync(m) => mover::drive(m, pattern, rec, from, to, start, deadline_ns),
            Movers::Queued(q) => queued::drive(q, pattern, rec, from, to, start, deadline_ns),
        }
    }

    /// `-e`: the written data made durable.
    pub fn sync(&mut self, path: &Path) -> Result<(), IorError> {
        match self {
            Movers::Sync(m) => m
                .file
                .sync()
                .map_err(|e| IorError::io("fsync", path, None, e)),
            Movers::Queued(q) => q.sync(),
        }
    }

    pub fn queue(&self) -> Option<QueueUse> {
        match self {
            Movers::Sync(_) => None,
            Movers::Queued(q) => Some(QueueUse {
                depth: q.depth() as u64,
                area: q.in_flight_area(),
            }),
        }
    }

    pub fn take_verify(&mut self) -> VerifyOutcome {
        match self {
            Movers::Sync(m) => std::mem::take(&mut m.verify),
            Movers::Queued(q) => std::mem::take(&mut q.verify),
        }
    }

    /// Closes a file of a shared write ([`engine::Engine::open_shared`]): what rank 0 needs
    /// of this rank to end it.
    pub fn close_shared(self) -> std::io::Result<(Option<engine::SlotBuffers>, Vec<u8>)> {
        match self {
            Movers::Sync(m) => m.file.close_shared().map(|parts| (None, parts)),
            Movers::Queued(q) => q.file.close_shared().map(|(b, parts)| (Some(b), parts)),
        }
    }

    /// Closes the file; a queued file hands back its buffers, for the caller to free after
    /// its timed close.
    pub fn close(self) -> std::io::Result<Option<engine::SlotBuffers>> {
        match self {
            Movers::Sync(m) => m.file.close().map(|()| None),
            Movers::Queued(q) => q.file.close().map(Some),
        }
    }
}
