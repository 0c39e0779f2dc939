#!/usr/bin/env bash
# iogauge -a S3 vs a minimal raw Rust loop with the same signing (crates/s3/examples/
# s3_raw_loop.rs) against the same local RADOS Gateway: PUT and GET rates per object size and
# requests in flight, the ratio iogauge/raw, and (-c) user-space instructions per request.
# See benches/README.md for the options.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash benches/s3_vs_raw.sh [options]

Starts its own S3 server (scripts/s3-server.sh: Ceph RADOS Gateway on 127.0.0.1, objects in
the OSD's memory, 2 GiB at most) in a temporary directory, stops it at the end, and measures
against it, for every object SIZE of SIZES and every DEPTH of DEPTHS (requests in flight):

  iogauge  `iogauge --no-store --tasks DEPTH mdtest -a S3 -F -n K -w SIZE -e SIZE -d PREFIX`
           (DEPTH tasks, one request at a time each: DEPTH requests in flight; every file is
           one whole-object PUT (create), HEAD (stat), GET of SIZE bytes from 0 (read),
           DELETE (remove); objects above 8 MiB with --s3.multipart-size SIZE, so that they
           too are one PUT, not a multipart upload). PUT rate = the file-create phase's
           ops/s, GET rate = the file-read phase's (its --json document).
  raw      `s3_raw_loop put|get|delete SIZE DEPTH K BUCKET PREFIX`: DEPTH threads, each with
           its own ureq Agent and one kept-alive connection (as each mdtest task has its own
           client), K requests each, presigned by rusty-s3 as iogauge's client presigns them
           (SigV4 in the query string, unsigned payload), the GET with the same Range header;
           rate = requests / (barrier to last thread done). The delete is not reported.

K (objects per task) = COUNT for the size / DEPTH, rounded up; the objects of a cell,
DEPTH x K x SIZE, are kept to MAX_BYTES (fewer per task), and a cell that would need more
than MAX_BYTES with one object per task is skipped and said so (64 MiB at depth 32 is 2 GiB,
the server's whole memory). Objects above 4 MiB leave their tails (RADOS Gateway's stripes)
to the gateway's garbage collector, which by default frees them two hours later: after every
such measurement the script runs `radosgw-admin gc process --include-all` (untimed), else
the memory-backed OSD fills and the gateway stops answering.

Rounds are interleaved: every round runs every cell once with each tool, the tools taking
turns going first. Printed: every measurement, then per size, depth and operation the median
req/s of each tool, ratio = median(iogauge) / median(raw), paired = the median of the
per-round ratios, band = the per-round ratios' range; the figure of merit is ratio >= 0.95
(iogauge is not the bottleneck); a row below it is marked '<'. With -c, user-space
instructions per request (valgrind callgrind, 1 task/thread, at two request counts: the
difference of the instructions over the difference of requests, so start-up cancels) of
iogauge's PUT (mdtest -C) and GET (mdtest -E) and the raw loop's put and get, per CG_SIZES.

Options (each also settable through the environment variable named in brackets):
  -s LIST    object sizes, k/m/g suffixes, comma-separated          [SIZES, default 4k,1m,64m]
  -D LIST    requests in flight, comma-separated                   [DEPTHS, default 1,8,32]
  -n LIST    requests per operation per cell, by size              [COUNTS,
                                                   default 4k:2048,1m:512,64m:16; a size not
                                                   listed: 512 MiB worth, 2048 at most]
  -m SIZE    most bytes of objects per cell                         [MAX_BYTES, default 1g]
  -r RUNS    measured rounds                                        [RUNS, default 3]
  -w N       untimed warm-up rounds first                          [WARMUP, default 0]
  -c         also count instructions per request (valgrind)        [COUNT=1]
  -C LIST    -c's two request counts                               [CG_COUNTS, default 50,250]
  -S LIST    -c's object sizes                                     [CG_SIZES, default 4k,1m]
  -h         this help

Environment only: IOGAUGE (default: built with `cargo build --release` here), RAW (the
s3_raw_loop binary; default: built with `cargo build --release -p s3 --example
s3_raw_loop`), VALGRIND (valgrind). Needs python3, the server's packages (installed by
scripts/s3-server.sh as root when missing) and valgrind for -c. Everything (the server's
files, the results) lives in a temporary directory removed at the end.
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
SIZES=${SIZES:-4k,1m,64m}
DEPTHS=${DEPTHS:-1,8,32}
COUNTS=${COUNTS:-4k:2048,1m:512,64m:16}
MAX_BYTES=${MAX_BYTES:-1g}
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-0}
COUNT=${COUNT:-0}
CG_COUNTS=${CG_COUNTS:-50,250}
CG_SIZES=${CG_SIZES:-4k,1m}
VALGRIND=${VALGRIND:-valgrind}
BUCKET=s3-vs-raw
while getopts ":s:D:n:m:r:w:cC:S:h" opt; do
  case $opt in
    s) SIZES=$OPTARG ;;
    D) DEPTHS=$OPTARG ;;
    n) COUNTS=$OPTARG ;;
    m) MAX_BYTES=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    w) WARMUP=$OPTARG ;;
    c) COUNT=1 ;;
    C) CG_COUNTS=$OPTARG ;;
    S) CG_SIZES=$OPTARG ;;
    h) usage; exit 0 ;;
    :) echo "s3_vs_raw.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "s3_vs_raw.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
