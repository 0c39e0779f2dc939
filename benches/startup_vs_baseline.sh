#!/usr/bin/env bash
# iogauge startup vs a plain baseline on the same tree and common file: prints, per round and
# as medians, the time until the last reader was done for each, and the ratio baseline/iogauge
# (above 1: iogauge took less time). See docs/startup.md.
set -euo pipefail

usage() {
  cat <<'EOF_HELP'
Usage: bash benches/startup_vs_baseline.sh [options]

Makes one tree and one common file with `iogauge startup --keep` under a fresh directory
startup-bench.XXXXXX in DIR, then in interleaved rounds (the order of the two reversed every
other round, after warm-up rounds) reads them with
  iogauge   `iogauge startup --tasks J --tree T --common-file C`: its tree-read and
            common-read times (until the last rank was done, from the barrier the ranks
            leave together), from its JSON document;
  baseline  for the tree, J Python processes that wait at one barrier, then each stat, open,
            read to the end (readinto, a buffer of --transfer bytes) and close every file in
            the order iogauge reads them: the time from the barrier until the last was done;
            for the common file, J `dd if=C of=/dev/null bs=1M` started together, the
            longest copy time dd reports.
Both read the page cache (no cache drop: the baseline cannot drop). Prints every round, then
the median time of each and the median of the per-round ratios baseline/iogauge. Removes the
directory at the end. Exit status: 0 when both ran, 1 when one failed, 2 on bad usage.

Options (each also settable through the environment variable named in brackets):
  -n N      files of the generated tree                       [FILES, default 600]
  -c SIZE   common file size (iogauge's size form, e.g. 256m) [COMMON, default 256m]
  -j J      ranks / processes                                  [JOBS, default 1]
  -r RUNS   measured rounds                                    [RUNS, default 7]
  -w N      untimed warm-up rounds                             [WARMUP, default 1]
  -d DIR    where to make the files                            [DIR, default /dev/shm]
  -h        this help
Environment only: IOGAUGE (binary; default: built with `cargo build --release` here),
PYTHON (default python3).
EOF_HELP
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
FILES=${FILES:-600}
COMMON=${COMMON:-256m}
JOBS=${JOBS:-1}
RUNS=${RUNS:-7}
WARMUP=${WARMUP:-1}
DIR=${DIR:-/dev/shm}
PYTHON=${PYTHON:-python3}

while getopts ":n:c:j:r:w:d:h" opt; do
  case $opt in
    n) FILES=$OPTARG ;;
    c) COMMON=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    w) WARMUP=$OPTARG ;;
    d) DIR=$OPTARG ;;
    h) usage; exit 0 ;;
    :) echo "startup_vs_baseline.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "startup_vs_baseline.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
  echo "startup_vs_baseline.sh: unexpected argument '$1' (see -h)" >&2
  exit 2
fi
for v in FILES JOBS RUNS WARMUP; do
  if ! [[ ${!v} =~ ^[0-9]+$ ]] || { [ "$v" != WARMUP ] && [ "${!v}" -eq 0 ]; }; then
    echo "startup_vs_baseline.sh: $v=${!v}: expected a whole number above 0" >&2
    exit 2
  fi
done
if [ ! -d "$DIR" ]; then
  echo "startup_vs_baseline.sh: -d $DIR: not a directory" >&2
  exit 2
fi

if [ -z "${IOGAUGE:-}" ]; then
  (cd "$REPO_DIR" && cargo build --release --quiet)
  IOGAUGE=$REPO_DIR/target/release/iogauge
fi

WORK=$(mktemp -d "$DIR/startup-bench.XXXXXX")
# Only what this script made: the directory mktemp made (iogauge removes nothing of a --tree).
trap 'rm -rf -- "$WORK"' EXIT
"$IOGAUGE" --no-store --quiet startup --dir "$WORK" --files "$FILES" --common-size "$COMMON" \
  --keep --json "$WORK/made.json" 2>"$WORK/stderr" || { cat "$WORK/stderr" >&2; exit 1; }
TREE=$WORK/iogauge-startup/site-packages
COMMON_FILE=$WORK/iogauge-startup/common.dat

