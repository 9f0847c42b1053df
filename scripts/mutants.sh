#!/usr/bin/env bash
# Mutation testing with cargo-mutants (a well-kept tool, installed from crates.io when missing):
# which changes to the rules (the game's, the score's, the Phy-Q agents', the engine's events and
# impulses) the tests do not notice.
#
#   scripts/mutants.sh [SCOPE] [-- CARGO_MUTANTS_ARGS]
#   scripts/mutants.sh --sample SCOPE   # CI's sample: about 6 of the scope's mutants (below)
#
# SCOPE (default rules):
#   rules      phyq/src/game/rules.rs: damage, explosions, the launch, the score's points
#   play       phyq/src/game/play/*.rs: the rules as a step applies them (collisions, damage,
#              the birds' powers, what happens after a step)
#   game       phyq/src/game/ whole: rules, play, shots, aim, soundness
#   soundness  phyq/src/game/soundness.rs: a draw's opening and the search for its witness
#   generator  phyq/src/generator/*.rs
#   score      studies/src/phyq/score.rs: the Phy-Q score (the paper's equations 1-2), pass rates
#   agents     agents/src/phyq/*.rs: the Phy-Q agents (random, pig shooter and its planner, optimal)
#   engine     engine/src/events.rs, impulse.rs: contact begin/end events, impulses, explosions
# Mutants are built and tested in the tests profile against the fast suites: phyq's (the unit
# tests, tests/rules.rs, tests/game.rs and tests/observe.rs, what a picture and the symbolic
# representation see; the 7,500-witness replay is left out: 70 s a mutant); for soundness.rs
# the unit tests and tests/soundness.rs (the opening; the search against the witness file's
# costs); for the
# generator its unit tests and tests/generator.rs (a golden hash of the tier's bytes); for the
# score studies' unit tests and tests/phyq_score.rs; for the agents theirs (unit tests,
# tests/agents.rs, tests/pig_shooter_planner.rs); for the engine its whole suite (a few
# seconds). Only those suites are built (--cargo-arg). The outcome is in mutants.out/
# (outcomes.json, caught.txt, missed.txt, timeout.txt, unviable.txt) and summarised on the last
# lines. Extra arguments go to cargo-mutants, e.g. `--shard 1/4`.
# Mutants shown not to change behaviour (docs/audit.md says why) are excluded.
#
# --sample (CI, after the README's test command built the tests profile): one shard of the
# scope, about SAMPLE_SIZE mutants, chosen by the commit (the same commit, the same sample), in
# place (the tree's own build, no copy; the sources are restored after) and without the baseline
# run the test stage just made. Only scopes run whole (docs/audit.md) are sampled, so a missed
# mutant is new: CI fails.
# A mutant that makes the tests hang until the timeout (300 s; 120 s in a sample, whose suites
# take seconds) changed what they see: it counts as caught.
# Exit status: 0 no mutant missed; 2 some missed (read from missed.txt: cargo-mutants' own 3 for
# timeouts takes precedence over its 2); cargo-mutants' other codes as they are (4 the tree's
# own tests fail); 1 when cargo-mutants cannot be installed.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
SAMPLE=0
if [ "${1:-}" = "--sample" ]; then
  SAMPLE=1
  shift
fi
SAMPLE_SIZE=${SAMPLE_SIZE:-3}
SCOPE=${1:-rules}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
PHYQ_TESTS=(--cargo-arg=--lib --cargo-arg=--test=rules --cargo-arg=--test=game
  --cargo-arg=--test=observe)
