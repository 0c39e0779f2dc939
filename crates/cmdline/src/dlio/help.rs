//! `iogauge dlio --help` and `iogauge dlio datasize --help`.

pub const HELP: &str = "\
iogauge dlio: MLPerf Storage's training and checkpoint workloads, emulated as DLIO runs them
(for sizing and pre-qualification; not an MLPerf Storage submission)

Usage: iogauge dlio WORKLOAD [OVERRIDES...] [OPTIONS]
       iogauge dlio datasize WORKLOAD --accelerators N --hosts H --host-memory SIZE

WORKLOAD is a shipped config (MLPerf Storage v2.0: unet3d_h100, unet3d_a100, resnet50_h100,
resnet50_a100, cosmoflow_h100, cosmoflow_a100; v3-era, not checked against the v3.0 tag:
unet3d_b200, retinanet_b200; checkpointing: llama3_8b, llama3_70b, llama3_405b, llama3_1t),
a path to a DLIO workload YAML, or workload=NAME.

OVERRIDES are DLIO's (Hydra's):
  ++workload.KEY=VALUE   set KEY, adding it if the config lacks it
  +workload.KEY=VALUE    add KEY, which the config must not have
  workload.KEY=VALUE     replace KEY, which the config must have
e.g. ++workload.dataset.num_files_train=64 ++workload.reader.read_threads=8
     ++workload.workflow.generate_data=True ++workload.workflow.train=False
Keys DLIO knows but iogauge does not emulate, unknown keys, formats other than npz,
tfrecord and jpeg, loaders other than pytorch and tensorflow, and checkpointing during
training are refused.

Options:
  --data-dir DIR   the data set's folder (sets workload.dataset.data_folder)
  --output DIR     DLIO's result files (sets workload.output.folder)
  --keep           a checkpoint run leaves the checkpoints it wrote (for a later run that
                   only reads them: ++workload.checkpoint.num_checkpoints_write=0)
  --tasks N        ranks: one per emulated accelerator (under mpirun: at most the MPI ranks)
  --fake-nodes K   pretend the ranks run on K nodes (threads; per-host figures per node)
  --fake-placement block|round-robin
                   how ranks map to the fake nodes (default block)
  --json PATH      write the result document (docs/results.md)
  -h, --help       this help

Examples:
  iogauge dlio unet3d_h100 ++workload.workflow.generate_data=True ++workload.workflow.train=False \\
      ++workload.workflow.checkpoint=False --tasks 4 --data-dir /scratch/dlio/unet3d
  iogauge dlio unet3d_h100 ++workload.workflow.checkpoint=False --tasks 4 --data-dir /scratch/dlio/unet3d
  iogauge --drop-caches dlio llama3_8b ++workload.checkpoint.checkpoint_folder=/scratch/ckpt --tasks 8
  iogauge dlio datasize resnet50_h100 --accelerators 16 --hosts 2 --host-memory 256g
";

pub const DATASIZE_HELP: &str = "\
iogauge dlio datasize: MLPerf Storage's minimum training data set for a system being planned

Usage: iogauge dlio datasize WORKLOAD [OVERRIDES...] --accelerators N --hosts H --host-memory SIZE

The data set holds at least 500 steps per epoch for every accelerator and 5 times the hosts'
memory, whichever is more, in whole files:
  files = ceil(max(500 x batch x accelerators, hosts x memory x 5 / record bytes) / samples per file)
mlpstorage v2.0 rounds each rule down; when that differs, its number is shown too.

Options:
  --accelerators N     emulated accelerators across all hosts
  --hosts H            client hosts
  --host-memory SIZE   each host's memory, with its unit (512g = 512 GiB)
  -h, --help           this help
";
