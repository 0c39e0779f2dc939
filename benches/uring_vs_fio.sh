#!/usr/bin/env bash
# iogauge -a IOURING vs fio --ioengine=io_uring on the same files, depth and block size;
# prints median ratios per pattern and depth, and instructions per operation at depth 32.
# See docs/performance.md for the figures and benches/README.md for the options.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash benches/uring_vs_fio.sh [options]

Runs iogauge (`iogauge ior -a IOURING`) and fio (`--ioengine=io_uring`) on the same files
(JOBS files of SIZE bytes, one per rank/job, written once by iogauge), at each depth of
DEPTHS, on three patterns: 4 KiB random reads, 4 KiB random writes (with -z over the rank's
file; fio's randread/randwrite), and 1 MiB sequential writes. O_DIRECT where the directory
takes it (`--iouring.odirect`, fio's `--direct=1`), else buffered for both (said in the
output). Rounds are interleaved: every round runs every pattern and depth once with each tool,
the tools alternating who goes first. Printed: every measurement, then per directory, pattern
and depth the median IOPS (and MiB/s) of each tool, the ratio of the medians iogauge/fio, the
median of the per-round ratios, and the range of the per-round ratios (the noise band). Then,
with -c, the user-space instructions per operation of both tools at depth 32 on 4 KiB random
reads (valgrind callgrind, two sizes, the difference over the difference of operations).
SQPOLL is left out (its kernel thread takes one of a small machine's cores); -q adds a row of
iogauge and fio with it at depth 32.

Options (each also settable through the environment variable named in brackets):
  -s SIZE    bytes per rank/job, k/m/g suffixes                         [SIZE, default 256m]
  -j JOBS    ranks (iogauge --tasks) and fio numjobs                    [JOBS, default 2]
  -D LIST    depths, comma-separated                                    [DEPTHS, default 1,8,32,128]
  -n RUNS    measured rounds                                            [RUNS, default 5]
  -T SECONDS stop each run after SECONDS (IOR's -D stonewall, fio's --runtime
             without time_based) or at the end of its file, whichever comes
             first; 0 = the whole file                                  [TIME, default 0]
  -d DIR     target directory; repeat for several                       [DIRS="/var/tmp /dev/shm"]
  -c         also count instructions per operation (valgrind)           [COUNT=1]
  -q         also the SQPOLL row at depth 32                            [SQPOLL=1]
  -x         also context switches per transfer (perf stat, the whole
             process tree of each run)                                 [CTXSW=1]
  -h         this help

Environment only: IOGAUGE (default: built with `cargo build --release` here), FIO (fio),
VALGRIND (valgrind). Needs fio, python3, and valgrind for -c. Creates and removes a directory
iogauge-uring.XXXXXX under every target directory.
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
SIZE=${SIZE:-256m}
JOBS=${JOBS:-2}
DEPTHS=${DEPTHS:-1,8,32,128}
RUNS=${RUNS:-5}
TIME=${TIME:-0}
COUNT=${COUNT:-0}
SQPOLL=${SQPOLL:-0}
CTXSW=${CTXSW:-0}
FIO=${FIO:-fio}
VALGRIND=${VALGRIND:-valgrind}
read -r -a DIR_LIST <<<"${DIRS:-/var/tmp /dev/shm}"
dirs_from_flags=()
while getopts ":s:j:D:n:T:d:cqxh" opt; do
  case $opt in
    s) SIZE=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    D) DEPTHS=$OPTARG ;;
    n) RUNS=$OPTARG ;;
    T) TIME=$OPTARG ;;
    d) dirs_from_flags+=("$OPTARG") ;;
    c) COUNT=1 ;;
    q) SQPOLL=1 ;;
    x) CTXSW=1 ;;
    h) usage; exit 0 ;;
    :) echo "uring_vs_fio.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "uring_vs_fio.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || { echo "uring_vs_fio.sh: unexpected argument '$1' (see -h)" >&2; exit 2; }