# The baseline's tree read: J processes, one barrier, stat/open/read/close per file.
BASELINE_PY=$WORK/baseline.py
cat >"$BASELINE_PY" <<'EOF_PY'
import multiprocessing as mp, os, sys, time

def files(root):
    # iogauge's order: in each directory its files by name, then its directories by name.
    names = sorted(os.listdir(root))
    subdirs = []
    for n in names:
        p = os.path.join(root, n)
        if os.path.isdir(p) and not os.path.islink(p):
            subdirs.append(p)
        elif os.path.isfile(p) and not os.path.islink(p):
            yield p
    for d in subdirs:
        yield from files(d)

def reader(paths, barrier, out):
    buf = bytearray(1 << 20)
    view = memoryview(buf)
    barrier.wait()
    start = time.monotonic()
    for p in paths:
        os.stat(p)
        fd = os.open(p, os.O_RDONLY)
        while os.readv(fd, [view]) > 0:
            pass
        os.close(fd)
    out.put((start, time.monotonic()))

if __name__ == "__main__":
    root, jobs = sys.argv[1], int(sys.argv[2])
    paths = list(files(root))
    barrier, out = mp.Barrier(jobs), mp.Queue()
    procs = [mp.Process(target=reader, args=(paths, barrier, out)) for _ in range(jobs)]
    for p in procs:
        p.start()
    times = [out.get() for _ in procs]
    for p in procs:
        p.join()
    print(f"{max(e for _, e in times) - min(s for s, _ in times):.6f}")
EOF_PY

iogauge_round() {
  "$IOGAUGE" --no-store --quiet startup --tasks "$JOBS" --tree "$TREE" \
    --common-file "$COMMON_FILE" --json "$WORK/r.json" 2>"$WORK/stderr" || {
    cat "$WORK/stderr" >&2
    return 1
  }
  "$PYTHON" - "$WORK/r.json" <<'EOF_J'
import json, sys
d = json.load(open(sys.argv[1]))
t = {p["operation"]: p["times"]["total_s"] for p in d["phases"]}
print(f'{t["tree-read"]:.6f} {t["common-read"]:.6f}')
EOF_J
}

baseline_round() {
  local tree common
  tree=$("$PYTHON" "$BASELINE_PY" "$TREE" "$JOBS") || return 1
  common=$(
    for _ in $(seq "$JOBS"); do
      dd if="$COMMON_FILE" of=/dev/null bs=1M 2>&1 | sed -n 's/.*copied, \([0-9.e-]*\) s.*/\1/p' &
    done | sort -g | tail -1
    wait
  )
  [ -n "$common" ] || return 1
  echo "$tree $common"
}

declare -a IT IC BT BC
printf '%-6s %12s %12s %12s %12s\n' round iog-tree-s base-tree-s iog-common-s base-common-s
for ((round = 0; round < WARMUP + RUNS; round++)); do
  if ((round % 2 == 0)); then
    i=$(iogauge_round) || exit 1
    b=$(baseline_round) || exit 1
  else
    b=$(baseline_round) || exit 1
    i=$(iogauge_round) || exit 1
  fi
  ((round < WARMUP)) && continue
  read -r it ic <<<"$i"
  read -r bt bc <<<"$b"
  IT+=("$it"); IC+=("$ic"); BT+=("$bt"); BC+=("$bc")
  printf '%-6s %12s %12s %12s %12s\n' "$((round - WARMUP))" "$it" "$bt" "$ic" "$bc"
done

"$PYTHON" - "${IT[*]}" "${BT[*]}" "${IC[*]}" "${BC[*]}" "$JOBS" "$FILES" "$COMMON" <<'EOF_M'
import statistics as st, sys
it, bt, ic, bc = ([float(x) for x in a.split()] for a in sys.argv[1:5])
jobs, files, common = sys.argv[5:8]
print(f"{jobs} reader(s), {files} files, common file {common}; median of {len(it)} rounds")
for name, i, b in (("tree-read", it, bt), ("common-read", ic, bc)):
    ratios = [y / x for x, y in zip(i, b)]
    print(f"{name:<12} iogauge {st.median(i):.6f} s  baseline {st.median(b):.6f} s  "
          f"ratio baseline/iogauge {st.median(ratios):.3f} (median of per-round ratios)")
EOF_M
