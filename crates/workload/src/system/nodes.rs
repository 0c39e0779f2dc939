//! What rank 0 cannot read itself, in a job of several processes (MPI): the CPU seconds of
//! the other ranks' processes, and the other nodes' system figures. Each node's first rank
//! reads its node over the phase, as rank 0 reads its own; every other rank notes its
//! process's CPU time at the phase's start. After the phase's gather they send rank 0 what
//! they have, and rank 0's hub puts it beside its own figures (`SystemFigures::other_nodes`,
//! each node's CPU summed over its ranks).

use exec::{Comm, CommError};
use results::{NodeFigures, SystemFigures};
use serde::{Deserialize, Serialize};

use crate::session::Session;

/// One rank's part: its process's CPU seconds over the phase (ranks that read no node), or
/// its node's figures (a node's first rank).
#[derive(Serialize, Deserialize, Default)]
struct Part {
    cpu: Option<(f64, f64)>,
    node: Option<SystemFigures>,
}

/// A collective after the phase's gather, in a job of several processes with the system
/// figures on (the same on every rank); nothing with thread ranks, whose process rank 0's
/// probe reads whole.
pub fn gather_nodes(session: Option<&Session>, comm: &dyn Comm) -> Result<(), CommError> {
    let Some(session) = session.filter(|s| s.system_on() && s.multi_process(comm)) else {
        return Ok(());
    };
    let part = match comm.rank() {
        0 => Part::default(),
        _ if session.reads_node_for_rank0(comm) => Part {
            node: session.system_hub().probe_end(),
            cpu: None,
        },
        _ => Part {
            cpu: session.take_cpu_since_start(),
            node: None,
        },
    };
    let mine = serde_json::to_vec(&part).unwrap_or_default();
    let Some(all) = comm.gather_bytes(&mine, 0)? else {
        return Ok(());
    };
    let map = comm.node_map();
    let ranks_on = |node: usize| -> Vec<u64> {
        (0..map.ranks())
            .filter(|&r| map.node_of(r) == node)
            .map(|r| r as u64)
            .collect()
    };
    let parts: Vec<(usize, Part)> = all
        .iter()
        .enumerate()
        .filter_map(|(rank, bytes)| Some((rank, serde_json::from_slice(bytes).ok()?)))
        .collect();
    // CPU seconds of the ranks that read no node, summed per node.
    let cpu_on = |node: usize| {
        parts
            .iter()
            .filter(|(rank, _)| map.node_of(*rank) == node)
            .filter_map(|(_, p)| p.cpu)
            .fold((0.0, 0.0), |a, c| (a.0 + c.0, a.1 + c.1))
    };
    let others: Vec<SystemFigures> = parts
        .iter()
        .filter_map(|(rank, p)| {
            let mut f = p.node.clone()?;
            let node = map.node_of(*rank);
            let (u, s) = cpu_on(node);
            f.add_cpu(u, s);
            f.ranks = ranks_on(node);
            Some(f)
        })
        .collect();
    session.system_hub().node_figures(NodeFigures {
        ranks: ranks_on(map.node_of(0)),
        cpu: cpu_on(map.node_of(0)),
        others,
    });
    Ok(())
}
