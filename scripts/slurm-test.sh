#!/usr/bin/env bash
# Sharded runs on a real Slurm: install Debian's slurm-wlm and munge (22.05 on bookworm), start a
# one-node cluster on this machine (munged, slurmctld and slurmd on localhost, 2 CPUs), submit a
# sharded solvability run and a sharded diversity run with `rephyre slurm`, and check that the
# merged reports equal single-process runs byte for byte. One array task of the solvability run is
# requeued (killed) mid-run once its checkpoint holds some work; its log must show that the
# restarted task resumed from that checkpoint.
#
# Used by .ci/run and by hand; run as root (it installs packages and starts daemons). Safe to run
# twice: it stops the daemons a previous run of this script started (by their pid files) and
# starts afresh. Exit status: 0 when every check passes, 1 otherwise (including when Slurm cannot
# be installed or started: never a silent skip).
#
# Environment: REPHYRE (the binary; default: `cargo build --release -p harness`'s),
# SLURM_TEST_DIR (state and work folder; default /tmp/rephyre-slurm-test), KEEP_CLUSTER=1 (leave
# the cluster running afterwards, e.g. to try `rephyre slurm` by hand with
# SLURM_CONF=$SLURM_TEST_DIR/etc/slurm.conf).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
STATE=${SLURM_TEST_DIR:-/tmp/rephyre-slurm-test}
START=$(date +%s)
elapsed() { echo $(($(date +%s) - START)); }
say() { echo "[slurm-test $(elapsed) s] $*"; }
die() {
  echo "[slurm-test $(elapsed) s] FAILED: $*" >&2
  for f in "$STATE"/log/slurmctld.log "$STATE"/log/slurmd.log; do
    if [ -f "$f" ]; then echo "--- tail of $f" >&2; tail -n 15 "$f" >&2; fi
  done
  exit 1
}

[ "$(id -u)" -eq 0 ] || die "run as root (installs packages, starts slurmctld, slurmd and munged)"

# --- 1. Packages ---------------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q slurm-wlm munge >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q slurm-wlm munge >/dev/null; } ||
    die "cannot install slurm-wlm and munge with apt-get"
fi
command -v slurmctld >/dev/null || die "slurmctld not installed"
say "$(slurmctld -V 2>&1 | head -1), $(munged --version 2>&1 | head -1)"

# --- 2. The binary -------------------------------------------------------------------------------
if [ -z "${REPHYRE:-}" ]; then
  say "building rephyre (release)"
  cargo build --release -q -p harness
  REPHYRE=$REPO/target/release/rephyre
fi
[ -x "$REPHYRE" ] || die "no rephyre binary at $REPHYRE"
REPHYRE=$(readlink -f "$REPHYRE")

# --- 3. Stop what a previous run started, start afresh -------------------------------------------
stop_daemons() {
  for name in slurmd slurmctld munged; do
    local pidfile="$STATE/run/$name.pid"
    if [ -f "$pidfile" ]; then
      local pid
      pid=$(cat "$pidfile")
      if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
      fi
      rm -f "$pidfile"
    fi
  done
}
stop_daemons
rm -rf "$STATE"
mkdir -p "$STATE"/{etc,run,log,ctld,spool,munge,work}
chmod 755 "$STATE"

# munge: its own key, socket and pid file under $STATE, run as the munge user.
MUNGE_SOCKET=$STATE/munge/munge.socket.2
dd if=/dev/urandom of="$STATE/munge/munge.key" bs=1024 count=1 status=none
chown -R munge:munge "$STATE/munge"
chmod 700 "$STATE/munge"
chmod 400 "$STATE/munge/munge.key"
# munged writes its pid file as the munge user; $STATE/run is the script's, so give it one.
touch "$STATE/run/munged.pid" && chown munge:munge "$STATE/run/munged.pid"
runuser -u munge -- munged --key-file="$STATE/munge/munge.key" --socket="$MUNGE_SOCKET" \
  --pid-file="$STATE/run/munged.pid" --log-file="$STATE/munge/munged.log" \
  --seed-file="$STATE/munge/munged.seed" --force ||
  die "munged did not start ($(tail -n 3 "$STATE/munge/munged.log" 2>/dev/null))"
# The Slurm daemons and commands find munge's socket through AuthInfo.

