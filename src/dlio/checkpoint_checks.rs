//! The checks of a checkpoint run before any I/O that depend on the ranks and the storage:
//! the ranks fit the model's parallelism, the checkpoints fit the free space, a run that only
//! reads finds every shard it reads; and the warnings: MLPerf Storage's cache rule, a rank
//! shift on one node.

use std::path::{Path, PathBuf};

use engine::{Engine, PosixEngine, Target};
use plan::dlio::{CheckpointMode, DlioParams};
use results::{Alert, AlertId};
use workload::dlio::checkpoint::{checkpoint_dir, recovery_source, Shape};
use workload::dlio::config;

use crate::world::RankSetup;

/// What a checkpoint run found: the warnings to print (alerts carry their evidence).
pub(super) struct Found {
    pub alerts: Vec<Alert>,
    pub notes: Vec<String>,
}

pub(super) fn check(p: &DlioParams, setup: &RankSetup, memory: u64) -> Result<Found, String> {
    let ranks = setup.ranks() as u64;
    let shape = Shape::of(p, ranks);
    fits_parallelism(p, &shape, ranks)?;
    let c = &p.checkpoint;
    let (writes, reads) = (
        c.num_checkpoints_write.max(0) as u64,
        c.num_checkpoints_read.max(0) as u64,
    );
    let folder = config::checkpoint_folder(p);
    let map = setup.node_map();
    let node_of: Vec<usize> = (0..ranks as usize).map(|r| map.node_of(r)).collect();
    if writes > 0 {
        fits_free_space(&folder, shape.checkpoint_bytes(ranks), writes)?;
    } else {
        shards_on_disk(&folder, &shape, &node_of, reads, c.recovery_rank_shift)?;
    }
    let mut found = Found {
        alerts: Vec::new(),
        notes: Vec::new(),
    };
    if reads > 0 && c.recovery_rank_shift && map.num_nodes() < 2 {
        found.notes.push(
            "checkpoint.recovery_rank_shift: the run is on one node, so every rank reads its own \
             shards (DLIO says the same)"
                .into(),
        );
    }
    let drops = crate::policy::get().drop_caches != workload::session::DropCaches::Off;
    if writes > 0 && reads > 0 && !drops && !config::checkpoint_odirect(p) {
        found
            .alerts
            .extend(cache_rule(&shape, &node_of, writes, memory));
    }
    let on = crate::policy::get()
        .thresholds
        .is_on(AlertId::DlioCheckpointCache);
    found.alerts.retain(|_| on);
    Ok(found)
}

/// DLIO splits each model copy over tensor x pipeline ranks: the default mode needs whole
/// copies; subset mode at most the model's ranks.
fn fits_parallelism(p: &DlioParams, shape: &Shape, ranks: u64) -> Result<(), String> {
    let mp = shape.model_parallelism();
    match p.checkpoint.mode {
        CheckpointMode::Default if ranks < mp || !ranks.is_multiple_of(mp) => Err(format!(
            "model.parallelism: each copy of the model is split over tensor x pipeline = {} x {} = {mp} ranks, \
             so a checkpoint needs a multiple of {mp} ranks (--tasks {mp}, {}, ...); this run has {ranks}. \
             To emulate part of the model on fewer ranks, use ++workload.checkpoint.mode=subset with \
             ++workload.model.parallelism.data=D",
            shape.tensor,
            shape.pipeline,
            2 * mp
        )),
        CheckpointMode::Subset if ranks > shape.world() => Err(format!(
            "checkpoint.mode subset: the model has tensor x pipeline x data = {} ranks; this run has {ranks}",
            shape.world()
        )),
        _ => Ok(()),
    }
}