# The drag clamp's `len > drag_radius` as `>=`: at exactly the radius both give the offset.
RULES_SAME=(-E 'replace > with >= in launch$')
# A live thing's life is positive (it dies at 0), so its sign bit is clear and the state hash's
# `life ^ alive << 63` is `life | alive << 63`. `deal` is called only on a live thing with a
# life (a collision callback returns first for a dead one, explosions list live things and
# check again; a platform takes no hit), so `!alive || no life || no damage` with either `||`
# as `&&` decides the same.
PLAY_SAME=(-E 'replace \^ with \| in Game::state_hash$' -E 'replace \|\| with && in Game::deal$')
case $SCOPE in
  rules) SCOPE_ARGS=(-p phyq -f phyq/src/game/rules.rs "${PHYQ_TESTS[@]}" "${RULES_SAME[@]}") ;;
  play) SCOPE_ARGS=(-p phyq -f 'phyq/src/game/play/*.rs' "${PHYQ_TESTS[@]}" "${PLAY_SAME[@]}") ;;
  game) SCOPE_ARGS=(-p phyq -f 'phyq/src/game/*.rs' -f 'phyq/src/game/play/*.rs' "${PHYQ_TESTS[@]}"
    "${RULES_SAME[@]}" "${PLAY_SAME[@]}") ;;
  # The generator's own suites: its unit tests and tests/generator.rs, whose golden hash pins
  # every byte of the 7,500 levels (2 s).
  # The opening on small levels, the search against the witness file's shots and costs
  # (tests/soundness.rs, about 30 s), and the unit tests. No two ranks of the wide search are
  # equal (each holds its place in the order played), so `<` and `<=` agree; a wide search with
  # no bird left tries nothing (tested), so `search_from` without its no-bird arm sums the
  # greedy search and nothing; the wide search's last bird always breaks out of its loop, so
  # the loop's `birds_left() > 0` as `>= 0` only lets a birdless search run a round that finds
  # no candidate.
  soundness) SCOPE_ARGS=(-p phyq -f phyq/src/game/soundness.rs --cargo-arg=--lib
    --cargo-arg=--test=soundness -E 'replace < with <= in ranks_before$'
    -E 'delete match arm 0 in search_from$' -E 'replace > with >= in wide_search$') ;;
  # The generator's own suites: its unit tests and tests/generator.rs, whose golden hash pins
  # every byte of the 7,500 levels (2 s). No object a level holds has an enabled solid circle
  # collider (the catalogue's are the birds' and the slingshot's trigger): `circle_corners` is
  # never called.
  generator) SCOPE_ARGS=(-p phyq -f 'phyq/src/generator/*.rs' --cargo-arg=--lib
    --cargo-arg=--test=generator -E 'circle_corners') ;;
  score) SCOPE_ARGS=(-p studies -f studies/src/phyq/score.rs
    --cargo-arg=--lib --cargo-arg=--test=phyq_score) ;;
  # launch_points: a target out of reach has a negative room, whose root is NaN, so the
  # arcs' finiteness check returns None whether the guard is `<` or `==`; `<=` differs only at
  # a room of exactly 0.0, which no pixel target gives (every one of 3,000 × 3,000 around the
  # screen checked); the two arcs' cosines are finite together (one root, one denominator, each
  # at most 1), so `&&` as `||` there is the same. The optimal agent's shot with no bird left
  # is never asked for by `play` (nor shot: no bird to launch). `ShotAgent::record`'s default
  # as `vec![]` is what it is.
  agents) SCOPE_ARGS=(-p agents -f 'agents/src/phyq/*.rs' --cargo-arg=--lib
    --cargo-arg=--test=agents --cargo-arg=--test=pig_shooter_planner
    -E 'ShotAgent::record -> Vec<\(String, String\)> with vec!\[\]$'
    -E 'replace < with (==|<=) in launch_points$' -E 'replace && with \|\| in launch_points$'
    -E 'delete - in <impl ShotAgent for Optimal>::shot$') ;;
  # has_narrow_begins and after_islands' guard only spare the solver a search of an empty list
  # (true, or >= 0, gives the same events); a body never meets itself, so `x < y` as `<=` in
  # continuous_begin is the same.
  engine) SCOPE_ARGS=(-p engine -f engine/src/events.rs -f engine/src/impulse.rs
    -E 'has_narrow_begins -> bool with true$' -E 'replace > with >= in ContactEvents::has_narrow_begins$'
    -E 'replace > with >= in ContactEvents::after_islands$'
    -E 'replace < with <= in ContactEvents::continuous_begin$') ;;
  *) echo "unknown scope $SCOPE (rules, play, game, soundness, generator, score, agents, engine)" >&2; exit 2 ;;
esac
# Installed as a debug build: 96 s to build where the release build takes 184 (2026-12-08, this
# 2-core machine), and the time of a run is the builds and tests it starts (listing a scope's
# mutants takes 2 s instead of 0.3).
if ! command -v cargo-mutants >/dev/null; then
  cargo install cargo-mutants --locked --debug >/dev/null 2>&1 || { echo "cargo-mutants could not be installed" >&2; exit 1; }
fi
if [ "$SAMPLE" = 1 ]; then
  total=$(cargo mutants --list "${SCOPE_ARGS[@]}" | wc -l)
  shards=$(((total + SAMPLE_SIZE - 1) / SAMPLE_SIZE))
  shard=$((0x$(git rev-parse --short=7 HEAD) % shards))
  echo "mutants: $SCOPE, shard $shard of $shards ($total mutants), chosen by the commit"
  set -- --shard "$shard/$shards" --in-place --baseline skip --timeout 120 "$@"
else
  # A mutant changes one expression, so an incremental build recompiles little: a generator
  # mutant's build took 22-26 s without, 1-9 s with (2026-12-07). Not for the sample, whose
  # in-place tree the test stage built without (turning it on would rebuild the workspace).
  export CARGO_PROFILE_TESTS_INCREMENTAL=true
fi
case " $* " in *" --timeout "* | *" --timeout="*) ;; *) set -- --timeout 300 "$@" ;; esac
cargo mutants "${SCOPE_ARGS[@]}" --profile tests "$@"
rc=$?
# The outcome files are in mutants.out/, or under the folder given with -o/--output.
out=mutants.out prev=""
for a in "$@"; do
  case $prev in -o | --output) out=$a/mutants.out ;; esac
  case $a in --output=*) out=${a#--output=}/mutants.out ;; esac
  prev=$a
done
for f in caught missed timeout unviable; do
  printf '%-9s %s\n' "$f" "$(wc -l 2>/dev/null <"$out/$f.txt" || echo 0)"
done
case $rc in
  0 | 2 | 3) if [ -s "$out/missed.txt" ]; then exit 2; else exit 0; fi ;;
  *) exit $rc ;;
esac
