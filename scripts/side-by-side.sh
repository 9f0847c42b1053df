#!/usr/bin/env bash
# Speed side by side with the original PHYRE, in one sitting on one machine: for each tier and
# pair seed, the original times its own rows (thread CPU around each simulate_action call,
# need_images=False) and writes them; then each rephyre binary given runs exactly those rows on
# one thread, full and status-only. Rounds alternate the programs so that a drift of the
# machine's speed touches all of them alike.
#
# Usage: scripts/side-by-side.sh ORIGINAL_PYTHON PHYRE_SPEED_PY OUT_DIR REPHYRE [REPHYRE ...]
#   ORIGINAL_PYTHON  a Python with phyre==0.2.2 installed (see docs/performance.md)
#   PHYRE_SPEED_PY   the timing script (the project's shared/tools/phyre_speed.py)
#   REPHYRE          one or more rephyre binaries (e.g. an older build and the current one)
# Environment: TIERS (default "ball two_balls"), SEEDS (default "12345 777"), ROUNDS (default 2),
#   PAIRS (default 3000).
# Output: OUT_DIR/results.tsv, one line per run: round, tier, seed, program, mode, cpu_s,
#   status_agreement, steps_computed_per_valid, hash_xor.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,16p' "$0" >&2
  exit 2
fi
py=$1 speed=$2 out=$3
shift 3
mkdir -p "$out"
tiers=${TIERS:-ball two_balls}
seeds=${SEEDS:-12345 777}
rounds=${ROUNDS:-2}
pairs=${PAIRS:-3000}
results="$out/results.tsv"
printf 'round\ttier\tseed\tprogram\tmode\tcpu_s\tstatus_agreement\tsteps_computed_per_valid\thash_xor\n' >"$results"
for round in $(seq 1 "$rounds"); do
  for tier in $tiers; do
    for seed in $seeds; do
      rows="$out/pairs-$tier-$seed.csv"
      line=$("$py" "$speed" "$tier" "$pairs" "$rows" "$seed")
      cpu=$(echo "$line" | sed -n 's/.* valid, \([0-9.]*\) s thread CPU.*/\1/p')
      printf '%s\t%s\t%s\toriginal\tfull\t%s\t\t\t\n' "$round" "$tier" "$seed" "$cpu" >>"$results"
      for bin in "$@"; do
        for mode in full status-only; do
          flag=""
          if [ "$mode" = status-only ]; then flag=--status-only; fi
          "$bin" --threads 1 bench --reference "$rows" $flag --json | python3 -c '
import json, sys
d = json.load(sys.stdin)
r, tier, seed, prog, mode = sys.argv[1:6]
print("\t".join([r, tier, seed, prog, mode, "%.3f" % d["cpu_s"], "%.5f" % d["status_agreement"],
                 "%.1f" % d["steps_computed_per_valid"], str(d["hash_xor"])]))' \
            "$round" "$tier" "$seed" "$bin" "$mode" >>"$results"
        done
      done
    done
  done
done
column -t -s $'\t' "$results"
