#!/usr/bin/env bash
# The cost of live metrics: iogauge with `--metrics` and `--influx` (scraped and pushed to while
# it runs) against the same run without, on the FPP (ior -F) and mdtest patterns; prints median
# rates and the ratio with/without per phase. With -m system, the cost of the system figures
# (the default) against `--no-system`. See docs/performance.md ("Live metrics", "System
# figures").
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: bash benches/metrics_cost.sh [options]

Runs two patterns, each without and with live metrics, interleaved (the order of the two is
reversed every other round): FPP, `iogauge ior -F -e -w -r` (JOBS tasks, one file each, SIZE
each in 1 MiB transfers), and mdtest, `iogauge mdtest -F -u -C -T -r` (JOBS tasks, FILES files
each). "With" adds `--metrics 127.0.0.1:PORT --metrics-linger 0 --influx
http://127.0.0.1:PORT2/write?db=bench --influx-interval 1`, while a helper (python3) scrapes
/metrics every second and answers the InfluxDB writes (HTTP 204), as Prometheus and InfluxDB
would. With `-m system`, "with" is the default run, which reads the system's counters around
each phase and once a second (docs/system.md), and "without" adds `--no-system`. Every measurement is printed, then per pattern and phase the median rate of each and
the ratios with/without (ratio of the medians, and median of the per-round ratios). Exit
status: 0 when every run ran (whatever the ratios), 1 when one failed, 2 on bad usage.

Options (each also settable through the environment variable named in brackets):
  -s SIZE    bytes per FPP task                                      [SIZE, default 512m]
  -n N       files per mdtest task                                   [FILES, default 50000]
  -j JOBS    tasks                                                   [JOBS, default 2]
  -r RUNS    measured rounds                                         [RUNS, default 7]
  -d DIR     target directory                                        [DIR, default /dev/shm]
  -w N       untimed warm-up rounds                                  [WARMUP, default 1]
  -m MODE    live (live metrics) or system (system figures)          [MODE, default live]
  -h         this help

Environment only: IOGAUGE (binary; default: built with `cargo build --release` in this
repository). Each run works in a fresh directory metrics_cost.XXXXXX under DIR and removes it.
EOF
}

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$SCRIPT_DIR/.." && pwd)
SIZE=${SIZE:-512m}
FILES=${FILES:-50000}
JOBS=${JOBS:-2}
RUNS=${RUNS:-7}
DIR=${DIR:-/dev/shm}
WARMUP=${WARMUP:-1}
MODE=${MODE:-live}

while getopts ":s:n:j:r:d:w:m:h" opt; do
  case $opt in
    s) SIZE=$OPTARG ;;
    n) FILES=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    r) RUNS=$OPTARG ;;
    d) DIR=$OPTARG ;;
    w) WARMUP=$OPTARG ;;
    m) MODE=$OPTARG ;;
    h) usage; exit 0 ;;
    :) echo "metrics_cost.sh: -$OPTARG needs a value (see -h)" >&2; exit 2 ;;
    *) echo "metrics_cost.sh: unknown option -$OPTARG (see -h)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
