//! DLIO's result directory as a sink: at the run's end `summary.json`, and per rank
//! `<rank>_per_epoch_stats.json` and `<rank>_output.json`, with DLIO's field names, plus the
//! resolved `config.yaml` (written when the run starts). Rank 0 writes every rank's files
//! from the figures the ranks sent it. Only finished epochs are written, as DLIO has none for
//! an interrupted one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use plan::dlio::DlioParams;
use results::dlio::{
    duration_text, proc_fields, timestamp, BlockStats, CheckpointOutcome, CheckpointStats,
    Direction, EpochEntry, EpochOutcome, EpochStats, PerEpochStats, PhaseOutcome, RankEpoch,
    RankOutput, Summary, SummaryMetric,
};
use results::sink::{Event, Sink};
use results::RunResult;
use serde_json::{Map, Value};

pub struct DlioFiles {
    dir: PathBuf,
    params: DlioParams,
    start: SystemTime,
    epochs: Vec<EpochOutcome>,
    checkpoints: Vec<CheckpointOutcome>,
}

impl DlioFiles {
    /// Makes the directory (bad input when it cannot be made).
    pub fn new(params: &DlioParams, dir: &Path) -> Result<DlioFiles, String> {
        std::fs::create_dir_all(dir).map_err(|e| {
            format!(
                "--output {}: {}",
                dir.display(),
                engine::errno::describe(&e)
            )
        })?;
        Ok(DlioFiles {
            dir: dir.to_path_buf(),
            params: params.clone(),
            start: SystemTime::now(),
            epochs: Vec::new(),
            checkpoints: Vec::new(),
        })
    }

