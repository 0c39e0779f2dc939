#!/usr/bin/env bash
# iogauge vs fio vs a raw syscall loop on the same sequential pattern; prints median ratios.
# See docs/performance.md for what is measured and why the settings are what they are.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash benches/ior_vs_fio.sh [options]

Runs the same sequential pattern with iogauge (`iogauge ior`), fio and a raw pread/pwrite loop
(benches/raw_rw.c, compiled at run time into a temporary directory): JOBS ranks/jobs/threads,
one file each, SIZE bytes each in BS-byte transfers, synchronous I/O without O_DIRECT, fsync at
the end of the write, then a sequential read of the same files (from the page cache, for every
tool). Runs are interleaved: run r goes through every directory, and in each one first does
an untimed primer write+read, then runs the tools in the r-th of six orders (iogauge and fio
alternate in going first; over 6 runs every tool takes every position twice). Every
measurement is printed, then per directory and operation the median MiB/s of each tool and the
ratios iogauge/fio and iogauge/raw (ratio of the medians, and the median of the ratios
measured within the same run). Exit status: 0 when every tool ran (whatever the ratios),
1 when a tool failed, 2 on bad usage.

Options (each also settable through the environment variable named in brackets):
  -s SIZE    bytes per rank/job, k/m/g suffixes are powers of 1024     [SIZE, default 1g]
  -b BS      transfer size                                             [BS, default 1m]
  -j JOBS    ranks (iogauge -N), fio numjobs, raw threads              [JOBS, default 2]
  -n RUNS    measured runs per directory (6 balances the tool orders)  [RUNS, default 6]
  -d DIR     target directory; repeat for several                      [DIRS="/dev/shm /tmp"]
  -w N       untimed warm-up rounds of every tool before measuring     [WARMUP, default 1]
  -l LOGDIR  keep every tool's output (fio/iogauge JSON, logs) there   [LOGDIR, default: none]
  -R         skip the raw syscall loop                                 [NO_RAW=1]
  -P         no untimed primer write+read when a round enters a directory [PRIME=0]
  -h         this help

Environment only: IOGAUGE (binary; default: built with `cargo build --release` in this
repository), FIO (default: fio), CC (default: cc).
Each run creates and removes a directory iogauge-bench.XXXXXX under every target directory.
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)

SIZE=${SIZE:-1g}
BS=${BS:-1m}
JOBS=${JOBS:-2}
RUNS=${RUNS:-6}
WARMUP=${WARMUP:-1}
LOGDIR=${LOGDIR:-}
NO_RAW=${NO_RAW:-0}
PRIME=${PRIME:-1}
FIO=${FIO:-fio}
CC=${CC:-cc}
read -r -a DIR_LIST <<<"${DIRS:-/dev/shm /tmp}"
dirs_from_flags=()

while getopts ":s:b:j:n:d:w:l:RPh" opt; do
  case $opt in
    s) SIZE=$OPTARG ;;
    b) BS=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    n) RUNS=$OPTARG ;;
    d) dirs_from_flags+=("$OPTARG") ;;
    w) WARMUP=$OPTARG ;;
    l) LOGDIR=$OPTARG ;;
    R) NO_RAW=1 ;;
    P) PRIME=0 ;;
    h) usage; exit 0 ;;
    :) echo "ior_vs_fio.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "ior_vs_fio.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
  echo "ior_vs_fio.sh: unexpected argument '$1' (see -h)" >&2
  exit 2
fi
if [ ${#dirs_from_flags[@]} -gt 0 ]; then
  DIR_LIST=("${dirs_from_flags[@]}")
fi

die_usage() { echo "ior_vs_fio.sh: $*" >&2; exit 2; }

# Size with k/m/g/t suffix (powers of 1024, as IOR and iogauge) -> bytes.
to_bytes() {
  local v=${1,,} mult=1
  case $v in
    *k) mult=$((1 << 10)); v=${v%k} ;;
    *m) mult=$((1 << 20)); v=${v%m} ;;
    *g) mult=$((1 << 30)); v=${v%g} ;;
    *t) mult=$((1 << 40)); v=${v%t} ;;
  esac
  [[ $v =~ ^[0-9]+$ ]] || return 1
  echo $((v * mult))
}

