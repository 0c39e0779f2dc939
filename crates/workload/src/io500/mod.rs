//! The IO500 suite (reference `io500.md`): the `.ini` configuration (`config`), the ordered
//! phase table (`phases`), the IO500 argv of each phase (`argv`), seeds, per-phase values and
//! aggregates (`score`), validity rules, the score hash and `--verify` (`hash`), the exact
//! text formats (`format`), the data and result directories (`layout`), the runner that
//! walks the table (`run`) and the reading of result directories back into documents
//! (`import`). Running one ior/mdtest/find phase on the ranks is the caller's
//! [`run::Driver`], which parses the IO500 argv with the same parsers as `iogauge ior` etc.

pub mod argv;
pub mod config;
pub mod format;
pub mod hash;
pub mod import;
pub mod layout;
pub mod measured;
pub mod phases;
pub mod plan;
pub mod run;
pub mod score;
pub mod seeds;
pub mod validity;

#[cfg(test)]
mod run_tests;
#[cfg(test)]
mod sc24_tests;
