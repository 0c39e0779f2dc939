#!/usr/bin/env bash
# iogauge md-workbench vs md-workbench (hpc/ior) on the same parameters; prints the median rate
# of each per phase and the ratio iogauge/md-workbench. See docs/performance.md.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: MDWORKBENCH=/path/to/md-workbench bash benches/mdwb_vs_mdworkbench.sh [options]

Runs `iogauge md-workbench --tasks J` and md-workbench (under `mpirun --bind-to none -np J`, or
alone for one rank) with the same options: -P P -I I -D D -R R -S S, the same -G and md-workbench's data
pattern (--dataPacketType=timestamp), all three phases, each in a fresh directory. Both print
md-workbench's rates (precreate: data sets and objects made; benchmark: four operations per
object read; cleanup: objects and data sets removed, over the slowest rank's time); a run's
benchmark rate is the median of its iterations. Runs are interleaved (the order of the two is
reversed every other run) after warm-up rounds; every measurement is printed, then per
directory and phase the median rate of each, the ratio of the medians and the median of the
per-round ratios (the two runs of a round are back to back, so a round that a busy machine
slows down slows both). Exit status:
0 when both ran (whatever the ratios), 1 when one failed, 2 on bad usage.

Options (each also settable through the environment variable named in brackets):
  -P N       objects precreated per data set                        [PRECREATE, default 2000]
  -I N       objects per data set and iteration                     [OBJECTS, default 1000]
  -D N       data sets per rank                                     [SETS, default 10]
  -R N       benchmark iterations                                   [ITERATIONS, default 3]
  -S BYTES   object size                                            [SIZE, default 3901]
  -j JOBS    ranks (iogauge --tasks, mpirun -np)                    [JOBS, default 2]
  -r RUNS    measured runs per directory                            [RUNS, default 5]
  -d DIR     target directory; repeat for several                   [DIRS="/dev/shm /tmp"]
  -w N       untimed warm-up rounds of both before measuring        [WARMUP, default 1]
  -m         iogauge as MPI ranks too: its MPI build (IOGAUGE, built with --features mpi)
             under the same mpirun as md-workbench, instead of thread ranks  [IOGAUGE_MPI=1]
  -h         this help

Environment only: MDWORKBENCH (md-workbench binary, required), MPIRUN (default: mpirun; run
as root it gets --allow-run-as-root through OMPI_ALLOW_RUN_AS_ROOT), IOGAUGE (binary;
default: built with `cargo build --release` in this repository). Each run works in a fresh
directory mdwb.XXXXXX under every target directory and removes it.
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)

PRECREATE=${PRECREATE:-2000}
OBJECTS=${OBJECTS:-1000}
SETS=${SETS:-10}
ITERATIONS=${ITERATIONS:-3}
SIZE=${SIZE:-3901}
JOBS=${JOBS:-2}
RUNS=${RUNS:-5}
WARMUP=${WARMUP:-1}
IOGAUGE_MPI=${IOGAUGE_MPI:-0}
MPIRUN=${MPIRUN:-mpirun}
read -r -a DIR_LIST <<<"${DIRS:-/dev/shm /tmp}"
dirs_from_flags=()

while getopts ":P:I:D:R:S:j:r:d:w:mh" opt; do
  case $opt in
    P) PRECREATE=$OPTARG ;;
    I) OBJECTS=$OPTARG ;;
    D) SETS=$OPTARG ;;
    R) ITERATIONS=$OPTARG ;;
    S) SIZE=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    d) dirs_from_flags+=("$OPTARG") ;;
    w) WARMUP=$OPTARG ;;
    m) IOGAUGE_MPI=1 ;;
    h) usage; exit 0 ;;
    :) echo "mdwb_vs_mdworkbench.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "mdwb_vs_mdworkbench.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
  echo "mdwb_vs_mdworkbench.sh: unexpected argument '$1' (see -h)" >&2
  exit 2
