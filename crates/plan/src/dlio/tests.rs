//! Loading: the shipped configs, each override form, both spellings, DLIO's value forms, the
//! refusals (each naming its key), and the round trip through DLIO's shape.

use super::*;
use proptest::prelude::*;

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

fn load_line(line: &str) -> Result<DlioParams, ConfigError> {
    load(&words(line)).map(|l| l.params)
}

fn err(line: &str) -> ConfigError {
    load_line(line).expect_err(line)
}

/// A YAML file in a temporary directory, loaded with `extra` words.
fn load_file(name: &str, yaml: &str, extra: &str) -> Result<DlioParams, ConfigError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, yaml).unwrap();
    let mut w = vec![path.display().to_string()];
    w.extend(words(extra));
    load(&w).map(|l| l.params)
}

#[test]
fn every_shipped_config_loads_with_mlperf_values() {
    for name in shipped::names() {
        let l = load(&[name.to_string()]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(l.source, Source::Shipped(name.to_string()));
        assert!(l.params.dataset.num_files_train > 0, "{name}");
    }
    let u = load_line("unet3d_h100").unwrap();
    assert_eq!(
        (u.framework, u.reader.data_loader),
        (Framework::Pytorch, DataLoader::Pytorch)
    );
    assert_eq!(
        (u.dataset.format, u.dataset.num_files_train),
        (Format::Npz, 168)
    );
    assert_eq!(u.dataset.data_folder, "data/unet3d");
    assert_eq!(u.dataset.record_length_bytes, 146_600_628.0);
    assert_eq!(u.dataset.record_length_bytes_stdev, 68_341_808.0);
    assert_eq!(u.dataset.record_length_bytes_resize, 2_097_152);
    assert_eq!((u.reader.batch_size, u.reader.read_threads), (7, 4));
    assert_eq!(
        (u.reader.file_shuffle, u.reader.sample_shuffle),
        (Shuffle::Seed, Shuffle::Seed)
    );
    assert_eq!(
        (u.train.epochs, u.train.computation_time, u.metric.au),
        (5, 0.323, 0.90)
    );
    assert!(u.workflow.checkpoint && u.workflow.train && !u.workflow.generate_data);
    assert_eq!(u.model.model_size, Some(499_153_191));
    assert_eq!(u.checkpoint.checkpoint_folder, "checkpoints/unet3d");
    assert_eq!(
        load_line("unet3d_a100").unwrap().train.computation_time,
        0.636
    );
    let r = load_line("resnet50_h100").unwrap();
    assert_eq!(
        (r.dataset.format, r.reader.data_loader),
        (Format::Tfrecord, DataLoader::Tensorflow)
    );
    assert_eq!(r.dataset.record_length_bytes, 114_660.07);
    assert_eq!(
        (r.dataset.num_samples_per_file, r.reader.computation_threads),
        (1251, 8)
    );
    assert!(!r.reader.dont_use_mmap && load_line("resnet50_a100").unwrap().reader.dont_use_mmap);
    // Unset keys keep DLIO's defaults.
    assert_eq!(
        (
            r.reader.prefetch_size,
            r.train.seed,
            r.output.exclude_start_steps
        ),
        (2, 123, 1)
    );
    let c = load_line("cosmoflow_h100").unwrap();
    assert_eq!(
        (c.reader.shuffle_size, c.metric.au, c.train.computation_time),
        (2, 0.70, 0.0035)
    );
    let b = load_line("retinanet_b200").unwrap();
    assert_eq!(
        (b.dataset.format, b.dataset.num_files_train),
        (Format::Jpeg, 1_170_301)
    );
    assert_eq!(
        load_line("unet3d_b200").unwrap().train.computation_time,
        0.162
    );
}

#[test]
fn checkpointing_is_refused_for_a_run_with_the_fix() {
    let e = load_line("unet3d_h100")
        .unwrap()
        .check_runnable()
        .unwrap_err();
    assert_eq!(
        (e.kind, e.key.as_deref()),
        (ErrorKind::Unsupported, Some("workload.workflow.checkpoint"))
    );
    assert!(
        e.message.contains("++workload.workflow.checkpoint=False"),
        "{e}"
    );
    load_line("unet3d_h100 ++workload.workflow.checkpoint=False")
        .unwrap()
        .check_runnable()
        .unwrap();
    for name in [
        "resnet50_h100",
        "cosmoflow_a100",
        "unet3d_b200",
        "retinanet_b200",
    ] {
        load_line(name).unwrap().check_runnable().unwrap();
    }
    let e = load_line("resnet50_h100 ++workload.workflow.train=False")
        .unwrap()
        .check_runnable()
        .unwrap_err();
    assert!(e.message.contains("nothing to do"), "{e}");
}

#[test]
fn each_override_form() {
    // ++ sets a present key and adds an absent one.
    let p = load_line(
        "resnet50_h100 ++workload.dataset.num_files_train=64 ++workload.reader.odirect=True",
    )
    .unwrap();
    assert_eq!((p.dataset.num_files_train, p.reader.odirect), (64, true));
    // + adds an absent key; Hydra refuses it on a present one.
    assert_eq!(
        load_line("resnet50_h100 +workload.reader.prefetch_size=8")
            .unwrap()
            .reader
            .prefetch_size,
        8
    );
    let e = err("resnet50_h100 +workload.reader.batch_size=8");
    assert_eq!(e.kind, ErrorKind::Override);
    assert!(
        e.message.contains("use ++workload.reader.batch_size=8"),
        "{e}"
    );
    // A plain key replaces a present key; Hydra refuses it on an absent one.
    assert_eq!(
        load_line("resnet50_h100 workload.reader.batch_size=8")
            .unwrap()
            .reader
            .batch_size,
        8
    );
    let e = err("resnet50_h100 workload.reader.prefetch_size=8");
    assert_eq!(e.kind, ErrorKind::Override);
    assert!(
        e.message
            .contains("add it with ++workload.reader.prefetch_size=8"),
        "{e}"
    );
    // workload=NAME selects, in any place; with the same name as a positional word too.
    let p = load_line("++workload.train.epochs=2 workload=cosmoflow_h100").unwrap();
    assert_eq!((p.model.name.as_str(), p.train.epochs), ("cosmoflow", 2));
    load_line("cosmoflow_h100 workload=cosmoflow_h100").unwrap();
    assert!(err("cosmoflow_h100 workload=unet3d_h100")
        .message
        .contains("two workloads"));
    assert_eq!(err("++workload.train.epochs=2").kind, ErrorKind::NotFound);
    // A new section, and a section that the config has as an empty key.
    let p = load_line("resnet50_h100 ++workload.output.metric.exclude_start_steps=0").unwrap();
    assert_eq!(p.output.exclude_start_steps, 0);
    let p = load_file(
        "w.yaml",
        "reader:\ndataset:\n  format: npz\nframework: pytorch\n",
        "++workload.reader.data_loader=pytorch",
    )
    .unwrap();
    assert_eq!(p.reader.data_loader, DataLoader::Pytorch);
    for (line, says) in [
        (
            "resnet50_h100 ~workload.reader.batch_size",
            "deleting a key",
        ),
        ("resnet50_h100 ++hydra.run.dir=/x", "--output DIR"),
        (
            "resnet50_h100 ++reader.batch_size=4",
            "++workload.reader.batch_size=4",
        ),
        ("resnet50_h100 ++workload.reader", "expected key=value"),
        ("resnet50_h100 ++workload.train.epochs.x=1", "not a section"),
    ] {
        let e = err(line);
        assert!(e.message.contains(says), "{line}: {e}");
    }
}

#[test]
fn both_spellings_of_the_record_keys() {
    let new = "framework: pytorch\nreader:\n  data_loader: pytorch\ndataset:\n  format: npz\n  \
               record_length_bytes: 1000\n  record_length_bytes_stdev: 10\n  record_length_bytes_resize: 64\n";
    let old = new.replace("record_length_bytes", "record_length");
    let a = load_file("new.yaml", new, "").unwrap();
    let b = load_file("old.yaml", &old, "").unwrap();
    assert_eq!(a, b);
    assert_eq!(
        (
            a.dataset.record_length_bytes,
            a.dataset.record_length_bytes_stdev,
            a.dataset.record_length_bytes_resize
        ),
        (1000.0, 10.0, 64)
    );
    // An override in the other spelling sets the one key.
    let p = load_line(
        "unet3d_h100 ++workload.dataset.record_length=4096 workload.dataset.record_length_stdev=0",
    )
    .unwrap();
    assert_eq!(
        (
            p.dataset.record_length_bytes,
            p.dataset.record_length_bytes_stdev
        ),
        (4096.0, 0.0)
    );
    let both = format!("{new}  record_length: 5\n");
    let e = load_file("both.yaml", &both, "").unwrap_err();
    assert!(e.message.contains("given twice"), "{e}");
}

#[test]
fn dlio_value_forms() {
    let p = load_line("resnet50_h100 ++workload.reader.batch_size=4.0 ++workload.reader.odirect=true ++workload.train.seed_change_epoch=False ++workload.reader.transfer_size=1e6")
        .unwrap();
    assert_eq!(
        (
            p.reader.batch_size,
            p.reader.odirect,
            p.train.seed_change_epoch
        ),
        (4, true, false)
    );
    assert_eq!(p.reader.transfer_size, Some(1_000_000));
    let e = err("resnet50_h100 ++workload.reader.batch_size=4.5");
    assert_eq!(
        (e.kind, e.key.as_deref()),
        (ErrorKind::BadValue, Some("workload.reader.batch_size"))
    );
    let e = err("resnet50_h100 ++workload.reader.odirect=yes");
    assert_eq!(e.key.as_deref(), Some("workload.reader.odirect"));
    let e = err("resnet50_h100 ++workload.metric.au=90");
    assert!(e.message.contains("at most 1"), "{e}");
    // DLIO's default of a setting iogauge does not emulate is accepted, another value not.
    load_line(
        "resnet50_h100 ++workload.reader.pin_memory=true ++workload.dataset.compression=none",
    )
    .unwrap();
    let e = err("resnet50_h100 ++workload.dataset.compression=gzip");
    assert_eq!(
        (e.kind, e.key.as_deref()),
        (ErrorKind::Unsupported, Some("workload.dataset.compression"))
    );
    let e = err("resnet50_h100 ++workload.train.computation_time={mean:1,stdev:0.1}");
    assert_eq!(
        (e.kind, e.key.as_deref()),
        (
            ErrorKind::Unsupported,
            Some("workload.train.computation_time")
        )
    );
    // A resolved config.yaml (under workload:) reads like a workload file.
    let p = load_file("config.yaml", "workload:\n  framework: pytorch\n  reader:\n    data_loader: pytorch\n  dataset:\n    format: jpeg\n", "").unwrap();
    assert_eq!(p.dataset.format, Format::Jpeg);
}

#[test]
fn refusals_name_the_key() {
    for (line, kind, key) in [
        (
            "resnet50_h100 ++workload.reader.batchsize=4",
            ErrorKind::UnknownKey,
            "workload.reader.batchsize",
        ),
        (
            "resnet50_h100 ++workload.readr.batch_size=4",
            ErrorKind::UnknownKey,
            "workload.readr",
        ),
        (
            "unet3d_h100 ++workload.dataset.format=parquet",
            ErrorKind::Unsupported,
            "workload.dataset.format",
        ),
        (
            "unet3d_h100 ++workload.dataset.format=hdf5",
            ErrorKind::Unsupported,
            "workload.dataset.format",
        ),
        (
            "unet3d_h100 ++workload.dataset.format=mp4",
            ErrorKind::BadValue,
            "workload.dataset.format",
        ),
        (
            "unet3d_h100 ++workload.reader.data_loader=dali",
            ErrorKind::Unsupported,
            "workload.reader.data_loader",
        ),
        (
            "unet3d_h100 ++workload.storage.storage_type=s3",
            ErrorKind::Unsupported,
            "workload.storage.storage_type",
        ),
        (
            "unet3d_h100 ++workload.reader.data_loader=tensorflow",
            ErrorKind::BadValue,
            "workload.reader.data_loader",
        ),
        (
            "unet3d_h100 ++workload.checkpoint.num_layers=32",
            ErrorKind::Unsupported,
            "workload.checkpoint.num_layers",
        ),
        (
            "llama3_8b ++workload.model.layer_parameters=[1,2]",
            ErrorKind::Unsupported,
            "workload.model.layer_parameters",
        ),
        (
            "llama3_8b ++workload.model.model_datatype=fp8",
            ErrorKind::BadValue,
            "workload.model.model_datatype",
        ),
        (
            "resnet50_h100 ++workload.framework=pytorch ++workload.reader.data_loader=pytorch",
            ErrorKind::Unsupported,
            "workload.dataset.format",
        ),
    ] {
        let e = err(line);
        assert_eq!((e.kind, e.key.as_deref()), (kind, Some(key)), "{line}: {e}");
        assert!(e.message.starts_with(key), "{line}: {e}");
    }
    assert!(err("resnet50_h100 ++workload.reader.batchsize=4")
        .message
        .contains("did you mean batch_size?"));
    assert!(err("unet3d_h100 ++workload.dataset.format=parquet")
        .message
        .contains("npz, tfrecord, jpeg"));
    // MLPerf Storage's configs iogauge does not emulate, by name.
    for (name, says) in [
        ("dlrm_b200", "parquet"),
        ("flux_b200", "parquet"),
        ("llama_8b_zero3", "llama3_8b, llama3_70b"),
        ("retinanet_mi355", "MI355"),
        ("unet3d_datagen", "++workload.workflow.generate_data=True"),
    ] {
        let e = err(name);
        assert_eq!(e.kind, ErrorKind::Unsupported, "{name}");
        assert!(e.message.contains(says), "{name}: {e}");
    }
    let e = err("unet3d_h10");
    assert_eq!(e.kind, ErrorKind::NotFound);
    assert!(e.message.contains("did you mean unet3d_h100?"), "{e}");
    assert_eq!(err("/nonexistent/w.yaml").kind, ErrorKind::NotFound);
}

#[test]
fn dlio_dlrm_and_llama_files_are_refused_by_their_keys() {
    // DLIO's own dlrm.yaml and llama_8b_zero3.yaml (their keys, values abridged).
    let dlrm = "model:\n  name: dlrm\nframework: pytorch\nworkflow:\n  generate_data: False\n  train: True\n\
                dataset:\n  data_folder: data/dlrm\n  format: indexed_binary\n  num_files_train: 1\n";
    let e = load_file("mine.yaml", dlrm, "").unwrap_err();
    assert_eq!(
        (e.kind, e.key.as_deref()),
        (ErrorKind::Unsupported, Some("workload.dataset.format"))
    );
    // DLIO's llama_8b_zero3.yaml trains (train defaults to True) with checkpoints: a run
    // refuses checkpointing during training; with train False it is a checkpoint workload.
    let llama = "model:\n  name: llama_8b\n  type: transformer\n  num_layers: 32\n  parallelism:\n    tensor: 1\n\
                 framework: pytorch\nworkflow:\n  checkpoint: True\n";
    let p = load_file("mine.yaml", llama, "++workload.dataset.format=npz").unwrap();
    let e = p.check_runnable().unwrap_err();
    assert_eq!(e.key.as_deref(), Some("workload.workflow.checkpoint"));
    assert!(e.message.contains("during training"), "{e}");
    let p = load_file(
        "mine.yaml",
        llama,
        "++workload.workflow.train=False ++workload.checkpoint.num_checkpoints_write=1",
    )
    .unwrap();
    p.check_runnable().unwrap();
    let e = load_file("retinanet_mi355.yaml", "framework: pytorch\n", "").unwrap_err();
    assert!(e.message.contains("MI355"), "{e}");
    // MLPerf Storage's datagen file is a config like the others.
    let datagen = "framework: pytorch\nworkflow:\n  generate_data: True\n  train: False\n  checkpoint: False\n\
                   dataset:\n  format: npz\n  num_files_train: 168\n";
    let p = load_file("unet3d_datagen.yaml", datagen, "").unwrap();
    assert!(p.workflow.generate_data && !p.workflow.train);
    p.check_runnable().unwrap();
    let e = load_file("x.yaml", "dataset: [1, 2]\n", "").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    let e = load_file("x.yaml", "dataset:\n  format: npz\n  bad: [\n", "").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
}

#[test]
fn shipped_configs_round_trip_through_dlio_shape() {
    for name in shipped::names() {
        let p = load_line(name).unwrap();
        let text = to_dlio_yaml(&p);
        assert!(text.starts_with("workload:\n"), "{text}");
        assert_eq!(parse_yaml(&text).unwrap(), p, "{name}:\n{text}");
    }
    let text = to_dlio_yaml(&load_line("resnet50_h100").unwrap());
    assert!(text.contains("record_length_bytes: 114660.07"), "{text}");
    assert!(text.contains("computation_time: 0.224"), "{text}");
    // resnet50 leaves file shuffling off: DLIO would shuffle for any file_shuffle written.
    assert!(!text.contains("file_shuffle"), "{text}");
    assert!(text.contains("sample_shuffle: \"off\""), "{text}");
}

#[test]
fn reals_read_as_floats_in_yaml_1_1_too() {
    assert_eq!(render::fmt_real(1.0), "1.0");
    assert_eq!(render::fmt_real(1e21), "1.0e+21");
    assert_eq!(render::fmt_real(1.5e-7), "1.5e-7");
    assert_eq!(render::fmt_real(114660.07), "114660.07");
}

fn word() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_/.]{0,12}"
}