/// The nearest folder of `path` that exists (where the free space is asked).
fn existing(path: &Path) -> PathBuf {
    path.ancestors()
        .find(|d| d.is_dir())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Every checkpoint stays until the run's end: all must fit.
fn fits_free_space(folder: &Path, bytes: u64, writes: u64) -> Result<(), String> {
    let at = existing(folder);
    let info = PosixEngine::new(false)
        .target_info(Target::from(&at))
        .map_err(|e| format!("{}: {}", at.display(), engine::errno::describe(&e)))?;
    let Some(space) = info.space else {
        return Ok(());
    };
    let need = bytes.saturating_mul(writes);
    if need > space.avail_bytes {
        return Err(format!(
            "checkpoint.checkpoint_folder {}: {writes} checkpoint(s) of {} need {}, and {} has {} free; \
             lower checkpoint.num_checkpoints_write or the model, or give a larger file system",
            folder.display(),
            text::human_size(bytes),
            text::human_size(need),
            at.display(),
            text::human_size(space.avail_bytes)
        ));
    }
    Ok(())
}

/// A run that only reads reads what an earlier run wrote (with `--keep`): every shard must
/// be there at its size.
fn shards_on_disk(
    folder: &Path,
    shape: &Shape,
    node_of: &[usize],
    reads: u64,
    shift: bool,
) -> Result<(), String> {
    for index in 1..=reads {
        let dir = folder.join(checkpoint_dir(1, index));
        for rank in 0..node_of.len() {
            let source = if shift {
                recovery_source(node_of, rank)
            } else {
                rank
            };
            for s in shape.rank_shards(source as u64) {
                let path = dir.join(&s.name);
                let size = std::fs::metadata(&path).map(|m| m.len());
                match size {
                    Ok(n) if n == s.bytes() => {}
                    Ok(n) => {
                        return Err(format!(
                            "{}: {n} bytes, the shard of this model and these ranks has {}: \
                             written for another shape or rank count",
                            path.display(),
                            s.bytes()
                        ))
                    }
                    Err(e) => {
                        return Err(format!(
                            "{}: {}; a run that only reads (num_checkpoints_write 0) reads the \
                             checkpoints a run with --keep wrote, with the same model and ranks",
                            path.display(),
                            engine::errno::describe(&e)
                        ))
                    }
                }
            }
        }
    }
    Ok(())
}

/// MLPerf Storage: when a client writes less than 3 times its memory, the page cache is
/// cleared between write and read. Without `--drop-caches` the reads may come from memory.
fn cache_rule(shape: &Shape, node_of: &[usize], writes: u64, memory: u64) -> Option<Alert> {
    if memory == 0 {
        return None;
    }
    let nodes = node_of.iter().copied().max().map_or(1, |n| n + 1);
    let mut per_node = vec![0u64; nodes];
    for (rank, &node) in node_of.iter().enumerate() {
        let bytes: u64 = shape
            .rank_shards(rank as u64)
            .iter()
            .map(|s| s.bytes())
            .sum();
        per_node[node] += bytes * writes;
    }
    let (node, written) = per_node
        .iter()
        .copied()
        .enumerate()
        .min_by_key(|(_, b)| *b)?;
    (written < memory.saturating_mul(3)).then(|| {
        Alert::new(
            AlertId::DlioCheckpointCache,
            format!(
                "node {node} writes {} of checkpoints, less than 3 x its memory ({}): MLPerf Storage \
                 clears the page cache between write and read; without --drop-caches the reads \
                 (the dlio-checkpoint-read phases, load_checkpoint_io_mean_GB_per_second) may come \
                 from memory",
                text::human_size(written),
                text::human_size(memory)
            ),
        )
        .with("node", node as u64)
        .with("written_bytes", written)
        .with("memory_bytes", memory)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llama8b() -> DlioParams {
        plan::dlio::load(&["llama3_8b".to_string()]).unwrap().params
    }

    #[test]
    fn the_cache_rule_names_the_node_that_writes_least() {
        let shape = Shape::of(&llama8b(), 8);
        let one: u64 = shape.rank_shards(0).iter().map(|s| s.bytes()).sum();
        let nodes = [0, 0, 0, 0, 1, 1, 1, 1];
        let a = cache_rule(&shape, &nodes, 1, one * 4).expect("4 ranks write 4 shards");
        assert!(a.message.contains("less than 3 x"), "{}", a.message);
        assert!(cache_rule(&shape, &nodes, 3, one).is_none());
    }

    #[test]
    fn the_ranks_must_hold_whole_model_copies() {
        let p = plan::dlio::load(&["llama3_70b".to_string()])
            .unwrap()
            .params;
        let e = fits_parallelism(&p, &Shape::of(&p, 4), 4).unwrap_err();
        assert!(e.contains("multiple of 8"), "{e}");
        fits_parallelism(&p, &Shape::of(&p, 16), 16).unwrap();
    }
}