[ ${#dirs_from_flags[@]} -eq 0 ] || DIR_LIST=("${dirs_from_flags[@]}")
die_usage() { echo "uring_vs_fio.sh: $*" >&2; exit 2; }
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || die_usage "JOBS '$JOBS' is not a positive integer"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die_usage "RUNS '$RUNS' is not a positive integer"
[[ $TIME =~ ^[0-9]+$ ]] || die_usage "TIME '$TIME' is not a whole number of seconds"
[[ $DEPTHS =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die_usage "DEPTHS '$DEPTHS' is not a list like 1,8,32"
[ "$JOBS" -le 10 ] || die_usage "JOBS above 10: fio's file names would not match iogauge's"
command -v "$FIO" >/dev/null || die_usage "fio not found (FIO=$FIO); install fio"
command -v python3 >/dev/null || die_usage "python3 not found"
[ "$COUNT" = 0 ] || command -v "$VALGRIND" >/dev/null || die_usage "valgrind not found (-c)"
for d in "${DIR_LIST[@]}"; do
  [ -d "$d" ] && [ -w "$d" ] || die_usage "target directory '$d' does not exist or is not writable"
done
if [ -z "${IOGAUGE:-}" ]; then
  (cd "$REPO_DIR" && cargo build --release --quiet)
  IOGAUGE=$REPO_DIR/target/release/iogauge
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/uring_vs_fio.XXXXXX")
export XDG_DATA_HOME=$WORK/data-home
BASES=()
cleanup() {
  local b
  for b in ${BASES[@]+"${BASES[@]}"}; do rm -rf -- "$b"; done
  rm -rf -- "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# With -x, a command runs under `perf stat -e context-switches` (children included), the count
# left in $WORK/cs; else as it is.
[ "$CTXSW" = 0 ] || [ "$TIME" = 0 ] || die_usage "-x counts per transfer of the whole file: leave out -T"
[ "$CTXSW" = 0 ] || command -v perf >/dev/null || die_usage "perf not found (-x; Debian's linux-perf)"
measured() {
  if [ "$CTXSW" = 1 ]; then
    perf stat -x, -e context-switches -o "$WORK/cs.raw" -- "$@"
    local rc=$?
    awk -F, '/context-switches/ {print $1}' "$WORK/cs.raw" >"$WORK/cs"
    return $rc
  fi
  "$@"
}

# Whether O_DIRECT opens in directory $1 (tmpfs takes it from Linux 6.6 on).
direct_ok() {
  python3 - "$1" <<'PY'
import os, sys
p = os.path.join(sys.argv[1], ".odirect-probe")
try:
    fd = os.open(p, os.O_CREAT | os.O_WRONLY | getattr(os, "O_DIRECT", 0), 0o600)
    os.close(fd)
    ok = 0
except OSError:
    ok = 1
try:
    os.unlink(p)
except OSError:
    pass
sys.exit(ok)
PY
}

# One measurement: prints "tool dir pattern depth iops mibs".
iogauge_run() { # base direct pattern depth [sqpoll]
  local base=$1 direct=$2 pattern=$3 depth=$4 extra=()
  local json=$WORK/iog.json
  [ "$direct" = 1 ] && extra+=(--iouring.odirect)
  [ "${5:-0}" = 1 ] && extra+=(--iouring.sqpoll)
  [ "$TIME" = 0 ] || extra+=(-D "$TIME")
  case $pattern in
    randread) extra+=(-r -z -t 4k) ;;
    randwrite) extra+=(-w -z -t 4k) ;;
    seqwrite) extra+=(-w -t 1m) ;;
  esac
  measured "$IOGAUGE" --no-store ior -a IOURING --iouring.depth "$depth" --tasks "$JOBS" -F -k -E \
    -b "$SIZE" -o "$base/f" --json "$json" "${extra[@]}" >"$WORK/iog.out" 2>&1 ||
    { cat "$WORK/iog.out" >&2; return 1; }
  python3 - "$json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["phases"][0]
print(f'{p["iops"]:.1f} {p["bandwidth_mib_s"]:.1f}')
PY
}

fio_run() { # base direct pattern depth [sqpoll]
  local base=$1 direct=$2 pattern=$3 depth=$4 rw bs
  case $pattern in
    randread) rw=randread; bs=4k ;;
    randwrite) rw=randwrite; bs=4k ;;
    seqwrite) rw=write; bs=1m ;;
  esac
  local sq=()
  [ "${5:-0}" = 1 ] && sq+=(--sqthread_poll=1)
  [ "$TIME" = 0 ] || sq+=(--runtime="$TIME")
  measured "$FIO" --name=u --ioengine=io_uring --iodepth="$depth" --direct="$direct" --rw="$rw" \
    --bs="$bs" --size="$SIZE" --numjobs="$JOBS" --directory="$base" \
    --filename_format='f.0000000$jobnum' --group_reporting --output-format=json \
    "${sq[@]}" >"$WORK/fio.json" 2>"$WORK/fio.err" || { cat "$WORK/fio.err" >&2; return 1; }
  python3 - "$WORK/fio.json" "$rw" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
side = j["read"] if "read" in sys.argv[2] else j["write"]
print(f'{side["iops"]:.1f} {side["bw"] / 1024:.1f}')
PY
}

RESULTS=$WORK/results.txt
: >"$RESULTS"
IFS=, read -r -a DEPTH_LIST <<<"$DEPTHS"
for d in "${DIR_LIST[@]}"; do
  base=$(mktemp -d "$d/iogauge-uring.XXXXXX")
  BASES+=("$base")
  direct=0
  direct_ok "$d" && direct=1
  echo "$d: O_DIRECT $([ $direct = 1 ] && echo yes || echo 'no (buffered for both tools)')"
  # The files every read uses, written once.
  "$IOGAUGE" --no-store ior --tasks "$JOBS" -F -k -w -t 1m -b "$SIZE" -o "$base/f" >/dev/null
  # On the device before the first round: else that round's first run shares the disk with the
  # write-back of the files (half the IOPS, here).
  sync
  for r in $(seq 1 "$RUNS"); do
    for pattern in randread randwrite seqwrite; do
      for depth in "${DEPTH_LIST[@]}"; do
        order=(iogauge fio)
        [ $(((r + depth) % 2)) = 0 ] || order=(fio iogauge)
        for tool in "${order[@]}"; do
          out=$("${tool}_run" "$base" "$direct" "$pattern" "$depth")
          cs=-
          [ "$CTXSW" = 0 ] || cs=$(cat "$WORK/cs")
          echo "$tool $d $pattern $depth $r $out $cs" | tee -a "$RESULTS"
        done
      done
    done
    if [ "$SQPOLL" = 1 ]; then
      for tool in iogauge fio; do
        out=$("${tool}_run" "$base" "$direct" randread 32 1)
        echo "$tool $d randread-sqpoll 32 $r $out -" | tee -a "$RESULTS"
      done
    fi
  done
