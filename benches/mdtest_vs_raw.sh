#!/usr/bin/env bash
# iogauge mdtest vs a raw create/stat/unlink loop on the same files; prints median rates and
# the ratio iogauge/raw per phase. See docs/performance.md ("mdtest vs a raw syscall loop").
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash benches/mdtest_vs_raw.sh [options]

Runs `iogauge mdtest -F -u -C -T -r` (files only, a directory per task; create, stat, remove)
and a raw loop doing the same syscalls on the same number of files with the same number of
threads, at the same paths (benches/raw_md.c, compiled at run time into a temporary directory
with cc -O2): open(O_CREAT|O_WRONLY)+close, stat, unlink. Both rates use mdtest's definition (tasks x files
per task / the longest task's barrier-to-barrier time). Runs are interleaved (the order of the
two is reversed every other run); every measurement is printed, then per directory and phase
the median ops/s of each and the ratio iogauge/raw. Exit status: 0 when both ran (whatever
the ratios), 1 when one failed, 2 on bad usage.

Options (each also settable through the environment variable named in brackets):
  -n N       files per task                                         [FILES, default 20000]
  -j JOBS    tasks (iogauge --tasks) and raw threads                [JOBS, default 2]
  -r RUNS    measured runs per directory                            [RUNS, default 5]
  -d DIR     target directory; repeat for several                   [DIRS="/dev/shm /tmp"]
  -w N       untimed warm-up rounds of both before measuring        [WARMUP, default 1]
  -h         this help

Environment only: IOGAUGE (binary; default: built with `cargo build --release` in this
repository), CC (default: cc). Each run works in a fresh directory mdraw.XXXXXX under every
target directory and removes it.
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)

FILES=${FILES:-20000}
JOBS=${JOBS:-2}
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
CC=${CC:-cc}
read -r -a DIR_LIST <<<"${DIRS:-/dev/shm /tmp}"
dirs_from_flags=()

while getopts ":n:j:r:d:w:h" opt; do
  case $opt in
    n) FILES=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    d) dirs_from_flags+=("$OPTARG") ;;
    w) WARMUP=$OPTARG ;;
    h) usage; exit 0 ;;
    :) echo "mdtest_vs_raw.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "mdtest_vs_raw.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
  echo "mdtest_vs_raw.sh: unexpected argument '$1' (see -h)" >&2
  exit 2
