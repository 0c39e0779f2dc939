/// How ranks are laid out over nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// Consecutive ranks share a node ("by slot"): ranks 0..ppn-1 on node 0.
    Block,
    /// Ranks are dealt to nodes in turn ("by node"): rank r on node r % nodes.
    RoundRobin,
}

/// Which node each rank runs on. IOR's reorder math (`-C`, `-Q`, `-Z`) needs the number of
/// nodes, the ranks on rank 0's node and whether placement is block-wise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeMap {
    node_of_rank: Vec<usize>,
    num_nodes: usize,
}

impl NodeMap {
    /// `ranks` ranks spread over `nodes` nodes (clamped to 1..=ranks) with the given placement.
    /// With block placement and an uneven split, the first nodes get one rank more.
    pub fn new(ranks: usize, nodes: usize, placement: Placement) -> NodeMap {
        let ranks = ranks.max(1);
        let nodes = nodes.clamp(1, ranks);
        let node_of_rank = match placement {
            Placement::RoundRobin => (0..ranks).map(|r| r % nodes).collect(),
            Placement::Block => {
                let base = ranks / nodes;
                let extra = ranks % nodes;
                let mut v = Vec::with_capacity(ranks);
                for node in 0..nodes {
                    let count = base + usize::from(node < extra);
                    v.extend(std::iter::repeat_n(node, count));
                }
                v
            }
        };
        NodeMap {
            node_of_rank,
            num_nodes: nodes,
        }
    }

    /// Build from the node of every rank, e.g. host names gathered from MPI ranks. Nodes are
    /// numbered in order of first appearance.
    pub fn from_hosts<S: AsRef<str>>(hosts: &[S]) -> NodeMap {
        let mut names: Vec<&str> = Vec::new();
        let node_of_rank = hosts
            .iter()
            .map(|h| {
                let h = h.as_ref();
                match names.iter().position(|n| *n == h) {
                    Some(i) => i,
                    None => {
                        names.push(h);
                        names.len() - 1
                    }
                }
            })
            .collect();
        NodeMap {
            node_of_rank,
            num_nodes: names.len().max(1),
        }
    }

    /// All ranks on one node.
    pub fn single_node(ranks: usize) -> NodeMap {
        NodeMap::new(ranks, 1, Placement::Block)
    }

    pub fn ranks(&self) -> usize {
        self.node_of_rank.len()
    }
    pub fn num_nodes(&self) -> usize {
        self.num_nodes
    }
    pub fn node_of(&self, rank: usize) -> usize {
        self.node_of_rank[rank]
    }
    /// Whether `rank` is the lowest rank of its node (the one that acts for the node).
    pub fn first_on_node(&self, rank: usize) -> bool {
        let node = self.node_of_rank[rank];
        self.node_of_rank[..rank].iter().all(|&n| n != node)
    }
    /// Ranks that share rank 0's node (IOR's `numTasksOnNode0`).
    pub fn tasks_on_node0(&self) -> usize {
        let n0 = self.node_of_rank[0];
        self.node_of_rank.iter().filter(|&&n| n == n0).count()
    }
    /// IOR's `tasksBlockMapping`: rank 1 runs on rank 0's node.
    pub fn is_block_mapped(&self) -> bool {
        self.node_of_rank.len() < 2 || self.node_of_rank[1] == self.node_of_rank[0]
    }
    /// The placement that best describes the map (block when rank 1 shares rank 0's node).
    pub fn placement(&self) -> Placement {
        if self.is_block_mapped() {
            Placement::Block
        } else {
            Placement::RoundRobin
        }
    }
    /// IOR's reorder `shift`: the rank distance of one node.
    pub fn node_shift(&self) -> usize {
        if self.is_block_mapped() {
            self.tasks_on_node0()
        } else {
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_placement_fills_nodes_in_order() {
        let m = NodeMap::new(8, 2, Placement::Block);
        assert_eq!(
            (0..8).map(|r| m.node_of(r)).collect::<Vec<_>>(),
            [0, 0, 0, 0, 1, 1, 1, 1]
        );
        assert_eq!(m.tasks_on_node0(), 4);
        assert!(m.is_block_mapped());
        assert_eq!(m.node_shift(), 4);
        let first: Vec<usize> = (0..8).filter(|&r| m.first_on_node(r)).collect();
        assert_eq!(first, [0, 4]);
    }

    #[test]
    fn round_robin_deals_ranks() {
        let m = NodeMap::new(6, 3, Placement::RoundRobin);
        assert_eq!(
            (0..6).map(|r| m.node_of(r)).collect::<Vec<_>>(),
            [0, 1, 2, 0, 1, 2]
        );
        assert_eq!(m.tasks_on_node0(), 2);
        assert!(!m.is_block_mapped());
        assert_eq!(m.node_shift(), 1);
        let first: Vec<usize> = (0..6).filter(|&r| m.first_on_node(r)).collect();
        assert_eq!(first, [0, 1, 2]);
    }

    #[test]
    fn uneven_block_split_and_clamping() {
        let m = NodeMap::new(5, 2, Placement::Block);
        assert_eq!(
            (0..5).map(|r| m.node_of(r)).collect::<Vec<_>>(),
            [0, 0, 0, 1, 1]
        );
        assert_eq!(NodeMap::new(2, 9, Placement::Block).num_nodes(), 2);
    }

    #[test]
    fn hosts_map_detects_placement() {
        let m = NodeMap::from_hosts(&["a", "b", "a", "b"]);
        assert_eq!(m.num_nodes(), 2);
        assert_eq!(m.placement(), Placement::RoundRobin);
        let m = NodeMap::from_hosts(&["a", "a", "b", "b"]);
        assert_eq!(m.placement(), Placement::Block);
        assert_eq!(m.tasks_on_node0(), 2);
    }
}
