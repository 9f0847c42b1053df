#!/usr/bin/env bash
# Cross-platform determinism audit: builds `rephyre-audit` for several targets and profiles,
# runs each against the committed golden file (its PHYRE runs and its Phy-Q levels, played with
# drawn shots), prints one line per platform and a closing summary table (platform, result,
# build and run seconds). A mismatch, PHYRE or Phy-Q, prints the first differing run and step
# window (for Phy-Q: the level, the shot and the steps).
#
#   scripts/cross-audit.sh            # CI subset (tests/golden/audit-ci.txt)
#   scripts/cross-audit.sh --full     # every task (tests/golden/audit-full.txt), takes longer
#   REQUIRED_PLATFORMS="aarch64 i686" scripts/cross-audit.sh   # only these platforms
#   CROSS_AUDIT_JOBS=1 scripts/cross-audit.sh   # one platform at a time (default: one per core)
#
# Platforms (REQUIRED_PLATFORMS, default: all of them, in this order):
#   x86_64-release  x86_64-debug  x86_64-native (-C target-cpu=native)  x86_64-nightly
#   aarch64 (qemu)  s390x (qemu, big-endian)  i686 (native, 32-bit)  wasm32 (wasm32-wasip1, Node)
# Every platform named is required: one that cannot be built or run fails the script just like
# one that disagrees with the golden. An unknown name fails at once.
#
# What it installs when missing (see ../shared/notes/cross-targets.md for the recipe):
#   * the nightly toolchain for x86_64-nightly (`rustup toolchain install nightly`; .ci/run
#     installs it before the audit);
#   * std for the targets: `rustup target add` (route 1), falling back to Debian's rustc-web +
#     rust-web-src with -Zbuild-std (route 2);
#   * Debian's cross gcc for linking, qemu-user-static to run aarch64/s390x, libc6-i386 to run
#     i686 natively; Node.js's WASI (scripts/wasi-run.cjs) runs wasm32-wasip1.
# The linker and runner variables below (CARGO_TARGET_<TRIPLE>_LINKER, ..._RUNNER) keep a value
# already set in the environment.
#
# Exit status: 0 when every platform matched bit for bit; 1 when any platform disagrees with the
# golden (whatever else happened); 3 when a platform could not be built or run (BUILD FAILED,
# RUN FAILED: a crash, a panic, a timeout, no MATCH line); 2 on a usage error (an unknown
# platform name, a missing golden file).
# The build functions are called through build_and_run, which shellcheck cannot follow.
# shellcheck disable=SC2317
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
MODE=ci
case "${1:-}" in
  "") ;;
  --full) MODE=full ;;
  *) echo "cross-audit: unknown argument '$1' (only --full)" >&2; exit 2 ;;
esac
GOLDEN=$ROOT/tests/golden/audit-$MODE.txt
TARGET_DIR=${CROSS_TARGET_DIR:-$ROOT/target/cross}
ALL_PLATFORMS="x86_64-release x86_64-debug x86_64-native x86_64-nightly aarch64 s390x i686 wasm32"
REQUIRED_PLATFORMS=${REQUIRED_PLATFORMS:-$ALL_PLATFORMS}
# A run that hangs (under qemu, say) fails instead of stalling CI.
RUN_TIMEOUT=${CROSS_RUN_TIMEOUT:-$([ "$MODE" = full ] && echo 7200 || echo 900)}
export CARGO_TERM_COLOR=never

if [ -n "${CROSS_TARGETS:-}" ]; then
  echo "cross-audit: CROSS_TARGETS is gone; use REQUIRED_PLATFORMS (known: $ALL_PLATFORMS)" >&2
  exit 2
fi
for p in $REQUIRED_PLATFORMS; do
  case " $ALL_PLATFORMS " in
    *" $p "*) ;;
    *) echo "cross-audit: unknown platform '$p' (known: $ALL_PLATFORMS)" >&2; exit 2 ;;
  esac
done
[ -n "${REQUIRED_PLATFORMS// /}" ] || { echo "cross-audit: REQUIRED_PLATFORMS names no platform" >&2; exit 2; }
[ -f "$GOLDEN" ] || { echo "cross-audit: missing golden file $GOLDEN" >&2; exit 2; }

