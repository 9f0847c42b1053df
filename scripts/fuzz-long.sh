#!/usr/bin/env bash
# Fuzzes one cargo-fuzz target for a number of executions (or seconds) on a scratch copy of its
# committed corpus, and prints executions, crashes, corpus size before/after, wall time and
# exec/s. The committed corpus (fuzz/corpus/TARGET) is never written.
#
#   scripts/fuzz-long.sh TARGET EXECS                 # at least EXECS runs (libFuzzer -runs)
#   scripts/fuzz-long.sh --seconds N TARGET           # N seconds (-max_total_time); .ci/run uses this
#   scripts/fuzz-long.sh [...] TARGET EXECS -- ARGS   # extra libFuzzer flags, e.g. -malloc_limit_mb=64
#   scripts/fuzz-long.sh --no-sanitizer TARGET EXECS  # cargo fuzz -s none: faster, see below
#
# TARGET is one of fuzz/fuzz_targets/*.rs (scene_step, task_files, actions, phyq_level_xml,
# phyq_shots, phyq_level_sets, phyq_server_wire). Needs the nightly toolchain and cargo-fuzz
# (`cargo install cargo-fuzz --locked`).
#
# The default build is cargo-fuzz's: AddressSanitizer, optimized, debug assertions and overflow
# checks on. --no-sanitizer drops ASan only: a panic, an overflow, a hang (-timeout) or an
# allocation over libFuzzer's limits still fails, but a memory error in unsafe code would go
# unseen. On the fuzzed paths the project's own unsafe code is the fixed-point multiply's inline
# `imul` (no memory access); the dependencies' (lzma-rust2, miniz_oxide) is what ASan guards.
# Use it for throughput, not for the record of a clean run.
#
# Environment: FUZZ_TARGET_DIR (build folder, default target/fuzz; one sub-folder per sanitizer),
# FUZZ_INPUT_TIMEOUT (seconds one input may take before it counts as a hang, default 120),
# FUZZ_KEEP_SCRATCH=1 (keep the scratch corpus, e.g. to `cargo fuzz cmin` it into the committed
# one by hand, or to go on from it), FUZZ_FROM=DIR (start from the corpus in DIR, a kept scratch
# corpus, instead of the committed one: one run of 10^7 executions split over sessions).
#
# Exit status: 0 a clean run; 1 a crash, panic, hang, leak or out-of-memory (the input is copied
# to fuzz/artifacts/TARGET/); 2 a usage error; 3 the target could not run (no nightly, no
# cargo-fuzz, the build failed, or libFuzzer ended without its "Done" line).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
export CARGO_TERM_COLOR=never

usage() { echo "usage: scripts/fuzz-long.sh [--seconds N] [--no-sanitizer] TARGET [EXECS] [-- LIBFUZZER_ARGS]" >&2; exit 2; }
SECONDS_BUDGET="" SAN=address POS=() EXTRA=()
while [ $# -gt 0 ]; do
  case $1 in
    --seconds) [ $# -ge 2 ] || usage; SECONDS_BUDGET=$2; shift 2 ;;
    --no-sanitizer) SAN=none; shift ;;
    --) shift; EXTRA=("$@"); break ;;
    -*) echo "fuzz-long: unknown option $1" >&2; usage ;;
    *) POS+=("$1"); shift ;;
  esac