NODE=$(hostname -s)
cat >"$STATE/etc/slurm.conf" <<EOF
# One-node test cluster of scripts/slurm-test.sh.
ClusterName=rephyre-test
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
SlurmctldPort=16817
SlurmdPort=16818
SlurmctldPidFile=$STATE/run/slurmctld.pid
SlurmdPidFile=$STATE/run/slurmd.pid
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SlurmdParameters=config_overrides
MinJobAge=600
MaxArraySize=1001
SchedulerParameters=defer
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$STATE/etc/slurm.conf
slurmctld -f "$SLURM_CONF" || die "slurmctld did not start"
slurmd -f "$SLURM_CONF" || die "slurmd did not start"
if [ "${KEEP_CLUSTER:-0}" != 1 ]; then trap stop_daemons EXIT; fi

say "waiting for the node"
for _ in $(seq 120); do
  st=$(sinfo -h -N -o %T 2>/dev/null | head -1 || true)
  [ "$st" = idle ] && break
  sleep 0.5
done
[ "${st:-}" = idle ] || die "node not idle (state: ${st:-none})"
say "cluster up: $(sinfo -h -N -o '%N %T %c CPUs' | head -1)"

# --- 4. Helpers ----------------------------------------------------------------------------------
job_state() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2; }
# Wait until job $1 (and, for an array, every task) has left the queue; fail after $2 seconds.
wait_gone() {
  local t0
  t0=$(date +%s)
  while [ -n "$(squeue -h -j "$1" 2>/dev/null)" ]; do
    [ $(($(date +%s) - t0)) -lt "$2" ] || { squeue -j "$1" >&2; die "job $1 still queued after $2 s"; }
    sleep 1
  done
}
submitted_ids() { # "submitted job array A (...) and merge job M ..." -> "A M"
  sed -n 's/^submitted job array \([0-9]*\) .* merge job \([0-9]*\) .*/\1 \2/p'
}
W=$STATE/work

# --- 5. Single-process references ----------------------------------------------------------------
SOLV_ARGS=(--tier ball --templates 00000-00005 --tasks-per-template 1 --min-valid 300 --max-valid 900 --batch 150)
DIV_ARGS=(--tier ball --templates 00000,00002 --tasks-per-template 3 --samples 2500)
say "single-process runs"
t0=$(date +%s.%N)
"$REPHYRE" --quiet --threads 2 solvability "${SOLV_ARGS[@]}" --out "$W/solv-single.csv" --summary "$W/solv-single.md" >/dev/null
t1=$(date +%s.%N)
"$REPHYRE" --quiet --threads 2 diversity "${DIV_ARGS[@]}" --out "$W/div-single.csv" --plot "$W/div-single.svg" >/dev/null
t2=$(date +%s.%N)
SOLV_SINGLE=$(awk "BEGIN { printf \"%.1f\", $t1 - $t0 }")
DIV_SINGLE=$(awk "BEGIN { printf \"%.1f\", $t2 - $t1 }")

# --- 6. Sharded runs through Slurm ---------------------------------------------------------------
say "submitting: solvability in 3 shards, diversity in 4 shards"
ts=$(date +%s.%N)
out=$("$REPHYRE" slurm solvability --shards 3 --cpus-per-task 1 --time 10:00 --out "$W/solv" \
  -- "${SOLV_ARGS[@]}" --checkpoint-secs 0.5) || die "rephyre slurm solvability: $out"
echo "$out"
read -r SOLV_ARRAY SOLV_MERGE <<<"$(echo "$out" | submitted_ids)"
[ -n "$SOLV_MERGE" ] || die "no job ids in: $out"
# One array task of the solvability run will be killed mid-run (step 7): its rephyre process is
# stopped (SIGSTOP) as soon as it exists, before anything else is submitted, then run in slices
# of 0.1 s and stopped while its checkpoint is read: however slow or busy the machine, it cannot
# finish between two looks. It needs only a little more than its checkpoint interval (0.5 s) of
# work after it is first seen.
VICTIM=${SOLV_ARRAY}_2
CKPT=$W/solv/checkpoints/part-2.ckpt
say "waiting for array task $VICTIM to start"
t0=$(date +%s)
until pid=$(pgrep -f -- "--checkpoint $CKPT"); do
  [ "$(job_state "$VICTIM")" = COMPLETED ] && die "array task $VICTIM finished before it was seen running"
  [ $(($(date +%s) - t0)) -lt 120 ] || die "$VICTIM not running after 120 s: $(job_state "$VICTIM")"
  sleep 0.02
