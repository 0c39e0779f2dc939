#!/usr/bin/env bash
# iogauge dlio vs DLIO on a scaled-down llama3_8b checkpoint: write and read throughput as
# summary.json reports them, MLPerf Storage's way (write, clear the cache, read). Called by
# benches/dlio_vs_dlio.sh -k, or on its own. See benches/README.md and docs/performance.md.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash benches/dlio_checkpoint_vs_dlio.sh [options]

Runs MLPerf Storage's llama3_8b checkpoint workload, scaled down by the same Hydra overrides
for both tools (num_layers 32 -> 4, hidden 4096 -> 1024, ffn 14336 -> 3584, vocab 128256 ->
32000, 10 -> WRITES checkpoints: about 1.7 GiB each over RANKS ranks), with iogauge
(`iogauge dlio llama3_8b`) and DLIO (`mpirun -np RANKS python -m dlio_benchmark.main
workload=llama3_8b`, MLPerf Storage's mlperf_storage_v2.0 branch: DLIO 2.0.0 on PyPI has no
transformer checkpoints). As MLPerf Storage's submissions do, each tool writes in one run
(num_checkpoints_read 0; iogauge --keep), the page cache is dropped (root:
/proc/sys/vm/drop_caches; else the reads may come from memory, said in the output), and a
second run reads (num_checkpoints_write 0); then the files are removed. Both with
checkpoint.rank_sync True (so DLIO's rank-0 time is the slowest rank's, as iogauge reports)
and fsync False: DLIO's loader reads checkpoint.fsync into a misnamed attribute and never
fsyncs, so iogauge does the same work here. Rounds alternate which tool goes first.

Printed: every measurement (save and load GiB/s from each tool's summary.json), then per
direction the medians, the ratio iogauge/DLIO of the medians and the range of the per-round
ratios.

Options (each also settable through the environment variable named in brackets):
  -r RANKS   ranks                                   [RANKS, default 2]
  -n RUNS    rounds                                  [RUNS, default 3]
  -c WRITES  checkpoints written, then read          [WRITES, default 2]
  -d DIR     directory for the checkpoints           [DIR, default /var/tmp]
  -h         this help

Environment only: IOGAUGE (default: built with `cargo build --release` here), DLIO_VENV (the
venv benches/dlio_vs_dlio.sh makes: torch, mpi4py, hydra, ...), DLIO_SRC (a directory holding
the mlperf_storage_v2.0 branch's `dlio_benchmark` package; default: installed with pip
--no-deps --target from github.com/argonne-lcf/dlio_benchmark@mlperf_storage_v2.0 into
${XDG_CACHE_HOME:-~/.cache}/iogauge-bench/dlio-v2 on first use, which needs the network),
MPIRUN (mpirun).
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
RANKS=${RANKS:-2}
RUNS=${RUNS:-3}
WRITES=${WRITES:-2}
DIR=${DIR:-/var/tmp}
MPIRUN=${MPIRUN:-mpirun}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/iogauge-bench
DLIO_VENV=${DLIO_VENV:-$CACHE/dlio-venv}
while getopts ":r:n:c:d:h" opt; do
  case $opt in
    r) RANKS=$OPTARG ;;
    n) RUNS=$OPTARG ;;
    c) WRITES=$OPTARG ;;
    d) DIR=$OPTARG ;;
    h) usage; exit 0 ;;
    :) echo "dlio_checkpoint_vs_dlio.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "dlio_checkpoint_vs_dlio.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
