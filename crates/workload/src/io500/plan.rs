//! The typed plans of the IO500's phases: each phase's argv is parsed and checked once, before
//! the first phase runs, into the plan of the tool that runs it; preflight, the run and the
//! other MPI ranks all use that plan. What the IO500 derives from an earlier phase
//! (md-workbench's object counts from mdtest-easy-write's rate) is filled into a plan field when
//! that phase ends, never re-parsed.

use serde::{Deserialize, Serialize};

use plan::find::FindParams;
use plan::ior::IorParams;
use plan::mdtest::MdtestParams;
use plan::mdworkbench::MdWorkbenchParams;

use crate::mdtest::Shape;
use results::sink::Expect;

/// What a phase's tool runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PhasePlan {
    Ior(IorParams),
    Mdtest {
        params: MdtestParams,
        shape: Shape,
    },
    Find(FindParams),
    MdWorkbench(MdWorkbenchParams),
    /// An external find script, run by rank 0 through the shell.
    Script(String),
}

impl PhasePlan {
    /// What the phase will do on `ranks` ranks, as far as its plan says (for a progress
    /// display); a find's walk is not known ahead.
    pub fn expect(&self, ranks: usize) -> Expect {
        let ranks = ranks as u64;
        match self {
            PhasePlan::Ior(p) => crate::ior::expect(p, ranks, 0),
            PhasePlan::Mdtest { params, shape } => Expect {
                ops: shape.items_per_rank().map(|n| n.saturating_mul(ranks)),
                bytes: None,
                deadline_s: (params.phases.create && params.stonewall_s > 0.0)
                    .then_some(params.stonewall_s),
            },
            _ => Expect::default(),
        }
    }
}

/// A phase's plan and the warnings its checks gave (printed when the phase runs).
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub plan: PhasePlan,
    pub warnings: Vec<String>,
}

/// md-workbench's object counts (`precreatePerSet`, `filesPerProc`, always 10 sets): set in the
/// `.ini`, or derived from mdtest-easy-write's rate when that phase ends.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MdWorkbenchPlan {
    pub precreate_per_set: Option<u64>,
    pub files_per_proc: Option<u64>,
    /// The counts came from an assumed rate because mdtest-easy-write did not run.
    pub assumed_rate: bool,
    /// Derived already (from the first rate offered).
    pub derived: bool,
    /// The rate offered (kIOPS; 0 when mdtest-easy-write did not run), which the create phase
    /// stores in `$R/mdworkbench-size` for a later `--cleanup`.
    pub rate_kiops: f64,
}

/// The rate the IO500 assumes, kIOPS, when mdtest-easy-write did not run.
const ASSUMED_KIOPS: f64 = 10.0;

impl MdWorkbenchPlan {
    /// The counts the `.ini` sets (both or neither, checked before the run).
    pub fn from_config(cfg: &crate::io500::config::Config) -> Self {
        MdWorkbenchPlan {
            precreate_per_set: cfg.u64("mdworkbench", "precreatePerSet"),
            files_per_proc: cfg.u64("mdworkbench", "filesPerProc"),
            ..MdWorkbenchPlan::default()
        }
    }

    /// Both counts come from the `.ini`.
    pub fn configured(&self) -> bool {
        self.precreate_per_set.is_some() && self.files_per_proc.is_some() && !self.derived
    }

    /// (precreatePerSet, filesPerProc); 0 where not derived yet.
    pub fn counts(&self) -> (u64, u64) {
        (
            self.precreate_per_set.unwrap_or(0),
            self.files_per_proc.unwrap_or(0),
        )
    }

    /// Fills the counts not set in the `.ini` from mdtest-easy-write's score (kIOPS) as the
    /// IO500 does (`phase_mdworkbench.c`): objects per set = (rate · min(stonewall, 60 s) · 1000 /
    /// ranks) / 10, for both counts; a rate of 0 (the phase did not run) assumes 10 kIOPS.
    pub fn derive_once(&mut self, rate_kiops: f64, stonewall_s: i64, ranks: usize) {
        if self.derived || (self.precreate_per_set.is_some() && self.files_per_proc.is_some()) {
            return;
        }
        self.derived = true;
        self.rate_kiops = rate_kiops.max(0.0);
        self.assumed_rate = rate_kiops <= 0.0;
        let rate = if self.assumed_rate {
            ASSUMED_KIOPS
        } else {
            rate_kiops
        };
        let time = stonewall_s.min(60) as f64;
        let per_set = (rate * time * 1000.0 / ranks.max(1) as f64) as u64 / 10;
        self.precreate_per_set = Some(per_set);
        self.files_per_proc = Some(per_set);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md_workbench_counts_follow_mdtest_easy_write() {
        let mut p = MdWorkbenchPlan::default();
        // 45.5 kIOPS, 300 s stonewall (60 s used), 8 ranks: 45.5 * 60 * 1000 / 8 = 341250.
        p.derive_once(45.5, 300, 8);
        p.derive_once(1.0, 300, 8);
        assert_eq!(
            (p.precreate_per_set, p.files_per_proc),
            (Some(34125), Some(34125))
        );
        assert!(!p.assumed_rate);
        let mut q = MdWorkbenchPlan::default();
        q.derive_once(0.0, 5, 2);
        assert_eq!(q.precreate_per_set, Some(10 * 5 * 1000 / 2 / 10));
        assert!(q.assumed_rate);
        let mut set = MdWorkbenchPlan {
            precreate_per_set: Some(7),
            files_per_proc: Some(3),
            ..Default::default()
        };
        set.derive_once(45.5, 300, 8);
        assert_eq!(
            (set.precreate_per_set, set.files_per_proc),
            (Some(7), Some(3))
        );
    }

    #[test]
    fn plans_travel_to_other_ranks_unchanged() {
        let p = PhasePlan::Find(FindParams {
            paths: vec!["/d".into()],
            name: Some("*01*".into()),
            ..FindParams::default()
        });
        let back: PhasePlan = serde_json::from_slice(&serde_json::to_vec(&p).unwrap()).unwrap();
        assert_eq!(back, p);
    }
}