SCRIPT_START=$(date +%s)
wanted() { case " $REQUIRED_PLATFORMS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
CROSS=""
for p in aarch64 s390x i686 wasm32; do wanted "$p" && CROSS="$CROSS $p"; done

triple() {
  case $1 in
    aarch64) echo aarch64-unknown-linux-gnu ;;
    s390x) echo s390x-unknown-linux-gnu ;;
    i686) echo i686-unknown-linux-gnu ;;
    wasm32) echo wasm32-wasip1 ;;
  esac
}

apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  command -v apt-get >/dev/null || return 1
  echo "installing: ${missing[*]}" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >/dev/null 2>&1
}

# Linkers and runners for both routes (an existing value wins).
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER:-aarch64-linux-gnu-gcc}
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER=${CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER:-"qemu-aarch64-static -L /usr/aarch64-linux-gnu"}
export CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER:-s390x-linux-gnu-gcc}
export CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER=${CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER:-"qemu-s390x-static -L /usr/s390x-linux-gnu"}
export CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER=${CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER:-i686-linux-gnu-gcc}

ROUTE=rustup
setup_std() {
  local triples=() t
  for t in $CROSS; do triples+=("$(triple "$t")"); done
  if command -v rustup >/dev/null && timeout 300 rustup target add "${triples[@]}" >/dev/null 2>&1; then
    ROUTE=rustup
    return 0
  fi
  echo "rustup could not add the targets; falling back to Debian's rustc-web with -Zbuild-std" >&2
  apt_install rustc-web cargo-web rust-web-src lld-22 wasi-libc || return 1
  ROUTE=debian
}

