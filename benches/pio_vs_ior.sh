#!/usr/bin/env bash
# iogauge -a MPIIO / -a HDF5 vs IOR's own back ends under mpirun, same patterns, interleaved
# rounds, ratios of medians; then the system calls of ior-hard's shape, independent against
# collective. See docs/performance.md for the figures and benches/README.md for the options.
set -euo pipefail

usage() {
  cat <<'EOF2'
Usage: IOR=/path/to/ior bash benches/pio_vs_ior.sh [options]

Runs IOR (`ior -a MPIIO`, `ior -a MPIIO -c`, `ior -a HDF5`) and iogauge (`iogauge ior` with the
same arguments) under `mpirun -np NP`, on three patterns: a file per process (-F, 1 MiB
transfers), a shared file (1 MiB transfers, one block per rank), and ior-hard's shape (47008-
byte transfers, one per block, interleaved over the ranks: where collective buffering
matters). Each run writes (with -e) and reads its files back and removes them. Rounds are
interleaved: every round runs every pattern and back end once with each tool, the tools
alternating who goes first. Printed: every measurement, then per pattern, back end and phase
the median MiB/s of each tool, the ratio of the medians iogauge/IOR, and the range of the
per-round ratios. Then (unless -S) the ior-hard shape once more under `strace -f` for
independent and for collective MPI-IO, both tools: the write system calls the processes made
(count, bytes, mean bytes per call), i.e. what the file system saw of each mode.

IOR is not built by this script: build it with MPI-IO and parallel HDF5 (IOR's
`./configure --with-hdf5 CC=mpicc` with the HDF5 of your MPI; docs/performance.md says how the
figures there were made) and pass its path in IOR.

Options (each also settable through the environment variable named in brackets):
  -n NP      MPI ranks                                                  [NP, default 4]
  -r ROUNDS  measured rounds                                            [ROUNDS, default 5]
  -s SEGS    segments of the ior-hard shape per rank                    [HARD_SEGMENTS, default 2000]
  -b SIZE    block per rank of the 1 MiB patterns                       [BLOCK, default 64m]
  -d DIR     target directory                                           [DIR, default /dev/shm]
  -S         skip the strace part                                       [NO_STRACE=1]
  -c         also count user-space instructions per transfer (valgrind callgrind, one
             rank, 4 KiB transfers, 16 MiB against 64 MiB, -a MPIIO and -a HDF5)  [COUNT=1]
  -h         this help

Environment only: IOR (IOR binary with MPIIO and HDF5; required), IOGAUGE (default: built here
with `cargo build --release --features mpi,hdf5` into target/pio-bench), MPIRUN (mpirun),
MPIRUN_ARGS (default: --oversubscribe; as root the OMPI_ALLOW_RUN_AS_ROOT variables are set).
Needs python3, and strace for the last part. Creates and removes iogauge-pio.XXXXXX under DIR.
EOF2
}

NP=${NP:-4}; ROUNDS=${ROUNDS:-5}; HARD_SEGMENTS=${HARD_SEGMENTS:-2000}; BLOCK=${BLOCK:-64m}
DIR=${DIR:-/dev/shm}; NO_STRACE=${NO_STRACE:-}; COUNT=${COUNT:-}
while getopts "n:r:s:b:d:Sch" o; do
  case $o in
    n) NP=$OPTARG ;; r) ROUNDS=$OPTARG ;; s) HARD_SEGMENTS=$OPTARG ;; b) BLOCK=$OPTARG ;;
    d) DIR=$OPTARG ;; S) NO_STRACE=1 ;; c) COUNT=1 ;; h) usage; exit 0 ;; *) usage >&2; exit 2 ;;
  esac
done
if [ -z "${IOR:-}" ] || [ ! -x "$IOR" ]; then
  echo "pio_vs_ior.sh: set IOR to an IOR binary built with MPI-IO and HDF5 (see -h)" >&2
  exit 2
fi
REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
if [ -z "${IOGAUGE:-}" ]; then
  (cd "$REPO_DIR" && cargo build --release --features mpi,hdf5 --target-dir target/pio-bench 2>&1 | tail -n 1)
  IOGAUGE=$REPO_DIR/target/pio-bench/release/iogauge
fi
MPIRUN=${MPIRUN:-mpirun}
read -r -a MPIRUN_ARGS <<<"${MPIRUN_ARGS:---oversubscribe}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d "$DIR/iogauge-pio.XXXXXX")
out=$(mktemp)
trap 'rm -rf "$work" "$out"' EXIT

declare -A PATTERN=(
  [fpp]="-t 1m -b $BLOCK -s 1 -F"
  [shared]="-t 1m -b $BLOCK -s 1"
  [hard]="-t 47008 -b 47008 -s $HARD_SEGMENTS"
)
APIS=("MPIIO" "MPIIO -c" "HDF5")
COMMON="-w -r -e -i 1 -l timestamp -G 11"

# One run of `tool` (ior or iogauge): "write MiB/s read MiB/s" from the summary table.
run() {
  local tool=$1 args=$2
  local cmd=("$IOR")
  [ "$tool" = iogauge ] && cmd=("$IOGAUGE" ior --no-store)
  # shellcheck disable=SC2086
  "$MPIRUN" "${MPIRUN_ARGS[@]}" -np "$NP" "${cmd[@]}" $args -o "$work/f" >"$out" 2>&1 || {
    echo "$tool $args failed:" >&2; tail -n 5 "$out" >&2; exit 1; }
  python3 - "$out" <<'PY'
import sys
rows = {}
summary = False
for line in open(sys.argv[1]):
    if line.startswith("Summary of all tests:"):
        summary = True
    elif summary and line.split()[:1] in (["write"], ["read"]):
        # The table's rows only (iogauge's closing notes on standard error start alike).
        word = line.split()[1]
        if word.replace(".", "", 1).isdigit():
            rows.setdefault(line.split()[0], word)
print(rows.get("write", "nan"), rows.get("read", "nan"))
PY
}

