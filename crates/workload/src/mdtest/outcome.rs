//! What an mdtest run reports: the measured types live in `results::mdtest` (the result
//! model); the events rank 0 is told as the run goes are here.

pub use results::mdtest::{ErrorAt, PhaseOutcome, RankTimes, StonewallOutcome, VerifyOutcome};
pub use results::{per_s, Operation as Op};

/// What rank 0 is told as the run goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// The seeds are agreed; the run starts.
    Begin {
        data_seed: i64,
        /// Rank 0's `-R` seed.
        random_seed: Option<u64>,
        /// Items per task the phases after create will use, when not the configured count.
        items_from_status: Option<u64>,
    },
    /// A stonewalled create phase agreed on its count (printed before the phase ends).
    Stonewall(&'a StonewallOutcome),
    Phase(&'a PhaseOutcome),
    /// Something the user should know that belongs to no phase.
    Warning(String),
}

/// How the run ended, the same on every rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunTotals {
    /// Files that did not read back as written (or read short), over all phases and ranks.
    pub errors: u64,
}
