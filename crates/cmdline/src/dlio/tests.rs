use super::*;
use plan::dlio::datasize::System;

fn p(line: &str) -> Result<DlioLine, UsageError> {
    parse(
        &line
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>(),
    )
}

fn run(line: &str) -> DlioCommand {
    match p(line) {
        Ok(DlioLine::Run(c)) => c,
        other => panic!("{line}: {other:?}"),
    }
}

fn size(line: &str) -> DatasizeCommand {
    match p(line) {
        Ok(DlioLine::Datasize(c)) => c,
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn a_run_line() {
    let c = run("resnet50_h100 ++workload.reader.read_threads=2 --tasks 4 --data-dir /d/resnet50/ --output=/o --json r.json");
    assert_eq!(c.source, Some(Source::Shipped("resnet50_h100".into())));
    assert_eq!(c.overrides, ["++workload.reader.read_threads=2"]);
    assert_eq!((c.params.reader.read_threads, c.launch.tasks), (2, Some(4)));
    assert_eq!(c.params.dataset.data_folder, "/d/resnet50");
    assert_eq!(c.params.output.folder.as_deref(), Some("/o"));
    assert_eq!(c.launch.json, Some(PathBuf::from("r.json")));
    // DLIO's own form of choosing the config.
    let c = run("workload=cosmoflow_h100 ++workload.train.epochs=1");
    assert_eq!(c.params.model.name, "cosmoflow");
    assert!(run("--help").launch.help);
    assert!(run("unknown_thing -h").launch.help);
    let c = run("resnet50_h100 --tasks 4 --fake-nodes 2 --fake-placement round-robin");
    assert_eq!((c.launch.fake_nodes, c.launch.round_robin), (Some(2), true));
}

#[test]
fn bad_run_lines_are_usage_errors_naming_the_problem() {
    for (line, says) in [
        ("unet3d_h100", "workload.workflow.checkpoint: True"),
        ("unet3d_h100", "++workload.workflow.checkpoint=False"),
        ("resnet50_h100 --keep", "--keep applies to a checkpoint run"),
        ("llama3_8b --keep=yes", "--keep takes no value"),
        (
            "resnet50_h100 ++workload.dataset.format=parquet",
            "dlio: workload.dataset.format: parquet",
        ),
        (
            "resnet50_h100 ++workload.reader.data_loader=dali",
            "workload.reader.data_loader: dali",
        ),
        (
            "resnet50_h100 ++workload.reader.bach_size=4",
            "did you mean batch_size?",
        ),
        ("dlrm_h100", "dlrm"),
        ("", "no workload given"),
        (
            "resnet50_h100 --task 4",
            "unknown option --task; did you mean --tasks?",
        ),
        (
            "resnet50_h100 --hosts 4",
            "--hosts is an option of datasize",
        ),
        ("resnet50_h100 --tasks", "--tasks needs a value"),
        (
            "resnet50_h100 --tasks 0",
            "--tasks 0: expected a whole number of 1 or more",
        ),
        (
            "resnet50_h100 --tasks 2 --tasks 3",
            "--tasks is given twice",
        ),
        (
            "resnet50_h100 --tasks 2 --fake-placement cyclic",
            "--fake-placement cyclic: expected block or round-robin",
        ),
        ("resnet50_h100 --help=1", "--help takes no value"),
        (
            "resnet50_h100 --data-dir /a ++workload.dataset.data_folder=/b",
            "--data-dir and an override of workload.dataset.data_folder",
        ),
    ] {
        let e = p(line).unwrap_err();
        assert!(e.0.starts_with("dlio: "), "{line}: {e}");
        assert!(e.0.contains(says), "{line}: {e}");
    }
}

#[test]
fn keep_is_a_flag_of_checkpoint_runs() {
    assert!(run("llama3_8b --keep --tasks 8").keep);
    assert!(!run("llama3_8b --tasks 8").keep);
}

#[test]
fn a_datasize_line() {
    let c = size("datasize unet3d_h100 --accelerators 8 --hosts 1 --host-memory 128g");
    assert_eq!(
        c.system,
        System {
            accelerators: 8,
            hosts: 1,
            host_memory_bytes: 128 << 30
        }
    );
    // datasize only reads sizes: unet3d's checkpoint flag is no reason to refuse it.
    assert!(c.params.workflow.checkpoint);
    let r = datasize_report(&c);
    // 500 x 7 x 8 = 28000 samples; 128 GiB x 5 / 146600628 = 4687.5: the steps decide.
    for says in [
        "500 steps x batch 7 x 8 accelerator(s) = 28000 samples",
        "1 host(s) x 128 GiB x 5 / 146600628 bytes a sample = 4687.5 samples",
        "files: 28000 (500 steps per epoch decide; 1 sample(s) a file, rounded up)",
        // 28000 x 146600628 = 4,104,817,584,000 bytes / 2^30 = 3822.909 GiB.
        "data set: 3822.91 GiB",
        "num_subfolders_train=2",
        "generate it with: iogauge dlio unet3d_h100 ++workload.workflow.generate_data=True \
         ++workload.workflow.train=False ++workload.workflow.checkpoint=False \
         ++workload.dataset.num_files_train=28000 --tasks 8 --data-dir DIR",
    ] {
        assert!(r.contains(says), "{says}\n{r}");
    }
    assert!(!r.contains("mlpstorage v2.0"), "{r}");
    // resnet50: 16 x 500 x 400 = 3,200,000 samples / 1251 = 2557.95 files; 8 GiB of memory
    // is less: 2558 files, where mlpstorage prints 2557.
    let c = size("datasize resnet50_h100 ++workload.reader.read_threads=2 --accelerators 16 --hosts 1 --host-memory 8g");
    let r = datasize_report(&c);
    assert!(r.contains("files: 2558 ("), "{r}");
    assert!(
        r.contains("rounds each rule down and prints 2557 files"),
        "{r}"
    );
    assert!(
        r.contains(
            "resnet50_h100 ++workload.reader.read_threads=2 ++workload.workflow.generate_data"
        ),
        "{r}"
    );
    assert!(size("datasize --help").help);
}

#[test]
fn bad_datasize_lines() {
    for (line, says) in [
        (
            "datasize unet3d_h100 --hosts 1 --host-memory 1g",
            "needs --accelerators N",
        ),
        (
            "datasize unet3d_h100 --accelerators 1 --host-memory 1g",
            "needs --hosts H",
        ),
        (
            "datasize unet3d_h100 --accelerators 1 --hosts 1",
            "needs --host-memory SIZE",
        ),
        (
            "datasize unet3d_h100 --accelerators 1 --hosts 1 --host-memory 512",
            "give the unit (512g",
        ),
        (
            "datasize unet3d_h100 --accelerators 1 --hosts 1 --host-memory 0g",
            "a host has some memory",
        ),
        (
            "datasize unet3d_h100 --accelerators x --hosts 1 --host-memory 1g",
            "--accelerators x",
        ),
        (
            "datasize unet3d_h100 --tasks 2",
            "--tasks is an option of a run",
        ),
        (
            "datasize flux_b200 --accelerators 1 --hosts 1 --host-memory 1g",
            "parquet",
        ),
    ] {
        let e = p(line).unwrap_err();
        assert!(e.0.contains(says), "{line}: {e}");
    }
}