results=$work/results.txt
for round in $(seq 1 "$ROUNDS"); do
  for pattern in fpp shared hard; do
    for api in "${APIS[@]}"; do
      args="-a $api ${PATTERN[$pattern]} $COMMON"
      order=(ior iogauge)
      [ $((round % 2)) -eq 0 ] && order=(iogauge ior)
      for tool in "${order[@]}"; do
        read -r w r < <(run "$tool" "$args")
        echo "round $round $pattern '$api' $tool write $w read $r MiB/s"
        echo "$round|$pattern|$api|$tool|$w|$r" >>"$results"
      done
    done
  done
done

python3 - "$results" <<'PY'
import statistics as st, sys
from collections import defaultdict
runs = defaultdict(dict)
for line in open(sys.argv[1]):
    rnd, pattern, api, tool, w, r = line.strip().split("|")
    runs[(pattern, api)][(int(rnd), tool)] = (float(w), float(r))
print()
print("Medians over rounds (MiB/s). ratio = median(iogauge)/median(IOR); band = per-round ratios.")
print(f'{"pattern":8} {"api":9} {"phase":5} {"iogauge":>9} {"IOR":>9} {"ratio":>6}  band')
for (pattern, api), v in runs.items():
    rounds = sorted({k[0] for k in v})
    for i, phase in enumerate(("write", "read")):
        g = [v[(n, "iogauge")][i] for n in rounds]
        o = [v[(n, "ior")][i] for n in rounds]
        per = [a / b for a, b in zip(g, o) if b > 0]
        ratio = st.median(g) / st.median(o) if st.median(o) > 0 else float("nan")
        print(f"{pattern:8} {api:9} {phase:5} {st.median(g):9.1f} {st.median(o):9.1f} {ratio:6.2f}  "
              f"{min(per):.2f}-{max(per):.2f}")
PY

if [ -n "$COUNT" ]; then
  echo
  echo "User-space instructions per 4 KiB transfer (callgrind Ir, one rank, (Ir(64m) - Ir(16m)) / 12288):"
  for api in MPIIO HDF5; do
    for phase in "-w" "-r"; do
      for tool in ior iogauge; do
        cmd=("$IOR")
        [ "$tool" = iogauge ] && cmd=("$IOGAUGE" ior --no-store)
        irs=()
        for size in 16m 64m; do
          [ "$phase" = -r ] && "$MPIRUN" "${MPIRUN_ARGS[@]}" -np 1 "${cmd[@]}" -a "$api" -t 4k -b "$size" -w -k -o "$work/c" >/dev/null 2>&1
          "$MPIRUN" "${MPIRUN_ARGS[@]}" -np 1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" \
            "${cmd[@]}" -a "$api" -t 4k -b "$size" "$phase" -k -o "$work/c" >/dev/null 2>&1
          irs+=("$(grep -m1 '^summary:' "$work/cg.out" | awk '{print $2}')")
          rm -f "$work"/c* "$work/cg.out"
        done
        name=write; [ "$phase" = -r ] && name=read
        echo "  $api $name $tool: $(( (irs[1] - irs[0]) / 12288 )) instructions per transfer"
      done
    done
  done
fi

[ -n "$NO_STRACE" ] && exit 0
command -v strace >/dev/null || { echo "strace not found: the system-call part is skipped" >&2; exit 0; }
echo
echo "ior-hard's shape ($NP ranks, 47008-byte transfers, $HARD_SEGMENTS segments), write phase:"
echo "the write system calls of every process (strace -ff), independent against collective."
for api in "MPIIO" "MPIIO -c"; do
  for tool in ior iogauge; do
    cmd=("$IOR")
    [ "$tool" = iogauge ] && cmd=("$IOGAUGE" ior --no-store)
    trace=$work/trace
    # shellcheck disable=SC2086
    # -ff: a file per process, so that no call is split over "unfinished"/"resumed" lines.
    strace -ff -qq -e trace=pwrite64,pwritev,pwritev2,write,writev -o "$trace" \
      "$MPIRUN" "${MPIRUN_ARGS[@]}" -np "$NP" "${cmd[@]}" -a $api ${PATTERN[hard]} -w -e -o "$work/f" >/dev/null 2>&1
    python3 - "$trace" "$work/f" "$tool" "$api" <<'PY'
import re, sys
trace, target, tool, api = sys.argv[1:]
# Writes of a page or more: the test file's (the processes' other writes are a few bytes of
# output and wake-ups).
import glob
io = re.compile(r'^(pwrite64|pwritev2?|writev?)\((\d+),.*= (\d+)$')
sizes = []
for path in glob.glob(trace + ".*"):
    for line in open(path):
        m = io.match(line)
        if m and int(m.group(3)) > 0:
            sizes.append(int(m.group(3)))
if sizes:
    big = [s for s in sizes if s >= 4096]
    print(f"  {tool:8} -a {api:9}: {len(big):8} calls of 4 KiB or more, {sum(big):12} bytes, "
          f"mean {sum(big) / max(len(big), 1):10.0f} bytes/call (all writes: {len(sizes)})")
else:
    print(f"  {tool:8} -a {api:9}: no writes traced")
PY
    rm -f "$work"/f* "$trace".*
  done
done
