#!/usr/bin/env bash
# A one-node Slurm cluster on localhost for test/slurm.test.ts, everything in a scratch folder:
#   localCluster.sh start DIR   munge, slurmctld and slurmd, with DIR/slurm.conf; waits until the node is idle
#   localCluster.sh stop DIR    kills each daemon by its pid file (also after a failed start)
# Clients find the cluster with SLURM_CONF=DIR/slurm.conf. Ports are picked from the pid of the
# script so that two runs on one machine do not collide.
set -euo pipefail
cmd="${1:?start or stop}"
dir="${2:?scratch folder}"
stop() {
  for name in slurmd slurmctld munged; do
    if [ -f "$dir/$name.pid" ]; then kill "$(cat "$dir/$name.pid")" 2>/dev/null || true; fi
  done
  sleep 1
  for name in slurmd slurmctld munged; do
    if [ -f "$dir/$name.pid" ]; then kill -9 "$(cat "$dir/$name.pid")" 2>/dev/null || true; rm -f "$dir/$name.pid"; fi
  done
}
if [ "$cmd" = stop ]; then stop; exit 0; fi
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 700 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" --pid-file="$dir/munged.pid" \
  --log-file="$dir/munged.log" --seed-file="$dir/munge/munged.seed"
host=$(hostname -s)
# Eight CPUs whatever the machine has (config_overrides lets slurmd believe it), so that the four
# tasks of each array, which ask for two CPUs each, all run at once.
cpus=8
base=$(( 20000 + ($$ % 2000) * 2 ))
cat > "$dir/slurm.conf" <<CONF
ClusterName=loopsimtest
SlurmctldHost=$host
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
SlurmdParameters=config_overrides
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=30
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld -f "$dir/slurm.conf" -i
slurmd -f "$dir/slurm.conf"
for _ in $(seq 1 60); do
  if sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix)'; then exit 0; fi
  sleep 0.5
done
echo "the node did not become idle within 30 s; sinfo says: $(sinfo -h 2>&1 | head -3)" >&2
exit 1
