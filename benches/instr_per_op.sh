#!/usr/bin/env bash
# User-space instructions per operation (valgrind callgrind) of iogauge, IOR and a raw
# pwrite/pread loop on the same pattern, by differential counting. See benches/README.md.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash benches/instr_per_op.sh [options]

Counts the user-space instructions (callgrind's Ir: the program, libc and the dynamic loader;
not the kernel) that each tool executes per transfer, on one pattern: one rank/thread, one
file, XFER-byte transfers, sequential, first a write phase, then a read phase of the file just
written. Every phase of every tool runs under `valgrind --tool=callgrind` at two sizes, SMALL
and LARGE bytes, and

    instr/op = (Ir(LARGE) - Ir(SMALL)) / ((LARGE - SMALL) / XFER)

so that start-up, set-up and reporting cancel. Instruction counts do not depend on the clock
speed, the cache or other load, but they do depend on anything a program does a
data-dependent number of times (for iogauge: the latency histogram's post-phase iteration,
which grows with the number of distinct latencies and the largest one; for IOR: MPI start-up),
so each measurement is repeated REPS times and every value is printed. A larger LARGE - SMALL
(e.g. -S 64m) divides that noise by more operations.

  iogauge: iogauge ior -N 1 -a POSIX -t XFER -b SIZE -w -k -o FILE, then -r -k on the same FILE
  IOR:     ior -a POSIX -t XFER -b SIZE -w -k -o FILE, then -r -k (one process, no mpirun
           when IOR's singleton MPI start works, else `mpirun -np 1 valgrind ... ior`)
  raw:     benches/raw_rw.c (compiled with -O2 -g -fno-inline so that write_phase and
           read_phase stay functions): raw_rw DIR 1 SIZE XFER, counted with
           --toggle-collect='write_phase*' (read_phase*): the phase's open, pwrite (pread)
           loop, fsync and close, and nothing else of the process.

Printed: every count, then a table of instr/op per tool and phase for each repetition and the
median. With -f, also the per-function breakdown (exclusive instructions per operation, inlined
code counted in the function it was inlined into) of the median repetition of each tool and
phase. Exit status: 0 when every tool ran, 1 when a tool or valgrind failed, 2 on bad usage.

Options (each also settable through the environment variable named in brackets):
  -s SIZE    smaller file size, k/m/g suffixes are powers of 1024      [SMALL, default 8m]
  -S SIZE    larger file size                                          [LARGE, default 16m]
  -t XFER    transfer size                                             [XFER, default 4k]
  -r REPS    repetitions of every measurement                          [REPS, default 3]
  -d DIR     target directory for the test files                       [DIR, default /dev/shm]
  -T TOOLS   which tools, space-separated                              [TOOLS="iogauge ior raw"]
  -f         per-function breakdown of the median repetition           [FUNCS=1]
  -k KEEPDIR keep the callgrind outputs and logs there                 [KEEP, default: none]
  -h         this help

Environment only: IOGAUGE (binary; default: built with `cargo build --release` in this
repository; the release profile keeps line tables, so callgrind names functions), IOR (IOR
binary; without it IOR is skipped with a note), MPIRUN (default: mpirun, used only when IOR
cannot start without it), CC (default: cc), VALGRIND (default: valgrind).
Needs valgrind and python3. Creates and removes a directory iogauge-instr.XXXXXX under DIR
and a scratch directory under ${TMPDIR:-/tmp}.
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)

SMALL=${SMALL:-8m}
LARGE=${LARGE:-16m}
XFER=${XFER:-4k}
REPS=${REPS:-3}
DIR=${DIR:-/dev/shm}
TOOLS=${TOOLS:-iogauge ior raw}
FUNCS=${FUNCS:-0}
KEEP=${KEEP:-}
CC=${CC:-cc}
VALGRIND=${VALGRIND:-valgrind}
MPIRUN=${MPIRUN:-mpirun}

