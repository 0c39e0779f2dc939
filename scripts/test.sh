#!/usr/bin/env bash
# The single test command (README): installs what a fresh machine lacks, builds, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
command -v fio >/dev/null 2>&1 || need_apt+=(fio)   # used by benches/, checked here so benches work
# The MPI build and its tests: Open MPI (mpirun, mpicc, headers) and libclang for the mpi
# crate's bindings; `timeout` bounds every mpirun in the tests.
command -v mpirun >/dev/null 2>&1 || need_apt+=(openmpi-bin)
command -v mpicc >/dev/null 2>&1 || need_apt+=(libopenmpi-dev)
# (bindgen loads libclang.so; libclang-cpp, which some images carry, is not it)
dpkg -s libclang-dev >/dev/null 2>&1 || need_apt+=(libclang-dev)
command -v timeout >/dev/null 2>&1 || need_apt+=(coreutils)
# -a HDF5 (`--features hdf5`): parallel HDF5 on Open MPI (.cargo/config.toml points the build
# at it), and h5ls/h5dump for the tests that read its files back.
dpkg -s libhdf5-openmpi-dev >/dev/null 2>&1 || need_apt+=(libhdf5-openmpi-dev)
command -v h5dump >/dev/null 2>&1 || need_apt+=(hdf5-tools)
# The store's integrity test checks with SQLite's own tool; the device-mapper test
# (tests/faults/dm_error.rs) makes an `error` target with dmsetup.
command -v sqlite3 >/dev/null 2>&1 || need_apt+=(sqlite3)
command -v dmsetup >/dev/null 2>&1 || need_apt+=(dmsetup)
command -v strace >/dev/null 2>&1 || need_apt+=(strace)   # the io_uring test counts the data path's system calls
# The system-figures test (tests/system) makes an ext4 file system on a loop device.
command -v mkfs.ext4 >/dev/null 2>&1 || need_apt+=(e2fsprogs)
command -v losetup >/dev/null 2>&1 || need_apt+=(mount)
# The Slurm test (scripts/slurm-test.sh): a single-node Slurm with munge, on its own dirs and ports.
command -v slurmctld >/dev/null 2>&1 || need_apt+=(slurm-wlm)
command -v munged >/dev/null 2>&1 || need_apt+=(munge)
# The live-metrics tests (tests/monitoring) start a real Prometheus and InfluxDB 1.x on ports
# and directories of their own (never the packages' services).
command -v prometheus >/dev/null 2>&1 || need_apt+=(prometheus)
command -v influxd >/dev/null 2>&1 || need_apt+=(influxdb)
# The HTML report tests (crates/report) render their pages in headless Chromium.
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
# The dlio tests (tests/dlio, crates/workload's data tests) judge generated files with Debian's
# numpy and PIL under /usr/bin/python3.
/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || need_apt+=(python3-numpy)
/usr/bin/python3 -c 'import PIL' >/dev/null 2>&1 || need_apt+=(python3-pil)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "installing: ${need_apt[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
# The S3 client's tests (crates/s3/tests) run against a real RADOS Gateway that
# scripts/s3-server.sh starts; its packages, without their services.
bash scripts/s3-server.sh install
if ! command -v cargo >/dev/null 2>&1; then
  echo "cargo not found: install the Rust toolchain (https://rustup.rs) first" >&2
  exit 1
fi

# Pass 1, the MPI build with parallel HDF5 (`--features mpi,hdf5`, one build for both): the
# unit tests of the crates it changes, tests/mpi, which run iogauge under a real
# `mpirun --oversubscribe` with 2 and 4 ranks (-a MPIIO and -a HDF5 among them), the binary's
# tests whose code the build changes (below), and Slurm.
# Pass 2, the default build (thread ranks; a launcher's environment is refused): unit,
# property and integration tests of every crate (doc tests hold no examples to run). It comes
# second so that it leaves the default binary in target/release, as the README's first command
# expects, without a third build of the crates the MPI feature changes.
log=$(mktemp)
# Runs the tests start store into a result store of their own, never the user's.
data_home=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$data_home"' EXIT
export XDG_DATA_HOME=$data_home
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
set +e
mpi_pkgs=(--features mpi,hdf5 -p exec -p pio -p iogauge)
cargo test --release --locked "${mpi_pkgs[@]}" --lib --bins --test interrupt 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
# Of the binary's tests, those whose code differs in the MPI build (tests/mpi, the MPI
# interrupt, the S3 shared object under mpirun, the launcher checks in ior's bad input) and the
# golden outputs as a whole-program check; the rest run the same code as pass 2's.
cargo test --release --locked "${mpi_pkgs[@]}" --test tests -- \
  mpi:: safety::mpi_interrupt s3:: ior::bad_input golden:: 2>&1 | tee -a "$log"
status2=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$status2
# The MPI binary the pass above built, under Slurm: sbatch/salloc + mpirun and srun --mpi=pmix.
scripts/slurm-test.sh target/release/iogauge 2>&1 | tee -a "$log"
status2=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$status2
cargo test --release --locked --no-fail-fast --workspace --lib --bins --tests 2>&1 | tee -a "$log"
status2=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || status=$status2
# Pass 3, fuzzing (docs/testing.md): each cargo fuzz target for a few seconds. cargo-fuzz
# needs nightly features; RUSTC_BOOTSTRAP=1 lets the stable compiler provide them.
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked 2>&1 | tail -n 1
# The fuzz targets link the parsers (crates/cmdline), never the store's SQLite or an HTTP stack.
linked=$(cd fuzz && cargo tree --prefix none 2>/dev/null | grep -E '^(rusqlite|libsqlite3-sys|ureq|tiny_http) ' | sort -u || true)
if [ -n "$linked" ]; then
  echo "fuzz: the targets link $linked; 1 failed" | tee -a "$log"
  status2=1
else
  echo "test result: ok. 1 passed; 0 failed (fuzz links no SQLite or HTTP stack)" | tee -a "$log"
fi
fuzz_start=$(date +%s)
(cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz build -O 2>&1 | tail -n 1)
echo "fuzz targets built in $(( $(date +%s) - fuzz_start )) s"
for target in size ini import_json import_txt ior_args mdtest_args mdworkbench_args; do
  # Real command lines to start from (fuzz/seeds/), where a target has them.
  seeds=()
  [ -d "fuzz/seeds/$target" ] && seeds=("corpus/$target" "seeds/$target") && mkdir -p "fuzz/corpus/$target"
  if (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run -O "$target" "${seeds[@]}" -- -max_total_time=5 2>&1 \
      | grep -E '^Done|SUMMARY|panicked' | sed "s/^/fuzz $target: /"; exit "${PIPESTATUS[0]}"); then
    echo "test result: ok. 1 passed; 0 failed (fuzz $target)" | tee -a "$log"
  else
    echo "fuzz $target: crashed (fuzz/artifacts/$target holds the input); 1 failed" | tee -a "$log"
    status2=1
  fi
done
[ "$status" -ne 0 ] || status=$status2
# Leave the default (non-MPI) binary in target/release, as the README's first command expects.
cargo build --release --locked 2>&1 | tail -n 1
set -e
passed=$(grep -Eo 'test result: [A-Za-z]+\. [0-9]+ passed' "$log" | awk '{s += $4} END {print s + 0}')
failed=$(grep -Eo '[0-9]+ failed' "$log" | awk '{s += $1} END {print s + 0}')
echo
echo "tests: $passed passed, $failed failed"
exit "$status"
