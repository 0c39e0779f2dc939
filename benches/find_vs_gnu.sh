#!/usr/bin/env bash
# iogauge find (1 and 2 ranks) vs GNU find on the IO500 find query; prints medians and ratios.
# See docs/performance.md ("find vs GNU find") for what is measured and the figures we got.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash benches/find_vs_gnu.sh [options]

Builds a tree of DIRS directories with FILES files each (mdtest-like names
file.mdtest.<d>.<i>; every third file 3901 bytes, the others empty), the first half of the
directories more than a second before a reference file and the second half more than a second
after it. Then runs, interleaved (the order reversed every other run), RUNS times each:

  GNU find:  find TREE -newer REF -size 3901c -name '*01*' | wc -l
  iogauge:   iogauge find --tasks 1 TREE -newer REF -size 3901c -name '*01*' -C
  iogauge:   iogauge find --tasks 2 TREE -newer REF -size 3901c -name '*01*' -C

GNU find compares mtime and needs strictly newer, iogauge (pfind) ctime and at-least; the
second-wide gaps around REF make both give the same count here, and both counts are printed.
Every tool walks the tree once untimed first, so all runs see warm dentry and inode caches.
Wall times are around the whole process (start-up included), from date +%s%N; CPU times are
user + system seconds of the tool's processes (bash `times`), which other load on a shared
machine disturbs less; iogauge's own runtime (pfind's, the walk only) is printed beside.
Ratios are GNU / iogauge: above 1 means iogauge is faster (wall) or cheaper (cpu). Exit status: 0 when every tool ran, 1 when one failed,
2 on bad usage.

Options (each also settable through the environment variable named in brackets):
  -D N       directories in the tree                       [NDIRS, default 100]
  -f N       files per directory                           [FILES, default 1000]
  -n RUNS    measured runs per tool and target directory   [RUNS, default 5]
  -d DIR     target directory; repeat for several          [DIRS="/dev/shm /tmp"]
  -h         this help

Environment only: IOGAUGE (binary; default: built with `cargo build --release` in this
repository), FIND (default: find). Each target gets a directory iogauge-findbench.XXXXXX that
is removed at the end.
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
NDIRS=${NDIRS:-100}
FILES=${FILES:-1000}
RUNS=${RUNS:-5}
FIND=${FIND:-find}
read -r -a DIR_LIST <<<"${DIRS:-/dev/shm /tmp}"
dirs_from_flags=()

die_usage() { echo "find_vs_gnu.sh: $*" >&2; exit 2; }

while getopts ":D:f:n:d:h" opt; do
  case $opt in
    D) NDIRS=$OPTARG ;;
    f) FILES=$OPTARG ;;
    n) RUNS=$OPTARG ;;
    d) dirs_from_flags+=("$OPTARG") ;;
    h) usage; exit 0 ;;
    :) die_usage "-$OPTARG needs a value (see -h)" ;;
    *) die_usage "unknown option -$OPTARG (see -h)" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die_usage "unexpected argument '$1' (see -h)"
