#!/usr/bin/env bash
# The web player in a real browser: starts `rephyre serve` on a free port, and `rephyre --tasks
# SET serve` on another with a level set imported from two committed templates (`rephyre tasks
# import-levels`), and runs web/tests/player.test.mjs (node:test) with Debian's Chromium driven by
# playwright-core from the npm registry (web/tests/package-lock.json; no browser download).
# Installs Chromium with apt-get when it is missing and this runs as root; fails (never skips)
# when it cannot.
#
#   scripts/player-test.sh                    the tests (.ci/run runs this)
#   scripts/player-test.sh --speed OUT.json   also measure simulations per second in the page,
#                                             time to first frame, and write them to OUT.json
#
# REPHYRE: the binary (default target/release/rephyre, built with the player: the harness's
# default feature); CHROMIUM: the browser (default /usr/bin/chromium).
# Exit: 0 all passed, 1 a test failed, 3 something needed could not be had.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
REPHYRE=${REPHYRE:-target/release/rephyre}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
SPEED_OUT=""
if [ "${1:-}" = --speed ]; then
  SPEED_OUT=$(realpath -m "${2:?--speed takes a file}")
fi
die() { echo "player-test: $*" >&2; exit 3; }

[ -x "$REPHYRE" ] || die "no rephyre binary at $REPHYRE (cargo build --release -p harness)"
REPHYRE=$(realpath "$REPHYRE")
if [ ! -x "$CHROMIUM" ]; then
  [ "$(id -u)" -eq 0 ] || die "Chromium not found at $CHROMIUM (apt-get install chromium, as root)"
  echo "player-test: installing Debian's chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q chromium >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q chromium >/dev/null; } ||
    die "cannot install chromium with apt-get"
  [ -x "$CHROMIUM" ] || die "chromium installed, but not at $CHROMIUM"
fi
command -v node >/dev/null || die "node not found (Node.js 18 or later runs the tests)"
command -v npm >/dev/null || die "npm not found"
(cd web/tests && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
  die "npm ci in web/tests failed (playwright-core and pngjs come from the npm registry)"
"$CHROMIUM" --version 2>/dev/null | head -1 || true

WORK=$(mktemp -d)
SERVERS=()
cleanup() {
  for pid in "${SERVERS[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
# `serve ARGS…` started in the background; URL: the address it printed.
serve() {
  local log=$WORK/serve-${#SERVERS[@]}.log
  "$REPHYRE" "$@" serve --port 0 >"$log" 2>&1 &
  SERVERS+=($!)
  URL=""
  for _ in $(seq 1 100); do
    URL=$(grep -o 'http://[0-9.:]*/' "$log" | head -1 || true)
    [ -n "$URL" ] && break
    kill -0 "${SERVERS[-1]}" 2>/dev/null || die "rephyre $* serve stopped: $(cat "$log")"
    sleep 0.1
  done
  [ -n "$URL" ] || die "rephyre $* serve printed no address: $(cat "$log")"
  echo "player-test: $(head -1 "$log")"
}
serve
PLAYER_URL=$URL
# The level set: two templates as written (their ids are built-in ids too: the page must play
# the set's levels, not the built-in tasks).
PLAYER_SET=$WORK/set.json
"$REPHYRE" tasks import-levels phyq/data/templates/1_1_4_1.xml phyq/data/templates/2_1_3_1.xml \
  --out "$PLAYER_SET" >/dev/null || die "rephyre tasks import-levels failed"
serve --tasks "$PLAYER_SET"
PLAYER_SET_URL=$URL

export PLAYER_URL PLAYER_SET_URL PLAYER_SET REPHYRE CHROMIUM
[ -n "$SPEED_OUT" ] && export PLAYER_SPEED_OUT=$SPEED_OUT
rc=0
node --test --test-reporter=spec --test-concurrency=1 "$ROOT/web/tests/player.test.mjs" || rc=1
if [ -n "$SPEED_OUT" ] && [ $rc -eq 0 ]; then
  # The same pairs natively, through the same functions (web/examples/speed.rs), on one thread.
  pairs=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).pairs)' "$SPEED_OUT")
  native=$(cargo run -q --release -p rephyre-web --example speed -- "$pairs") || die "the native speed run failed"
  # What a browser downloads (gzip-compressed where the server compresses), per file.
  served="{"
  for f in "" player.js style.css pkg/rephyre_web.js pkg/rephyre_web_bg.wasm; do
    n=$(curl -s -H 'Accept-Encoding: gzip' "$PLAYER_URL$f" -o /dev/null -w '%{size_download}') || die "cannot fetch $PLAYER_URL$f"
    served="$served\"${f:-index.html}\":$n,"
  done
  served="${served%,}}"
  node -e '
    const fs = require("fs");
    const [out, native, served] = process.argv.slice(1);
    const r = JSON.parse(fs.readFileSync(out));
    r.native = JSON.parse(native);
    for (const t of ["phyre", "phyq"]) {
      r["wasm_over_native_" + t] = r.wasm_simulations_per_second[t] / r.native.native_simulations_per_second[t];
    }
    r.served_bytes = JSON.parse(served);
    r.served_bytes.total = Object.values(r.served_bytes).reduce((a, b) => a + b, 0);
    fs.writeFileSync(out, JSON.stringify(r, null, 2));
    console.log(JSON.stringify(r, null, 2));
  ' "$SPEED_OUT" "$native" "$served"
fi
exit $rc