die_usage() { echo "s3_vs_raw.sh: $*" >&2; exit 2; }
[ $# -eq 0 ] || die_usage "unexpected argument '$1' (see -h)"

# Bytes of a size with an optional k/m/g suffix (powers of 1024); empty when it is not one.
bytes_of() {
  local s=${1,,}
  case $s in
    *k) s=${s%k}; [[ $s =~ ^[0-9]+$ ]] && echo $((s << 10)) ;;
    *m) s=${s%m}; [[ $s =~ ^[0-9]+$ ]] && echo $((s << 20)) ;;
    *g) s=${s%g}; [[ $s =~ ^[0-9]+$ ]] && echo $((s << 30)) ;;
    *) [[ $s =~ ^[0-9]+$ ]] && echo "$s" ;;
  esac
  return 0
}

SIZE_RE='[0-9]+[kKmMgG]?'
[[ $SIZES =~ ^$SIZE_RE(,$SIZE_RE)*$ ]] || die_usage "SIZES '$SIZES' is not a list like 4k,1m,64m"
[[ $CG_SIZES =~ ^$SIZE_RE(,$SIZE_RE)*$ ]] || die_usage "CG_SIZES '$CG_SIZES' is not a list like 4k,1m"
[[ $DEPTHS =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] || die_usage "DEPTHS '$DEPTHS' is not a list like 1,8,32"
[[ $COUNTS =~ ^($SIZE_RE:[1-9][0-9]*)?(,$SIZE_RE:[1-9][0-9]*)*$ ]] ||
  die_usage "COUNTS '$COUNTS' is not a list like 4k:2048,1m:512"
[[ $CG_COUNTS =~ ^[1-9][0-9]*,[1-9][0-9]*$ ]] || die_usage "CG_COUNTS '$CG_COUNTS' is not two counts like 50,250"
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die_usage "RUNS '$RUNS' is not a positive integer"
[[ $WARMUP =~ ^[0-9]+$ ]] || die_usage "WARMUP '$WARMUP' is not a number"
MAX=$(bytes_of "$MAX_BYTES")
{ [ -n "$MAX" ] && [ "$MAX" -gt 0 ]; } || die_usage "MAX_BYTES '$MAX_BYTES' is not a size"
IFS=, read -r CG_A CG_B <<<"$CG_COUNTS"
[ "$CG_A" -lt "$CG_B" ] || die_usage "CG_COUNTS '$CG_COUNTS': the second count must be the larger"
command -v python3 >/dev/null || die_usage "python3 not found"
[ "$COUNT" = 0 ] || command -v "$VALGRIND" >/dev/null || die_usage "valgrind not found (-c)"
for d in ${DEPTHS//,/ }; do
  [ "$d" -le 1024 ] || die_usage "depth $d: iogauge runs at most 1024 tasks here"
done

if [ -z "${IOGAUGE:-}" ]; then
  (cd "$REPO_DIR" && cargo build --release --quiet)
  IOGAUGE=$REPO_DIR/target/release/iogauge
fi
if [ -z "${RAW:-}" ]; then
  (cd "$REPO_DIR" && cargo build --release --quiet -p s3 --example s3_raw_loop)
  RAW=$REPO_DIR/target/release/examples/s3_raw_loop
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/s3_vs_raw.XXXXXX")
export XDG_DATA_HOME=$WORK/data-home
SERVER=$WORK/server
cleanup() {
  [ ! -d "$SERVER" ] || bash "$REPO_DIR/scripts/s3-server.sh" stop "$SERVER" >/dev/null 2>&1 || true
  rm -rf -- "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "starting the S3 server (scripts/s3-server.sh start, about 15 s)"
# Its output holds the secret key: it goes to a file, never to the terminal.
bash "$REPO_DIR/scripts/s3-server.sh" start "$SERVER" >"$WORK/server.out" 2>&1 ||
  { grep -v SECRET "$WORK/server.out" >&2; echo "s3_vs_raw.sh: the S3 server did not start" >&2; exit 1; }
set -a
# shellcheck disable=SC1091
. "$SERVER/env"
set +a
echo "server: $AWS_ENDPOINT_URL, bucket $BUCKET"
"$RAW" mkbucket 0 0 0 "$BUCKET" x

# The gateway's garbage collector, run now: frees the tails of deleted objects above 4 MiB.
gc() { # bytes
  [ "$1" -gt $((4 << 20)) ] || return 0
  radosgw-admin -c "$SERVER/ceph.conf" gc process --include-all >/dev/null 2>&1 ||
    echo "s3_vs_raw.sh: warning: radosgw-admin gc process failed" >&2
}

# --s3.multipart-size for objects above iogauge's 8 MiB default: the object is one PUT.
part_opt() { # bytes
  if [ "$1" -gt $((8 << 20)) ]; then echo "--s3.multipart-size $1"; fi
}

# One iogauge cell: prints "PUT-rate GET-rate".
iogauge_run() { # bytes depth per-task prefix
  local bytes=$1 depth=$2 per=$3 prefix=$4 json=$WORK/iog.json
  # shellcheck disable=SC2046
  "$IOGAUGE" --no-store --tasks "$depth" mdtest -a S3 --s3.bucket "$BUCKET" $(part_opt "$bytes") \
    -F -n "$per" -w "$bytes" -e "$bytes" -d "$prefix" --json "$json" >"$WORK/iog.out" 2>&1 ||
    { cat "$WORK/iog.out" >&2; return 1; }
  gc "$bytes"
  python3 - "$json" $((depth * per)) <<'PY'
import json, sys
phases = {p["operation"]: p for p in json.load(open(sys.argv[1]))["phases"]}
want = int(sys.argv[2])
for op in ("file-create", "file-read"):
    if phases[op]["ops"] != want:
        sys.exit(f"iogauge {op}: {phases[op]['ops']} ops, expected {want}")
print(f'{phases["file-create"]["iops"]:.1f} {phases["file-read"]["iops"]:.1f}')
PY
}

# The req_s= figure of a line of s3_raw_loop.
rate() { sed -n 's/.* req_s=\([0-9.]*\) .*/\1/p' <<<"$1"; }

# One raw cell: prints "PUT-rate GET-rate".
raw_run() { # bytes depth per-task prefix
  local bytes=$1 depth=$2 per=$3 prefix=$4 put get
  put=$("$RAW" put "$bytes" "$depth" "$per" "$BUCKET" "$prefix") || return 1
  get=$("$RAW" get "$bytes" "$depth" "$per" "$BUCKET" "$prefix") || return 1
  "$RAW" delete 0 "$depth" "$per" "$BUCKET" "$prefix" >/dev/null || return 1
  gc "$bytes"
  echo "$(rate "$put") $(rate "$get")"
}

# The count of requests for size label $1 (COUNTS, else 512 MiB worth, 2048 at most).
count_for() { # label bytes
  local entry
  for entry in ${COUNTS//,/ }; do
    if [ "$(bytes_of "${entry%%:*}")" = "$2" ]; then echo "${entry#*:}"; return; fi
  done
  local n=$(((512 << 20) / $2))
  [ "$n" -ge 1 ] || n=1
  [ "$n" -le 2048 ] || n=2048
  echo "$n"
}

RESULTS=$WORK/results.txt
: >"$RESULTS"
IFS=, read -r -a SIZE_LIST <<<"$SIZES"
IFS=, read -r -a DEPTH_LIST <<<"$DEPTHS"
SKIPPED=()
start_s=$SECONDS
for r in $(seq $((1 - WARMUP)) "$RUNS"); do
  cell=0
  for label in "${SIZE_LIST[@]}"; do
    bytes=$(bytes_of "$label")
    count=$(count_for "$label" "$bytes")
    for depth in "${DEPTH_LIST[@]}"; do
      cell=$((cell + 1))
      per=$(((count + depth - 1) / depth))
      if [ $((depth * per * bytes)) -gt "$MAX" ]; then
        per=$((MAX / (depth * bytes)))
      fi
      if [ "$per" -lt 1 ]; then
        [ "$r" != 1 ] || SKIPPED+=("$label at depth $depth: $depth objects of $label are more than MAX_BYTES ($MAX_BYTES)")
        continue
      fi
      order=(iogauge raw)
      [ $(((r + cell) % 2)) = 0 ] || order=(raw iogauge)
      for tool in "${order[@]}"; do
        prefix=$tool/r$r/$label-d$depth
        t0=$SECONDS
        out=$("${tool}_run" "$bytes" "$depth" "$per" "$prefix") ||
          { echo "s3_vs_raw.sh: $tool failed at $label, depth $depth" >&2; exit 1; }
        read -r put get <<<"$out"
        tag="round $r"
        [ "$r" -ge 1 ] || tag="warm-up"
        printf '%-8s %-5s depth %-4s %-8s %5d requests: PUT %10s req/s  GET %10s req/s  (%d s)\n' \
          "$tag" "$label" "$depth" "$tool" $((depth * per)) "$put" "$get" $((SECONDS - t0))
        if [ "$r" -ge 1 ]; then
          echo "$tool $label $bytes $depth PUT $r $put" >>"$RESULTS"
          echo "$tool $label $bytes $depth GET $r $get" >>"$RESULTS"
        fi
      done
    done
  done
done
echo "measured in $((SECONDS - start_s)) s"
if [ ${#SKIPPED[@]} -gt 0 ]; then
  printf 'skipped: %s\n' "${SKIPPED[@]}"
fi

python3 - "$RESULTS" <<'PY'
import sys, statistics as st
by = {}
for line in open(sys.argv[1]):
    tool, label, size, depth, op, r, rate = line.split()
    by.setdefault((int(size), label, int(depth), op), {}).setdefault(tool, {})[int(r)] = float(rate)
print()
print("Medians over rounds (requests/s). ratio = median(iogauge)/median(raw); paired = median of")
print("the per-round ratios; band = their range; '<' marks ratio < 0.95 (the figure of merit).")
print(f'{"size":>6} {"depth":>5} {"op":4} {"iogauge req/s":>14} {"raw req/s":>10} {"MiB/s iog":>10} {"raw":>8} {"ratio":>6} {"paired":>6}  band')
order = {"PUT": 0, "GET": 1}
for (size, label, depth, op), t in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][2], order[kv[0][3]])):
    if "iogauge" not in t or "raw" not in t:
        continue
    g, w = t["iogauge"], t["raw"]
    gm, wm = st.median(g.values()), st.median(w.values())
    per = [g[r] / w[r] for r in g if r in w and w[r] > 0]
    mib = size / (1 << 20)
    mark = " <" if gm / wm < 0.95 else ""
    print(f'{label:>6} {depth:5} {op:4} {gm:14.1f} {wm:10.1f} {gm * mib:10.1f} {wm * mib:8.1f} '
          f'{gm / wm:6.3f} {st.median(per):6.3f}  {min(per):.3f}-{max(per):.3f}{mark}')
PY

if [ "$COUNT" = 1 ]; then
  # Instructions per request: (Ir(B requests) - Ir(A requests)) / (B - A), one task/thread.
  irs() { grep -m1 '^summary:' "$1" | awk '{print $2}'; }
  cg() { # out-file command...
    local out=$1
    shift
    "$VALGRIND" --tool=callgrind --callgrind-out-file="$out" "$@" >"$WORK/cg.log" 2>&1 ||
      { cat "$WORK/cg.log" >&2; return 1; }
    irs "$out"
  }
  echo
  echo "User-space instructions per request (callgrind, 1 task/thread, $CG_B vs $CG_A requests):"
  printf '%6s %-4s %12s %12s %7s\n' size op iogauge raw ratio
  IFS=, read -r -a CG_LIST <<<"$CG_SIZES"
  for label in "${CG_LIST[@]}"; do
    bytes=$(bytes_of "$label")
    declare -A ir=()
    for n in "$CG_A" "$CG_B"; do
      p=cg/iogauge/$label-$n
      # shellcheck disable=SC2046
      ir[iogauge PUT $n]=$(cg "$WORK/cg.out" "$IOGAUGE" --no-store mdtest -a S3 --s3.bucket "$BUCKET" \
        $(part_opt "$bytes") -F -C -n "$n" -w "$bytes" -d "$p")
      # shellcheck disable=SC2046
      ir[iogauge GET $n]=$(cg "$WORK/cg.out" "$IOGAUGE" --no-store mdtest -a S3 --s3.bucket "$BUCKET" \
        $(part_opt "$bytes") -F -E -n "$n" -e "$bytes" -d "$p")
      "$IOGAUGE" --no-store mdtest -a S3 --s3.bucket "$BUCKET" -F -r -n "$n" -d "$p" >"$WORK/cg.log" 2>&1 ||
        { cat "$WORK/cg.log" >&2; exit 1; }
      p=cg/raw/$label-$n
      ir[raw PUT $n]=$(cg "$WORK/cg.out" "$RAW" put "$bytes" 1 "$n" "$BUCKET" "$p")
      ir[raw GET $n]=$(cg "$WORK/cg.out" "$RAW" get "$bytes" 1 "$n" "$BUCKET" "$p")
      "$RAW" delete 0 1 "$n" "$BUCKET" "$p" >/dev/null
      gc "$bytes"
    done
    for op in PUT GET; do
      python3 - "$label" "$op" $((CG_B - CG_A)) "${ir[iogauge $op $CG_A]}" "${ir[iogauge $op $CG_B]}" \
        "${ir[raw $op $CG_A]}" "${ir[raw $op $CG_B]}" <<'PY'
import sys
label, op, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
ga, gb, ra, rb = map(int, sys.argv[4:8])
g, r = (gb - ga) / n, (rb - ra) / n
print(f"{label:>6} {op:4} {g:12.0f} {r:12.0f} {g / r:7.2f}")
PY
    done
    unset ir
  done
fi
echo "total $SECONDS s"
