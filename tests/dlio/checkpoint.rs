//! `iogauge dlio llama3_*`: the checkpoint workload on scaled-down shapes. Shard names and
//! sizes against DLIO's formula, fsync per shard (strace), the rank shift under --fake-nodes,
//! the slowest rank's duration, --keep, and nothing left otherwise; the refusals before any
//! write.

use std::path::Path;
use std::process::Command;

use crate::common::{iogauge_args, json, listing, shm, tmp, Run};

/// llama3_8b with 2 layers, hidden 64, FFN 224, vocab 1000, 8 heads, 2 KV heads: shards of
/// kilobytes.
pub(super) const SHAPE: [&str; 8] = [
    "dlio",
    "llama3_8b",
    "++workload.model.num_layers=2",
    "++workload.model.transformer.hidden_size=64",
    "++workload.model.transformer.ffn_hidden_size=224",
    "++workload.model.transformer.vocab_size=1000",
    "++workload.model.transformer.num_attention_heads=8",
    "++workload.model.transformer.num_kv_heads=2",
];

/// [`SHAPE`], no pause, 2 checkpoints written and read in `folder`; `extra` after it.
fn ck(folder: &Path, out: &Path, extra: &[&str]) -> Run {
    let folder = format!(
        "++workload.checkpoint.checkpoint_folder={}",
        folder.display()
    );
    let mut args = SHAPE.to_vec();
    args.extend([
        "++workload.checkpoint.time_between_checkpoints=0",
        "++workload.checkpoint.num_checkpoints_write=2",
        "++workload.checkpoint.num_checkpoints_read=2",
        &folder,
        "--output",
        out.to_str().unwrap(),
    ]);
    args.extend_from_slice(extra);
    iogauge_args(&args)
}

/// DLIO's sizes of one rank's shards for [`ck`]'s shape at ZeRO 3 over `data` ranks, from its
/// formula: per layer the input norm, QKV (hidden x (hidden + 2 x KV columns)), the output
/// matrix, the norm, the gated FFN's two matrices; the embedding and LM head (vocab x hidden)
/// and the final norm; every tensor divided by the data ranks; fp16 model, fp32 optimizer
/// holding three copies of the rank's share of the parameters and three of hidden x 5.
fn zero3_sizes(hidden: u64, ffn: u64, data: u64) -> (u64, u64) {
    let (vocab, kv_cols) = (1000, hidden / 8 * 2);
    let layer = [
        hidden,
        hidden * (hidden + 2 * kv_cols),
        hidden * hidden,
        hidden,
        hidden * 2 * ffn,
        hidden * ffn,
    ];
    let model: u64 = vocab * hidden / data
        + 2 * layer.iter().map(|e| e / data).sum::<u64>()
        + vocab * hidden / data
        + hidden / data;
    let params = 2 * vocab * hidden + 2 * layer.iter().sum::<u64>() + hidden;
    let per_rank = params / data;
    (model * 2, (3 * per_rank + 3 * hidden * 5) * 4)
}

