//! Which files each rank writes for one checkpoint and how large they are, as DLIO's
//! transformer checkpointing (`checkpointing/base_checkpointing.py`, branch
//! `mlperf_storage_v2.0`) shapes them from the model, the parallelism and the ZeRO stage.
//! Pure: the same integer divisions in the same order, so the sizes are DLIO's to the byte
//! (less torch.save's container, which iogauge does not write).

use plan::dlio::{CheckpointMode, DlioParams};

/// The model and how it is split over the ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    pub num_layers: u64,
    pub vocab: u64,
    pub hidden: u64,
    pub ffn: u64,
    pub heads: u64,
    pub kv_heads: u64,
    pub tensor: u64,
    pub pipeline: u64,
    /// Resolved: ranks / (tensor x pipeline), or the config's in subset mode.
    pub data: u64,
    pub zero_stage: u64,
    /// Bytes per element of the model's and the optimizer's tensors.
    pub model_bytes: u64,
    pub optimizer_bytes: u64,
}

/// One file of a checkpoint: its name in the checkpoint's folder and its tensors' bytes, in
/// the order they are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shard {
    pub name: String,
    pub tensors: Vec<u64>,
}

impl Shard {
    pub fn bytes(&self) -> u64 {
        self.tensors.iter().sum()
    }
}

/// The folder of a checkpoint, as DLIO names it.
pub fn checkpoint_dir(epoch: u64, step: u64) -> String {
    format!("global_epoch{epoch}_step{step}")
}

impl Shape {
    /// The shape of `p` run on `ranks` ranks (the config's checks passed).
    pub fn of(p: &DlioParams, ranks: u64) -> Shape {
        let m = &p.model;
        let t = &m.transformer;
        let (tensor, pipeline) = (m.parallelism.tensor.max(1), m.parallelism.pipeline.max(1));
        let data = match p.checkpoint.mode {
            CheckpointMode::Subset => m.parallelism.data.max(1) as u64,
            CheckpointMode::Default => (ranks / (tensor * pipeline)).max(1),
        };
        Shape {
            num_layers: m.num_layers.max(0) as u64,
            vocab: t.vocab_size,
            hidden: t.hidden_size,
            ffn: t.ffn_hidden_size,
            heads: t.num_attention_heads.max(1),
            kv_heads: t.num_kv_heads,
            tensor,
            pipeline,
            data,
            zero_stage: m.parallelism.zero_stage,
            model_bytes: m.model_datatype.bytes(),
            optimizer_bytes: m.optimizer_datatype.bytes(),
        }
    }

    pub fn model_parallelism(&self) -> u64 {
        self.tensor * self.pipeline
    }

    /// The ranks of a whole model: tensor x pipeline x data.
    pub fn world(&self) -> u64 {
        self.model_parallelism() * self.data
    }

    /// Columns of the K and V matrices.
    fn dim_kv(&self) -> u64 {
        self.hidden / self.heads * self.kv_heads
    }

    /// The model's parameters: embedding, the layers, the final norm and the LM head.
    pub fn num_parameters(&self) -> u64 {
        let h = self.hidden;
        let embedding = self.vocab * h;
        let layer = h + h * (h + 2 * self.dim_kv()) + h * h + h + self.ffn * 2 * h + self.ffn * h;
        embedding + layer * self.num_layers + h + embedding
    }

    /// Elements of each tensor of layer `i` (0 the embedding, 1..=L the transformer layers,
    /// L+1 the LM head, L+2 the final norm) held by one rank.
    fn layer_parameters(&self, i: u64) -> Vec<u64> {
        let (h, tp) = (self.hidden, self.tensor);
        let sf = if self.zero_stage < 3 { 1 } else { self.data };
        let l = self.num_layers;
        if i == 0 || i == l + 1 {
            return vec![h * self.vocab / tp / sf];
        }
        if i == l + 2 {
            return vec![h / sf];
        }
        vec![
            h / sf,
            h * (h + 2 * self.dim_kv()) / tp / sf,
            h * h / tp / sf,
            h / sf,
            h * 2 * self.ffn / tp / sf,
            h * self.ffn / tp / sf,
        ]
    }