while getopts ":s:S:t:r:d:T:fk:h" opt; do
  case $opt in
    s) SMALL=$OPTARG ;;
    S) LARGE=$OPTARG ;;
    t) XFER=$OPTARG ;;
    r) REPS=$OPTARG ;;
    d) DIR=$OPTARG ;;
    T) TOOLS=$OPTARG ;;
    f) FUNCS=1 ;;
    k) KEEP=$OPTARG ;;
    h) usage; exit 0 ;;
    :) echo "instr_per_op.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "instr_per_op.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
  echo "instr_per_op.sh: unexpected argument '$1' (see -h)" >&2
  exit 2
fi

die_usage() { echo "instr_per_op.sh: $*" >&2; exit 2; }

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

SMALL_B=$(to_bytes "$SMALL") || die_usage "SMALL '$SMALL' is not a size (e.g. 8m)"
LARGE_B=$(to_bytes "$LARGE") || die_usage "LARGE '$LARGE' is not a size (e.g. 16m)"
XFER_B=$(to_bytes "$XFER") || die_usage "XFER '$XFER' is not a size (e.g. 4k)"
[[ $REPS =~ ^[0-9]+$ ]] && [ "$REPS" -gt 0 ] || die_usage "REPS '$REPS' is not a positive integer"
[ "$FUNCS" = 0 ] || [ "$FUNCS" = 1 ] || die_usage "FUNCS must be 0 or 1"
[ "$XFER_B" -gt 0 ] || die_usage "XFER must be positive"
[ "$SMALL_B" -gt 0 ] || die_usage "SMALL must be positive"
[ "$LARGE_B" -gt "$SMALL_B" ] || die_usage "LARGE ($LARGE_B) must be larger than SMALL ($SMALL_B)"
[ $((SMALL_B % XFER_B)) -eq 0 ] || die_usage "SMALL $SMALL_B is not a multiple of XFER $XFER_B"
[ $((LARGE_B % XFER_B)) -eq 0 ] || die_usage "LARGE $LARGE_B is not a multiple of XFER $XFER_B"
[ -d "$DIR" ] && [ -w "$DIR" ] || die_usage "target directory '$DIR' does not exist or is not writable"
read -r -a TOOL_LIST <<<"$TOOLS"
[ ${#TOOL_LIST[@]} -gt 0 ] || die_usage "no tool in TOOLS"
for t in "${TOOL_LIST[@]}"; do
  case $t in iogauge | ior | raw) ;; *) die_usage "unknown tool '$t' (iogauge, ior, raw)" ;; esac
done
command -v "$VALGRIND" >/dev/null 2>&1 || die_usage "valgrind not found (VALGRIND=$VALGRIND); install valgrind"
command -v python3 >/dev/null 2>&1 || die_usage "python3 not found (used to read callgrind's output)"

has_tool() { local t; for t in "${TOOL_LIST[@]}"; do [ "$t" = "$1" ] && return 0; done; return 1; }

NOTES=()
if has_tool ior && [ -z "${IOR:-}" ]; then
  NOTES+=("IOR skipped: set IOR=/path/to/ior (built from github.com/hpc/ior) to include it")
  read -r -a TOOL_LIST <<<"$(for t in "${TOOL_LIST[@]}"; do [ "$t" = ior ] || printf '%s ' "$t"; done)"
fi
if has_tool ior; then
  [ -x "$IOR" ] || die_usage "IOR binary '$IOR' is not executable"
fi
if has_tool raw; then
  command -v "$CC" >/dev/null 2>&1 || die_usage "C compiler '$CC' not found; set CC or leave raw out of TOOLS"