SIZE_B=$(to_bytes "$SIZE") || die_usage "SIZE '$SIZE' is not a size (e.g. 1g, 512m, 1073741824)"
BS_B=$(to_bytes "$BS") || die_usage "BS '$BS' is not a size (e.g. 1m, 256k)"
[ "$PRIME" = 0 ] || [ "$PRIME" = 1 ] || die_usage "PRIME must be 0 or 1"
[ "$NO_RAW" = 0 ] || [ "$NO_RAW" = 1 ] || die_usage "NO_RAW must be 0 or 1"
for n in JOBS RUNS WARMUP; do
  [[ ${!n} =~ ^[0-9]+$ ]] || die_usage "$n '${!n}' is not a non-negative integer"
done
[ "$SIZE_B" -gt 0 ] || die_usage "SIZE must be positive"
[ "$BS_B" -gt 0 ] || die_usage "BS must be positive"
[ "$JOBS" -gt 0 ] || die_usage "JOBS must be at least 1"
[ "$RUNS" -gt 0 ] || die_usage "RUNS must be at least 1"
[ $((SIZE_B % BS_B)) -eq 0 ] || die_usage "SIZE $SIZE_B is not a multiple of BS $BS_B"
[ ${#DIR_LIST[@]} -gt 0 ] || die_usage "no target directory"
for d in "${DIR_LIST[@]}"; do
  [ -d "$d" ] && [ -w "$d" ] || die_usage "target directory '$d' does not exist or is not writable"
done
command -v "$FIO" >/dev/null 2>&1 || die_usage "fio not found (FIO=$FIO); install fio"
command -v python3 >/dev/null 2>&1 || die_usage "python3 not found (used to parse JSON)"
if [ "$NO_RAW" != 1 ]; then
  command -v "$CC" >/dev/null 2>&1 || die_usage "C compiler '$CC' not found; set CC or use -R"
fi

# ---- scratch space and cleanup -------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/ior_vs_fio.XXXXXX")
# iogauge stores every run; the measured runs go to a store of their own, removed with WORK.
export XDG_DATA_HOME=$WORK/data-home
BASES=()
cleanup() {
  local b
  for b in ${BASES[@]+"${BASES[@]}"}; do
    rm -rf -- "$b"
  done
  rm -rf -- "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for d in "${DIR_LIST[@]}"; do
  BASES+=("$(mktemp -d "$d/iogauge-bench.XXXXXX")")
done
if [ -n "$LOGDIR" ]; then
  mkdir -p -- "$LOGDIR"
  LOGDIR=$(cd "$LOGDIR" && pwd)
fi

# ---- tools ---------------------------------------------------------------------------------
if [ -z "${IOGAUGE:-}" ]; then
  echo "building iogauge (cargo build --release) ..."
  (cd "$REPO_DIR" && cargo build --release --quiet) || { echo "ior_vs_fio.sh: cargo build failed" >&2; exit 1; }
  IOGAUGE=$REPO_DIR/target/release/iogauge
fi
[ -x "$IOGAUGE" ] || die_usage "iogauge binary '$IOGAUGE' is not executable"
# Storing the run (iogauge since its result store) is not what is measured.
NO_STORE=()
if "$IOGAUGE" --help 2>/dev/null | grep -q -- --no-store; then NO_STORE=(--no-store); fi
RAW=$WORK/raw_rw
if [ "$NO_RAW" != 1 ]; then
  "$CC" -O2 -pthread -o "$RAW" "$SCRIPT_DIR/raw_rw.c" || { echo "ior_vs_fio.sh: compiling raw_rw.c failed" >&2; exit 1; }
fi

# fio job file: write job group, then (stonewall) read job group over the same files.
# $jobnum in filename_format is fio's, not the shell's.
fio_jobfile() { # $1 = directory
  cat <<EOF
[global]
directory=$1
filename_format=fio.\$jobnum
ioengine=psync
direct=0
bs=$BS_B
size=$SIZE_B
numjobs=$JOBS
group_reporting=1
fallocate=none
create_on_open=1
invalidate=0
fadvise_hint=0
mem_align=4096

[write]
rw=write
end_fsync=1

[read]
stonewall
new_group
rw=read
EOF
}

RESULTS=$WORK/results.tsv # label run dir tool op MiB/s bytes seconds MiB/s_longest
CPU=$WORK/cpu.tsv         # label run dir tool user_s sys_s
: >"$RESULTS"
: >"$CPU"

fail_tool() { # $1 = tool, $2 = log file
  echo "ior_vs_fio.sh: $1 failed; its output:" >&2
  sed 's/^/  | /' "$2" >&2 || true
  exit 1
}

# Parse one tool's result into "op MiB/s bytes seconds MiB/s_longest" lines (bytes checked
# against the plan). MiB/s is the tool's own figure; MiB/s_longest uses fio's definition, bytes
# over the longest single rank/job's time (for fio the two are the same number).
parse_result() { # $1 = tool, $2 = result file
  python3 - "$1" "$2" "$((SIZE_B * JOBS))" <<'PY'
import json, sys
tool, path, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = []
if tool == "iogauge":
    doc = json.load(open(path))
    for p in doc["phases"]:
        # IOR's window: bytes / (last close - first open), end fsync included.
        longest = max(r["close_stop_s"] - r["open_start_s"] for r in p["per_rank"])
        rows.append((p["operation"], p["bandwidth_mib_s"], p["bytes"], p["times"]["total_s"],
                     p["bytes"] / longest / 2**20))
elif tool == "fio":
    doc = json.load(open(path))
    for job in doc["jobs"]:  # group_reporting: one entry per group
        if job.get("error"):
            sys.exit(f"fio job {job.get('jobname')} reported error {job['error']}")
        for op in ("write", "read"):
            d = job[op]
            if d["io_bytes"]:
                secs = d["runtime"] / 1000.0  # ms, rounded up; the slowest job of the group
                bw = d["io_bytes"] / secs / 2**20
                rows.append((op, bw, d["io_bytes"], secs, bw))
else:  # raw: "raw <op> <bytes> <seconds> <MiB/s> <longest thread's seconds>"
    for line in open(path):
        f = line.split()
        if len(f) == 6 and f[0] == "raw":
            nbytes = int(float(f[2]))
            rows.append((f[1], float(f[4]), nbytes, float(f[3]), nbytes / float(f[5]) / 2**20))
ops = sorted(r[0] for r in rows)
if ops != ["read", "write"]:
    sys.exit(f"{tool}: expected one write and one read result, got {ops}")
for op, bw, nbytes, secs, bw_longest in rows:
    if int(nbytes) != want:
        sys.exit(f"{tool} {op}: moved {nbytes} bytes, expected {want}")
    print(op, f"{bw:.2f}", int(nbytes), f"{secs:.6f}", f"{bw_longest:.2f}")
PY
}

# Runs one tool (write then read) on one directory; non-zero status when the tool failed.
run_tool() { # $1 = tool, $2 = work dir, $3 = result file, $4 = log file, $5 = fio job file
  case $1 in
    iogauge)
      "$IOGAUGE" "${NO_STORE[@]}" ior -N "$JOBS" -t "$BS_B" -b "$SIZE_B" -s 1 -F -e -w -r -k \
        -o "$2/testfile" --json "$3" >"$4" 2>&1
      ;;
    fio)
      fio_jobfile "$2" >"$5"
      "$FIO" --output-format=json --output="$3" "$5" >"$4" 2>&1
      ;;
    raw)
      "$RAW" "$2" "$JOBS" "$SIZE_B" "$BS_B" >"$3" 2>"$4"
      ;;
  esac
}

