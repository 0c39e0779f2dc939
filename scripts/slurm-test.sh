#!/usr/bin/env bash
# A single-node Slurm of its own (docs/mpi.md, "Slurm"): munge and slurmctld/slurmd on private
# directories and ports, then iogauge (an MPI build) under `sbatch` + mpirun, `salloc` + mpirun
# and `srun --mpi=pmix`, and the refusal of `srun --mpi=none`; stops the daemons after.
# Usage: scripts/slurm-test.sh IOGAUGE_MPI_BINARY   (needs root, slurm-wlm and munge)
set -euo pipefail
bin=$(realpath "$1")
for c in slurmctld slurmd srun sbatch salloc munged mungekey mpirun; do
  command -v "$c" >/dev/null || { echo "slurm test skipped: $c not installed"; exit 0; }
done
[ "$(id -u)" -eq 0 ] || { echo "slurm test skipped: needs root (slurmd)"; exit 0; }

S=$(mktemp -d /tmp/iogauge-slurm.XXXXXX)
chmod 755 "$S"
mkdir -p "$S"/{state,spool,munge,data}
host=$(hostname -s)
export SLURM_CONF=$S/slurm.conf
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
stop() {
  [ -f "$S/slurmd.pid" ] && kill "$(cat "$S/slurmd.pid")" 2>/dev/null || true
  [ -f "$S/slurmctld.pid" ] && kill "$(cat "$S/slurmctld.pid")" 2>/dev/null || true
  [ -f "$S/munge/munged.pid" ] && kill "$(cat "$S/munge/munged.pid")" 2>/dev/null || true
  sleep 1
  rm -rf "$S"
}
trap stop EXIT

mungekey --create --keyfile="$S/munge/munge.key" >/dev/null 2>&1
chmod 700 "$S/munge"; chmod 600 "$S/munge/munge.key"
munged --force --key-file="$S/munge/munge.key" --socket="$S/munge/munge.sock" \
  --pid-file="$S/munge/munged.pid" --log-file="$S/munge/munged.log" \
  --seed-file="$S/munge/munged.seed"

cat > "$SLURM_CONF" <<CONF
ClusterName=iogauge-test
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$S/munge/munge.sock
CredType=cred/munge
SlurmctldPort=16917
SlurmdPort=16918
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
NodeName=$host CPUs=4 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=10 State=UP OverSubscribe=YES
CONF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 30); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o "%P %t %D" || true

fail=0
check() { # name, expected status, command...
  local name=$1 want=$2; shift 2
  set +e; out=$("$@" 2>&1); got=$?; set -e
  if [ "$got" -eq "$want" ]; then echo "slurm $name: ok (exit $got)"
  else echo "slurm $name: FAILED (exit $got, wanted $want)"; echo "$out" | tail -n 15; fail=1; fi
  last=$out
}
d=$S/data
ior="ior -t 64k -b 1m -w -r -o $d/f --no-store"
# The node map IOR prints: 4 ranks on one node, as under plain mpirun.
check "mpirun (plain)" 0 timeout 120 mpirun --oversubscribe -np 4 "$bin" $ior
plain=$(echo "$last" | grep -E '^(tasks|nodes|clients per node)' || true)
cat > "$S/job.sh" <<JOB
#!/bin/sh
exec timeout 120 mpirun --oversubscribe -np 4 $bin $ior
JOB
chmod +x "$S/job.sh"
check "sbatch + mpirun" 0 timeout 150 sbatch -W -n 4 -o "$S/job.out" "$S/job.sh"
[ "$(grep -E '^(tasks|nodes|clients per node)' "$S/job.out")" = "$plain" ] \
  || { echo "slurm sbatch: node map differs from plain mpirun"; cat "$S/job.out"; fail=1; }
check "salloc + mpirun" 0 timeout 150 salloc -n 4 timeout 120 mpirun --oversubscribe -np 4 "$bin" $ior
[ "$(echo "$last" | grep -E '^(tasks|nodes|clients per node)')" = "$plain" ] \
  || { echo "slurm salloc: node map differs from plain mpirun"; fail=1; }
check "srun --mpi=pmix" 0 timeout 150 srun -n 4 --mpi=pmix "$bin" $ior
[ "$(echo "$last" | grep -E '^(tasks|nodes|clients per node)')" = "$plain" ] \
  || { echo "slurm srun pmix: node map differs from plain mpirun"; fail=1; }
# Without a PMI the MPI library can use, each task would be a world of one: refused.
check "srun --mpi=none refused" 2 timeout 150 srun -n 4 --mpi=none "$bin" $ior
echo "$last" | grep -q "without a process-management interface" \
  || { echo "slurm srun none: no refusal message"; fail=1; }
# Debian's Open MPI has no PMI-2 client: its MPI_Init refuses the tasks itself (status 1,
# Open MPI's own message), before any I/O (docs/mpi.md).
check "srun --mpi=pmi2 refused by Open MPI" 1 timeout 150 srun -n 4 --mpi=pmi2 "$bin" $ior
echo "$last" | grep -q "PMI" && ! echo "$last" | grep -q "^Results" \
  || { echo "slurm srun pmi2: ran, or no message about PMI"; fail=1; }
# A small IO500 (as tests/io500's small_ini): under plain mpirun, srun, sbatch + mpirun and
# salloc + mpirun, the same ranks block.
printf '[global]\ndatadir = %s/io500\nresultdir = %s/res\n[debug]\nstonewall-time = 1\n[ior-easy]\ntransferSize = 256k\nblockSize = 8m\n[ior-hard]\nsegmentCount = 200\n[mdtest-easy]\nn = 500\n[mdtest-hard]\nn = 300\n' "$d" "$d" > "$S/small.ini"
# The result document's ranks block: count, nodes, tasks per node, placement, launcher.
ranks() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ranks"])' "$1" 2>&1; }
check "mpirun io500" 0 timeout 300 mpirun --oversubscribe -np 4 "$bin" io500 "$S/small.ini" --no-store --json "$S/io500-mpirun.json"
check "srun --mpi=pmix io500" 0 timeout 300 srun -n 4 --mpi=pmix "$bin" io500 "$S/small.ini" --no-store --json "$S/io500-srun.json"
cat > "$S/io500-job.sh" <<JOB
#!/bin/sh
exec timeout 300 mpirun --oversubscribe -np 4 $bin io500 $S/small.ini --no-store --json $S/io500-sbatch.json
JOB
chmod +x "$S/io500-job.sh"
check "sbatch + mpirun io500" 0 timeout 330 sbatch -W -n 4 -o "$S/io500-job.out" "$S/io500-job.sh"
check "salloc + mpirun io500" 0 timeout 330 salloc -n 4 timeout 300 mpirun --oversubscribe -np 4 "$bin" io500 "$S/small.ini" --no-store --json "$S/io500-salloc.json"
echo "slurm io500 ranks: mpirun $(ranks "$S/io500-mpirun.json"); srun $(ranks "$S/io500-srun.json")"
for how in srun sbatch salloc; do
  [ "$(ranks "$S/io500-$how.json")" = "$(ranks "$S/io500-mpirun.json")" ] \
    || { echo "slurm $how io500: node map differs from plain mpirun: $(ranks "$S/io500-$how.json")"; fail=1; }
done
[ "$fail" -eq 0 ] && echo "test result: ok. 1 passed; 0 failed (slurm)" || echo "slurm: 1 failed"
exit "$fail"