prop_compose! {
    fn any_params()(
        names in (word(), proptest::option::of(word()), word(), word(), word()),
        counts in proptest::collection::vec(0u64..(1 << 40), 20),
        reals in proptest::collection::vec(0.0f64..1e9, 6),
        au in 0.01f64..=1.0,
        flags in proptest::collection::vec(any::<bool>(), 6),
        choices in (0usize..3, 0usize..3, 0usize..3, 0usize..4, any::<bool>()),
        signed in (-1i64..1_000_000, any::<i64>(), -1i64..100),
        options in (proptest::option::of(0u64..1 << 40), proptest::option::of(1u64..1 << 30), proptest::option::of(word())),
    ) -> DlioParams {
        let shuffles = [Shuffle::Off, Shuffle::Seed, Shuffle::Random];
        let profilers = [Profiler::None, Profiler::Iostat, Profiler::Darshan, Profiler::Tensorboard];
        let (fw, loader) = if choices.4 {
            (Framework::Pytorch, DataLoader::Pytorch)
        } else {
            (Framework::Tensorflow, DataLoader::Tensorflow)
        };
        let format = [Format::Npz, Format::Tfrecord, Format::Jpeg][choices.0];
        let format = if fw == Framework::Pytorch && format == Format::Tfrecord { Format::Npz } else { format };
        let c = |i: usize| counts[i];
        DlioParams {
            model: Model {
                name: names.0, model_type: names.1, model_size: options.0, model_size_bytes: c(0),
                num_layers: signed.2,
                model_datatype: [Datatype::Fp16, Datatype::Bf16, Datatype::Int8][choices.0],
                optimizer_datatype: [Datatype::Fp32, Datatype::Fp64, Datatype::Uint8][choices.1],
                parallelism: Parallelism {
                    tensor: c(1).max(1), pipeline: c(2).max(1), data: signed.0, zero_stage: c(3) % 4,
                },
                transformer: Transformer {
                    vocab_size: c(4), hidden_size: c(5), ffn_hidden_size: c(6),
                    num_attention_heads: c(7), num_kv_heads: c(8),
                },
            },
            framework: fw,
            workflow: Workflow {
                generate_data: flags[0], train: flags[1], evaluation: flags[2],
                checkpoint: flags[3], profiling: flags[4], debug: flags[5],
            },
            storage: Storage {
                storage_type: if flags[5] { StorageType::DirectFs } else { StorageType::LocalFs },
                storage_root: names.2,
            },
            dataset: Dataset {
                data_folder: names.3.trim_end_matches('/').to_string() + "x",
                format,
                num_files_train: c(1), num_files_eval: c(2),
                num_samples_per_file: c(3).max(1),
                record_length_bytes: reals[0].max(1.0),
                record_length_bytes_stdev: reals[1],
                record_length_bytes_resize: c(4),
                num_subfolders_train: c(5), num_subfolders_eval: c(6),
                file_prefix: names.4,
            },
            reader: Reader {
                data_loader: loader,
                batch_size: c(7).max(1), batch_size_eval: c(8).max(1),
                read_threads: c(9), computation_threads: c(10), prefetch_size: c(11),
                file_shuffle: shuffles[choices.1], sample_shuffle: shuffles[choices.2],
                shuffle_size: c(12), transfer_size: options.1,
                odirect: flags[0] ^ flags[5], dont_use_mmap: flags[1] ^ flags[4],
            },
            train: Train {
                epochs: c(13).max(1),
                computation_time: reals[2], computation_time_stdev: reals[3],
                total_training_steps: if signed.0 == 0 { -1 } else { signed.0 },
                seed_change_epoch: flags[2] ^ flags[3], seed: signed.1,
            },
            evaluation: Evaluation {
                eval_time: reals[4], eval_time_stdev: reals[5],
                eval_after_epoch: c(14), epochs_between_evals: c(15),
            },
            checkpoint: Checkpoint {
                checkpoint_folder: "ck".into(),
                checkpoint_after_epoch: c(16), epochs_between_checkpoints: c(17),
                steps_between_checkpoints: signed.2,
                fsync: flags[0], time_between_checkpoints: reals[2],
                num_checkpoints_write: signed.0, num_checkpoints_read: signed.2,
                recovery_rank_shift: flags[1], rank_sync: flags[2],
                mode: if flags[3] { CheckpointMode::Subset } else { CheckpointMode::Default },
                randomize_tensor: flags[4],
            },
            output: Output {
                folder: options.2, log_file: "dlio.log".into(),
                exclude_start_steps: c(18), exclude_end_steps: c(19),
            },
            metric: Metric { au },
            profiling: Profiling { profiler: profilers[choices.3] },
        }
    }
}

proptest! {
    #[test]
    fn parse_of_render_round_trips(p in any_params()) {
        let text = to_dlio_yaml(&p);
        prop_assert_eq!(parse_yaml(&text).unwrap(), p, "{}", text);
    }
}
