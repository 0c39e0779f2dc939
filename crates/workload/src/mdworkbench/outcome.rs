pub use results::mdworkbench::{
    Counts, ErrorAt, OpCount, PhaseOutcome, Quantiles, RankOutcome, StonewallOutcome, VerifyOutcome,
};