die_usage() { echo "dlio_checkpoint_vs_dlio.sh: $*" >&2; exit 2; }
[ $# -eq 0 ] || die_usage "unexpected argument '$1' (see -h)"
for v in RANKS RUNS WRITES; do
  [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die_usage "$v '${!v}' is not a positive integer"
done
[ -d "$DIR" ] && [ -w "$DIR" ] || die_usage "DIR '$DIR' does not exist or is not writable"
[ -x "$DLIO_VENV/bin/python" ] ||
  die_usage "no DLIO venv at $DLIO_VENV: run bash benches/dlio_vs_dlio.sh once to make it"
command -v "$MPIRUN" >/dev/null || die_usage "mpirun not found (MPIRUN=$MPIRUN)"

if [ -z "${DLIO_SRC:-}" ]; then
  DLIO_SRC=$CACHE/dlio-v2
  if [ ! -d "$DLIO_SRC/dlio_benchmark/checkpointing" ]; then
    echo "installing DLIO's mlperf_storage_v2.0 branch into $DLIO_SRC (first run only)"
    "$DLIO_VENV/bin/pip" install -q --no-deps --target "$DLIO_SRC" \
      "git+https://github.com/argonne-lcf/dlio_benchmark@mlperf_storage_v2.0" ||
      die_usage "cannot install DLIO's mlperf_storage_v2.0 branch (no network?): give DLIO_SRC"
  fi
fi
grep -q "def get_layer_parameters" "$DLIO_SRC/dlio_benchmark/checkpointing/base_checkpointing.py" 2>/dev/null ||
  die_usage "DLIO_SRC '$DLIO_SRC' holds no transformer checkpointing (the mlperf_storage_v2.0 branch has it)"
if [ -z "${IOGAUGE:-}" ]; then
  (cd "$REPO_DIR" && cargo build --release --quiet)
  IOGAUGE=$REPO_DIR/target/release/iogauge
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dlio_ckpt.XXXXXX")
BASE=$(mktemp -d "$DIR/dlio_ckpt.XXXXXX")
cleanup() { rm -rf -- "$WORK" "$BASE"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$WORK/cfg/workload"
cp "$REPO_DIR/workloads/dlio/llama3_8b.yaml" "$WORK/cfg/workload/"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export XDG_DATA_HOME=$WORK/data-home

SHAPE=(
  ++workload.model.num_layers=4
  ++workload.model.transformer.hidden_size=1024
  ++workload.model.transformer.ffn_hidden_size=3584
  ++workload.model.transformer.vocab_size=32000
  ++workload.checkpoint.time_between_checkpoints=0
  ++workload.checkpoint.rank_sync=True
  ++workload.checkpoint.fsync=False
)
echo "shape: ${SHAPE[*]}; $RANKS ranks, $WRITES checkpoints, in $DIR"

DROPS=1
[ "$(id -u)" = 0 ] && [ -w /proc/sys/vm/drop_caches ] || DROPS=0
[ "$DROPS" = 1 ] || echo "not root: the page cache is not dropped between write and read"
drop() { sync; [ "$DROPS" = 0 ] || echo 3 >/proc/sys/vm/drop_caches; }

# One tool's write run then read run; prints "tool save_GiBps load_GiBps".
measure() { # tool round
  local tool=$1 folder=$BASE/$1 out=$WORK/$1.$2
  local w=("++workload.checkpoint.num_checkpoints_write=$WRITES" "++workload.checkpoint.num_checkpoints_read=0")
  local r=("++workload.checkpoint.num_checkpoints_write=0" "++workload.checkpoint.num_checkpoints_read=$WRITES")
  local at=("++workload.checkpoint.checkpoint_folder=$folder")
  case $tool in
    iogauge)
      "$IOGAUGE" --no-store dlio llama3_8b "${SHAPE[@]}" "${at[@]}" "${w[@]}" --tasks "$RANKS" \
        --keep --output "$out.w" >"$out.w.log" 2>&1 || { cat "$out.w.log" >&2; return 1; }
      drop
      "$IOGAUGE" --no-store dlio llama3_8b "${SHAPE[@]}" "${at[@]}" "${r[@]}" --tasks "$RANKS" \
        --output "$out.r" >"$out.r.log" 2>&1 || { cat "$out.r.log" >&2; return 1; } ;;
    dlio)
      local run=("$MPIRUN" --oversubscribe --bind-to none -np "$RANKS" env PYTHONPATH="$DLIO_SRC"
        "$DLIO_VENV/bin/python" -m dlio_benchmark.main --config-dir "$WORK/cfg" workload=llama3_8b)
      (cd "$WORK" && "${run[@]}" "${SHAPE[@]}" "${at[@]}" "${w[@]}" \
        "++workload.output.folder=$out.w" >"$out.w.log" 2>&1) || { cat "$out.w.log" >&2; return 1; }
      drop
      (cd "$WORK" && "${run[@]}" "${SHAPE[@]}" "${at[@]}" "${r[@]}" \
        "++workload.output.folder=$out.r" >"$out.r.log" 2>&1) || { cat "$out.r.log" >&2; return 1; } ;;
  esac
  rm -rf -- "$folder"
  python3 - "$tool" "$out.w/summary.json" "$out.r/summary.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[2]))["metric"]
r = json.load(open(sys.argv[3]))["metric"]
print(sys.argv[1], w["save_checkpoint_io_mean_GB_per_second"], r["load_checkpoint_io_mean_GB_per_second"])
PY
}

results=$WORK/results
: >"$results"
for round in $(seq 1 "$RUNS"); do
  order=(iogauge dlio)
  [ $((round % 2)) = 0 ] && order=(dlio iogauge)
  for tool in "${order[@]}"; do
    line=$(measure "$tool" "$round")
    echo "round $round $line" | tee -a "$results"
  done
done

python3 - "$results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
by = {}
for _, rnd, tool, save, load in rows:
    by.setdefault(tool, {}).setdefault(int(rnd), (float(save), float(load)))
print("\nGiB/s as summary.json reports them (save_/load_checkpoint_io_mean_GB_per_second); medians over rounds")
print(f"{'direction':10} {'iogauge':>10} {'DLIO':>10} {'ratio':>7}  band")
for i, name in enumerate(["save", "load"]):
    a = [by["iogauge"][r][i] for r in sorted(by["iogauge"])]
    b = [by["dlio"][r][i] for r in sorted(by["dlio"])]
    ratios = [x / y for x, y in zip(a, b) if y > 0]
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{name:10} {ma:10.3f} {mb:10.3f} {ma / mb:7.2f}  {min(ratios):.2f}-{max(ratios):.2f}")
PY
