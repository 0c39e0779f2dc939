//! The rules of a checkpoint run (`workflow.checkpoint` with `train` False) that the config
//! alone decides: the transformer's shape, the parallelism, the counts (DLIO's `validate`
//! where it has one). What depends on the ranks is checked by the command (`src/dlio`).

use super::error::{ConfigError, ErrorKind};
use super::{CheckpointMode, DlioParams};

fn bad(key: &str, message: impl std::fmt::Display) -> ConfigError {
    ConfigError::at(ErrorKind::BadValue, key, message)
}

pub(super) fn check(p: &DlioParams) -> Result<(), ConfigError> {
    let m = &p.model;
    let c = &p.checkpoint;
    if m.num_layers <= 0 {
        return Err(ConfigError::at(
            ErrorKind::Unsupported,
            "model.num_layers",
            format!(
                "{}: iogauge checkpoints a transformer, whose shards come from model.num_layers \
                 and model.transformer (as the llama3 configs set them); DLIO's older \
                 model_size_bytes checkpoints are not emulated",
                m.num_layers
            ),
        ));
    }
    let t = &m.transformer;
    for (key, v) in [
        ("model.transformer.vocab_size", t.vocab_size),
        ("model.transformer.hidden_size", t.hidden_size),
        ("model.transformer.ffn_hidden_size", t.ffn_hidden_size),
        (
            "model.transformer.num_attention_heads",
            t.num_attention_heads,
        ),
        ("model.transformer.num_kv_heads", t.num_kv_heads),
        ("model.parallelism.tensor", m.parallelism.tensor),
        ("model.parallelism.pipeline", m.parallelism.pipeline),
    ] {
        if v == 0 {
            return Err(bad(key, "0: at least 1"));
        }
    }
    if m.parallelism.zero_stage > 3 {
        return Err(bad(
            "model.parallelism.zero_stage",
            format!("{}: ZeRO's stages are 0 to 3", m.parallelism.zero_stage),
        ));
    }
    match (c.mode, m.parallelism.data) {
        (CheckpointMode::Default, d) if d > 0 => {
            return Err(bad(
                "model.parallelism.data",
                format!(
                    "{d}: set only with checkpoint.mode subset; in default mode it is the ranks / \
                     (tensor x pipeline), as DLIO refuses it"
                ),
            ))
        }
        (CheckpointMode::Subset, d) if d <= 0 => {
            return Err(bad(
                "model.parallelism.data",
                format!(
                    "{d}: checkpoint.mode subset writes a part of a model of tensor x pipeline x \
                     data ranks; give the data parallelism (DLIO refuses it without)"
                ),
            ))
        }
        _ => {}
    }
    let (w, r) = (c.num_checkpoints_write, c.num_checkpoints_read);
    if w <= 0 && r <= 0 {
        return Err(bad(
            "checkpoint.num_checkpoints_write",
            format!(
                "{w} (and num_checkpoints_read {r}): nothing to write or read; a run writes at \
                 least 1 checkpoint, or reads checkpoints a run with --keep left"
            ),
        ));
    }
    if w > 0 && r > w {
        return Err(bad(
            "checkpoint.num_checkpoints_read",
            format!("{r}: more than the {w} checkpoints written (DLIO refuses it)"),
        ));
    }
    if !c.time_between_checkpoints.is_finite() {
        return Err(bad(
            "checkpoint.time_between_checkpoints",
            "seconds: a finite number (0 or less: no pause)",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llama() -> DlioParams {
        super::super::load(&["llama3_8b".to_string()])
            .unwrap()
            .params
    }

    #[test]
    fn the_shipped_llama3_configs_pass() {
        for name in ["llama3_8b", "llama3_70b", "llama3_405b", "llama3_1t"] {
            let p = super::super::load(&[name.to_string()]).unwrap().params;
            check(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(p.workflow.checkpoint && !p.workflow.train, "{name}");
        }
    }

    #[test]
    fn bad_shapes_and_counts_are_refused_by_key() {
        type Change = fn(&mut DlioParams);
        let cases: [(&str, Change); 6] = [
            ("model.num_layers", |p| p.model.num_layers = -1),
            ("model.transformer.hidden_size", |p| {
                p.model.transformer.hidden_size = 0
            }),
            ("model.parallelism.zero_stage", |p| {
                p.model.parallelism.zero_stage = 4
            }),
            ("model.parallelism.data", |p| p.model.parallelism.data = 2),
            ("checkpoint.num_checkpoints_write", |p| {
                p.checkpoint.num_checkpoints_write = 0;
                p.checkpoint.num_checkpoints_read = 0;
            }),
            ("checkpoint.num_checkpoints_read", |p| {
                p.checkpoint.num_checkpoints_write = 2;
                p.checkpoint.num_checkpoints_read = 3;
            }),
        ];
        for (key, change) in cases {
            let mut p = llama();
            change(&mut p);
            let e = check(&p).unwrap_err().to_string();
            assert!(e.contains(key), "{key}: {e}");
        }
        let mut p = llama();
        p.checkpoint.mode = CheckpointMode::Subset;
        assert!(check(&p).unwrap_err().to_string().contains("subset"));
        p.model.parallelism.data = 8;
        check(&p).unwrap();
    }
}
