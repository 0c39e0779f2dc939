#!/usr/bin/env bash
# iogauge dlio vs DLIO itself on the same data set and configuration, scaled to a small
# machine: AU, samples/s and client CPU seconds per GiB at 1, 2 and 4 ranks, and whether each
# tool reads the other's generated data. See benches/README.md and docs/performance.md.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash benches/dlio_vs_dlio.sh [options]

Runs `iogauge dlio WORKLOAD --tasks N` and DLIO (`mpirun -np N dlio_benchmark
workload=WORKLOAD`, the PyPI package, installed by this script into a virtual environment of
its own) on the same data set with the same configuration: MLPerf Storage's resnet50_h100 and
unet3d_h100, scaled down by Hydra overrides given to both tools alike (printed at the start):

  resnet50_h100  tfrecord, TensorFlow loader as configured; record_length as configured;
                 num_samples_per_file 1251 -> 250; batch_size 400 -> 100 with
                 computation_time 0.224 -> 0.056 s (the same samples/s asked of each
                 accelerator); num_files_train 1024 -> 4 x lcm(RANKS), at least 16
  unet3d_h100    npz, PyTorch loader as configured; computation_time 0.323 s as configured;
                 record_length 146600628 -> 4 MiB (stdev scaled alike, 0.466 of the mean);
                 num_files_train 168 -> 7 x 8 x lcm(RANKS); checkpoint off

