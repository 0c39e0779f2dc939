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
cargo test --release --locked --workspace