fi
[ ${#TOOL_LIST[@]} -gt 0 ] || die_usage "no tool left to measure${NOTES[0]:+ (${NOTES[0]})}"

# ---- scratch space and cleanup -------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/instr_per_op.XXXXXX")
# iogauge stores every run; the measured runs go to a store of their own, removed with WORK.
export XDG_DATA_HOME=$WORK/data-home
BASE=
cleanup() {
  if [ -n "$BASE" ]; then rm -rf -- "$BASE"; fi
  rm -rf -- "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
BASE=$(mktemp -d "$DIR/iogauge-instr.XXXXXX")
if [ -n "$KEEP" ]; then
  mkdir -p -- "$KEEP"
  KEEP=$(cd "$KEEP" && pwd)
fi

# ---- tools ---------------------------------------------------------------------------------
if has_tool iogauge; then
  if [ -z "${IOGAUGE:-}" ]; then
    echo "building iogauge (cargo build --release) ..."
    (cd "$REPO_DIR" && cargo build --release --quiet) || { echo "instr_per_op.sh: cargo build failed" >&2; exit 1; }
    IOGAUGE=$REPO_DIR/target/release/iogauge
  fi
  [ -x "$IOGAUGE" ] || die_usage "iogauge binary '$IOGAUGE' is not executable"
  # Storing the run (iogauge since its result store) is not what is measured.
  NO_STORE=()
  if "$IOGAUGE" --help 2>/dev/null | grep -q -- --no-store; then NO_STORE=(--no-store); fi
fi
RAW=$WORK/raw_rw
if has_tool raw; then
  # -fno-inline keeps write_phase and read_phase as functions for --toggle-collect (gcc may
  # name them write_phase.isra.0, hence the wildcard); their loops call pwrite/pread in libc
  # either way.
  "$CC" -O2 -g -fno-inline -pthread -o "$RAW" "$SCRIPT_DIR/raw_rw.c" ||
    { echo "instr_per_op.sh: compiling raw_rw.c failed" >&2; exit 1; }
fi

# OpenMPI refuses to start as root without these; harmless otherwise.
if [ "$(id -u)" = 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
IOR_LAUNCH=()
if has_tool ior; then
  # IOR normally starts without mpirun (MPI singleton); if it cannot, run mpirun -np 1 valgrind.
  probe=$BASE/ior-probe
  if ! "$IOR" -a POSIX -t "$XFER_B" -b "$XFER_B" -w -o "$probe" >"$WORK/ior-probe.log" 2>&1; then
    if command -v "$MPIRUN" >/dev/null 2>&1 &&
      "$MPIRUN" -np 1 "$IOR" -a POSIX -t "$XFER_B" -b "$XFER_B" -w -o "$probe" >>"$WORK/ior-probe.log" 2>&1; then
      IOR_LAUNCH=("$MPIRUN" -np 1)
    else
      echo "instr_per_op.sh: IOR does not start, with or without $MPIRUN; its output:" >&2
      sed 's/^/  | /' "$WORK/ior-probe.log" >&2
      exit 1
    fi
  fi
  rm -f -- "$probe"
fi

COUNTS=$WORK/counts.tsv # tool phase rep size_bytes ops Ir callgrind_file
: >"$COUNTS"

fail_tool() { # $1 = what, $2 = log file
  echo "instr_per_op.sh: $1 failed; its output:" >&2
  sed 's/^/  | /' "$2" >&2 || true
  exit 1
}

file_size() { stat -c %s -- "$1" 2>/dev/null || echo missing; }

# Total Ir of a callgrind output file (the "totals:" line; "summary:" in older formats).
total_ir() {
  awk '$1 == "totals:" { t = $2 } $1 == "summary:" && t == "" { t = $2 } END { print t }' "$1"
}

# One phase of one tool at one size under callgrind; records the count.
measure() { # $1 = tool, $2 = phase (write|read), $3 = rep, $4 = size in bytes
  local tool=$1 phase=$2 rep=$3 size=$4
  local tag="$tool-$phase-$size-r$rep"
  local out=$WORK/$tag.callgrind log=$WORK/$tag.log file flag
  local vg=("$VALGRIND" --tool=callgrind "--callgrind-out-file=$out")
  if [ "$phase" = write ]; then flag=-w; else flag=-r; fi
  case $tool in
    iogauge)
      file=$BASE/iogauge.$size
      if [ "$phase" = write ]; then rm -f -- "$file"; fi
      "${vg[@]}" "$IOGAUGE" "${NO_STORE[@]}" ior -N 1 -a POSIX -t "$XFER_B" -b "$size" "$flag" -k -o "$file" \
        >"$log" 2>&1 || fail_tool "iogauge $phase ($tag)" "$log"
      ;;
    ior)
      file=$BASE/ior.$size
      if [ "$phase" = write ]; then rm -f -- "$file"; fi
      ${IOR_LAUNCH[@]+"${IOR_LAUNCH[@]}"} "${vg[@]}" "$IOR" -a POSIX -t "$XFER_B" -b "$size" "$flag" -k \
        -o "$file" >"$log" 2>&1 || fail_tool "IOR $phase ($tag)" "$log"
      ;;
    raw)
      # raw_rw always writes and then reads DIR/raw.0; only the named phase is counted.
      file=$BASE/raw/raw.0
      mkdir -p -- "$BASE/raw"
      "${vg[@]}" "--toggle-collect=${phase}_phase*" "$RAW" "$BASE/raw" 1 "$size" "$XFER_B" \
        >"$log" 2>&1 || fail_tool "raw $phase ($tag)" "$log"
      ;;
  esac
  # The test file must have the size of this measurement, after the write and for the read.
  local got
  got=$(file_size "$file")
  [ "$got" = "$size" ] || fail_tool "$tool $phase: test file $file has size $got, expected $size ($tag)" "$log"
  local ir
  ir=$(total_ir "$out")
  [[ $ir =~ ^[0-9]+$ ]] && [ "$ir" -gt 0 ] ||
    fail_tool "$tool $phase: no instruction total in callgrind output ($tag)" "$log"
  printf '%-3s %-8s %-5s %9s B  %7s ops  %12s Ir\n' "$rep" "$tool" "$phase" "$size" \
    $((size / XFER_B)) "$ir"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$tool" "$phase" "$rep" "$size" $((size / XFER_B)) "$ir" "$out" >>"$COUNTS"
  if [ -n "$KEEP" ]; then cp -- "$out" "$log" "$KEEP/"; fi
}

# ---- run -----------------------------------------------------------------------------------
echo "instr_per_op: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(uname -n), kernel $(uname -r), $(nproc) cores"
echo "  $("$VALGRIND" --version)$(has_tool iogauge && echo ", $("$IOGAUGE" --version)")$(has_tool raw && echo ", raw: $("$CC" --version | head -n1)")"
if has_tool ior; then
  echo "  IOR: $IOR$([ ${#IOR_LAUNCH[@]} -gt 0 ] && echo " (under ${IOR_LAUNCH[*]})")"
fi
echo "  XFER=$XFER_B B, SMALL=$SMALL_B B ($((SMALL_B / XFER_B)) ops), LARGE=$LARGE_B B ($((LARGE_B / XFER_B)) ops), REPS=$REPS, DIR=$DIR, tools: ${TOOL_LIST[*]}"
for ((i = 0; i < ${#NOTES[@]}; i++)); do echo "  note: ${NOTES[$i]}"; done
echo
echo "rep tool     phase      size        ops     instructions"
for ((rep = 1; rep <= REPS; rep++)); do
  for tool in "${TOOL_LIST[@]}"; do
    for size in "$SMALL_B" "$LARGE_B"; do
      measure "$tool" write "$rep" "$size"
      measure "$tool" read "$rep" "$size"
      rm -rf -- "$BASE/iogauge.$size" "$BASE/ior.$size" "$BASE/raw"
    done
  done
done
if [ -n "$KEEP" ]; then cp -- "$COUNTS" "$KEEP/"; fi

echo
python3 - "$COUNTS" "$SMALL_B" "$LARGE_B" "$FUNCS" <<'PY'
import collections, os, re, statistics, sys

counts_path, small, large, funcs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
rows = {}
order = []
for line in open(counts_path):
    tool, phase, rep, size, ops, ir, path = line.rstrip("\n").split("\t")
    key = (tool, phase)
    if key not in order:
        order.append(key)
    rows.setdefault(key, {}).setdefault(int(rep), {})[int(size)] = (int(ops), int(ir), path)

per_op = {}
for key in order:
    vals = []
    for rep in sorted(rows[key]):
        m = rows[key][rep]
        (ops_s, ir_s, _), (ops_l, ir_l, _) = m[small], m[large]
        vals.append((rep, (ir_l - ir_s) / (ops_l - ops_s)))
    per_op[key] = vals

reps = max(len(v) for v in per_op.values())
print("User-space instructions per operation, (Ir(LARGE) - Ir(SMALL)) / (ops(LARGE) - ops(SMALL)):")
hdr = f"{'tool':<8} {'phase':<5}" + "".join(f" {'rep ' + str(r):>9}" for r in range(1, reps + 1))
hdr += f" {'median':>9} {'min-max':>15}"
print(hdr)
print("-" * len(hdr))
for key in order:
    vals = [v for _, v in per_op[key]]
    row = f"{key[0]:<8} {key[1]:<5}" + "".join(f" {v:>9.1f}" for v in vals)
    row += f" {statistics.median(vals):>9.1f} {min(vals):>7.1f}-{max(vals):<7.1f}"
    print(row)
print()
print("Ir counts user space only (program, libc, ld.so), not the kernel. Under valgrind the vDSO")
print("is not used: clock_gettime/gettimeofday run libc's syscall fallback (about 10 instructions)")
print("instead of the vDSO's clock read (about 80 user-space instructions natively).")

if not funcs:
    sys.exit(0)


def exclusive_by_function(path):
    """Exclusive Ir per (function, object) from a callgrind output file. Inlined code
    (fi=/fe=) counts in the function it was inlined into; call costs (after calls=) do not
    count in the caller."""
    names = {"fn": {}, "ob": {}}
    cost = collections.Counter()
    fn = ob = "???"
    after_call = False
    spec = re.compile(r"^(c?fn|c?ob)=(?:\((\d+)\))?\s*(.*)$")
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if not line:
            continue
        c = line[0]
        if c.isdigit() or c in "+-*":
            if after_call:
                after_call = False
                continue
            parts = line.split()
            if len(parts) >= 2:
                cost[(fn, ob)] += int(parts[1])
            continue
        m = spec.match(line)
        if m:
            kind, ident, name = m.groups()
            space = "fn" if kind.endswith("fn") else "ob"
            if ident is not None:
                if name:
                    names[space][ident] = name
                name = names[space].get(ident, name or "???")
            if kind == "fn":
                fn = name
            elif kind == "ob":
                ob = name
            continue
        if line.startswith("calls="):
            after_call = True
    return cost


def short(name, limit=90):
    return name if len(name) <= limit else name[: limit - 3] + "..."


print()
print("Per-function breakdown of the median repetition: exclusive instructions per operation,")
print("(Ir_f(LARGE) - Ir_f(SMALL)) / ops difference; functions at 0.5/op or more:")
for key in order:
    vals = sorted(per_op[key], key=lambda rv: rv[1])
    rep, value = vals[(len(vals) - 1) // 2]
    m = rows[key][rep]
    (ops_s, _, path_s), (ops_l, _, path_l) = m[small], m[large]
    a, b = exclusive_by_function(path_s), exclusive_by_function(path_l)
    dops = ops_l - ops_s
    diffs = [((b[k] - a[k]) / dops, k) for k in set(a) | set(b)]
    diffs.sort(key=lambda d: (-abs(d[0]), d[1]))
    print()
    print(f"{key[0]} {key[1]} (rep {rep}: {value:.1f} instr/op)")
    shown = 0.0
    for d, (fn, ob) in diffs:
        if abs(d) < 0.5:
            continue
        shown += d
        print(f"  {d:8.1f}  {short(fn)}  [{os.path.basename(ob)}]")
    print(f"  {value - shown:8.1f}  (all other functions)")
PY