done

python3 - "$RESULTS" "$SIZE" "$JOBS" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1]) if l.strip()]
size = sys.argv[2].lower()
size = int(size[:-1]) << {"k": 10, "m": 20, "g": 30}[size[-1]] if size[-1] in "kmg" else int(size)
jobs = int(sys.argv[3])
by, cs = {}, {}
for tool, d, pat, depth, r, iops, mibs, ctx in rows:
    by.setdefault((d, pat, int(depth)), {}).setdefault(tool, {})[int(r)] = (float(iops), float(mibs))
    if ctx != "-":
        ops = jobs * size // (1 << 20 if pat == "seqwrite" else 4096)
        cs.setdefault((d, pat, int(depth)), {}).setdefault(tool, []).append(float(ctx) / ops)
print()
print("Medians over rounds. ratio = median(iogauge)/median(fio); paired = median of the per-round")
print("ratios; band = the per-round ratios' range." + (" cs/op: context switches per transfer" if cs else ""))
extra = f' {"cs/op iog":>9} {"fio":>6}' if cs else ""
print(f'{"dir":10} {"pattern":15} {"depth":>5} {"iogauge IOPS":>13} {"fio IOPS":>11} {"MiB/s iog":>10} {"fio":>9} {"ratio":>6} {"paired":>6}  {"band":11}{extra}')
for (d, pat, depth), t in sorted(by.items()):
    if "iogauge" not in t or "fio" not in t:
        continue
    g, f = t["iogauge"], t["fio"]
    gi, fi = st.median(v[0] for v in g.values()), st.median(v[0] for v in f.values())
    gm, fm = st.median(v[1] for v in g.values()), st.median(v[1] for v in f.values())
    per = [g[r][0] / f[r][0] for r in g if r in f and f[r][0] > 0]
    c = cs.get((d, pat, depth), {})
    tail = (f' {st.median(c["iogauge"]):9.2f} {st.median(c["fio"]):6.2f}'
            if "iogauge" in c and "fio" in c else "")
    print(f'{d:10} {pat:15} {depth:5} {gi:13.0f} {fi:11.0f} {gm:10.1f} {fm:9.1f} '
          f'{gi / fi:6.3f} {st.median(per):6.3f}  {min(per):.3f}-{max(per):.3f}{tail}')
PY

if [ "$COUNT" = 1 ]; then
  # Instructions per operation, 4 KiB random reads at depth 32: (Ir(large) - Ir(small)) /
  # (ops(large) - ops(small)) for each tool, one job, the files written above reused.
  d=${DIR_LIST[0]}
  base=${BASES[0]}
  direct=0
  direct_ok "$d" && direct=1
  count() { # tool bytes -> Ir
    local tool=$1 bytes=$2 out=$WORK/cg.out
    if [ "$tool" = iogauge ]; then
      local dflag=()
      [ "$direct" = 1 ] && dflag=(--iouring.odirect)
      "$VALGRIND" --tool=callgrind --callgrind-out-file="$out" "$IOGAUGE" --no-store ior \
        -a IOURING --iouring.depth 32 "${dflag[@]}" -F -k -E -r -z -t 4k -b "$bytes" \
        -o "$base/f" >/dev/null 2>"$WORK/cg.err" || { cat "$WORK/cg.err" >&2; return 1; }
    else
      "$VALGRIND" --tool=callgrind --callgrind-out-file="$out" "$FIO" --name=u \
        --ioengine=io_uring --iodepth=32 --direct="$direct" --rw=randread --bs=4k \
        --size="$bytes" --numjobs=1 --directory="$base" --filename_format='f.0000000$jobnum' \
        --thread >/dev/null 2>"$WORK/cg.err" || { cat "$WORK/cg.err" >&2; return 1; }
    fi
    grep -m1 '^summary:' "$out" | awk '{print $2}'
  }
  echo
  echo "User-space instructions per 4 KiB random read at depth 32 (callgrind, 16 vs 64 MiB):"
  for tool in iogauge fio; do
    small=$(count "$tool" $((16 << 20)))
    large=$(count "$tool" $((64 << 20)))
    ops=$(((64 << 20) / 4096 - (16 << 20) / 4096))
    python3 -c "print(f'  {\"$tool\":8} {($large - $small) / $ops:8.1f}')"
  done
fi