[ ${#dirs_from_flags[@]} -eq 0 ] || DIR_LIST=("${dirs_from_flags[@]}")
for n in NDIRS FILES RUNS; do
  [[ ${!n} =~ ^[1-9][0-9]*$ ]] || die_usage "$n '${!n}' is not a positive integer"
done
[ "$NDIRS" -ge 2 ] || die_usage "NDIRS must be at least 2 (half old, half new)"
for d in "${DIR_LIST[@]}"; do
  [ -d "$d" ] && [ -w "$d" ] || die_usage "target directory '$d' does not exist or is not writable"
done
command -v "$FIND" >/dev/null 2>&1 || die_usage "GNU find not found (FIND=$FIND)"
command -v python3 >/dev/null 2>&1 || die_usage "python3 not found (used for the statistics)"

BASES=()
WORK=$(mktemp -d "${TMPDIR:-/tmp}/find_vs_gnu.XXXXXX")
# iogauge stores every run; the measured runs go to a store of their own, removed with WORK.
export XDG_DATA_HOME=$WORK/data-home
cleanup() {
  local b
  for b in "${BASES[@]}"; do [ -n "$b" ] && rm -rf -- "$b"; done
  rm -rf -- "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "${IOGAUGE:-}" ]; then
  echo "building iogauge (cargo build --release) ..."
  (cd "$REPO_DIR" && cargo build --release --quiet) || { echo "find_vs_gnu.sh: cargo build failed" >&2; exit 1; }
  IOGAUGE=$REPO_DIR/target/release/iogauge
fi
[ -x "$IOGAUGE" ] || die_usage "iogauge binary '$IOGAUGE' is not executable"
# Storing the run (iogauge since its result store) is not what is measured.
NO_STORE=()
if "$IOGAUGE" --help 2>/dev/null | grep -q -- --no-store; then NO_STORE=(--no-store); fi

# Shell builtins only (no process per file), so building 100k files takes seconds.
PAYLOAD=$(printf '%3901s' '')
make_dirs() { # $1 = tree, $2 = first dir, $3 = end (exclusive)
  local d i dir
  for ((d = $2; d < $3; d++)); do
    dir=$1/mdtest_tree.$d
    mkdir -p -- "$dir"
    for ((i = 0; i < FILES; i++)); do
      if ((i % 3 == 0)); then printf '%s' "$PAYLOAD" >"$dir/file.mdtest.$d.$i"; else : >"$dir/file.mdtest.$d.$i"; fi
    done
  done
}

build_tree() { # $1 = base; sets TREE and REF
  TREE=$1/tree
  REF=$1/timestampfile
  local half=$((NDIRS / 2))
  make_dirs "$TREE" 0 "$half"
  sleep 1.1
  : >"$REF"
  sleep 1.1
  make_dirs "$TREE" "$half" "$NDIRS"
}

RESULTS=$WORK/results.tsv # dir tool run wall_s count internal_s
: >"$RESULTS"

# One timed invocation; prints "wall_s cpu_s count internal_s". cpu_s is the user + system
# time of the tool's processes (bash `times`), which other load on the machine disturbs less.
timed() { # $1 = tool
  local out=$WORK/out rc=0 t0 t1
  t0=$(date +%s%N)
  (
    case $1 in
      gnu) "$FIND" "$TREE" -newer "$REF" -size 3901c -name '*01*' 2>"$WORK/err" | wc -l >"$out" ;;
      iog1 | iog2)
        "$IOGAUGE" "${NO_STORE[@]}" find --tasks "${1#iog}" "$TREE" -newer "$REF" -size 3901c -name '*01*' -C >"$out" 2>"$WORK/err" ;;
    esac
    rc=$?
    times >"$WORK/times"
    exit "$rc"
  ) || rc=$?
  t1=$(date +%s%N)
  if [ "$rc" -ne 0 ]; then
    echo "find_vs_gnu.sh: $1 failed (status $rc):" >&2
    sed 's/^/  | /' "$out" "$WORK/err" >&2
    exit 1
  fi
  local count internal=- cpu
  if [ "$1" = gnu ]; then
    count=$(tr -d ' ' <"$out")
  else
    count=$(sed -n 's/^MATCHED \([0-9]*\)\/.*/\1/p' "$out")
    internal=$(sed -n 's/^runtime: \([0-9.]*\) s.*/\1/p' "$out")
  fi
  # `times` prints the shell's, then the children's "user system" (e.g. 0m0.010s 0m0.057s).
  cpu=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%.3f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$WORK/times")
  echo "$(((t1 - t0) / 1000))e-6 $cpu $count $internal"
}

TOOLS=(gnu iog1 iog2)
echo "find_vs_gnu: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(uname -n), kernel $(uname -r), $(nproc) cores"
echo "  $("$IOGAUGE" --version), $("$FIND" --version | head -n1)"
echo "  tree: $NDIRS directories x $FILES files (every third 3901 B), RUNS=$RUNS, DIRS: ${DIR_LIST[*]}"
echo "  caches warm: every tool walks each tree once untimed before the measured runs"
echo
for d in "${DIR_LIST[@]}"; do
  base=$(mktemp -d "$d/iogauge-findbench.XXXXXX")
  BASES+=("$base")
  echo "building the tree under $base ..."
  build_tree "$base"
  fstype=$(stat -f -c %T "$base")
  for t in "${TOOLS[@]}"; do timed "$t" >/dev/null; done # warm-up
  for ((r = 1; r <= RUNS; r++)); do
    order=("${TOOLS[@]}")
    [ $((r % 2)) -eq 0 ] && order=(iog2 iog1 gnu)
    for t in "${order[@]}"; do
      timed "$t" >"$WORK/line"
      read -r wall cpu count internal <"$WORK/line"
      printf '%-18s %-5s run %d  wall %.4f s  cpu %s s  matched %s  iogauge runtime %s\n' "$d ($fstype)" "$t" "$r" "$wall" "$cpu" "$count" "$internal"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$d ($fstype)" "$t" "$r" "$wall" "$count" "$internal" "$cpu" >>"$RESULTS"
    done
  done
  rm -rf -- "$base"
done

echo
python3 - "$RESULTS" <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
dirs = list(dict.fromkeys(r[0] for r in rows))
tools = ("gnu", "iog1", "iog2")
def med(d, t, col, f=statistics.median):
    return f(float(r[col]) for r in rows if r[0] == d and r[1] == t)
print("Ratio = GNU find / iogauge (above 1: iogauge faster or cheaper)")
print(f"{'dir':<18} {'':<5} {'GNU find':>9} {'iog 1 rk':>9} {'iog 2 rk':>9} {'GNU/iog1':>9} {'GNU/iog2':>9}")
for d in dirs:
    for name, col, f in (("wall", 3, statistics.median), ("cpu", 6, statistics.median), ("best", 3, min)):
        m = {t: med(d, t, col, f) for t in tools}
        print(f"{d if name == 'wall' else '':<18} {name:<5} {m['gnu']:>8.4f}s {m['iog1']:>8.4f}s {m['iog2']:>8.4f}s "
              f"{m['gnu'] / m['iog1']:>9.2f} {m['gnu'] / m['iog2']:>9.2f}")
    counts = {t: ",".join(sorted({r[4] for r in rows if r[0] == d and r[1] == t})) for t in tools}
    inner = {t: med(d, t, 5) for t in ("iog1", "iog2")}
    print(f"{'':<18} matched: GNU {counts['gnu']}, iogauge {counts['iog1']} / {counts['iog2']}; "
          f"iogauge's own runtime (walk only): {inner['iog1']:.4f} s / {inner['iog2']:.4f} s")
print("wall: median wall time of the whole process, start-up included; cpu: median user + system")
print("seconds of the process(es); best: the shortest wall time (least disturbed by other load)")
PY
