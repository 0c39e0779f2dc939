//! The IO500 under MPI: rank 0 runs the suite (config, directories, result files, scores,
//! clean-up) as with thread ranks, and before each phase tells the other ranks the phase's plan
//! (parsed once on rank 0); they take part in that phase's workload and nothing else. One
//! broadcast per phase keeps every rank in step without each re-deriving IO500 decisions
//! (timestamps, skipped phases, clean-up) that only rank 0 can make consistently.

use serde::{Deserialize, Serialize};
use workload::io500::phases;
use workload::io500::plan::PhasePlan;

use crate::world::{self, RankSetup};

/// What rank 0 tells the other ranks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Order {
    /// Take part in `phase`: its plan on the first `ranks` ranks.
    Run {
        phase: String,
        plan: Box<PhasePlan>,
        ranks: usize,
        fake_nodes: Option<usize>,
        /// Rank 0's metrics endpoint, where the ranks push their live figures (`--metrics`).
        #[serde(default)]
        metrics: Option<String>,
        /// After a signal: the phase is a delete phase that takes its tool's interrupt path
        /// (the stop flag set before it, as on rank 0).
        #[serde(default)]
        stop: Option<i32>,
    },
    /// The suite is over; exit with `code`.
    Done { code: u8 },
}

/// Rank 0: tells the other ranks (a no-op with thread ranks).
pub fn announce(order: &Order) {
    if world::is_mpi() {
        let bytes = serde_json::to_vec(order).expect("an order serialises");
        world::broadcast_from_root(&bytes);
    }
}

/// Ranks other than 0: take part in every phase rank 0 announces, until it is done.
pub fn follow() -> u8 {
    loop {
        let bytes = world::broadcast_from_root(&[]);
        let order: Order = match serde_json::from_slice(&bytes) {
            Ok(o) => o,
            Err(e) => {
                exec_report(&format!("iogauge io500: malformed order from rank 0: {e}"));
                return 1;
            }
        };
        match order {
            Order::Done { code } => return code,
            Order::Run {
                phase,
                plan,
                ranks,
                fake_nodes,
                metrics,
                stop,
            } => {
                if let Some(addr) = metrics {
                    crate::monitoring::follow(&world::job(), &addr);
                }
                let setup = RankSetup {
                    tasks: Some(ranks),
                    fake_nodes,
                    round_robin: false,
                };
                // The outcome is rank 0's to report; a failure here has ended the job already.
                if let Some(sig) = stop {
                    exec::interrupt::request(sig);
                }
                if let Some(p) = phases::by_name(&phase) {
                    let _ = super::run_plan(p, &plan, &setup, None);
                }
                if stop.is_some() {
                    exec::interrupt::resume();
                }
            }
        }
    }
}

fn exec_report(line: &str) {
    #[cfg(feature = "mpi")]
    exec::mpi::report(line);
    #[cfg(not(feature = "mpi"))]
    eprintln!("{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_survive_the_wire() {
        let o = Order::Run {
            phase: "ior-easy-write".into(),
            plan: Box::new(PhasePlan::Ior(Default::default())),
            ranks: 4,
            fake_nodes: Some(2),
            metrics: Some("0.0.0.0:9464".into()),
            stop: Some(15),
        };
        let back: Order = serde_json::from_slice(&serde_json::to_vec(&o).unwrap()).unwrap();
        assert_eq!(back, o);
    }
}