Both tools train on DLIO's generated files (the common data set). Each round runs, for every
workload and rank count, both tools (taking turns going first) for EPOCHS epochs. Printed:
every measurement, then the medians over rounds of AU and samples/s (summary.json's
train_au_mean_percentage and train_throughput_mean_samples_per_second) and of the client CPU
seconds per GiB read: user+sys of the whole process tree (mpirun, ranks, loader workers) over
the bytes the epochs read (every training file is read whole once per epoch, so an epoch reads
the data set's size). "epochs" counts the CPU from the first epoch's start to the last one's
end (per_epoch_stats.json's timestamps; the tree's CPU sampled from /proc every 0.2 s), which
leaves out start-up (DLIO imports TensorFlow and PyTorch in every rank); "whole" is the whole
run's (getrusage). Then the goals, and whether DLIO trains on iogauge's generated files and
iogauge on DLIO's (one rank, one epoch).

Where the AU goes: from each run's rank-0 <rank>_output.json and per-epoch stats (both tools
write them with DLIO's names), per step after the first of each epoch: "load" (the wait for
the batch), "over" (proc - load - the configured computation_time: the emulated compute's
overrun, Python's sleep and call overhead in DLIO), "between" (the block's time outside
proc: the barrier and loop). DLIO 2.0.0 puts the configured computation_time in its AU's
numerator, so "over" counts as lost there; MLPerf Storage's DLIO branch and iogauge put the
measured compute there. "AU meas" is AU with the measured compute (sum of proc - load over
the block's time after the first step), DLIO's AU as MLPerf's branch would compute it.

Storage-bound mode (-t MBPS): each measured run reads through a block-I/O throttle of MBPS
MB/s on the device under DIR (a cgroup: v2 io.max, or v1 blkio.throttle.read_bps_device),
after `sync` and evicting the data set's files from the page cache (posix_fadvise DONTNEED;
the programs' own files stay cached, so start-up and imports are not throttled), for one
epoch (a later epoch would read the page cache). Batches are smaller (resnet50 20 samples
with 0.0112 s, unet3d 1 with 0.0461 s: the same samples/s asked of each accelerator), so that
an epoch has enough steps for its first, left out of AU, to weigh little. There the storage,
not either client, sets the pace: the same AU is expected of both tools (goal 1). Needs root.

Options (each also settable through the environment variable named in brackets):
  -w LIST    workloads, comma-separated          [WORKLOADS, default resnet50_h100,unet3d_h100]
  -r LIST    rank counts, comma-separated        [RANKS, default 1,2,4]
  -n RUNS    measured rounds                     [RUNS, default 3]
  -e EPOCHS  epochs of each measured run          [EPOCHS, default 2]
  -d DIR     directory for the data sets         [DIR, default /var/tmp]
  -l LOGDIR  keep every run's log and summary.json there              [LOGDIR]
  -D         DLIO only (no iogauge): check the DLIO side               [DLIO_ONLY=1]
  -t MBPS    storage-bound mode: read throttle in MB/s (one epoch)     [THROTTLE]
  -k         then the llama3_8b checkpoint comparison (benches/dlio_checkpoint_vs_dlio.sh,
             with RUNS and DIR)                                        [CHECKPOINT=1]
  -h         this help

Environment only: IOGAUGE (default: built with `cargo build --release` here), DLIO_VENV
(default ${XDG_CACHE_HOME:-~/.cache}/iogauge-bench/dlio-venv; made on first use and kept),
PYTHON (the Python that makes the venv, default python3), MPIRUN (mpirun).

Installing DLIO (first run only, about 7 GB, a few minutes): `pip install --no-deps
dlio-benchmark==2.0.0`, then only what a run of these two workloads imports: mpi4py,
hydra-core, omegaconf, numpy, pandas, psutil, pyyaml, pydftracer==1.0.2 (DLIO's pin; its
stand-in without it is broken), torch (CPU wheel from download.pytorch.org when that is
reachable, else PyPI's, which brings NVIDIA's CUDA libraries), and tensorflow-cpu (DLIO 2.0.0
imports it in every run, and resnet50's configured loader is TensorFlow's). DALI is not
installed (its wheels come from NVIDIA's own index); DLIO's TFRecord generator calls DALI's
tfrecord2idx for an index that only DALI's reader uses, so the venv gets a small one that
writes the same "offset length" lines. mpi4py needs Open MPI: run as root, the script
installs libopenmpi-dev and openmpi-bin with apt-get when mpicc is missing. DLIO 2.0.0 is the
PyPI release, not MLPerf Storage's mlperf_storage_v2.0 branch (it spells record_length without
_bytes, has no per-file size stdev for every format, and differs in details).

Needs python3, Open MPI, and about 3 GB free in DIR. Creates and removes a directory
dlio_vs_dlio.XXXXXX under DIR and a scratch directory under TMPDIR.
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
WORKLOADS=${WORKLOADS:-resnet50_h100,unet3d_h100}
RANKS=${RANKS:-1,2,4}
RUNS=${RUNS:-3}
EPOCHS=${EPOCHS:-2}
DIR=${DIR:-/var/tmp}
LOGDIR=${LOGDIR:-}
DLIO_ONLY=${DLIO_ONLY:-0}
THROTTLE=${THROTTLE:-}
CHECKPOINT=${CHECKPOINT:-0}
PYTHON=${PYTHON:-python3}
MPIRUN=${MPIRUN:-mpirun}
DLIO_VERSION=2.0.0
DLIO_VENV=${DLIO_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/iogauge-bench/dlio-venv}
while getopts ":w:r:n:e:d:l:t:Dkh" opt; do
  case $opt in
    w) WORKLOADS=$OPTARG ;;
    r) RANKS=$OPTARG ;;
    n) RUNS=$OPTARG ;;
    e) EPOCHS=$OPTARG ;;
    d) DIR=$OPTARG ;;
    l) LOGDIR=$OPTARG ;;
    D) DLIO_ONLY=1 ;;
    t) THROTTLE=$OPTARG ;;
    k) CHECKPOINT=1 ;;
    h) usage; exit 0 ;;
    :) echo "dlio_vs_dlio.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "dlio_vs_dlio.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { echo "dlio_vs_dlio.sh: unexpected argument '$1' (see -h)" >&2; exit 2; }
