//! What an mdtest run measures: the types live in `results::mdtest`, the result model.

pub use results::mdtest::{ErrorAt, PhaseOutcome, RankTimes, StonewallOutcome, VerifyOutcome};
pub use results::per_s;