done
kill -STOP "$pid" || die "array task $VICTIM finished before it could be stopped"
out=$("$REPHYRE" slurm diversity --shards 4 --cpus-per-task 1 --time 10:00 --out "$W/div" \
  -- "${DIV_ARGS[@]}") || die "rephyre slurm diversity: $out"
echo "$out"
read -r DIV_ARRAY DIV_MERGE <<<"$(echo "$out" | submitted_ids)"
[ -n "$DIV_MERGE" ] || die "no job ids in: $out"

# --- 7. Kill one array task mid-run: requeue it once its checkpoint holds work -------------------
say "waiting for a checkpoint of array task $VICTIM (process $pid, run in slices of 0.1 s)"
slices=0
until [ -f "$CKPT" ] && grep -q '"valid":[1-9]' "$CKPT"; do
  slices=$((slices + 1))
  [ "$slices" -le 1200 ] || die "no checkpoint from $VICTIM after 1200 slices of 0.1 s"
  kill -CONT "$pid" || die "array task $VICTIM is gone"
  sleep 0.1
  kill -STOP "$pid" || die "array task $VICTIM finished before its checkpoint held work"
done
say "requeueing (killing) stopped array task $VICTIM; its checkpoint: $(wc -c <"$CKPT") bytes"
out=$(scontrol requeue "$VICTIM" 2>&1) || die "scontrol requeue $VICTIM: $out ($(job_state "$VICTIM"))"
# Slurm's SIGTERM waits while the process is stopped: let it through.
kill -CONT "$pid" 2>/dev/null || true
# Slurm holds a requeued job back for a while (its begin time is set some minutes ahead); let it
# start at once so the test stays short.
t0=$(date +%s)
until [ "$(job_state "$VICTIM")" = PENDING ]; do
  [ $(($(date +%s) - t0)) -lt 30 ] || die "$VICTIM not pending after the requeue: $(job_state "$VICTIM")"
  sleep 0.2
done
scontrol update JobId="$VICTIM" StartTime=now || die "cannot release $VICTIM"

# --- 8. Wait for everything, compare --------------------------------------------------------------
wait_gone "$SOLV_ARRAY" 240
wait_gone "$DIV_ARRAY" 240
wait_gone "$SOLV_MERGE" 60
wait_gone "$DIV_MERGE" 60
te=$(date +%s.%N)
for j in "$SOLV_MERGE" "$DIV_MERGE"; do
  [ "$(job_state "$j")" = COMPLETED ] || die "merge job $j: $(job_state "$j") (see $W/*/logs/merge.log)"
done
fail=0
check() {
  if cmp -s "$1" "$2"; then say "identical: $2"; else echo "DIFFERENT: $1 $2" >&2; fail=1; fi
}
check "$W/solv-single.csv" "$W/solv/solvability.csv"
check "$W/solv-single.md" "$W/solv/solvability.md"
check "$W/div-single.csv" "$W/div/diversity.csv"
check "$W/div-single.svg" "$W/div/diversity.svg"
[ "$fail" -eq 0 ] || die "merged reports differ from the single-process runs"

LOG=$W/solv/logs/shard-2.log
grep -q 'restart 1' "$LOG" || die "array task $VICTIM was not restarted (log: $(cat "$LOG"))"
resumed=$(grep 'resuming from checkpoint' "$LOG" || true)
[ -n "$resumed" ] || die "the restarted task did not resume from its checkpoint (log: $(cat "$LOG"))"
echo "$resumed" | grep -Eq '[1-9][0-9]* work units finished|[1-9][0-9]* in progress' ||
  die "the checkpoint it resumed from held no work: $resumed"
say "requeued task resumed: ${resumed#rephyre: }"

sims=$(cat "$W"/div/parts/part-*.json | grep -o '"sims":[0-9]*' | cut -d: -f2 | awk '{ s += $1 } END { print s }')
say "timings on this one-node cluster (2 CPUs): solvability single $SOLV_SINGLE s; diversity single $DIV_SINGLE s ($sims simulations); both sharded through Slurm, submission to merged reports: $(awk "BEGIN { printf \"%.1f\", $te - $ts }") s"
say "PASS"