die_usage() { echo "dlio_vs_dlio.sh: $*" >&2; exit 2; }
die() { echo "dlio_vs_dlio.sh: $*" >&2; exit 1; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die_usage "RUNS '$RUNS' is not a positive integer"
[[ $EPOCHS =~ ^[1-9][0-9]*$ ]] || die_usage "EPOCHS '$EPOCHS' is not a positive integer"
[[ $RANKS =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die_usage "RANKS '$RANKS' is not a list like 1,2,4"
IFS=, read -r -a RANK_LIST <<<"$RANKS"
IFS=, read -r -a WL_LIST <<<"$WORKLOADS"
for wl in "${WL_LIST[@]}"; do
  case $wl in
    resnet50_h100 | unet3d_h100) ;;
    *) die_usage "workload '$wl': this bench scales resnet50_h100 and unet3d_h100 only" ;;
  esac
done
[ -d "$DIR" ] && [ -w "$DIR" ] || die_usage "DIR '$DIR' does not exist or is not writable"
if [ -n "$THROTTLE" ]; then
  [[ $THROTTLE =~ ^[1-9][0-9]*$ ]] || die_usage "THROTTLE '$THROTTLE' is not a whole number of MB/s"
  [ "$(id -u)" = 0 ] || die_usage "-t needs root (a cgroup throttle)"
  EPOCHS=1
fi
[ -z "$LOGDIR" ] || mkdir -p "$LOGDIR" || die_usage "cannot create LOGDIR '$LOGDIR'"
command -v python3 >/dev/null || die_usage "python3 not found"
command -v "$PYTHON" >/dev/null || die_usage "PYTHON '$PYTHON' not found"

# Open MPI: mpirun for both the ranks and mpi4py's build (mpicc).
if ! command -v mpicc >/dev/null || ! command -v "$MPIRUN" >/dev/null; then
  [ "$(id -u)" = 0 ] || die "Open MPI missing: install libopenmpi-dev and openmpi-bin"
  echo "installing Open MPI (apt-get install -y libopenmpi-dev openmpi-bin)"
  apt-get install -y libopenmpi-dev openmpi-bin >/dev/null ||
    { apt-get update >/dev/null && apt-get install -y libopenmpi-dev openmpi-bin >/dev/null; } ||
    die "apt-get could not install Open MPI"
fi
MPI_FLAGS=(--oversubscribe --bind-to none)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TF_CPP_MIN_LOG_LEVEL=2

# The DLIO virtual environment, made once; a marker file says it is complete.
# pip with --no-deps'd DLIO leaves resolver complaints about what is deliberately not
# installed (DALI, torchvision, ...); shown only when pip fails.
pip_q() {
  local err
  err=$(mktemp)
  "$DLIO_VENV/bin/pip" install -q "$@" 2>"$err" || { cat "$err" >&2; rm -f "$err"; return 1; }
  rm -f "$err"
}
install_dlio() {
  local v=$DLIO_VENV
  echo "installing DLIO $DLIO_VERSION into $v (first run only)"
  rm -rf -- "$v"
  mkdir -p "$(dirname "$v")"
  "$PYTHON" -m venv "$v"
  pip_q --no-deps "dlio-benchmark==$DLIO_VERSION"
  pip_q mpi4py hydra-core omegaconf numpy pandas psutil pyyaml "pydftracer==1.0.2"
  if pip_q --timeout 20 --retries 1 --index-url https://download.pytorch.org/whl/cpu torch \
    2>/dev/null; then
    echo "torch: CPU wheel from download.pytorch.org"
  else
    echo "torch: download.pytorch.org not reachable; PyPI's wheel (with NVIDIA's CUDA libraries)"
    pip_q torch
  fi
  pip_q tensorflow-cpu
  cat >"$v/bin/tfrecord2idx" <<'PY'
#!/usr/bin/env python3
# Stand-in for DALI's tfrecord2idx, written by benches/dlio_vs_dlio.sh: one line
# "offset length" per TFRecord record, the index DLIO's generator asks for and only
# DALI's reader (not used here) reads.
import struct, sys
with open(sys.argv[1], "rb") as f, open(sys.argv[2], "w") as out:
    offset = 0
    while True:
        head = f.read(8)
        if not head:
            break
        (n,) = struct.unpack("<Q", head)
        f.seek(4 + n + 4, 1)
        out.write(f"{offset} {8 + 4 + n + 4}\n")
        offset += 8 + 4 + n + 4
PY
  chmod +x "$v/bin/tfrecord2idx"
  "$v/bin/python" -c "import dlio_benchmark.main" >/dev/null 2>&1 ||
    die "DLIO does not import in $v (run $v/bin/python -c 'import dlio_benchmark.main')"
  echo "$DLIO_VERSION" >"$v/.iogauge-bench-complete"
}
[ "$(cat "$DLIO_VENV/.iogauge-bench-complete" 2>/dev/null)" = "$DLIO_VERSION" ] || install_dlio
DLIO=$DLIO_VENV/bin/dlio_benchmark
echo "DLIO: dlio-benchmark $("$DLIO_VENV/bin/python" -c \
  'import importlib.metadata as m; print(m.version("dlio-benchmark"))') from PyPI (not MLPerf" \
  "Storage's mlperf_storage_v2.0 branch); in $DLIO_VENV:"
"$DLIO_VENV/bin/python" - <<'PY'
import importlib.metadata as m
names = ["mpi4py", "hydra-core", "omegaconf", "numpy", "pandas", "psutil", "PyYAML",
         "pydftracer", "torch", "tensorflow-cpu"]
print("  " + ", ".join(f"{n} {m.version(n)}" for n in names))
PY

if [ "$DLIO_ONLY" = 0 ]; then
  if [ -z "${IOGAUGE:-}" ]; then
    (cd "$REPO_DIR" && cargo build --release --quiet)
    IOGAUGE=$REPO_DIR/target/release/iogauge
  fi
  "$IOGAUGE" dlio --help >/dev/null 2>&1 || die "$IOGAUGE has no working 'dlio' command"
  IOG_GLOBAL=()
  "$IOGAUGE" --help 2>&1 | grep -q -- --no-store && IOG_GLOBAL=(--no-store)
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dlio_vs_dlio.XXXXXX")
DATA=$(mktemp -d "$DIR/dlio_vs_dlio.XXXXXX")
export XDG_DATA_HOME=$WORK/data-home
CGROUP=
cleanup() {
  rm -rf -- "$DATA" "$WORK"
  [ -z "$CGROUP" ] || rmdir "$CGROUP" 2>/dev/null || true
}
trap cleanup EXIT

# The throttle: a cgroup of its own limiting reads from the whole disk under DIR.
if [ -n "$THROTTLE" ]; then
  src=$(df --output=source "$DATA" | tail -n 1)
  disk=$(lsblk -no PKNAME "$src" 2>/dev/null | head -n 1)
  [ -n "$disk" ] || disk=$(basename "$src")
  majmin=$(cat "/sys/class/block/$disk/dev" 2>/dev/null) ||
    die "no block device under $DIR ($src): -t needs one"
  bps=$((THROTTLE * 1000000))
  if grep -qw io /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    CGROUP=/sys/fs/cgroup/dlio_vs_dlio.$$
    mkdir "$CGROUP" && echo "$majmin rbps=$bps" >"$CGROUP/io.max" ||
      die "cannot set io.max in $CGROUP"
  elif [ -d /sys/fs/cgroup/blkio ]; then
    CGROUP=/sys/fs/cgroup/blkio/dlio_vs_dlio.$$
    mkdir "$CGROUP" && echo "$majmin $bps" >"$CGROUP/blkio.throttle.read_bps_device" ||
      die "cannot set blkio.throttle.read_bps_device in $CGROUP"
  else
    die "-t needs cgroup v2's io controller or v1's blkio"
  fi
  echo "storage-bound mode: reads from /dev/$disk ($majmin) throttled to $THROTTLE MB/s in $CGROUP;" \
    "the data set evicted from the page cache before each run; 1 epoch; smaller batches"
fi
trap 'exit 130' INT
trap 'exit 143' TERM

# Scaling: lcm of the rank counts, so every rank gets whole batches and files.
L=$(python3 -c "import math,sys; print(math.lcm(*map(int, sys.argv[1:])))" "${RANK_LIST[@]}")
# Overrides for both tools, per workload; the record size key in each tool's own spelling
# (DLIO 2.0.0: record_length; iogauge's shipped MLPerf files: record_length_bytes).
scale() { # workload tool -> overrides, one per line
  local rl=record_length
  [ "$2" = iogauge ] && rl=record_length_bytes
  case $1 in
    resnet50_h100)
      local files=$((4 * L))
      [ $files -ge 16 ] || files=$((((16 + L - 1) / L) * L))
      printf '%s\n' "++workload.dataset.num_files_train=$files" \
        ++workload.dataset.num_samples_per_file=250
      if [ -n "$THROTTLE" ]; then
        printf '%s\n' ++workload.reader.batch_size=20 ++workload.train.computation_time=0.0112
      else
        printf '%s\n' ++workload.reader.batch_size=100 ++workload.train.computation_time=0.056
      fi
      ;;
    unet3d_h100)
      printf '%s\n' "++workload.dataset.num_files_train=$((7 * 8 * L))" \
        "++workload.dataset.$rl=4194304" "++workload.dataset.${rl}_stdev=1955330" \
        ++workload.workflow.checkpoint=False
      [ -z "$THROTTLE" ] ||
        printf '%s\n' ++workload.reader.batch_size=1 ++workload.train.computation_time=0.0461
      ;;
  esac
}