fi
if [ ${#dirs_from_flags[@]} -gt 0 ]; then
  DIR_LIST=("${dirs_from_flags[@]}")
fi

die_usage() { echo "mdtest_vs_raw.sh: $*" >&2; exit 2; }
for n in FILES JOBS RUNS WARMUP; do
  [[ ${!n} =~ ^[0-9]+$ ]] || die_usage "$n '${!n}' is not a non-negative integer"
done
[ "$FILES" -gt 0 ] || die_usage "FILES must be at least 1"
[ "$JOBS" -gt 0 ] || die_usage "JOBS must be at least 1"
[ "$RUNS" -gt 0 ] || die_usage "RUNS must be at least 1"
[ ${#DIR_LIST[@]} -gt 0 ] || die_usage "no target directory"
for d in "${DIR_LIST[@]}"; do
  [ -d "$d" ] && [ -w "$d" ] || die_usage "target directory '$d' does not exist or is not writable"
done
command -v python3 >/dev/null 2>&1 || die_usage "python3 not found (used to parse JSON)"
command -v "$CC" >/dev/null 2>&1 || die_usage "C compiler '$CC' not found; set CC"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mdtest_vs_raw.XXXXXX")
# iogauge stores every run; the measured runs go to a store of their own, removed with WORK.
export XDG_DATA_HOME=$WORK/data-home
SCRATCH=()
cleanup() {
  local s
  for s in "${SCRATCH[@]}"; do
    [ -n "$s" ] && rm -rf -- "$s"
  done
  rm -rf -- "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "${IOGAUGE:-}" ]; then
  echo "building iogauge (cargo build --release) ..."
  (cd "$REPO_DIR" && cargo build --release --quiet) || { echo "mdtest_vs_raw.sh: cargo build failed" >&2; exit 1; }
  IOGAUGE=$REPO_DIR/target/release/iogauge
fi
[ -x "$IOGAUGE" ] || die_usage "iogauge binary '$IOGAUGE' is not executable"
# Storing the run (iogauge since its result store) is not what is measured.
NO_STORE=()
if "$IOGAUGE" --help 2>/dev/null | grep -q -- --no-store; then NO_STORE=(--no-store); fi
RAW=$WORK/raw_md
"$CC" -O2 -pthread -o "$RAW" "$SCRIPT_DIR/raw_md.c" || { echo "mdtest_vs_raw.sh: compiling raw_md.c failed" >&2; exit 1; }

RESULTS=$WORK/results.txt # lines: dir tool phase ops_per_s
: >"$RESULTS"

# A fresh scratch directory per tool run, removed afterwards.
fresh() { # $1 = target dir
  local s
  s=$(mktemp -d "$1/mdraw.XXXXXX")
  SCRATCH+=("$s")
  echo "$s"
}

run_iogauge() { # $1 = target dir, $2 = record (1) or warm-up (0)
  local s json
  s=$(fresh "$1")
  json=$WORK/iogauge.json
  "$IOGAUGE" "${NO_STORE[@]}" mdtest --tasks "$JOBS" -n "$FILES" -F -u -C -T -r -d "$s/md" --json "$json" >"$WORK/iogauge.out" 2>&1 ||
    { echo "mdtest_vs_raw.sh: iogauge failed:" >&2; cat "$WORK/iogauge.out" >&2; exit 1; }
  rm -rf -- "$s"
  [ "$2" = 1 ] || return 0
  python3 - "$json" "$1" >>"$RESULTS" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
names = {"file-create": "create", "file-stat": "stat", "file-remove": "remove"}
for p in doc["phases"]:
    if p["operation"] in names:
        print(sys.argv[2], "iogauge", names[p["operation"]], p["iops"])
PY
}

run_raw() { # $1 = target dir, $2 = record (1) or warm-up (0)
  local s
  s=$(fresh "$1")
  "$RAW" "$s/md" "$JOBS" "$FILES" >"$WORK/raw.out" 2>&1 ||
    { echo "mdtest_vs_raw.sh: raw_md failed:" >&2; cat "$WORK/raw.out" >&2; exit 1; }
  rm -rf -- "$s"
  [ "$2" = 1 ] || return 0
  awk -v d="$1" '$1 == "raw" { print d, "raw", $2, $5 }' "$WORK/raw.out" >>"$RESULTS"
}

echo "files per task: $FILES, tasks: $JOBS, runs: $RUNS, warm-up rounds: $WARMUP"
for d in "${DIR_LIST[@]}"; do
  for ((w = 0; w < WARMUP; w++)); do
    run_iogauge "$d" 0
    run_raw "$d" 0
  done
  for ((r = 0; r < RUNS; r++)); do
    if ((r % 2 == 0)); then
      run_iogauge "$d" 1
      run_raw "$d" 1
    else
      run_raw "$d" 1
      run_iogauge "$d" 1
    fi
    echo "run $((r + 1))/$RUNS on $d:"
    tail -n 6 "$RESULTS" | awk '{ printf "  %-8s %-7s %14.1f ops/s\n", $2, $3, $4 }'
  done
done

echo
python3 - "$RESULTS" <<'PY'
import statistics, sys
from collections import defaultdict
rates = defaultdict(list)
for line in open(sys.argv[1]):
    d, tool, phase, v = line.split()
    rates[(d, tool, phase)].append(float(v))
print(f"{'directory':<12} {'phase':<7} {'iogauge ops/s':>15} {'raw ops/s':>15} {'iogauge/raw':>12}")
for d in dict.fromkeys(k[0] for k in rates):
    for phase in ("create", "stat", "remove"):
        a = statistics.median(rates[(d, "iogauge", phase)])
        b = statistics.median(rates[(d, "raw", phase)])
        print(f"{d:<12} {phase:<7} {a:>15.1f} {b:>15.1f} {a / b if b else 0:>12.3f}")
PY
