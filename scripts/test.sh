#!/usr/bin/env bash
# The single test command (README): installs what a fresh machine lacks, builds, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
command -v fio >/dev/null 2>&1 || need_apt+=(fio)   # used by benches/, checked here so benches work
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found: install the Rust toolchain (https://rustup.rs) first" >&2
  exit 1
fi

cargo build --release --locked 2>&1 | tail -n 3

# Unit, property and integration tests of every crate (doc tests hold no examples to run).
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
cargo test --release --locked --workspace --lib --bins --tests 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
passed=$(grep -Eo 'test result: [A-Za-z]+\. [0-9]+ passed' "$log" | awk '{s += $4} END {print s + 0}')
failed=$(grep -Eo '[0-9]+ failed' "$log" | awk '{s += $1} END {print s + 0}')
echo
echo "tests: $passed passed, $failed failed"
exit "$status"
