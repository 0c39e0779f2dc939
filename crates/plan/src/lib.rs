//! Plans: the validated, resolved parameters of every workload, where IOR and mdtest command
//! lines and IO500 `.ini` files end up. The workloads run them; the result model records them
//! (`results` embeds these types as a run's `parameters`), so they are plain serde data with a
//! JSON Schema, and the rules that check them live with the workloads.

pub mod dlio;
pub mod find;
pub mod io500;
pub mod ior;
pub mod mdtest;
pub mod mdworkbench;
pub mod mix;
pub mod startup;
pub mod whole;
