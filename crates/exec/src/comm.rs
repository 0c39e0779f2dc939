use crate::node_map::NodeMap;

/// Why a collective could not complete.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommError {
    /// Another rank failed (error or panic) and the job is being torn down.
    #[error("rank {rank} failed: {message}")]
    PeerFailed { rank: usize, message: String },
}

/// A point-to-point message as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub source: usize,
    pub tag: u16,
    pub data: Vec<u8>,
}

/// Reduction operators for [`Comm::all_reduce_u64`] and [`Comm::all_reduce_f64`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReduceOp {
    Min,
    Max,
    Sum,
}

impl ReduceOp {
    pub fn apply_u64(self, a: u64, b: u64) -> u64 {
        match self {
            ReduceOp::Min => a.min(b),
            ReduceOp::Max => a.max(b),
            ReduceOp::Sum => a.wrapping_add(b),
        }
    }
    pub fn apply_f64(self, a: f64, b: f64) -> f64 {
        match self {
            ReduceOp::Min => a.min(b),
            ReduceOp::Max => a.max(b),
            ReduceOp::Sum => a + b,
        }
    }
}

/// One rank's view of the job. All collectives must be called by every rank in the same order.
///
/// Only three primitives are required (`barrier`, `all_gather_bytes`, `fail`); reductions,
/// gather and broadcast have default implementations on top of them that a transport with
/// native collectives (MPI) overrides for cost that does not grow with the payload of others.
pub trait Comm: Send + Sync {
    fn rank(&self) -> usize;
    fn size(&self) -> usize;
    /// Where ranks live (used by IOR's `-C`/`-Q` reordering).
    fn node_map(&self) -> &NodeMap;

    fn barrier(&self) -> Result<(), CommError>;

    /// Every rank contributes `data`; every rank receives all contributions, by rank.
    fn all_gather_bytes(&self, data: &[u8]) -> Result<Vec<Vec<u8>>, CommError>;

    /// Tell the other ranks that this one failed; their pending and future collectives
    /// return [`CommError::PeerFailed`].
    fn fail(&self, message: &str);

    /// Sends `data` to rank `dest` with a protocol-defined `tag`, on a channel of its own
    /// (point-to-point messages never mix with collectives). Messages from one sender to one
    /// receiver arrive in order. A small message returns at once; a large one may wait until
    /// `dest` receives it, so a protocol must keep the receiver polling [`Comm::try_receive`]
    /// whenever a large message can be on its way to it.
    fn send_to(&self, dest: usize, tag: u16, data: &[u8]) -> Result<(), CommError>;

    /// The oldest message that has arrived for this rank, if any: `(source, tag, data)`.
    /// Never waits.
    fn try_receive(&self) -> Result<Option<Message>, CommError>;

    fn all_reduce_u64(&self, value: u64, op: ReduceOp) -> Result<u64, CommError> {
        let all = self.all_gather_bytes(&value.to_le_bytes())?;
        Ok(all
            .iter()
            .map(|b| u64::from_le_bytes(b[..8].try_into().expect("8 bytes")))
            .reduce(|a, b| op.apply_u64(a, b))
            .unwrap_or(value))
    }

    fn all_reduce_f64(&self, value: f64, op: ReduceOp) -> Result<f64, CommError> {
        let all = self.all_gather_bytes(&value.to_le_bytes())?;
        Ok(all
            .iter()
            .map(|b| f64::from_le_bytes(b[..8].try_into().expect("8 bytes")))
            .reduce(|a, b| op.apply_f64(a, b))
            .unwrap_or(value))
    }

    /// Every rank sends `data`; `root` receives all of them (by rank), the others `None`.
    fn gather_bytes(&self, data: &[u8], root: usize) -> Result<Option<Vec<Vec<u8>>>, CommError> {
        let all = self.all_gather_bytes(data)?;
        Ok((self.rank() == root).then_some(all))
    }

    /// `root`'s `data` is returned on every rank (the others' argument is ignored).
    fn broadcast_bytes(&self, data: &[u8], root: usize) -> Result<Vec<u8>, CommError> {
        let mine: &[u8] = if self.rank() == root { data } else { &[] };
        let mut all = self.all_gather_bytes(mine)?;
        Ok(std::mem::take(&mut all[root]))
    }

    fn broadcast_u64(&self, value: u64, root: usize) -> Result<u64, CommError> {
        let b = self.broadcast_bytes(&value.to_le_bytes(), root)?;
        Ok(u64::from_le_bytes(b[..8].try_into().expect("8 bytes")))
    }
}