die_usage() { echo "metrics_cost.sh: $*" >&2; exit 2; }
[ $# -eq 0 ] || die_usage "unexpected argument '$1' (see -h)"
for n in FILES JOBS RUNS WARMUP; do
  [[ ${!n} =~ ^[0-9]+$ ]] || die_usage "$n '${!n}' is not a non-negative integer"
done
[ "$JOBS" -gt 0 ] && [ "$RUNS" -gt 0 ] && [ "$FILES" -gt 0 ] || die_usage "JOBS, RUNS and FILES must be at least 1"
[ "$MODE" = live ] || [ "$MODE" = system ] || die_usage "MODE '$MODE' is neither live nor system"
[ -d "$DIR" ] && [ -w "$DIR" ] || die_usage "target directory '$DIR' does not exist or is not writable"
command -v python3 >/dev/null 2>&1 || die_usage "python3 not found (the scraper and JSON parsing)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/metrics_cost.XXXXXX")
export XDG_DATA_HOME=$WORK/data-home
HELPER_PID=
SCRATCH=
cleanup() {
  [ -n "$HELPER_PID" ] && kill "$HELPER_PID" 2>/dev/null || true
  [ -n "$SCRATCH" ] && rm -rf -- "$SCRATCH"
  rm -rf -- "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ -z "${IOGAUGE:-}" ]; then
  echo "building iogauge (cargo build --release) ..."
  (cd "$REPO_DIR" && cargo build --release --quiet) || { echo "metrics_cost.sh: cargo build failed" >&2; exit 1; }
  IOGAUGE=$REPO_DIR/target/release/iogauge
fi
[ -x "$IOGAUGE" ] || die_usage "iogauge binary '$IOGAUGE' is not executable"

# Two free ports, then the helper: scrapes PORT every second, answers writes on PORT2.
read -r PORT PORT2 < <(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(*[x.getsockname()[1] for x in s])')
python3 - "$PORT" "$PORT2" >"$WORK/helper.log" 2>&1 <<'PY' &
import http.server, sys, threading, time, urllib.request
port, port2 = int(sys.argv[1]), int(sys.argv[2])
class Sink(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204); self.end_headers()
    def log_message(self, *a): pass
def scrape():
    while True:
        try: urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=1).read()
        except Exception: pass
        time.sleep(1)
threading.Thread(target=scrape, daemon=True).start()
http.server.HTTPServer(("127.0.0.1", port2), Sink).serve_forever()
PY
HELPER_PID=$!
METRICS=(--metrics "127.0.0.1:$PORT" --metrics-linger 0 --influx "http://127.0.0.1:$PORT2/write?db=bench" --influx-interval 1)

RESULTS=$WORK/results.txt # lines: pattern phase mode rate
: >"$RESULTS"

run() { # $1 = fpp|mdtest, $2 = off|on, $3 = record (1) or warm-up (0)
  local extra=() json=$WORK/run.json
  if [ "$MODE" = system ]; then
    [ "$2" = off ] && extra=(--no-system)
  else
    [ "$2" = on ] && extra=("${METRICS[@]}")
  fi
  SCRATCH=$(mktemp -d "$DIR/metrics_cost.XXXXXX")
  if [ "$1" = fpp ]; then
    "$IOGAUGE" --no-store ior --tasks "$JOBS" -F -e -w -r -t 1m -b "$SIZE" -o "$SCRATCH/f" --json "$json" "${extra[@]}" >"$WORK/run.out" 2>&1
  else
    "$IOGAUGE" --no-store mdtest --tasks "$JOBS" -n "$FILES" -F -u -C -T -r -d "$SCRATCH/md" --json "$json" "${extra[@]}" >"$WORK/run.out" 2>&1
  fi || { echo "metrics_cost.sh: iogauge $1 ($2) failed:" >&2; cat "$WORK/run.out" >&2; exit 1; }
  rm -rf -- "$SCRATCH"; SCRATCH=
  [ "$3" = 1 ] || return 0
  python3 - "$json" "$1" "$2" >>"$RESULTS" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for p in doc["phases"]:
    rate = p["bandwidth_mib_s"] if sys.argv[2] == "fpp" else p["iops"]
    if p["operation"] in ("write", "read", "file-create", "file-stat", "file-remove"):
        print(sys.argv[2], p["operation"], sys.argv[3], rate)
PY
}

echo "mode $MODE; FPP: $JOBS tasks x $SIZE; mdtest: $JOBS tasks x $FILES files; $RUNS rounds after $WARMUP warm-up; in $DIR"
for pattern in fpp mdtest; do
  for ((w = 0; w < WARMUP; w++)); do run $pattern off 0; run $pattern on 0; done
  for ((r = 0; r < RUNS; r++)); do
    if ((r % 2 == 0)); then run $pattern off 1; run $pattern on 1; else run $pattern on 1; run $pattern off 1; fi
    echo "round $((r + 1))/$RUNS $pattern:"
    grep "^$pattern " "$RESULTS" | tail -n "$([ $pattern = fpp ] && echo 4 || echo 6)" |
      awk '{ printf "  %-12s %-4s %14.1f %s\n", $2, $3, $4, ($1 == "fpp" ? "MiB/s" : "ops/s") }'
  done
done

echo
python3 - "$RESULTS" "$RUNS" <<'PY'
import statistics, sys
from collections import defaultdict
rates = defaultdict(list)
for line in open(sys.argv[1]):
    pattern, phase, mode, v = line.split()
    rates[(pattern, phase, mode)].append(float(v))
print(f"{'pattern':<8} {'phase':<12} {'without':>14} {'with':>14} {'ratio of medians':>17} {'median of ratios':>17}")
for pattern, phase in dict.fromkeys((k[0], k[1]) for k in rates):
    off, on = rates[(pattern, phase, "off")], rates[(pattern, phase, "on")]
    ratios = [b / a for a, b in zip(off, on) if a]
    a, b = statistics.median(off), statistics.median(on)
    print(f"{pattern:<8} {phase:<12} {a:>14.1f} {b:>14.1f} {b / a if a else 0:>17.3f} {statistics.median(ratios):>17.3f}")
PY