    fn write(&self, name: &str, text: &str) {
        let path = self.dir.join(name);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!(
                "iogauge dlio: write {}: {}",
                path.display(),
                engine::errno::describe(&e)
            );
        }
    }

    fn json(&self, name: &str, value: &impl serde::Serialize) {
        match serde_json::to_string_pretty(value) {
            Ok(text) => self.write(name, &text),
            Err(e) => eprintln!("iogauge dlio: {name}: {e}"),
        }
    }

    fn end(&self, doc: &RunResult) {
        let end = SystemTime::now();
        let ranks = self
            .epochs
            .first()
            .map(|e| e.ranks.len())
            .or_else(|| self.checkpoints.first().map(|c| c.ranks.len()))
            .unwrap_or(0);
        for r in 0..ranks {
            let stats = if self.checkpoints.is_empty() {
                self.per_epoch_stats(r)
            } else {
                self.checkpoint_stats(r)
            };
            self.json(&format!("{r}_per_epoch_stats.json"), &stats);
            self.json(&format!("{r}_output.json"), &self.rank_output(r, doc));
        }
        let block = doc.dlio.as_ref();
        let metric = SummaryMetric {
            train: block.and_then(|d| d.metric.clone()),
            checkpoint: block.and_then(|d| d.checkpoint_metric.clone()),
        };
        if metric.train.is_some() || metric.checkpoint.is_some() {
            let summary = self.summary(doc, metric, end);
            self.json("summary.json", &summary);
        }
    }

    /// A checkpoint run's `<rank>_per_epoch_stats.json`: DLIO's one epoch ("1") holding
    /// `save_ckpt{n}` and `load_ckpt{n}`, each with this rank's own time.
    fn checkpoint_stats(&self, rank: usize) -> PerEpochStats {
        let mut blocks = BTreeMap::new();
        let (mut first, mut last) = (f64::MAX, 0.0f64);
        for c in &self.checkpoints {
            let r = &c.ranks[rank];
            let name = match c.direction {
                Direction::Save => format!("save_ckpt{}", c.index),
                Direction::Load => format!("load_ckpt{}", c.index),
            };
            let gib = c.bytes() as f64 / (1u64 << 30) as f64;
            let entry = CheckpointStats {
                start: at(r.start_unix_s),
                end: at(r.end_unix_s),
                duration: r.seconds,
                throughput: if r.seconds > 0.0 {
                    gib / r.seconds
                } else {
                    0.0
                },
            };
            blocks.insert(name, EpochEntry::Checkpoint(entry));
            first = first.min(r.start_unix_s);
            last = last.max(r.end_unix_s);
        }
        let stats = EpochStats {
            start: at(first),
            blocks,
            end: at(last),
            duration: duration_text(last - first),
        };
        BTreeMap::from([(1, stats)])
    }

    fn per_epoch_stats(&self, rank: usize) -> PerEpochStats {
        self.epochs
            .iter()
            .map(|e| {
                let r = &e.ranks[rank];
                let (start, end) = (at(r.start_unix_s), at(r.end_unix_s));
                let block = BlockStats {
                    start: start.clone(),
                    end: end.clone(),
                    duration: duration_text(r.seconds()),
                };
                let stats = EpochStats {
                    start,
                    blocks: BTreeMap::from([("block1".to_string(), EpochEntry::Block(block))]),
                    end,
                    duration: duration_text(r.seconds()),
                };
                (e.epoch, stats)
            })
            .collect()
    }

    fn rank_output(&self, rank: usize, doc: &RunResult) -> RankOutput {
        let meminfo = proc_file("/proc/meminfo");
        let block = |v: &Vec<f64>| BTreeMap::from([("block1".to_string(), v.clone())]);
        let one = |v: f64| BTreeMap::from([("block1".to_string(), v)]);
        let epochs = self
            .epochs
            .iter()
            .map(|e| {
                let r = &e.ranks[rank];
                let epoch = RankEpoch {
                    load: block(&r.load),
                    proc: block(&r.proc),
                    throughput: one(r.figures.samples_per_second),
                    au: one(r.figures.au_percent),
                    compute: block(&r.compute),
                    host_meminfo: meminfo.clone(),
                    end: at(r.end_unix_s),
                };
                (e.epoch.to_string(), epoch)
            })
            .collect();
        // The rank's own host, as it reported it with its epochs.
        let (cpus, memory) = self
            .epochs
            .first()
            .map_or((doc.environment.cpus, doc.environment.memory_bytes), |e| {
                (e.ranks[rank].host_cpus, e.ranks[rank].host_memory_bytes)
            });
        let memory_gb = gib(memory);
        RankOutput {
            host_memory_gb: memory_gb,
            host_cpu_count: cpus,
            host_processor_name: doc.environment.arch.clone(),
            potential_caching: u8::from(self.data_per_host_gb(doc) <= memory_gb),
            host_cpuinfo: proc_file("/proc/cpuinfo"),
            host_meminfo: meminfo,
            epochs,
        }
    }

    /// DLIO's `data_size_per_host_GB`: ranks per node x samples per file x files // ranks x
    /// the record length, in GiB.
    fn data_per_host_gb(&self, doc: &RunResult) -> f64 {
        let d = &self.params.dataset;
        let ranks = doc.ranks.count.max(1);
        let samples = doc.ranks.tasks_per_node * d.num_samples_per_file * d.num_files_train / ranks;
        samples as f64 * d.record_length_bytes / (1u64 << 30) as f64
    }

    /// Per node of the run's node map, in order: the CPUs and memory (bytes) its first rank
    /// reported.
    fn hosts(&self, doc: &RunResult) -> Vec<(u64, u64)> {
        let mut by_node = BTreeMap::new();
        for r in self.epochs.first().map_or(&[][..], |e| &e.ranks[..]) {
            by_node
                .entry(r.node)
                .or_insert((r.host_cpus, r.host_memory_bytes));
        }
        // A checkpoint run's ranks do not send their hosts: rank 0's for every node.
        for r in self.checkpoints.first().map_or(&[][..], |c| &c.ranks[..]) {
            by_node
                .entry(r.node)
                .or_insert((doc.environment.cpus, doc.environment.memory_bytes));
        }
        by_node.into_values().collect()
    }

    fn summary(&self, doc: &RunResult, metric: SummaryMetric, end: SystemTime) -> Summary {
        let d = &self.params.dataset;
        let per_host = self.data_per_host_gb(doc);
        let hosts = self.hosts(doc);
        Summary {
            start: timestamp(self.start),
            num_accelerators: doc.ranks.count,
            num_hosts: doc.ranks.nodes,
            hostname: doc.environment.hostname.clone(),
            metric,
            num_files_train: d.num_files_train,
            num_files_eval: d.num_files_eval,
            num_samples_per_file: d.num_samples_per_file,
            host_cpu_count: hosts.iter().map(|h| h.0).collect(),
            host_processor_name: doc.environment.arch.clone(),
            potential_caching: hosts
                .iter()
                .map(|h| u8::from(per_host <= gib(h.1)))
                .collect(),
            // Rank 0's host, as DLIO writes it.
            host_cpuinfo: proc_file("/proc/cpuinfo"),
            host_meminfo: proc_file("/proc/meminfo"),
            host_memory_gb: hosts.iter().map(|h| gib(h.1)).collect(),
            data_size_per_host_gb: per_host,
            epochs: self.epochs.len() as u64,
            end: timestamp(end),
        }
    }
}

fn gib(bytes: u64) -> f64 {
    bytes as f64 / (1u64 << 30) as f64
}

/// DLIO's timestamp of `unix_s` seconds since the Unix epoch.
fn at(unix_s: f64) -> String {
    timestamp(UNIX_EPOCH + Duration::from_secs_f64(unix_s.max(0.0)))
}

fn proc_file(path: &str) -> Map<String, Value> {
    std::fs::read_to_string(path).map_or_else(|_| Map::new(), |t| proc_fields(&t))
}

impl Sink for DlioFiles {
    fn event(&mut self, e: &Event<'_>) {
        match e {
            Event::RunStart(_) => {
                self.start = SystemTime::now();
                self.write("config.yaml", &plan::dlio::to_dlio_yaml(&self.params));
            }
            Event::PhaseEnd(end) => match end.detail.get::<PhaseOutcome>() {
                Some(PhaseOutcome::Epoch(o)) if !o.stopped => self.epochs.push(o.clone()),
                Some(PhaseOutcome::Checkpoint(c)) if !c.stopped => self.checkpoints.push(c.clone()),
                _ => {}
            },
            Event::RunEnd(end) => self.end(end.run),
            _ => {}
        }
    }
}
