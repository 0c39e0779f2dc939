//! mdtest outcomes into the result model: moved to `results::mdtest`.

pub use results::mdtest::{phase_result, summaries};