# The configured computation_time of each scaled workload (the value scale() gives or the
# shipped config's), for the per-step breakdown.
nominal() {
  case $1:${THROTTLE:+t} in
    resnet50_h100:) echo 0.056 ;;
    resnet50_h100:t) echo 0.0112 ;;
    unet3d_h100:) echo 0.323 ;;
    unet3d_h100:t) echo 0.0461 ;;
  esac
}

# Evicts every file under a directory from the page cache (the data set only).
evict() {
  python3 - "$1" <<'PY'
import os, sys
for d, _, files in os.walk(sys.argv[1]):
    for f in files:
        fd = os.open(os.path.join(d, f), os.O_RDONLY)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
PY
}

# Runs a command, its output into $1, and samples the CPU time of its process tree (utime,
# stime and the reaped children's cutime, cstime of every process under it in /proc) every
# 0.2 s into $2, "unix_seconds cpu_seconds" per line; prints "cpu_seconds wall_seconds" of
# the whole run (getrusage of the reaped tree: mpirun, its ranks, their loader workers).
timed() { # log samples command...
  python3 - "$@" <<'PY'
import os, resource, subprocess, sys, time
log, samples = open(sys.argv[1], "w"), open(sys.argv[2], "w")
tick = os.sysconf("SC_CLK_TCK")

def tree_cpu(root):
    kids, cpu = {}, {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        kids.setdefault(int(f[1]), []).append(int(pid))
        cpu[int(pid)] = sum(int(x) for x in f[11:15]) / tick
    total, todo = 0.0, [root]
    while todo:
        p = todo.pop()
        total += cpu.get(p, 0.0)
        todo += kids.get(p, [])
    return total

t0 = time.monotonic()
child = subprocess.Popen(sys.argv[3:], stdout=log, stderr=subprocess.STDOUT)
while child.poll() is None:
    samples.write(f"{time.time():.3f} {tree_cpu(child.pid):.3f}\n")
    time.sleep(0.2)
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
samples.write(f"{time.time():.3f} {ru.ru_utime + ru.ru_stime:.3f}\n")
print(f"{ru.ru_utime + ru.ru_stime:.3f} {wall:.3f}")
sys.exit(child.returncode)
PY
}

# The command line of one tool run, into the array CMD.
dlio_cmd() { # workload ranks data_dir out_dir extra-overrides...
  local wl=$1 n=$2 data=$3 out=$4 ov
  shift 4
  mapfile -t ov < <(scale "$wl" dlio)
  CMD=("$MPIRUN" "${MPI_FLAGS[@]}" -np "$n" env "PATH=$DLIO_VENV/bin:$PATH" "$DLIO"
    "workload=$wl" "${ov[@]}" "++workload.dataset.data_folder=$data"
    "++workload.output.folder=$out" "hydra.run.dir=$out/hydra" "$@")
}

iogauge_cmd() { # workload ranks data_dir out_dir extra-overrides...
  local wl=$1 n=$2 data=$3 out=$4 ov
  shift 4
  mapfile -t ov < <(scale "$wl" iogauge)
  CMD=("$IOGAUGE" ${IOG_GLOBAL[@]+"${IOG_GLOBAL[@]}"} dlio "$wl" "${ov[@]}" "$@"
    --tasks "$n" --data-dir "$data" --output "$out")
}

# One tool run; prints "au samples_per_s cpu_s wall_s epoch_cpu_s epoch_s" (epoch_*: from
# the first epoch's start to the last one's end in per_epoch_stats.json, CPU interpolated
# between samples) or fails with the log's tail.
run_tool() { # tool workload ranks data_dir epochs
  local tool=$1 wl=$2 n=$3 data=$4 epochs=$5 out log times
  mkdir -p "$WORK/out"
  out=$(mktemp -d "$WORK/out/$tool-$wl-$n-e$epochs.XXXX")
  log=$out.log
  "${tool}_cmd" "$wl" "$n" "$data" "$out" "++workload.train.epochs=$epochs"
  if [ -n "$CGROUP" ]; then
    sync
    evict "$data"
    # shellcheck disable=SC2016
    CMD=(sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CGROUP" "${CMD[@]}")
  fi
  if ! times=$(timed "$log" "$out.cpu" "${CMD[@]}"); then
    echo "dlio_vs_dlio.sh: $tool failed (${CMD[*]}); last lines of its log:" >&2
    tail -n 25 "$log" >&2
    return 1
  fi
  keep "$out" "$log"
  python3 - "$out" "$times" "$(nominal "$wl")" <<'PY'
import bisect, datetime, glob, json, sys
out, times, nominal = sys.argv[1], sys.argv[2], float(sys.argv[3])
m = json.load(open(f"{out}/summary.json"))["metric"]
# DLIO 2.0.0 writes rank 0's per_epoch_stats.json; iogauge (like MLPerf's DLIO branch) one
# per rank: the window is the earliest start to the latest end.
stamp = lambda s: datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%f").timestamp()
files = glob.glob(f"{out}/per_epoch_stats.json") + glob.glob(f"{out}/*_per_epoch_stats.json")
epochs = [e for f in files for e in json.load(open(f)).values()]
start, end = min(stamp(e["start"]) for e in epochs), max(stamp(e["end"]) for e in epochs)
pts = [tuple(map(float, l.split())) for l in open(f"{out}.cpu") if l.strip()]
ts = [p[0] for p in pts]

def cpu_at(t):  # linear between the samples around t
    i = bisect.bisect_left(ts, t)
    if i == 0:
        return pts[0][1]
    if i == len(pts):
        return pts[-1][1]
    (t0, c0), (t1, c1) = pts[i - 1], pts[i]
    return c0 + (c1 - c0) * (t - t0) / (t1 - t0) if t1 > t0 else c1

# Where rank 0's time went, per step after each epoch's first: the wait for the batch, the
# compute's overrun of the configured time, and the block's time outside proc; and AU with
# the measured compute (proc - load) over the block's time after the first step.
stats = json.load(open(glob.glob(f"{out}/per_epoch_stats.json")[0] if glob.glob(f"{out}/per_epoch_stats.json")
                       else f"{out}/0_per_epoch_stats.json"))
rank0 = json.load(open(f"{out}/0_output.json"))
load = over = between = 0.0
steps, aus = 0, []
for epoch, e in stats.items():
    b = e["block1"]
    span = stamp(b["end"]) - stamp(b["start"])
    r = rank0[epoch]
    ld, pr = r["load"]["block1"], r["proc"]["block1"]
    load += sum(ld[1:])
    over += sum(p - l - nominal for p, l in zip(pr[1:], ld[1:]))
    between += span - sum(pr)
    steps += len(pr) - 1
    aus.append(100 * sum(p - l for p, l in zip(pr[1:], ld[1:])) / (span - pr[0]))
ms = lambda x: 1000 * x / max(steps, 1)
print(f'{m["train_au_mean_percentage"]:.3f} {m["train_throughput_mean_samples_per_second"]:.3f} '
      f'{times} {cpu_at(end) - cpu_at(start):.3f} {end - start:.3f} '
      f'{sum(aus) / len(aus):.3f} {ms(load):.3f} {ms(over):.3f} {ms(between):.3f}')
PY
}
keep() { # out_dir log
  [ -n "$LOGDIR" ] || return 0
  cp -r "$1" "$LOGDIR/" && cp "$2" "$LOGDIR/"
}

# Total bytes of the training files of a data set (each epoch reads each one whole, once).
train_bytes() {
  python3 - "$1/train" <<'PY'
import os, sys
print(sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(sys.argv[1]) for f in fs))
PY
}

generate() { # tool workload data_dir
  local tool=$1 wl=$2 data=$3 out=$WORK/gen-$1-$2 times
  mkdir -p "$out"
  "${tool}_cmd" "$wl" 2 "$data" "$out" \
    ++workload.workflow.generate_data=True ++workload.workflow.train=False
  times=$(timed "$out.log" "$out.cpu" "${CMD[@]}") || {
    echo "dlio_vs_dlio.sh: $tool could not generate $wl (${CMD[*]}):" >&2
    tail -n 25 "$out.log" >&2
    return 1
  }
  keep "$out" "$out.log"
  echo "  $tool generated $wl in $data: $(find "$data/train" -type f | wc -l) files," \
    "$(($(train_bytes "$data") >> 20)) MiB, ${times#* } s, 2 ranks"
}

# Whether a tool trains on the other's files: one rank, one epoch.
cross_read() { # tool workload data_dir -> "yes (N samples/s)" or "no: reason"
  local tool=$1 wl=$2 data=$3 out=$WORK/cross-$1-$2
  mkdir -p "$out"
  "${tool}_cmd" "$wl" 1 "$data" "$out" ++workload.train.epochs=1
  if timed "$out.log" "$out.cpu" "${CMD[@]}" >/dev/null && [ -s "$out/summary.json" ]; then
    keep "$out" "$out.log"
    python3 -c "import json,sys; m=json.load(open(sys.argv[1]))['metric']; \
print(f'yes ({m[\"train_throughput_mean_samples_per_second\"]:.1f} samples/s, AU {m[\"train_au_mean_percentage\"]:.1f} %)')" \
      "$out/summary.json"
  else
    keep "$out" "$out.log"
    echo "no: $(grep -m1 -E 'Error|error|refus' "$out.log" || tail -n 1 "$out.log")"
  fi
}

TOOLS=(dlio)
[ "$DLIO_ONLY" = 1 ] || TOOLS=(iogauge dlio)
echo "machine: $(nproc) cores; data sets in $DATA; rounds $RUNS, epochs $EPOCHS, ranks $RANKS"
RESULTS=$WORK/results.txt
BYTES=$WORK/bytes.txt
CROSS=$WORK/cross.txt
: >"$RESULTS"
: >"$BYTES"
: >"$CROSS"
for wl in "${WL_LIST[@]}"; do
  echo "$wl overrides (both tools; iogauge's spelling of record_length is record_length_bytes):"
  echo "  $(scale "$wl" dlio | tr '\n' ' ')"
  generate dlio "$wl" "$DATA/$wl-dlio"
  echo "$wl $(train_bytes "$DATA/$wl-dlio")" >>"$BYTES"
  if [ "$DLIO_ONLY" = 0 ]; then
    generate iogauge "$wl" "$DATA/$wl-iogauge"
    echo "$wl dlio-reads-iogauge $(cross_read dlio "$wl" "$DATA/$wl-iogauge")" >>"$CROSS"
    echo "$wl iogauge-reads-dlio $(cross_read iogauge "$wl" "$DATA/$wl-dlio")" >>"$CROSS"
    rm -rf -- "$DATA/$wl-iogauge"
  fi
done
[ ! -s "$CROSS" ] || sed 's/^/  /' "$CROSS"

echo "tool workload ranks round au_% samples/s cpu_s wall_s epochs_cpu_s epochs_s au_meas_% load_ms over_ms between_ms"
for r in $(seq 1 "$RUNS"); do
  for wl in "${WL_LIST[@]}"; do
    for n in "${RANK_LIST[@]}"; do
      order=("${TOOLS[@]}")
      [ $(((r + n) % 2)) = 0 ] || order=($(printf '%s\n' "${TOOLS[@]}" | tac))
      for tool in "${order[@]}"; do
        out=$(run_tool "$tool" "$wl" "$n" "$DATA/$wl-dlio" "$EPOCHS")
        echo "$tool $wl $n $r $out" | tee -a "$RESULTS"
      done
    done
  done
done

python3 - "$RESULTS" "$BYTES" "$EPOCHS" "$THROTTLE" <<'PY'
import statistics as st, sys
THROTTLE = sys.argv[4]
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
size = {w: int(b) for w, b in (l.split() for l in open(sys.argv[2]) if l.strip())}
E = int(sys.argv[3])
GiB = 1 << 30
runs = {}
for tool, wl, n, r, *figures in rows:
    runs.setdefault((wl, int(n), tool), []).append(tuple(map(float, figures)))

med = st.median
table = {}
for (wl, n, tool), rs in runs.items():
    gib = E * size[wl] / GiB
    table[(wl, n, tool)] = dict(
        au=med(x[0] for x in rs), au_lo=min(x[0] for x in rs), au_hi=max(x[0] for x in rs),
        sps=med(x[1] for x in rs), whole=med(x[2] / gib for x in rs),
        epochs=med(x[4] / gib for x in rs), wall=med(x[3] for x in rs),
        au_meas=med(x[6] for x in rs), load=med(x[7] for x in rs), over=med(x[8] for x in rs),
        between=med(x[9] for x in rs))

print()
print(f"Medians over rounds (AU band: min-max over rounds). Client CPU s/GiB: user+sys of the")
print(f"process tree over the bytes of {E} epochs ({E} x the data set); 'epochs' counts the CPU")
print("from the first epoch's start to the last one's end only, 'whole' the whole run (start-up")
print("included: DLIO imports TensorFlow and PyTorch in every rank).")
print("Per step of rank 0 after each epoch's first, ms: load (wait for the batch), over (compute")
print("beyond the configured time), between (barrier and loop); AU meas: AU with the measured compute.")
print(f'{"workload":14} {"ranks":>5} {"tool":8} {"AU %":>6} {"band":>11} {"samples/s":>10} '
      f'{"CPU s/GiB epochs":>16} {"whole":>7} {"wall s":>7} {"AU meas":>7} {"load":>7} {"over":>6} '
      f'{"between":>7}')
for key in sorted(table):
    wl, n, tool = key
    t = table[key]
    print(f'{wl:14} {n:5} {tool:8} {t["au"]:6.1f} {t["au_lo"]:5.1f}-{t["au_hi"]:5.1f} '
          f'{t["sps"]:10.1f} {t["epochs"]:16.2f} {t["whole"]:7.2f} {t["wall"]:7.1f} '
          f'{t["au_meas"]:7.1f} {t["load"]:7.2f} {t["over"]:6.2f} {t["between"]:7.2f}')

tools = {k[2] for k in table}
if {"iogauge", "dlio"} <= tools:
    print()
    print("Goals")
    if THROTTLE:
        print(f"1. Same AU as DLIO where DLIO's client is not the bottleneck: here the storage is")
        print(f"   ({THROTTLE} MB/s throttle, data set evicted from the cache), for every rank count;")
    else:
        print("1. Same AU as DLIO where DLIO's client is not the bottleneck (DLIO's AU >= 90 %;")
        print("   with cached data, DLIO's per-step load and overhead above are its client's);")
    print("   'same' here: the iogauge median within 2 points of DLIO's median or inside DLIO's band;")
    print("   'meas': against DLIO's AU with its measured compute (MLPerf's branch's definition).")
    for (wl, n, tool), d in sorted(table.items()):
        if tool != "dlio":
            continue
        g = table.get((wl, n, "iogauge"))
        if g is None:
            continue
        applies = bool(THROTTLE) or d["au"] >= 90
        same = abs(g["au"] - d["au"]) <= 2 or d["au_lo"] <= g["au"] <= d["au_hi"]
        verdict = ("same" if same else "differs") if applies else "n/a (DLIO's client below 90 %)"
        meas = "same" if abs(g["au"] - d["au_meas"]) <= 2 else "differs"
        print(f'   {wl:14} {n} ranks: iogauge {g["au"]:.1f} % vs DLIO {d["au"]:.1f} % '
              f'(diff {g["au"] - d["au"]:+.1f}): {verdict}; vs DLIO meas {d["au_meas"]:.1f} %: {meas}')
    ranks = sorted({k[1] for k in table})
    if THROTTLE:
        print("2., 3.: in the normal mode (no -t): the throttle, not the clients, sets the pace here.")
    if not THROTTLE and any(k[0] == "resnet50_h100" for k in table):
        print("2. resnet50: at least 4x DLIO's emulated accelerators per client at AU >= 90 %")
        best = {}
        for tool in ("iogauge", "dlio"):
            ok = [n for n in ranks if table.get(("resnet50_h100", n, tool), {}).get("au", 0) >= 90]
            best[tool] = max(ok) if ok else 0
            top = " (the most ranks tried; more may pass: -r)" if best[tool] == ranks[-1] else ""
            print(f"   {tool:8} largest rank count at AU >= 90 %: {best[tool]}{top}")
        if best["dlio"] == 0:
            print("   ratio: DLIO reached 90 % at no rank count tried" +
                  ("; iogauge did" if best["iogauge"] else "; neither did"))
        else:
            ratio = best["iogauge"] / best["dlio"]
            bound = ">= " if best["iogauge"] == ranks[-1] else ""
            print(f"   ratio iogauge/DLIO: {bound}{ratio:.1f}x: "
                  + ("met" if ratio >= 4 else "not shown by the ranks tried" if bound else "not met"))
    if not THROTTLE and any(k[0] == "unet3d_h100" for k in table):
        print("3. unet3d: client CPU s/GiB (over the epochs) at most a quarter of DLIO's")
        for n in ranks:
            g, d = table.get(("unet3d_h100", n, "iogauge")), table.get(("unet3d_h100", n, "dlio"))
            if g and d:
                q = g["epochs"] / d["epochs"] if d["epochs"] > 0 else float("nan")
                print(f'   {n} ranks: iogauge {g["epochs"]:.2f} vs DLIO {d["epochs"]:.2f} s/GiB = {q:.3f} '
                      f'of DLIO\'s: {"met" if q <= 0.25 else "not met"}')
PY

if [ "$CHECKPOINT" = 1 ]; then
  echo
  echo "llama3_8b checkpoints (benches/dlio_checkpoint_vs_dlio.sh):"
  IOGAUGE=$IOGAUGE DLIO_VENV=$DLIO_VENV RUNS=$RUNS DIR=$DIR MPIRUN=$MPIRUN \
    bash "$SCRIPT_DIR/dlio_checkpoint_vs_dlio.sh"
fi