fi
if [ ${#dirs_from_flags[@]} -gt 0 ]; then
  DIR_LIST=("${dirs_from_flags[@]}")
fi

die_usage() { echo "mdwb_vs_mdworkbench.sh: $*" >&2; exit 2; }
for n in PRECREATE OBJECTS SETS ITERATIONS SIZE JOBS RUNS WARMUP; do
  [[ ${!n} =~ ^[0-9]+$ ]] || die_usage "$n '${!n}' is not a non-negative integer"
done
for n in SETS ITERATIONS JOBS RUNS; do
  [ "${!n}" -gt 0 ] || die_usage "$n must be at least 1"
done
[ "$OBJECTS" -le "$PRECREATE" ] || die_usage "OBJECTS must not exceed PRECREATE (see docs/md-workbench.md)"
[ ${#DIR_LIST[@]} -gt 0 ] || die_usage "no target directory"
for d in "${DIR_LIST[@]}"; do
  [ -d "$d" ] && [ -w "$d" ] || die_usage "target directory '$d' does not exist or is not writable"
done
command -v python3 >/dev/null 2>&1 || die_usage "python3 not found (used to parse the outputs)"
[ -n "${MDWORKBENCH:-}" ] || die_usage "set MDWORKBENCH to md-workbench's binary (hpc/ior's build)"
[ -x "$MDWORKBENCH" ] || die_usage "MDWORKBENCH '$MDWORKBENCH' is not executable"
if [ "$JOBS" -gt 1 ]; then
  command -v "$MPIRUN" >/dev/null 2>&1 || die_usage "'$MPIRUN' not found; set MPIRUN"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/mdwb_vs_mdworkbench.XXXXXX")
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

if [ -z "${IOGAUGE:-}" ] && [ "$IOGAUGE_MPI" = 1 ]; then
  die_usage "-m needs IOGAUGE set to an MPI build (cargo build --release --features mpi)"
fi
if [ -z "${IOGAUGE:-}" ]; then
  echo "building iogauge (cargo build --release) ..."
  (cd "$REPO_DIR" && cargo build --release --quiet) || { echo "mdwb_vs_mdworkbench.sh: cargo build failed" >&2; exit 1; }
  IOGAUGE=$REPO_DIR/target/release/iogauge
fi
[ -x "$IOGAUGE" ] || die_usage "iogauge binary '$IOGAUGE' is not executable"
NO_STORE=()
if "$IOGAUGE" --help 2>/dev/null | grep -q -- --no-store; then NO_STORE=(--no-store); fi

OPTS=(-P "$PRECREATE" -I "$OBJECTS" -D "$SETS" -R "$ITERATIONS" -S "$SIZE" -G 4711 --dataPacketType=timestamp)
RESULTS=$WORK/results.txt # lines: dir round tool phase ops_per_s
: >"$RESULTS"

fresh() { # $1 = target dir
  local s
  s=$(mktemp -d "$1/mdwb.XXXXXX")
  SCRATCH+=("$s")
  echo "$s"
}

# md-workbench's lines (both tools print them): per phase the rate; the benchmark's median.
record() { # $1 = dir, $2 = tool, $3 = output file, $4 = round
  python3 - "$1" "$2" "$3" "$4" >>"$RESULTS" <<'PY'
import re, statistics, sys
d, tool, path, rnd = sys.argv[1:]
rates = {}
for line in open(path):
    m = re.match(r"(precreate|benchmark|cleanup) process max:.* rate:([0-9.]+) iops/s", line)
    if m:
        rates.setdefault(m.group(1), []).append(float(m.group(2)))
for phase in ("precreate", "benchmark", "cleanup"):
    if phase not in rates:
        sys.exit(f"no {phase} line in {path}")
    print(d, rnd, tool, phase, statistics.median(rates[phase]))
PY
}

run_tool() { # $1 = target dir, $2 = tool, $3 = round to record under, or "" for a warm-up
  local s out
  s=$(fresh "$1")
  out=$WORK/$2.out
  if [ "$2" = iogauge ] && [ "$IOGAUGE_MPI" = 1 ]; then
    # Processes, as md-workbench's: thread ranks share one process's file table, whose lock
    # every open and close of the ranks takes (docs/performance.md).
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$MPIRUN" --oversubscribe --bind-to none \
      -np "$JOBS" "$IOGAUGE" "${NO_STORE[@]}" md-workbench "${OPTS[@]}" -o "$s/out" \
      --run-info-file "$s/status" >"$out" 2>&1 ||
      { echo "mdwb_vs_mdworkbench.sh: iogauge failed:" >&2; cat "$out" >&2; exit 1; }
  elif [ "$2" = iogauge ]; then
    "$IOGAUGE" "${NO_STORE[@]}" md-workbench --tasks "$JOBS" "${OPTS[@]}" -o "$s/out" \
      --run-info-file "$s/status" >"$out" 2>&1 ||
      { echo "mdwb_vs_mdworkbench.sh: iogauge failed:" >&2; cat "$out" >&2; exit 1; }
  elif [ "$JOBS" -gt 1 ]; then
    # Unbound, as iogauge's threads: Open MPI binds each rank to a core by default, and a rank
    # bound to a core that another program keeps busy cannot move.
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$MPIRUN" --oversubscribe --bind-to none \
      -np "$JOBS" "$MDWORKBENCH" "${OPTS[@]}" -o "$s/out" --run-info-file="$s/status" >"$out" 2>&1 ||
      { echo "mdwb_vs_mdworkbench.sh: md-workbench failed:" >&2; cat "$out" >&2; exit 1; }
  else
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$MDWORKBENCH" "${OPTS[@]}" \
      -o "$s/out" --run-info-file="$s/status" >"$out" 2>&1 ||
      { echo "mdwb_vs_mdworkbench.sh: md-workbench failed:" >&2; cat "$out" >&2; exit 1; }
  fi
  rm -rf -- "$s"
  [ -n "$3" ] || return 0
  record "$1" "$2" "$out" "$3" || { echo "mdwb_vs_mdworkbench.sh: cannot read $2's output:" >&2; cat "$out" >&2; exit 1; }
}

ranks_as=threads
[ "$IOGAUGE_MPI" = 1 ] && ranks_as="MPI processes"
echo "-P $PRECREATE -I $OBJECTS -D $SETS -R $ITERATIONS -S $SIZE, ranks: $JOBS (iogauge's as $ranks_as), runs: $RUNS, warm-up rounds: $WARMUP"
for d in "${DIR_LIST[@]}"; do
  for ((w = 0; w < WARMUP; w++)); do
    run_tool "$d" iogauge ""
    run_tool "$d" md-workbench ""
  done
  for ((r = 0; r < RUNS; r++)); do
    if ((r % 2 == 0)); then
      run_tool "$d" iogauge "$r"
      run_tool "$d" md-workbench "$r"
    else
      run_tool "$d" md-workbench "$r"
      run_tool "$d" iogauge "$r"
    fi
    echo "run $((r + 1))/$RUNS on $d:"
    tail -n 6 "$RESULTS" | awk '{ printf "  %-13s %-10s %14.1f ops/s\n", $3, $4, $5 }'
  done
done

echo
python3 - "$RESULTS" <<'PY'
import statistics, sys
from collections import defaultdict
rates = defaultdict(list)
by_round = {}
for line in open(sys.argv[1]):
    d, rnd, tool, phase, v = line.split()
    rates[(d, tool, phase)].append(float(v))
    by_round[(d, rnd, tool, phase)] = float(v)
print(f"{'directory':<12} {'phase':<10} {'iogauge ops/s':>15} {'md-workbench':>15} {'ratio':>8} {'per-round':>10}")
for d in dict.fromkeys(k[0] for k in rates):
    rounds = sorted({k[1] for k in by_round if k[0] == d}, key=int)
    for phase in ("precreate", "benchmark", "cleanup"):
        a = statistics.median(rates[(d, "iogauge", phase)])
        b = statistics.median(rates[(d, "md-workbench", phase)])
        pairs = [by_round[(d, r, "iogauge", phase)] / by_round[(d, r, "md-workbench", phase)]
                 for r in rounds if by_round[(d, r, "md-workbench", phase)] > 0]
        per = statistics.median(pairs) if pairs else 0
        print(f"{d:<12} {phase:<10} {a:>15.1f} {b:>15.1f} {a / b if b else 0:>8.3f} {per:>10.3f}")
PY