setup_tools() {
  local pkgs=() t
  if wanted aarch64 || wanted s390x; then pkgs+=(qemu-user-static); fi
  for t in $CROSS; do
    case $t in
      aarch64) pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross) ;;
      s390x) pkgs+=(gcc-s390x-linux-gnu libc6-dev-s390x-cross) ;;
      i686) pkgs+=(gcc-i686-linux-gnu libc6-dev-i386-cross libc6-i386 lib32gcc-s1) ;;
    esac
  done
  # Never gcc-multilib: apt removes the aarch64/s390x cross compilers to make room for it.
  if [ ${#pkgs[@]} -gt 0 ]; then
    apt_install "${pkgs[@]}" || echo "warning: could not install ${pkgs[*]}" >&2
  fi
  if wanted wasm32 && ! command -v node >/dev/null; then
    apt_install nodejs || echo "warning: could not install nodejs" >&2
  fi
}

build() { # build TRIPLE_OR_HOST TARGET_DIR; prints the binary path
  local t=$1 dir=$2
  local args=(build --release -q -p audit --bin rephyre-audit --target-dir "$dir")
  local bin
  if [ "$t" = host ]; then
    cargo "${args[@]}" >&2 || return 1
    bin=$dir/release/rephyre-audit
  elif [ "$ROUTE" = rustup ]; then
    cargo "${args[@]}" --target "$t" >&2 || return 1
    bin=$dir/$t/release/rephyre-audit
  else
    if [ "$t" = wasm32-wasip1 ]; then
      export CARGO_TARGET_WASM32_WASIP1_LINKER=wasm-ld-22
      export CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-L native=/usr/lib/wasm32-wasi -C link-self-contained=no -C link-arg=/usr/lib/wasm32-wasi/crt1-command.o"
    fi
    RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 /usr/bin/cargo "${args[@]}" \
      -Zbuild-std=std,panic_abort --target "$t" >&2 || return 1
    bin=$dir/$t/release/rephyre-audit
  fi
  [ "$t" = wasm32-wasip1 ] && bin=$bin.wasm
  [ -f "$bin" ] || { echo "built, but $bin is missing" >&2; return 1; }
  echo "$bin"
}

# Each platform's build and run go to files under $JOBS_DIR (a platform's line in NAME.out, its
# record in NAME.rec: result, build seconds, run seconds, label; the build's messages in
# NAME.log), since they run in the background; the summary reads them back in platform order.
JOBS_DIR=$TARGET_DIR/jobs
rm -rf "$JOBS_DIR"
mkdir -p "$JOBS_DIR"
record() { # record NAME LABEL RESULT BUILD_SECONDS RUN_SECONDS
  printf '%s\t%s\t%s\t%s\n' "$3" "$4" "$5" "$2" >"$JOBS_DIR/$1.rec"
}

run_audit() { # run_audit NAME LABEL TRIPLE_OR_HOST BIN BUILD_SECONDS
  local name=$1 label=$2 t=$3 bin=$4 bs=$5 runner=() start out rc last result
  case $t in
    aarch64-unknown-linux-gnu) read -r -a runner <<<"$CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER" ;;
    s390x-unknown-linux-gnu) read -r -a runner <<<"$CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER" ;;
    wasm32-wasip1) runner=(node --no-warnings "$ROOT/scripts/wasi-run.cjs") ;;
  esac
  start=$(date +%s)
  # Relative paths: the WASI module sees the repository root as its current folder.
  out=$(cd "$ROOT" && timeout "$RUN_TIMEOUT" "${runner[@]}" "$bin" \
    --golden "tests/golden/audit-$MODE.txt" --subset "$MODE" 2>&1)
  rc=$?
  last=$(printf '%s\n' "$out" | tail -n 1)
  # MATCH needs exit 0 and the MATCH line; MISMATCH exit 1 and the MISMATCH line. Anything
  # else (a panic's 101, a trap, a signal, a timeout's 124, an error exit 2) could not run.
  if [ "$rc" -eq 0 ] && [[ $last == MATCH* ]]; then
    result=MATCH
  elif [ "$rc" -eq 1 ] && [[ $last == MISMATCH* ]]; then
    result=MISMATCH
  else
    result="RUN FAILED"
  fi
  printf '%-34s %s (exit %s, %ss)\n' "$label" "$last" "$rc" "$(($(date +%s) - start))"
  if [ "$result" = "RUN FAILED" ]; then
    if [ "$rc" -eq 124 ]; then echo "  timed out after $RUN_TIMEOUT s"
    elif [ "$rc" -gt 128 ]; then echo "  killed by signal $((rc - 128))"; fi
    if [ -n "$out" ]; then printf '%s\n' "$out" | tail -n 8 | sed 's/^/  | /'; else echo "  (no output)"; fi
  fi
  record "$name" "$label" "$result" "$bs" "$(($(date +%s) - start))"
}

# build_and_run NAME LABEL TRIPLE_OR_HOST BUILD_COMMAND...: the command prints the binary path
# (its messages go to NAME.log, shown when the build fails).
build_and_run() {
  local name=$1 label=$2 t=$3 start bin bs
  shift 3
  start=$(date +%s)
  if bin=$("$@" 2>"$JOBS_DIR/$name.log"); then
    bs=$(($(date +%s) - start))
    run_audit "$name" "$label" "$t" "$bin" "$bs"
  else
    bs=$(($(date +%s) - start))
    echo "$label: BUILD FAILED"
    grep -v '^ *Compiling ' "$JOBS_DIR/$name.log" | tail -n 12 | sed 's/^/  | /'
    record "$name" "$label" "BUILD FAILED" "$bs" -
  fi
}

# Platforms build and run side by side, JOBS at a time (CROSS_AUDIT_JOBS, default the number of
# cores): a release build spends most of its time in one-core steps (the engine's one codegen
# unit, the whole-program LTO), so two at a time on 2 cores took the CI plan from 553 s to 462 s
# (2026-12-07). Each platform has its own target folder (cargo locks a folder while it builds).
JOBS=${CROSS_AUDIT_JOBS:-$(nproc 2>/dev/null || echo 1)}
ORDER=()
# platform NAME LABEL TRIPLE_OR_HOST BUILD_COMMAND...: starts one in the background.
platform() {
  ORDER+=("$1")
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
  build_and_run "$@" >"$JOBS_DIR/$1.out" 2>&1 &
}