    /// The layers of pipeline stage `stage`, first and last included: the transformer layers
    /// spread over the stages (the first `L % pipeline` one more), the embedding on the first
    /// stage, the head and final norm on the last.
    fn layers(&self, stage: u64) -> (u64, u64) {
        let per = self.num_layers / self.pipeline;
        let rem = self.num_layers % self.pipeline;
        let (mut start, mut end) = if stage < rem {
            let s = stage * (per + 1) + 1;
            (s, s + per)
        } else {
            let s = rem * (per + 1) + (stage - rem) * per + 1;
            (s, (s + per).saturating_sub(1))
        };
        if stage == self.pipeline - 1 {
            end = self.num_layers + 2;
        }
        if stage == 0 {
            start = 0;
        }
        (start, end)
    }

    /// The optimizer's tensors of one rank, in elements.
    fn optimizer_groups(&self) -> Vec<u64> {
        let per_rank = if self.zero_stage > 0 {
            self.num_parameters() / (self.data * self.model_parallelism())
        } else {
            self.num_parameters() / self.model_parallelism()
        };
        if per_rank == 0 {
            return Vec::new();
        }
        let small = self.hidden * 5;
        vec![per_rank, small, per_rank, small, per_rank, small]
    }

    /// The files rank `rank` writes for one checkpoint (none for a rank that keeps no state:
    /// beyond the first model copy without ZeRO).
    pub fn rank_shards(&self, rank: u64) -> Vec<Shard> {
        let mp = self.model_parallelism();
        let stage = (rank / self.tensor) % self.pipeline;
        let (dp_rank, mp_rank) = (rank / mp, rank % mp);
        // Without ZeRO only the first model copy checkpoints.
        if self.zero_stage == 0 && rank >= mp {
            return Vec::new();
        }
        let bytes = |elems: Vec<u64>, per: u64| -> Vec<u64> {
            elems
                .into_iter()
                .filter(|&e| e > 0)
                .map(|e| e * per)
                .collect()
        };
        let (start, end) = self.layers(stage);
        let layer = |i| bytes(self.layer_parameters(i), self.model_bytes);
        let mut out = Vec::new();
        let sharded = self.zero_stage == 0 || self.zero_stage == 3;
        if sharded {
            out.push(Shard {
                name: format!("zero_pp_rank_{dp_rank}_mp_rank_{mp_rank}_model_states.pt"),
                tensors: (start..=end).flat_map(layer).collect(),
            });
        } else if dp_rank == 0 {
            // ZeRO 1 and 2: the first data-parallel copy writes the model, by layer when
            // pipelined.
            if self.pipeline > 1 {
                out.extend((start..=end).map(|i| Shard {
                    name: format!("layer_{i}-model_{mp_rank}_model_states.pt"),
                    tensors: layer(i),
                }));
            } else {
                out.push(Shard {
                    name: format!("model_{mp_rank}_model_states.pt"),
                    tensors: (start..=end).flat_map(layer).collect(),
                });
            }
        }
        let optimizer = bytes(self.optimizer_groups(), self.optimizer_bytes);
        if !optimizer.is_empty() {
            out.push(Shard {
                name: format!("zero_pp_rank_{dp_rank}_mp_rank_{mp_rank}_optim_states.pt"),
                tensors: optimizer,
            });
        }
        out
    }

    /// Bytes of one checkpoint written by ranks `0..ranks`.
    pub fn checkpoint_bytes(&self, ranks: u64) -> u64 {
        (0..ranks)
            .flat_map(|r| self.rank_shards(r))
            .map(|s| s.bytes())
            .sum()
    }
}

/// Whose shards rank `rank` reads back under `recovery_rank_shift`: the rank at the same
/// place on the next node (the last node's ranks read the first's), so that no rank reads
/// what its own node wrote. `node_of` gives each rank's node; with one node, itself. DLIO
/// shifts by the ranks per node, `(rank + ranks per node) % ranks`, which is the same rank
/// for block placement.
pub fn recovery_source(node_of: &[usize], rank: usize) -> usize {
    let node = node_of[rank];
    let nodes = node_of.iter().copied().max().map_or(1, |n| n + 1);
    let place = node_of[..rank].iter().filter(|&&n| n == node).count();
    let next = (node + 1) % nodes;
    let there: Vec<usize> = (0..node_of.len()).filter(|&r| node_of[r] == next).collect();
    if there.is_empty() {
        return rank;
    }
    there[place % there.len()]
}

#[cfg(test)]
#[path = "shards_tests.rs"]
mod tests;
