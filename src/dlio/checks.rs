//! `iogauge dlio`'s checks before any I/O: the config's refusals for a run, the combinations
//! DLIO cannot run (`TrainParams::check`, the short last rank), the generation's spec, the
//! data set on disk for a training run that does not generate it, the output directory; and
//! the warning when the data set is below MLPerf Storage's minimum.

use std::path::PathBuf;

use cmdline::dlio::DlioCommand;
use plan::dlio::datasize::{datasize, System};
use plan::dlio::DlioParams;
use results::{Alert, AlertId};
use workload::dlio::config;
use workload::dlio::data::{FileEncoder, Split};
use workload::dlio::train::steps;

use super::Prepared;
use crate::command::Checked;
use crate::world::RankSetup;

pub(super) fn check(cmd: &DlioCommand, setup: &RankSetup) -> Result<Checked<Prepared>, String> {
    let p = &cmd.params;
    let ranks = setup.ranks() as u64;
    p.check_runnable().map_err(|e| e.to_string())?;
    let memory = results::capture(None).memory_bytes;
    if p.workflow.generate_data {
        let encoder = FileEncoder::new(config::gen_spec(p)).map_err(|e| e.to_string())?;
        let nodes = setup.node_map().num_nodes().max(1) as u64;
        largest_file_fits(p, &encoder, ranks.div_ceil(nodes), memory)?;
    }
    let mut found = 0;
    if p.workflow.train {
        let tp = config::train_params(p, ranks, 0);
        tp.check()?;
        let short = steps::short_ranks(&tp);
        if !short.is_empty() {
            return Err(short_ranks_message(p, ranks, &short));
        }
        if !p.workflow.generate_data {
            found = data_set_on_disk(p)?;
        }
    }
    let mut checkpoint = super::checkpoint_checks::Found {
        alerts: Vec::new(),
        notes: Vec::new(),
    };
    if p.is_checkpoint_run() {
        checkpoint = super::checkpoint_checks::check(p, setup, memory)?;
    }
    let output_dir = output_dir(p);
    check_output(&output_dir)?;
    let system = System {
        accelerators: ranks,
        hosts: setup.node_map().num_nodes() as u64,
        host_memory_bytes: memory,
    };
    let minimum = datasize(p, &system).files;
    let below = p
        .workflow
        .train
        .then(|| below_minimum(p, &system, minimum))
        .flatten();
    let below = below.filter(|_| {
        crate::policy::get()
            .thresholds
            .is_on(AlertId::DlioDatasetBelowMinimum)
    });
    let mut warnings: Vec<String> = below.iter().map(|a| a.message.clone()).collect();
    warnings.extend(checkpoint.alerts.iter().map(|a| a.message.clone()));
    warnings.extend(checkpoint.notes);
    Ok(Checked {
        warnings,
        prepared: Prepared {
            output_dir,
            train_files_found: found,
            minimum_files: minimum,
            below_minimum: below,
            checkpoint_alerts: checkpoint.alerts,
        },
    })
}

/// DLIO's torch loader drops the last partial batch of each rank's range, so some ranks
/// would take fewer steps than the others and DLIO hangs at its barriers: refused, with a
/// file count that gives every rank the same steps.
fn short_ranks_message(p: &DlioParams, ranks: u64, short: &[u64]) -> String {
    let per_file = p.dataset.num_samples_per_file.max(1);
    let unit = p.reader.batch_size * ranks;
    let files = (p.dataset.num_files_train * per_file / unit).max(1) * unit;
    let fix = files.div_ceil(per_file);
    let names: Vec<String> = short.iter().map(u64::to_string).collect();
    format!(
        "with {ranks} ranks, rank(s) {} would take fewer steps per epoch than the others (DLIO's loader drops each rank's last partial batch; DLIO hangs here): \
         make the training samples a multiple of batch x ranks ({unit}), e.g. ++workload.dataset.num_files_train={fix}",
        names.join(", ")
    )
}

