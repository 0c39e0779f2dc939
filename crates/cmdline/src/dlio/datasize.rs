//! What `iogauge dlio datasize` prints: both rules with their numbers, the minimum number of
//! files, the data set's size, and the line that generates it.

use plan::dlio::datasize::{datasize, Bound, HOST_MEMORY_MULTIPLIER, STEPS_PER_EPOCH};
use plan::dlio::Source;

use super::DatasizeCommand;

fn size(bytes: u64) -> String {
    text::human_size(bytes)
}

fn gib(bytes: f64) -> String {
    format!("{:.2} GiB", bytes / (1u64 << 30) as f64)
}

/// The report of `cmd` (a parsed line, not `--help`).
pub fn report(cmd: &DatasizeCommand) -> String {
    let p = &cmd.params;
    let sys = &cmd.system;
    let d = datasize(p, sys);
    let name = match &cmd.source {
        Some(Source::Shipped(n)) => n.clone(),
        Some(Source::File(f)) => f.display().to_string(),
        None => String::new(),
    };
    let record = plan::whole::integer(p.dataset.record_length_bytes).map_or_else(
        || p.dataset.record_length_bytes.to_string(),
        |n| n.to_string(),
    );
    let per_file = p.dataset.num_samples_per_file;
    let mut s = format!(
        "iogauge dlio datasize: MLPerf Storage's minimum training data set for {name}\n\
         system: {} accelerator(s) on {} host(s) of {} memory each\n",
        sys.accelerators,
        sys.hosts,
        size(sys.host_memory_bytes)
    );
    s += &format!(
        "  {STEPS_PER_EPOCH} steps x batch {} x {} accelerator(s) = {} samples\n",
        p.reader.batch_size, sys.accelerators, d.samples_by_steps
    );
    s += &format!(
        "  {} host(s) x {} x {HOST_MEMORY_MULTIPLIER} / {record} bytes a sample = {:.1} samples\n",
        sys.hosts,
        size(sys.host_memory_bytes),
        d.samples_by_memory
    );
    let why = match d.bound {
        Bound::Steps => format!("{STEPS_PER_EPOCH} steps per epoch decide"),
        Bound::Memory => format!("{HOST_MEMORY_MULTIPLIER} x the hosts' memory decides"),
    };
    s += &format!(
        "files: {} ({why}; {per_file} sample(s) a file, rounded up)\n\
         data set: {} ({} files x {per_file} x {record} bytes, the mean record)\n",
        d.files,
        gib(d.bytes),
        d.files
    );
    if d.mlpstorage_files != d.files {
        s += &format!(
            "note: mlpstorage v2.0's datasize rounds each rule down and prints {} files\n",
            d.mlpstorage_files
        );
    }
    if let Some(n) = d.subfolders_hint {
        s += &format!(
            "note: over 10000 files; mlpstorage suggests ++workload.dataset.num_subfolders_train={n}\n"
        );
    }
    let mut line = vec!["iogauge".to_string(), "dlio".into(), name];
    line.extend(cmd.overrides.iter().cloned());
    line.push("++workload.workflow.generate_data=True".into());
    line.push("++workload.workflow.train=False".into());
    if p.workflow.checkpoint {
        line.push("++workload.workflow.checkpoint=False".into());
    }
    line.push(format!("++workload.dataset.num_files_train={}", d.files));
    line.push(format!("--tasks {}", sys.accelerators));
    line.push("--data-dir DIR".into());
    let quoted: Vec<String> = line
        .iter()
        .map(|w| match w.split_once(' ') {
            Some((opt, v)) if opt.starts_with("--") => format!("{opt} {}", text::shell_quote(v)),
            _ => text::shell_quote(w),
        })
        .collect();
    s += &format!("generate it with: {}\n", quoted.join(" "));
    s
}