done
T=${POS[0]:-}
EXECS=${POS[1]:-}
[ -n "$T" ] || usage
[ -f "fuzz/fuzz_targets/$T.rs" ] || {
  known=$(find fuzz/fuzz_targets -name '*.rs' -printf '%f\n' | sed 's/\.rs$//' | sort | tr '\n' ' ')
  echo "fuzz-long: unknown target '$T' (known: ${known% })" >&2
  exit 2
}
if [ -n "$SECONDS_BUDGET" ]; then
  if [ ${#POS[@]} -ne 1 ]; then echo "fuzz-long: give EXECS or --seconds, not both" >&2; exit 2; fi
  [[ $SECONDS_BUDGET =~ ^[1-9][0-9]*$ ]] || { echo "fuzz-long: --seconds takes a positive integer" >&2; exit 2; }
  LIMIT=(-max_total_time="$SECONDS_BUDGET")
  ASKED="for $SECONDS_BUDGET s"
else
  [ ${#POS[@]} -eq 2 ] || usage
  [[ $EXECS =~ ^[1-9][0-9]*$ ]] || { echo "fuzz-long: EXECS must be a positive integer" >&2; exit 2; }
  LIMIT=(-runs="$EXECS")
  ASKED="for $EXECS executions"
fi
FROM=${FUZZ_FROM:-fuzz/corpus/$T}
[ -d "$FROM" ] || { echo "fuzz-long: FUZZ_FROM: no folder $FROM" >&2; exit 2; }
INPUT_TIMEOUT=${FUZZ_INPUT_TIMEOUT:-120}
TARGET_DIR=${FUZZ_TARGET_DIR:-$ROOT/target/fuzz}/$SAN

if ! rustup toolchain list 2>/dev/null | grep '^nightly' >/dev/null; then
  echo "fuzz-long: no nightly toolchain (rustup toolchain install nightly --profile minimal)" >&2
  exit 3
fi
if ! command -v cargo-fuzz >/dev/null; then
  echo "fuzz-long: cargo-fuzz is not installed (cargo install cargo-fuzz --locked)" >&2
  exit 3
fi

# Fat LTO (the release profile's) leaves the sanitizer-coverage symbols undefined at link time,
# so the fuzz build turns it off; the fuzz targets' code is otherwise the same.
FUZZ=(cargo +nightly fuzz)
BUILD_ARGS=(-s "$SAN" --target-dir "$TARGET_DIR" --features libfuzzer)
export CARGO_PROFILE_RELEASE_LTO=false

SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/rephyre-fuzz-$T.XXXXXX")
cleanup() { if [ "${FUZZ_KEEP_SCRATCH:-0}" = 1 ]; then echo "scratch kept: $SCRATCH"; else rm -rf "$SCRATCH"; fi; }
trap cleanup EXIT
mkdir -p "$SCRATCH/corpus" "$SCRATCH/artifacts"

echo "fuzz-long: $T, sanitizer $SAN, $ASKED, from the corpus in $FROM"
start=$(date +%s)
if ! "${FUZZ[@]}" build "${BUILD_ARGS[@]}" "$T" >"$SCRATCH/build.log" 2>&1; then
  echo "fuzz-long: building fuzz target $T failed:" >&2
  # cargo-fuzz's own backtrace lines ("  3: cargo_fuzz::...") say nothing about the cause.
  grep -E "error|undefined (symbol|reference)" "$SCRATCH/build.log" | grep -vE '^ +[0-9]+: ' |
    head -n 12 >&2
  exit 3
fi
build_s=$(($(date +%s) - start))

cp -r "$FROM/." "$SCRATCH/corpus/"
before=$(find "$SCRATCH/corpus" -type f | wc -l)
start=$(date +%s)
# New inputs go to the scratch corpus; artifacts to the scratch folder (later flags win in
# libFuzzer, so this -artifact_prefix replaces cargo-fuzz's). -timeout: an input running longer
# counts as a hang (a timeout- artifact, a failure).
"${FUZZ[@]}" run "${BUILD_ARGS[@]}" "$T" "$SCRATCH/corpus" -- \
  "${LIMIT[@]}" -timeout="$INPUT_TIMEOUT" -print_final_stats=1 \
  -artifact_prefix="$SCRATCH/artifacts/" "${EXTRA[@]}" >"$SCRATCH/run.log" 2>&1
rc=$?
wall=$(($(date +%s) - start))
after=$(find "$SCRATCH/corpus" -type f | wc -l)

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$SCRATCH/run.log" | tail -n 1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$SCRATCH/run.log" | tail -n 1)
done_line=$(grep -E '^Done [0-9]+ runs' "$SCRATCH/run.log" | tail -n 1)

# libFuzzer also saves inputs slower than 10 s (slow-unit-*): reported, not failures. crash-,
# leak-, oom- and timeout- artifacts fail.
crashes=0
for f in "$SCRATCH/artifacts"/*; do
  [ -e "$f" ] || continue
  mkdir -p "fuzz/artifacts/$T"
  cp "$f" "fuzz/artifacts/$T/"
  case $(basename "$f") in
    slow-unit-*) echo "slow input (reported, not a failure): fuzz/artifacts/$T/$(basename "$f")" ;;
    *) crashes=$((crashes + 1)); echo "CRASH INPUT: fuzz/artifacts/$T/$(basename "$f")" ;;
  esac
done
if [ "$crashes" -eq 0 ] && [ "$rc" -ne 0 ] &&
  grep -qE 'panicked at|deadly signal|==ERROR|SUMMARY: (libFuzzer|AddressSanitizer)' "$SCRATCH/run.log"; then
  crashes=1 # a crash that left no artifact
fi

printf '  executions:   %s\n' "${runs:-?}"
printf '  crashes:      %s\n' "$crashes"
printf '  corpus files: %s -> %s (scratch copy; fuzz/corpus/%s unchanged)\n' "$before" "$after" "$T"
printf '  wall time:    %s s fuzzing (+ %s s build)\n' "$wall" "$build_s"
# libFuzzer's average is over whole seconds: 0 for a run shorter than one.
if [ "${rate:-0}" = 0 ]; then rate="n/a (under a second)"; fi
printf '  exec/s:       %s\n' "$rate"
if [ "$crashes" -gt 0 ]; then
  echo "fuzz-long: $T FOUND A CRASH (libFuzzer exit $rc):" >&2
  grep -vE '^(#[0-9]+|INFO:|MS:|stat::)' "$SCRATCH/run.log" | tail -n 40 >&2
  exit 1
fi
if [ -z "$done_line" ] || [ "$rc" -ne 0 ]; then
  echo "fuzz-long: $T did not run to its end (libFuzzer exit $rc, no Done line):" >&2
  tail -n 20 "$SCRATCH/run.log" >&2
  exit 3
fi
if [ -n "$EXECS" ] && [ "${runs:-0}" -lt "$EXECS" ]; then
  echo "fuzz-long: $T ran $runs executions, fewer than the $EXECS asked for" >&2
  exit 3
fi
echo "fuzz-long: $T clean ($done_line)"