/// Each rank makes one whole file in memory before writing it: the largest file the size
/// distribution draws, times the ranks a node runs, must fit in half the host's memory
/// (`memory` bytes; 0 when unknown skips the check). Otherwise the generation would fail, or
/// be killed for memory, mid-way.
fn largest_file_fits(
    p: &DlioParams,
    encoder: &FileEncoder,
    writers_per_node: u64,
    memory: u64,
) -> Result<(), String> {
    let samples = p.dataset.num_samples_per_file;
    let largest = [
        (Split::Train, p.dataset.num_files_train),
        (Split::Valid, p.dataset.num_files_eval),
    ]
    .into_iter()
    .filter_map(|(split, n)| Some((split, encoder.sizes().largest(split, n)?)))
    .max_by_key(|(_, (_, d))| d.sample_bytes());
    let Some((split, (index, dims))) = largest else {
        return Ok(());
    };
    let file = dims.sample_bytes().saturating_mul(samples);
    let need = file.saturating_mul(writers_per_node.max(1));
    if memory == 0 || need <= memory / 2 {
        return Ok(());
    }
    let mib = |b: u64| b as f64 / 1_048_576.0;
    Err(format!(
        "dataset.record_length_bytes_stdev: the size distribution draws {} file {index} of {}x{} bytes x {samples} samples ({:.0} MiB); \
         {writers_per_node} rank(s) per node each hold one file while generating: {:.0} MiB, more than half this host's memory ({:.0} MiB). \
         Lower record_length_bytes_stdev (now {}, against a mean of {}), record_length_bytes or num_samples_per_file, or use fewer ranks per node",
        split.folder(),
        dims.rows,
        dims.cols,
        mib(file),
        mib(need),
        mib(memory),
        p.dataset.record_length_bytes_stdev,
        p.dataset.record_length_bytes,
    ))
}

/// A training run without generation needs its data set: the split folder with at least
/// `num_files_train` files in DLIO's listing. Returns the files found.
fn data_set_on_disk(p: &DlioParams) -> Result<u64, String> {
    let layout = config::layout(p, Split::Train);
    let dir = layout.split_dir();
    let generate = "generate it with ++workload.workflow.generate_data=True (see iogauge dlio datasize for its size)";
    let found = match layout.list_on_disk() {
        Ok(f) => f.len() as u64,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "no training data set: {} does not exist; {generate}",
                dir.display()
            ))
        }
        Err(e) => {
            return Err(format!(
                "{}: {}",
                dir.display(),
                engine::errno::describe(&e)
            ))
        }
    };
    if found < p.dataset.num_files_train {
        return Err(format!(
            "{} holds {found} {} file(s); dataset.num_files_train is {}: {generate}, or lower num_files_train",
            dir.display(),
            layout.format.name(),
            p.dataset.num_files_train
        ));
    }
    Ok(found)
}

/// `--output DIR` (`output.folder`), else `results/dlio-<local time>` as the IO500 names its
/// result directories.
fn output_dir(p: &DlioParams) -> PathBuf {
    match &p.output.folder {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from("results").join(format!(
            "dlio-{}",
            measure::local_now(measure::IO500_TIMESTAMP_FORMAT)
        )),
    }
}

/// The output directory exists as a directory or can be made (its parent exists).
fn check_output(dir: &std::path::Path) -> Result<(), String> {
    if dir.is_dir() {
        return Ok(());
    }
    if dir.exists() {
        return Err(format!("--output {}: not a directory", dir.display()));
    }
    Ok(())
}

/// `dlio-dataset-below-minimum` when the configured training files are fewer than MLPerf
/// Storage's minimum for `system`.
pub(super) fn below_minimum(p: &DlioParams, system: &System, minimum: u64) -> Option<Alert> {
    let files = p.dataset.num_files_train;
    (files < minimum).then(|| {
        Alert::new(
            AlertId::DlioDatasetBelowMinimum,
            format!(
                "the training data set has {files} files, below MLPerf Storage's minimum of {minimum} for {} accelerator(s) on {} host(s) of {:.1} GiB: \
                 the page cache may hold it, and AU says less about the storage (iogauge dlio datasize)",
                system.accelerators,
                system.hosts,
                system.host_memory_bytes as f64 / (1u64 << 30) as f64
            ),
        )
        .with("files", files)
        .with("minimum_files", minimum)
        .with("accelerators", system.accelerators)
        .with("hosts", system.hosts)
        .with("host_memory_bytes", system.host_memory_bytes)
    })
}
