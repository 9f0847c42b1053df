#!/usr/bin/env bash
# Cross-platform determinism audit: builds `rephyre-audit` for several targets and profiles,
# runs each against the committed golden file, and prints one line per platform.
#
#   scripts/cross-audit.sh            # CI subset (tests/golden/audit-ci.txt)
#   scripts/cross-audit.sh --full     # every task (tests/golden/audit-full.txt), takes longer
#   CROSS_TARGETS="aarch64 i686" scripts/cross-audit.sh   # a subset of targets
#
# What it installs when missing (see ../shared/notes/cross-targets.md for the recipe):
#   * std for the targets: `rustup target add` (route 1), falling back to Debian's rustc-web +
#     rust-web-src with -Zbuild-std (route 2);
#   * Debian's cross gcc for linking, qemu-user-static to run aarch64/s390x, libc6-i386 to run
#     i686 natively; Node.js's WASI (scripts/wasi-run.cjs) runs wasm32-wasip1.
# Exit status: 1 when any platform disagrees with the golden (whatever else happened); else 2
# when a platform could not be built or run; else 0 (every platform matched bit for bit).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE=ci
[ "${1:-}" = "--full" ] && MODE=full
GOLDEN=$ROOT/tests/golden/audit-$MODE.txt
TARGET_DIR=${CROSS_TARGET_DIR:-$ROOT/target/cross}
TARGETS=${CROSS_TARGETS:-"aarch64 s390x i686 wasm32"}
export CARGO_TERM_COLOR=never

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

# Linkers and runners for both routes.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64-static -L /usr/aarch64-linux-gnu"
export CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_LINKER=s390x-linux-gnu-gcc
export CARGO_TARGET_S390X_UNKNOWN_LINUX_GNU_RUNNER="qemu-s390x-static -L /usr/s390x-linux-gnu"
export CARGO_TARGET_I686_UNKNOWN_LINUX_GNU_LINKER=i686-linux-gnu-gcc

ROUTE=rustup
setup_std() {
  local triples=()
  for t in $TARGETS; do triples+=("$(triple "$t")"); done
  if command -v rustup >/dev/null && timeout 300 rustup target add "${triples[@]}" >/dev/null 2>&1; then
    ROUTE=rustup
    return 0
  fi
  echo "rustup could not add the targets; falling back to Debian's rustc-web with -Zbuild-std" >&2
  apt_install rustc-web cargo-web rust-web-src lld-22 wasi-libc || return 1
  ROUTE=debian
}

setup_tools() {
  local pkgs=(qemu-user-static)
  for t in $TARGETS; do
    case $t in
      aarch64) pkgs+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross) ;;
      s390x) pkgs+=(gcc-s390x-linux-gnu libc6-dev-s390x-cross) ;;
      i686) pkgs+=(gcc-i686-linux-gnu libc6-dev-i386-cross libc6-i386 lib32gcc-s1) ;;
    esac
  done
  # Never gcc-multilib: apt removes the aarch64/s390x cross compilers to make room for it.
  apt_install "${pkgs[@]}" || echo "warning: could not install ${pkgs[*]}" >&2
  case " $TARGETS " in *" wasm32 "*) command -v node >/dev/null || apt_install nodejs ;; esac
}

build() { # build TRIPLE_OR_HOST [TARGET_DIR]; prints the binary path
  local t=$1 dir=${2:-$TARGET_DIR}
  local args=(build --release -q -p audit --bin rephyre-audit --target-dir "$dir")
  local bin
  if [ "$t" = host ]; then
    cargo "${args[@]}" || return 1
    bin=$dir/release/rephyre-audit
  elif [ "$ROUTE" = rustup ]; then
    cargo "${args[@]}" --target "$t" || return 1
    bin=$dir/$t/release/rephyre-audit
  else
    if [ "$t" = wasm32-wasip1 ]; then
      export CARGO_TARGET_WASM32_WASIP1_LINKER=wasm-ld-22
      export CARGO_TARGET_WASM32_WASIP1_RUSTFLAGS="-L native=/usr/lib/wasm32-wasi -C link-self-contained=no -C link-arg=/usr/lib/wasm32-wasi/crt1-command.o"
    fi
    RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc RUSTC_BOOTSTRAP=1 /usr/bin/cargo "${args[@]}" \
      -Zbuild-std=std,panic_abort --target "$t" || return 1
    bin=$dir/$t/release/rephyre-audit
  fi
  [ "$t" = wasm32-wasip1 ] && bin=$bin.wasm
  echo "$bin"
}

run_audit() { # run_audit LABEL TRIPLE_OR_HOST BIN
  local label=$1 t=$2 bin=$3 runner=() start out rc
  case $t in
    aarch64-unknown-linux-gnu) runner=(qemu-aarch64-static -L /usr/aarch64-linux-gnu) ;;
    s390x-unknown-linux-gnu) runner=(qemu-s390x-static -L /usr/s390x-linux-gnu) ;;
    wasm32-wasip1) runner=(node --no-warnings "$ROOT/scripts/wasi-run.cjs") ;;
  esac
  start=$(date +%s)
  # Relative paths: the WASI module sees the repository root as its current folder.
  out=$(cd "$ROOT" && "${runner[@]}" "$bin" --golden "tests/golden/audit-$MODE.txt" --subset "$MODE" 2>&1)
  rc=$?
  printf '%-34s %s (%ss)\n' "$label" "$(echo "$out" | tail -n 1)" "$(($(date +%s) - start))"
  # rephyre-audit exits 1 on a mismatch; anything else non-zero means it could not run.
  case $rc in
    0) ;;
    1) note 1 ;;
    *) note 2 ;;
  esac
}

[ -f "$GOLDEN" ] || { echo "missing golden file $GOLDEN" >&2; exit 2; }
mismatch=0
broken=0
# note 1: a platform disagrees with the golden; note 2: a platform could not be built or run.
note() { if [ "$1" -eq 1 ]; then mismatch=1; else broken=1; fi; }

# Host variants: release, debug, target-cpu=native, and the nightly toolchain when installed.
if bin=$(build host); then run_audit "x86_64 release" host "$bin"; else echo "x86_64 release: BUILD FAILED"; note 2; fi
if cargo build -q -p audit --bin rephyre-audit --target-dir "$TARGET_DIR"; then
  run_audit "x86_64 debug" host "$TARGET_DIR/debug/rephyre-audit"
else echo "x86_64 debug: BUILD FAILED"; note 2; fi
if bin=$(RUSTFLAGS="-C target-cpu=native" build host "$TARGET_DIR/native"); then
  run_audit "x86_64 release target-cpu=native" host "$bin"
else echo "x86_64 target-cpu=native: BUILD FAILED"; note 2; fi
if rustup toolchain list 2>/dev/null | grep -q nightly; then
  if cargo +nightly build --release -q -p audit --bin rephyre-audit --target-dir "$TARGET_DIR/nightly"; then
    run_audit "x86_64 release nightly" host "$TARGET_DIR/nightly/release/rephyre-audit"
  else echo "x86_64 nightly: BUILD FAILED"; note 2; fi
fi

setup_std || { echo "cannot install std for the cross targets"; exit 2; }
setup_tools
for t in $TARGETS; do
  tr=$(triple "$t")
  if bin=$(build "$tr"); then
    run_audit "$tr release ($ROUTE)" "$tr" "$bin"
  else
    echo "$tr: BUILD FAILED"
    note 2
  fi
done
[ "$mismatch" -eq 1 ] && exit 1
[ "$broken" -eq 1 ] && exit 2
exit 0
