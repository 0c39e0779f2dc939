//! A resolved config in DLIO's shape: the `config.yaml` of a DLIO output directory
//! (`workload:` with its sections), every key with its value, readable by DLIO (PyYAML) and
//! by [`super::load`].

use yaml_rust2::yaml::Hash;
use yaml_rust2::{Yaml, YamlEmitter};

use super::{
    CheckpointMode, DataLoader, DlioParams, Format, Framework, Profiler, Shuffle, StorageType,
};

/// The YAML text of `p`, under `workload:`.
pub fn to_dlio_yaml(p: &DlioParams) -> String {
    let mut top = Hash::new();
    top.insert(s("workload"), Yaml::Hash(workload(p)));
    let mut out = String::new();
    YamlEmitter::new(&mut out)
        .dump(&Yaml::Hash(top))
        .expect("writing to a String cannot fail");
    // The emitter starts with a document marker; DLIO's files have none.
    let body = out.strip_prefix("---\n").unwrap_or(&out);
    format!("{body}\n")
}

fn workload(p: &DlioParams) -> Hash {
    let mut w = Hash::new();
    let m = &p.model;
    w.insert(
        s("model"),
        section(&[
            ("name", Some(s(&m.name))),
            ("type", m.model_type.as_deref().map(s)),
            ("model_size", m.model_size.map(int)),
            ("model_size_bytes", Some(int(m.model_size_bytes))),
            ("num_layers", Some(Yaml::Integer(m.num_layers))),
            ("model_datatype", Some(s(m.model_datatype.name()))),
            ("optimizer_datatype", Some(s(m.optimizer_datatype.name()))),
            (
                "parallelism",
                Some(section(&[
                    ("tensor", Some(int(m.parallelism.tensor))),
                    ("pipeline", Some(int(m.parallelism.pipeline))),
                    ("data", Some(Yaml::Integer(m.parallelism.data))),
                    ("zero_stage", Some(int(m.parallelism.zero_stage))),
                ])),
            ),
            (
                "transformer",
                Some(section(&[
                    ("vocab_size", Some(int(m.transformer.vocab_size))),
                    ("hidden_size", Some(int(m.transformer.hidden_size))),
                    ("ffn_hidden_size", Some(int(m.transformer.ffn_hidden_size))),
                    (
                        "num_attention_heads",
                        Some(int(m.transformer.num_attention_heads)),
                    ),
                    ("num_kv_heads", Some(int(m.transformer.num_kv_heads))),
                ])),
            ),
        ]),
    );
    let framework = match p.framework {
        Framework::Pytorch => "pytorch",
        Framework::Tensorflow => "tensorflow",
    };
    w.insert(s("framework"), s(framework));
    let f = &p.workflow;
    w.insert(
        s("workflow"),
        section(&[
            ("generate_data", Some(Yaml::Boolean(f.generate_data))),
            ("train", Some(Yaml::Boolean(f.train))),
            ("evaluation", Some(Yaml::Boolean(f.evaluation))),
            ("checkpoint", Some(Yaml::Boolean(f.checkpoint))),
            ("profiling", Some(Yaml::Boolean(f.profiling))),
            ("debug", Some(Yaml::Boolean(f.debug))),
        ]),
    );
    let storage_type = match p.storage.storage_type {
        StorageType::LocalFs => "local_fs",
        StorageType::DirectFs => "direct_fs",
    };
    w.insert(
        s("storage"),
        section(&[
            ("storage_type", Some(s(storage_type))),
            ("storage_root", Some(s(&p.storage.storage_root))),
        ]),
    );
    w.insert(s("dataset"), dataset(p));
    w.insert(s("reader"), reader(p));
    let t = &p.train;
    w.insert(
        s("train"),
        section(&[
            ("epochs", Some(int(t.epochs))),
            ("computation_time", Some(real(t.computation_time))),
            (
                "computation_time_stdev",
                Some(real(t.computation_time_stdev)),
            ),
            (
                "total_training_steps",
                Some(Yaml::Integer(t.total_training_steps)),
            ),
            (
                "seed_change_epoch",
                Some(Yaml::Boolean(t.seed_change_epoch)),
            ),
            ("seed", Some(Yaml::Integer(t.seed))),
        ]),
    );
    let e = &p.evaluation;
    w.insert(
        s("evaluation"),
        section(&[
            ("eval_time", Some(real(e.eval_time))),
            ("eval_time_stdev", Some(real(e.eval_time_stdev))),
            ("eval_after_epoch", Some(int(e.eval_after_epoch))),
            ("epochs_between_evals", Some(int(e.epochs_between_evals))),
        ]),
    );
    let c = &p.checkpoint;
    w.insert(
        s("checkpoint"),
        section(&[
            ("checkpoint_folder", Some(s(&c.checkpoint_folder))),
            (
                "checkpoint_after_epoch",
                Some(int(c.checkpoint_after_epoch)),
            ),
            (
                "epochs_between_checkpoints",
                Some(int(c.epochs_between_checkpoints)),
            ),
            (
                "steps_between_checkpoints",
                Some(Yaml::Integer(c.steps_between_checkpoints)),
            ),
            ("fsync", Some(Yaml::Boolean(c.fsync))),
            (
                "time_between_checkpoints",
                Some(real(c.time_between_checkpoints)),
            ),
            (
                "num_checkpoints_write",
                Some(Yaml::Integer(c.num_checkpoints_write)),
            ),
            (
                "num_checkpoints_read",
                Some(Yaml::Integer(c.num_checkpoints_read)),
            ),
            (
                "recovery_rank_shift",
                Some(Yaml::Boolean(c.recovery_rank_shift)),
            ),
            ("rank_sync", Some(Yaml::Boolean(c.rank_sync))),
            (
                "mode",
                Some(s(match c.mode {
                    CheckpointMode::Default => "default",
                    CheckpointMode::Subset => "subset",
                })),
            ),
            ("randomize_tensor", Some(Yaml::Boolean(c.randomize_tensor))),
        ]),
    );
    let o = &p.output;
    w.insert(
        s("output"),
        section(&[
            ("folder", o.folder.as_deref().map(s)),
            ("log_file", Some(s(&o.log_file))),
            (
                "metric",
                Some(section(&[
                    ("exclude_start_steps", Some(int(o.exclude_start_steps))),
                    ("exclude_end_steps", Some(int(o.exclude_end_steps))),
                ])),
            ),
        ]),
    );
    w.insert(s("metric"), section(&[("au", Some(real(p.metric.au)))]));
    let profiler = match p.profiling.profiler {
        Profiler::None => "none",
        Profiler::Iostat => "iostat",
        Profiler::Darshan => "darshan",
        Profiler::Tensorboard => "tensorboard",
    };
    w.insert(s("profiling"), section(&[("profiler", Some(s(profiler)))]));
    w
}

