//! What an IOR run measures: the types live in `results::ior`, the result model.

pub use results::ior::{
    Access, CheckOutcome, ErrorAt, PhaseOutcome, RankTimes, StonewallOutcome, VerifyOutcome, MIB,
};