# One tool, write then read, on one directory. Appends to $RESULTS and $CPU and prints the
# figures. The CPU time is the tool process's (and its children's) user and system time for the
# whole invocation, start-up and both phases included.
measure() { # $1 = phase label (warmup|run), $2 = run number, $3 = dir index, $4 = tool
  local label=$1 run=$2 di=$3 tool=$4
  local dir=${DIR_LIST[$di]} wd=${BASES[$di]}/$tool
  local tag="$label$run-d$di-$tool"
  local log=$WORK/$tag.log res=$WORK/$tag.result job=$WORK/$tag.fio times_out=$WORK/$tag.times
  rm -rf -- "$wd"
  mkdir -p -- "$wd"
  if ! (
    rc=0
    run_tool "$tool" "$wd" "$res" "$log" "$job" || rc=$?
    times >"$times_out"
    exit "$rc"
  ); then
    if [ "$tool" = fio ] && [ -f "$res" ]; then cat -- "$res" >>"$log"; fi
    fail_tool "$tool" "$log"
  fi
  local parsed
  parsed=$(parse_result "$tool" "$res" 2>>"$log") || fail_tool "$tool (result parsing)" "$log"
  rm -rf -- "$wd"
  sync
  if [ -n "$LOGDIR" ]; then
    cp -- "$log" "$res" "$LOGDIR/" 2>/dev/null || true
    if [ "$tool" = fio ]; then cp -- "$job" "$LOGDIR/"; fi
  fi
  local op bw nbytes secs bw_longest
  while read -r op bw nbytes secs bw_longest; do
    printf '%-7s %2s  %-10s %-8s %-5s %10s MiB/s  (%s B in %s s; longest rank: %s MiB/s)\n' \
      "$label" "$run" "$dir" "$tool" "$op" "$bw" "$nbytes" "$secs" "$bw_longest"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$run" "$dir" "$tool" "$op" "$bw" \
      "$nbytes" "$secs" "$bw_longest" >>"$RESULTS"
  done <<<"$parsed"
  # `times` prints the shell's, then the children's "user system" (e.g. 0m0.010s 0m1.570s).
  local cpu
  cpu=$(awk 'NR == 2 {
      split($1, u, /[ms]/); split($2, s, /[ms]/)
      printf "%.3f %.3f", u[1] * 60 + u[2], s[1] * 60 + s[2] }' "$times_out")
  printf '%-7s %2s  %-10s %-8s cpu   user %s s, sys %s s (whole invocation)\n' \
    "$label" "$run" "$dir" "$tool" ${cpu% *} ${cpu#* }
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$run" "$dir" "$tool" ${cpu% *} ${cpu#* } >>"$CPU"
}

TOOLS=(iogauge fio)
if [ "$NO_RAW" != 1 ]; then TOOLS+=(raw); fi

# Tool order of run r: the orders below in turn, so that iogauge and fio alternate in going
# first and, over 6 runs, every tool takes every position equally often (on this VM the first
# measurement after a switch of directory was slower, whatever the tool; see the primer below).
ORDERS3=("iogauge fio raw" "fio iogauge raw" "raw iogauge fio" "raw fio iogauge" "iogauge raw fio" "fio raw iogauge")
ORDERS2=("iogauge fio" "fio iogauge")

# Untimed primer before the measurements of each directory in a round: the same write + read
# through the raw loop (or iogauge with -R), so that no tool is the first to hit a directory.
prime() { # $1 = dir index
  local wd=${BASES[$1]}/primer log=$WORK/primer.log
  rm -rf -- "$wd"
  mkdir -p -- "$wd"
  if [ -x "$RAW" ]; then
    "$RAW" "$wd" "$JOBS" "$SIZE_B" "$BS_B" >"$log" 2>&1 || fail_tool "raw (primer)" "$log"
  else
    "$IOGAUGE" "${NO_STORE[@]}" ior -N "$JOBS" -t "$BS_B" -b "$SIZE_B" -s 1 -F -e -w -r -o "$wd/testfile" \
      >"$log" 2>&1 || fail_tool "iogauge (primer)" "$log"
  fi
  rm -rf -- "$wd"
  sync
}

round() { # $1 = label, $2 = run number
  local order di t
  if [ "$NO_RAW" = 1 ]; then
    read -r -a order <<<"${ORDERS2[$((($2 - 1) % 2))]}"
  else
    read -r -a order <<<"${ORDERS3[$((($2 - 1) % 6))]}"
  fi
  for di in "${!DIR_LIST[@]}"; do
    if [ "$PRIME" = 1 ]; then prime "$di"; fi
    for t in "${order[@]}"; do
      measure "$1" "$2" "$di" "$t"
    done
  done
}

# ---- run -----------------------------------------------------------------------------------
echo "ior_vs_fio: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(uname -n), kernel $(uname -r), $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM"
echo "  $("$IOGAUGE" --version), $("$FIO" --version)$([ "$NO_RAW" != 1 ] && echo ", raw: $("$CC" --version | head -n1)")"
echo "  JOBS=$JOBS SIZE=$SIZE_B B per job, BS=$BS_B B, RUNS=$RUNS (+$WARMUP warm-up), primer: $([ "$PRIME" = 1 ] && echo on || echo off), DIRS: ${DIR_LIST[*]}"
echo "  iogauge: ior -N $JOBS -t $BS_B -b $SIZE_B -s 1 -F -e -w -r -k -o DIR/testfile --json R"
echo "  fio:     ioengine=psync direct=0 bs=$BS_B size=$SIZE_B numjobs=$JOBS group_reporting fallocate=none create_on_open=1 invalidate=0 fadvise_hint=0 mem_align=4096; [write] rw=write end_fsync=1; [read] stonewall rw=read"
echo "  raw:     raw_rw DIR $JOBS $SIZE_B $BS_B (pthreads, pwrite loop + fsync, then pread loop)"
echo

for ((w = 1; w <= WARMUP; w++)); do round warmup "$w"; done
for ((r = 1; r <= RUNS; r++)); do round run "$r"; done

if [ -n "$LOGDIR" ]; then
  cp -- "$RESULTS" "$CPU" "$LOGDIR/"
fi
echo
python3 - "$RESULTS" "$CPU" "${DIR_LIST[@]}" <<'PY'
import statistics, sys
res_path, cpu_path, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
bw, per_run, cpu = {}, {}, {}
for line in open(res_path):
    label, run, d, tool, op, mib, nbytes, secs, mib_longest = line.rstrip("\n").split("\t")
    if label == "run":
        for window, value in (("own", mib), ("longest", mib_longest)):
            bw.setdefault((window, d, op, tool), []).append(float(value))
            per_run.setdefault((window, d, op, run), {})[tool] = float(value)
for line in open(cpu_path):
    label, run, d, tool, user, system = line.rstrip("\n").split("\t")
    if label == "run":
        cpu.setdefault((d, tool), []).append((float(user), float(system)))
tools = [t for t in ("iogauge", "fio", "raw") if any(k[3] == t for k in bw)]
others = [t for t in tools if t != "iogauge"]
med = {k: statistics.median(v) for k, v in bw.items()}
runs = len(next(iter(bw.values())))

def paired(window, d, op, other):
    """Median over runs of the ratio iogauge/other measured in the same run."""
    return statistics.median(
        v["iogauge"] / v[other]
        for (w, dd, o, _), v in per_run.items()
        if w == window and dd == d and o == op
    )

def table(window, title):
    print(title)
    hdr = f"{'dir':<10} {'op':<5}" + "".join(f" {t:>9}" for t in tools)
    hdr += "".join(f" {'iogauge/' + t:>12} {'paired':>7}" for t in others)
    print(hdr)
    print("-" * len(hdr))
    for d in dirs:
        for op in ("write", "read"):
            row = f"{d:<10} {op:<5}"
            row += "".join(f" {med[(window, d, op, t)]:>9.1f}" for t in tools)
            for t in others:
                ratio = med[(window, d, op, "iogauge")] / med[(window, d, op, t)]
                row += f" {ratio:>12.3f} {paired(window, d, op, t):>7.3f}"
            print(row)
    print()

print(f"Medians over {runs} runs, MiB/s. ratio = median(iogauge) / median(other tool);")
print("paired = median over runs of iogauge/other measured in the same run.")
print()
table("own", "Each tool's own figure (iogauge, raw: first open to last close; fio: longest job):")
table("longest", "All with fio's window (bytes / the longest single rank's or job's open-to-close):")
print("min-max MiB/s of every tool (own figure):")
for d in dirs:
    for op in ("write", "read"):
        parts = [f"{t} {min(bw[('own', d, op, t)]):.0f}-{max(bw[('own', d, op, t)]):.0f}"
                 for t in tools]
        print(f"  {d:<10} {op:<5} " + ", ".join(parts))
print()
print("median CPU seconds per invocation (write + read, start-up included), user / system:")
for d in dirs:
    parts = []
    for t in tools:
        u = statistics.median(x[0] for x in cpu[(d, t)])
        s = statistics.median(x[1] for x in cpu[(d, t)])
        parts.append(f"{t} {u:.2f} / {s:.2f}")
    print(f"  {d:<10} " + ", ".join(parts))
PY
