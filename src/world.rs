//! How many ranks, on how many (possibly pretend) nodes.

use exec::{NodeMap, Placement};

#[derive(Debug, Clone, Copy, Default)]
pub struct RankSetup {
    pub tasks: Option<usize>,
    pub fake_nodes: Option<usize>,
    pub round_robin: bool,
}

impl RankSetup {
    /// Options given to the workload win over the global ones.
    pub fn or(self, global: RankSetup) -> RankSetup {
        RankSetup {
            tasks: self.tasks.or(global.tasks),
            fake_nodes: self.fake_nodes.or(global.fake_nodes),
            round_robin: self.round_robin || global.round_robin,
        }
    }

    /// Ranks to run (default 1, like IOR without mpirun).
    pub fn ranks(&self) -> usize {
        self.tasks.unwrap_or(1)
    }

    /// Thread ranks are one node unless `--fake-nodes` splits them.
    pub fn node_map(&self) -> NodeMap {
        let placement = if self.round_robin {
            Placement::RoundRobin
        } else {
            Placement::Block
        };
        NodeMap::new(self.ranks(), self.fake_nodes.unwrap_or(1), placement)
    }

    /// Problems found before any I/O.
    pub fn check(&self) -> Result<(), String> {
        match (self.tasks, self.fake_nodes) {
            (Some(0), _) => Err("--tasks/-N must be at least 1".to_string()),
            (_, Some(0)) => Err("--fake-nodes must be at least 1".to_string()),
            (t, Some(k)) if k > t.unwrap_or(1) => Err(format!(
                "--fake-nodes {k} is more than the {} task(s)",
                t.unwrap_or(1)
            )),
            _ => Ok(()),
        }
    }
}
