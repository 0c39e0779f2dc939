//! What an IOR run reports: the measured types live in `results::ior` (the result model); the
//! events rank 0 is told as the run goes are here.

pub use results::ior::{
    Access, CheckOutcome, ErrorAt, PhaseOutcome, RankTimes, StonewallOutcome, VerifyOutcome, MIB,
};

/// What rank 0 is told as the run goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// A repetition starts; `seed` is the data signature in use.
    RepetitionStart {
        iteration: u32,
        seed: i64,
    },
    Phase(&'a PhaseOutcome),
    WriteCheck(&'a CheckOutcome),
    /// Files removed at the end of a repetition (barrier, unlink, barrier).
    Remove {
        iteration: u32,
        time_s: f64,
    },
    /// Something the user should know that belongs to no phase.
    Warning(String),
}