fn dataset(p: &DlioParams) -> Yaml {
    let d = &p.dataset;
    let format = match d.format {
        Format::Npz => "npz",
        Format::Tfrecord => "tfrecord",
        Format::Jpeg => "jpeg",
    };
    section(&[
        ("data_folder", Some(s(&d.data_folder))),
        ("format", Some(s(format))),
        ("num_files_train", Some(int(d.num_files_train))),
        ("num_files_eval", Some(int(d.num_files_eval))),
        ("num_samples_per_file", Some(int(d.num_samples_per_file))),
        ("record_length_bytes", Some(real(d.record_length_bytes))),
        (
            "record_length_bytes_stdev",
            Some(real(d.record_length_bytes_stdev)),
        ),
        (
            "record_length_bytes_resize",
            Some(int(d.record_length_bytes_resize)),
        ),
        ("num_subfolders_train", Some(int(d.num_subfolders_train))),
        ("num_subfolders_eval", Some(int(d.num_subfolders_eval))),
        ("file_prefix", Some(s(&d.file_prefix))),
    ])
}

fn reader(p: &DlioParams) -> Yaml {
    let r = &p.reader;
    let loader = match r.data_loader {
        DataLoader::Pytorch => "pytorch",
        DataLoader::Tensorflow => "tensorflow",
    };
    section(&[
        ("data_loader", Some(s(loader))),
        ("batch_size", Some(int(r.batch_size))),
        ("batch_size_eval", Some(int(r.batch_size_eval))),
        ("read_threads", Some(int(r.read_threads))),
        ("computation_threads", Some(int(r.computation_threads))),
        ("prefetch_size", Some(int(r.prefetch_size))),
        // DLIO keeps file_shuffle's text and compares it with its enum, so any value written
        // (`off` too) turns file shuffling on; off is written by leaving the key out.
        (
            "file_shuffle",
            (r.file_shuffle != Shuffle::Off).then(|| s(shuffle(r.file_shuffle))),
        ),
        ("sample_shuffle", Some(s(shuffle(r.sample_shuffle)))),
        ("shuffle_size", Some(int(r.shuffle_size))),
        ("transfer_size", r.transfer_size.map(int)),
        ("odirect", Some(Yaml::Boolean(r.odirect))),
        ("dont_use_mmap", Some(Yaml::Boolean(r.dont_use_mmap))),
    ])
}

fn shuffle(x: Shuffle) -> &'static str {
    match x {
        Shuffle::Off => "off",
        Shuffle::Seed => "seed",
        Shuffle::Random => "random",
    }
}

/// A mapping of the entries that have a value, in order.
fn section(entries: &[(&str, Option<Yaml>)]) -> Yaml {
    let mut h = Hash::new();
    for (k, v) in entries {
        if let Some(v) = v {
            h.insert(s(k), v.clone());
        }
    }
    Yaml::Hash(h)
}

fn s(text: &str) -> Yaml {
    Yaml::String(text.to_string())
}

/// Counts beyond i64 do not occur in a config that loaded (YAML integers are i64).
fn int(n: u64) -> Yaml {
    match i64::try_from(n) {
        Ok(i) => Yaml::Integer(i),
        Err(_) => Yaml::Real(fmt_real(n as f64)),
    }
}

fn real(x: f64) -> Yaml {
    Yaml::Real(fmt_real(x))
}

/// The shortest text that reads back as `x`, in a form PyYAML (YAML 1.1, which DLIO's
/// OmegaConf uses) also reads as a float: a point in the mantissa, a sign on the exponent.
pub(super) fn fmt_real(x: f64) -> String {
    let t = format!("{x:?}");
    match t.split_once('e') {
        None => t,
        Some((mantissa, exp)) => {
            let mantissa = if mantissa.contains('.') {
                mantissa.to_string()
            } else {
                format!("{mantissa}.0")
            };
            let exp = if exp.starts_with('-') {
                exp.to_string()
            } else {
                format!("+{exp}")
            };
            format!("{mantissa}e{exp}")
        }
    }
}