/// Runs [`ck`]'s shape under `strace -f -e trace=TRACE` with 2 ranks and `extra` (after the
/// shape); the trace's text. `None` where strace is missing.
fn traced(dir: &Path, trace: &str, extra: &[&str]) -> Option<String> {
    if Command::new("strace").arg("-V").output().is_err() {
        eprintln!("skipped: strace (Debian package strace) missing");
        return None;
    }
    let file = dir.join("trace");
    let out = Command::new("strace")
        .args(["-f", "-e", &format!("trace={trace}"), "-o"])
        .arg(&file)
        .arg(crate::common::bin())
        .arg("--no-store")
        .args(SHAPE)
        .args([
            "++workload.checkpoint.time_between_checkpoints=0",
            "--output",
            dir.join("out").to_str().unwrap(),
            "--tasks",
            "2",
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(std::fs::read_to_string(file).unwrap())
}

#[test]
fn shards_have_dlios_names_and_sizes_and_doubling_the_hidden_size_quadruples_them() {
    let d = shm();
    let folder = d.path().join("ck");
    ck(&folder, &d.path().join("out"), &["--tasks", "2", "--keep"]).ok();
    assert_eq!(
        listing(&folder),
        ["global_epoch1_step1", "global_epoch1_step2"]
    );
    let (model, optim) = zero3_sizes(64, 224, 2);
    for step in ["global_epoch1_step1", "global_epoch1_step2"] {
        let dir = folder.join(step);
        let mut want = Vec::new();
        for dp in 0..2 {
            want.push((
                format!("zero_pp_rank_{dp}_mp_rank_0_model_states.pt"),
                model,
            ));
            want.push((
                format!("zero_pp_rank_{dp}_mp_rank_0_optim_states.pt"),
                optim,
            ));
        }
        want.sort();
        let got: Vec<(String, u64)> = listing(&dir)
            .into_iter()
            .map(|n| {
                let size = std::fs::metadata(dir.join(&n)).unwrap().len();
                (n, size)
            })
            .collect();
        assert_eq!(got, want, "{step}");
    }
    // Twice the hidden size (and the FFN with it): about four times the bytes written, on a
    // shape whose layers outweigh its embedding (8 layers, vocab 100), as a real model's do.
    let written = |hidden: &str, ffn: &str, name: &str| -> u64 {
        let j = d.path().join(format!("{name}.json"));
        ck(
            &d.path().join(name),
            &d.path().join(format!("{name}.out")),
            &[
                "++workload.model.num_layers=8",
                "++workload.model.transformer.vocab_size=100",
                &format!("++workload.model.transformer.hidden_size={hidden}"),
                &format!("++workload.model.transformer.ffn_hidden_size={ffn}"),
                "--tasks",
                "2",
                "--json",
                j.to_str().unwrap(),
            ],
        )
        .ok();
        assert!(
            !d.path().join(name).exists(),
            "without --keep the checkpoints are removed"
        );
        json(&j)["phases"][0]["bytes"].as_u64().unwrap()
    };
    let ratio = written("128", "448", "big") as f64 / written("64", "224", "small") as f64;
    assert!(ratio > 3.8 && ratio <= 4.0, "{ratio}");
}

#[test]
fn each_shard_is_fsynced_when_the_config_asks() {
    let d = shm();
    let folder = format!(
        "++workload.checkpoint.checkpoint_folder={}",
        d.path().join("ck").display()
    );
    let fsyncs = |fsync: &str| -> Option<usize> {
        let trace = traced(
            d.path(),
            "fsync,fdatasync",
            &[
                "++workload.checkpoint.num_checkpoints_write=3",
                "++workload.checkpoint.num_checkpoints_read=0",
                &format!("++workload.checkpoint.fsync={fsync}"),
                &folder,
            ],
        )?;
        // One line per call with its name and "(" (a call another thread interrupts resumes
        // on a line of its own without).
        Some(trace.lines().filter(|l| l.contains("fsync(")).count())
    };
    let (Some(with), Some(without)) = (fsyncs("True"), fsyncs("False")) else {
        return;
    };
    // 3 checkpoints x 2 ranks x 2 shards.
    assert_eq!(with - without, 12);
}

#[test]
fn reads_take_the_shards_one_node_over_and_a_checkpoint_lasts_as_its_slowest_rank() {
    let d = shm();
    let (out, j) = (d.path().join("out"), d.path().join("r.json"));
    ck(
        &d.path().join("ck"),
        &out,
        &[
            "++workload.checkpoint.recovery_rank_shift=True",
            "--tasks",
            "4",
            "--fake-nodes",
            "2",
            "--json",
            j.to_str().unwrap(),
        ],
    )
    .ok();
    let doc = json(&j);
    let phases = doc["phases"].as_array().unwrap();
    assert_eq!(phases.len(), 4);
    for p in phases {
        let read = p["operation"] == "dlio-checkpoint-read";
        let ranks = p["per_rank"].as_array().unwrap();
        let mut slowest = 0.0f64;
        for (r, t) in ranks.iter().enumerate() {
            let source = t["counters"]["source_rank"].as_u64().unwrap() as usize;
            // Block placement: ranks 0, 1 on node 0; 2, 3 on node 1.
            let want = if read { (r + 2) % 4 } else { r };
            assert_eq!(source, want, "{p}");
            slowest = slowest.max(t["xfer_stop_s"].as_f64().unwrap());
        }
        let i = p["iteration"].as_u64().unwrap();
        let block = doc["dlio"]["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["index"] == i && (c["direction"] == "load") == read)
            .unwrap();
        assert_eq!(block["duration_seconds"].as_f64().unwrap(), slowest);
        let gib = p["bytes"].as_f64().unwrap() / (1u64 << 30) as f64;
        let tput = block["throughput_GiB_per_second"].as_f64().unwrap();
        assert!(
            (tput - gib / slowest).abs() < 1e-9 * tput.max(1.0),
            "{block}"
        );
    }
    // summary.json: DLIO's names, the means over the checkpoints.
    let summary = json(&out.join("summary.json"));
    let m = &summary["metric"];
    let saves: Vec<f64> = doc["dlio"]["checkpoints"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["direction"] == "save")
        .map(|c| c["throughput_GiB_per_second"].as_f64().unwrap())
        .collect();
    let mean = saves.iter().sum::<f64>() / saves.len() as f64;
    assert!((m["save_checkpoint_io_mean_GB_per_second"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert!(m["load_checkpoint_io_mean_GB_per_second"].as_f64().unwrap() > 0.0);
    assert!(m.get("train_au_mean_percentage").is_none(), "{m}");
    let stats = json(&out.join("3_per_epoch_stats.json"));
    assert!(stats["1"]["save_ckpt2"]["duration"].is_f64(), "{stats}");
    assert!(stats["1"]["load_ckpt1"]["throughput"].is_f64(), "{stats}");
}

#[test]
fn keep_leaves_the_checkpoints_for_a_run_that_reads_them_and_nothing_is_left_otherwise() {
    let d = tmp();
    let parent = d.path().join("mine");
    std::fs::create_dir(&parent).unwrap();
    std::fs::write(parent.join("notes.txt"), "mine").unwrap();
    let folder = parent.join("deep/ck");
    ck(&folder, &d.path().join("o1"), &["--tasks", "2"]).ok();
    assert_eq!(
        listing(&parent),
        ["notes.txt"],
        "the folders it made removed"
    );
    ck(&folder, &d.path().join("o2"), &["--tasks", "2", "--keep"]).ok();
    assert_eq!(listing(&folder).len(), 2);
    // MLPerf Storage's split: a later run reads only, and leaves what it did not write.
    let j = d.path().join("r.json");
    ck(
        &folder,
        &d.path().join("o3"),
        &[
            "++workload.checkpoint.num_checkpoints_write=0",
            "--tasks",
            "2",
            "--json",
            j.to_str().unwrap(),
        ],
    )
    .ok();
    let doc = json(&j);
    let ops: Vec<&str> = doc["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["operation"].as_str().unwrap())
        .collect();
    assert_eq!(ops, ["dlio-checkpoint-read", "dlio-checkpoint-read"]);
    assert_eq!(listing(&folder.join("global_epoch1_step1")).len(), 4);
}

#[test]
fn what_cannot_run_is_refused_before_any_write() {
    let d = shm();
    let folder = d.path().join("ck");
    // llama3_70b splits each model copy over 8 ranks.
    let r = iogauge_args(&[
        "dlio",
        "llama3_70b",
        &format!(
            "++workload.checkpoint.checkpoint_folder={}",
            folder.display()
        ),
        "--output",
        d.path().join("out").to_str().unwrap(),
        "--tasks",
        "4",
    ])
    .code(2);
    assert!(r.stderr.contains("multiple of 8"), "{}", r.stderr);
    // Reading checkpoints nobody wrote.
    let r = ck(
        &folder,
        &d.path().join("out"),
        &[
            "++workload.checkpoint.num_checkpoints_write=0",
            "--tasks",
            "2",
        ],
    )
    .code(2);
    assert!(
        r.stderr
            .contains("global_epoch1_step1/zero_pp_rank_0_mp_rank_0_model_states.pt"),
        "{}",
        r.stderr
    );
    assert!(!folder.exists());
}

#[test]
fn a_checkpoint_larger_than_the_free_space_is_refused_with_the_sizes() {
    let Some(fs) = crate::safety::full_fs::SmallFs::mount(1) else {
        eprintln!("skipped: cannot mount a tmpfs here (needs root)");
        return;
    };
    let d = tmp();
    let folder = fs.dir.join("ck");
    let r = ck(&folder, &d.path().join("out"), &["--tasks", "2"]).code(2);
    assert!(
        r.stderr.contains("2 checkpoint(s) of") && r.stderr.contains("free"),
        "{}",
        r.stderr
    );
    assert!(listing(&fs.dir).is_empty(), "nothing written");
}

#[test]
fn direct_fs_moves_the_shards_with_o_direct_at_their_sizes() {
    // A disk file system (tmpfs takes O_DIRECT too, through memory).
    let d = tmp();
    let folder = d.path().join("ck");
    let Some(trace) = traced(
        d.path(),
        "openat",
        &[
            "++workload.checkpoint.num_checkpoints_write=1",
            "++workload.checkpoint.num_checkpoints_read=1",
            "++workload.storage.storage_type=direct_fs",
            &format!(
                "++workload.checkpoint.checkpoint_folder={}",
                folder.display()
            ),
            "--keep",
        ],
    ) else {
        return;
    };
    let opens: Vec<&str> = trace.lines().filter(|l| l.contains("_states.pt")).collect();
    // Each of the 4 shards: written (direct), its last partial block (buffered), read (direct).
    let direct = opens.iter().filter(|l| l.contains("O_DIRECT")).count();
    assert_eq!(direct, 8, "{opens:#?}");
    let (model, optim) = zero3_sizes(64, 224, 2);
    let dir = folder.join("global_epoch1_step1");
    for dp in 0..2 {
        let size = |kind: &str| {
            std::fs::metadata(dir.join(format!("zero_pp_rank_{dp}_mp_rank_0_{kind}_states.pt")))
                .unwrap()
                .len()
        };
        assert_eq!((size("model"), size("optim")), (model, optim));
    }
}
