#!/usr/bin/env bash
# The original Phy-Q agent framework (../shared/reference/phy-q/agents: its code is not ours to
# commit, so it is read from there) against `rephyre phyq-server`, as CI's stage `phyq-agents`:
#   1. the original AgentClient through every request code (scripts/phyq_agents_check.py client);
#   2. the original SymbolicStateReader with Utils/model classifying every object of the first task
#      of each of the 75 templates as its true kind, and the SymbolicStateDevReader (labels);
#   3. the original PigShooter through SBEnvironmentWrapper on a few levels, every one played to its
#      end and in the server's record (pigshooter; on port 2004, where the framework connects),
#      and that record reported by phyq-eval --from-record;
#   4. the shot the original PigShooter sends through the wrapper on the first task of each template,
#      for every pig, arc and end of its tap interval (planner): equal, line for line, to the fixture
#      rephyre's pig shooter is tested against (agents/tests/data/pig_shooter_planner.csv).
# Fails, never skips, when it cannot run: no framework folder, no Python 3, no packages, a port taken.
#
#   scripts/phyq-agents-test.sh                # REPHYRE=path/to/rephyre (default target/tests/rephyre)
#   PHYQ_AGENTS=DIR scripts/phyq-agents-test.sh
#   scripts/phyq-agents-test.sh --write-planner-fixture   # only step 4, writing the fixture
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
AGENTS=${PHYQ_AGENTS:-$ROOT/../shared/reference/phy-q/agents}
REPHYRE=${REPHYRE:-$ROOT/target/tests/rephyre}
VENV=$ROOT/target/phyq-agents-venv
[ -f "$AGENTS/Client/agent_client.py" ] || { echo "the original agent framework is not at $AGENTS" >&2; exit 1; }
[ -x "$REPHYRE" ] || { echo "no rephyre binary at $REPHYRE (cargo build --profile tests -p harness)" >&2; exit 1; }
PY=$(command -v python3) || { echo "python3 not found" >&2; exit 1; }
if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  # The framework's imports (Client, StateReader, SBEnvironment): numpy, Pillow, OpenCV.
  "$VENV/bin/python" -m pip install -q numpy pillow opencv-python-headless
fi
WORK=$(mktemp -d)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

# serve NAME PORT ARGS...: starts a server, waits for its address line, sets PORT to its port.
serve() {
  local name=$1 port=$2
  shift 2
  "$REPHYRE" phyq-server --port "$port" "$@" >"$WORK/$name.out" 2>"$WORK/$name.log" &
  PIDS+=($!)
  for _ in $(seq 100); do
    if grep -q "agent protocol on" "$WORK/$name.out"; then
      PORT=$(sed -n 's/.* on 127\.0\.0\.1:\([0-9]*\),.*/\1/p' "$WORK/$name.out")
      return 0
    fi
    if ! kill -0 "${PIDS[-1]}" 2>/dev/null; then
      echo "phyq-server ($name) did not start:" >&2
      cat "$WORK/$name.log" >&2
      return 1
    fi
    sleep 0.1
  done
  echo "phyq-server ($name) did not start in 10 s" >&2
  return 1
}

check() { "$VENV/bin/python" "$ROOT/scripts/phyq_agents_check.py" "$AGENTS" "$@"; }

# planner_shots OUT: step 4's shots, written to OUT (the levels' task ids from the same selection).
FIXTURE=$ROOT/agents/tests/data/pig_shooter_planner.csv
planner_shots() {
  serve planner 0 --per-template 1
  "$REPHYRE" tasks list --tier phyq | awk '/^phyq:/ { split($1, p, ":"); if (!seen[p[2]]++) print $1 }' >"$WORK/ids"
  [ "$(wc -l <"$WORK/ids")" -eq 75 ] || { echo "expected the first task of 75 templates" >&2; exit 1; }
  check "$PORT" planner --levels 75 --ids "$WORK/ids" --out "$1"
}
if [ "${1:-}" = --write-planner-fixture ]; then
  planner_shots "$FIXTURE"
  echo "wrote $FIXTURE"
  exit 0
fi

echo "-- the original client through every request code; the original readers on the 75 templates"
serve first 0 --per-template 1
check "$PORT" client --levels 75
check "$PORT" labels --levels 75

echo "-- the original PigShooter through SBEnvironmentWrapper on 6 levels (port 2004)"
serve pigshooter 2004 --templates 1_1_1,1_1_4,2_1_2 --per-template 2 --record "$WORK/record.csv"
check 2004 pigshooter --levels 6 --agents 2
rows=$(($(wc -l <"$WORK/record.csv") - 1))
[ "$rows" -ge 6 ] || { echo "the record has $rows rows, expected a row per level (6)" >&2; exit 1; }
echo "record: $rows finished attempts"
# The record as phyq-eval's report: the six levels, each with its attempt.
json=$("$REPHYRE" phyq-eval --from-record "$WORK/record.csv" --agent pig-shooter --setting all \
  --out "$WORK/eval.csv" --json | tail -n 1)
case $json in
  *'"tasks":6'*) echo "phyq-eval --from-record: $json" ;;
  *) echo "phyq-eval --from-record did not report the 6 levels: $json" >&2; exit 1 ;;
esac
echo "-- the original PigShooter's shots through its wrapper, every pig, arc and tap end (planner)"
planner_shots "$WORK/planner.csv"
diff -u "$FIXTURE" "$WORK/planner.csv" || {
  echo "the original planner's shots differ from $FIXTURE (the test of rephyre's pig shooter)" >&2
  exit 1
}
echo "phyq-agents: all checks passed"