build_debug() {
  cargo build -q -p audit --bin rephyre-audit --target-dir "$TARGET_DIR/debug" >&2 || return 1
  echo "$TARGET_DIR/debug/debug/rephyre-audit"
}
build_native() { RUSTFLAGS="-C target-cpu=native" build host "$TARGET_DIR/native"; }
build_nightly() {
  if ! rustup toolchain list 2>/dev/null | grep '^nightly' >/dev/null; then
    echo "installing the nightly toolchain" >&2
    timeout 300 rustup toolchain install nightly --profile minimal >/dev/null 2>&1 ||
      { echo "the nightly toolchain is not installed and could not be installed" >&2; return 1; }
  fi
  cargo +nightly build --release -q -p audit --bin rephyre-audit \
    --target-dir "$TARGET_DIR/nightly" >&2 || return 1
  echo "$TARGET_DIR/nightly/release/rephyre-audit"
}
STD_OK=1
build_cross() { # build_cross NAME
  [ "$STD_OK" -eq 1 ] || { echo "no std for $(triple "$1") (see above)" >&2; return 1; }
  build "$(triple "$1")" "$TARGET_DIR/$1"
}

# std and the cross tools first: the cross builds need them.
setup_start=$(date +%s)
if [ -n "$CROSS" ]; then
  setup_std || { echo "cannot install std for the cross targets" >&2; STD_OK=0; }
  setup_tools
fi
setup_s=$(($(date +%s) - setup_start))
wanted x86_64-release && platform x86_64-release "x86_64 release" host build host "$TARGET_DIR/release"
wanted x86_64-debug && platform x86_64-debug "x86_64 debug" host build_debug
wanted x86_64-native && platform x86_64-native "x86_64 release target-cpu=native" host build_native
wanted x86_64-nightly && platform x86_64-nightly "x86_64 release nightly" host build_nightly
for p in $CROSS; do
  tr=$(triple "$p")
  platform "$p" "$tr release ($ROUTE)" "$tr" build_cross "$p"
done
wait
NAMES=() RESULTS=() BUILD_S=() RUN_S=() LABELS=()
for p in "${ORDER[@]}"; do
  cat "$JOBS_DIR/$p.out"
  if [ -f "$JOBS_DIR/$p.rec" ]; then
    IFS=$'\t' read -r result bs rs label <"$JOBS_DIR/$p.rec"
  else
    result="RUN FAILED" bs=- rs=- label=$p
  fi
  NAMES+=("$p") RESULTS+=("$result") BUILD_S+=("$bs") RUN_S+=("$rs") LABELS+=("$label")
done

echo
echo "cross-platform audit summary ($MODE plan, $(date -u +%Y-%m-%d)):"
printf '  %-16s %-13s %8s %6s  %s\n' platform result "build s" "run s" details
failed=() mismatch=0
for i in "${!NAMES[@]}"; do
  printf '  %-16s %-13s %8s %6s  %s\n' "${NAMES[$i]}" "${RESULTS[$i]}" "${BUILD_S[$i]}" \
    "${RUN_S[$i]}" "${LABELS[$i]}"
  case ${RESULTS[$i]} in
    MATCH) ;;
    MISMATCH) mismatch=1; failed+=("${NAMES[$i]} (MISMATCH)") ;;
    *) failed+=("${NAMES[$i]} (${RESULTS[$i]})") ;;
  esac
done
echo "  (installing std and the cross tools: $setup_s s; $JOBS at a time; whole script: $(($(date +%s) - SCRIPT_START)) s)"
# Every required platform must have a row (a guard against a platform silently left out).
for p in $REQUIRED_PLATFORMS; do
  case " ${NAMES[*]} " in
    *" $p "*) ;;
    *) failed+=("$p (NOT RUN)"); printf '  %-16s %-13s\n' "$p" "NOT RUN" ;;
  esac
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "cross-audit: FAILED: ${failed[*]}" >&2
  [ "$mismatch" -eq 1 ] && exit 1
  exit 3
fi
echo "cross-audit: all ${#NAMES[@]} required platforms MATCH"
exit 0
