#!/usr/bin/env bash
# Mutation testing with cargo-mutants (a well-kept tool, installed from crates.io when missing):
# which changes to the game's rules the tests do not notice.
#
#   scripts/mutants.sh [SCOPE] [-- CARGO_MUTANTS_ARGS]
#
# SCOPE (default rules):
#   rules      phyq/src/game/rules.rs: damage, explosions, the launch, the score's points
#   game       phyq/src/game/*.rs: the rules as the game applies them, shots, aim, soundness
#   generator  phyq/src/generator/*.rs
# Mutants are built and tested in the tests profile against phyq's fast suites (the unit tests,
# tests/rules.rs and tests/game.rs; the 7,500-witness replay is left out: 70 s a mutant). The
# outcome is in mutants.out/ (outcomes.json, caught.txt, missed.txt, timeout.txt, unviable.txt)
# and summarised on the last lines. Extra arguments go to cargo-mutants, e.g. `--shard 1/4`.
# Exit status: cargo-mutants' (0 all caught, 2 some missed, 3 timeouts, 4 the tree's own tests
# fail); 1 when cargo-mutants cannot be installed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
SCOPE=${1:-rules}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
case $SCOPE in
  rules) FILES=(-f phyq/src/game/rules.rs) ;;
  game) FILES=(-f 'phyq/src/game/*.rs') ;;
  generator) FILES=(-f 'phyq/src/generator/*.rs') ;;
  *) echo "unknown scope $SCOPE (rules, game, generator)" >&2; exit 2 ;;
esac
if ! command -v cargo-mutants >/dev/null; then
  cargo install cargo-mutants --locked >/dev/null 2>&1 || { echo "cargo-mutants could not be installed" >&2; exit 1; }
fi
cargo mutants -p phyq "${FILES[@]}" --profile tests --timeout 300 \
  --cargo-test-arg=--lib --cargo-test-arg=--test=rules --cargo-test-arg=--test=game "$@"
rc=$?
for f in caught missed timeout unviable; do
  printf '%-9s %s\n' "$f" "$(wc -l <mutants.out/$f.txt 2>/dev/null || echo 0)"
done
exit $rc
