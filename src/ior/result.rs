//! IOR outcomes into the result model: moved to `results::ior`.

pub use results::ior::{phase_result, summaries, verification};
