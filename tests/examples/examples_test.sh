#!/bin/bash
# Builds every example of examples/ as its own project against a freshly
# installed tree (the way a user would, with the tree's ascendc.cmake) and
# runs it against a real npud, checking its output.
# Usage: examples_test.sh <build dir> <source dir>
set -euo pipefail
build="$1"
source_dir="$2"
work="$(mktemp -d /tmp/npud-examples-XXXXXX)"
cleanup() {
  [ -n "${npud_pid:-}" ] && kill "$npud_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

cmake --install "$build" --prefix "$work/cann" > /dev/null
source "$work/cann/set_env.sh"
npud --listen="unix://$work/npud.sock" --ready_file="$work/ready" --memory_gib=4 \
  2> "$work/npud.log" &
npud_pid=$!
for _ in $(seq 400); do [ -e "$work/ready" ] && break; sleep 0.05; done
export NPUD_ADDRESS="unix://$work/npud.sock"

run_example() {
  local name="$1"
  cp -r "$source_dir/examples/$name" "$work/$name"
  (cd "$work/$name" && cmake -S . -B build -G Ninja > build.log 2>&1 && \
     cmake --build build >> build.log 2>&1) || { cat "$work/$name/build.log"; return 1; }
  (cd "$work/$name" && "./build/$name") > "$work/$name.out" 2>&1 || {
    echo "== $name failed:"; cat "$work/$name.out"; return 1; }
  echo "== $name"
  cat "$work/$name.out"
}

run_example half_fatbin
grep -q '^\[SUCCESS\]' "$work/half_fatbin.out"
grep -q '^\[PASS\] sub_half(1, 2) = -1$' "$work/half_fatbin.out"

run_example kernel_args_tiling
grep -q '^\[SUCCESS\]' "$work/kernel_args_tiling.out"

run_example mixed_mode_printf
expected="$(printf 'block %d wrote %d\n' 0 100 1 101 2 102 3 103; printf 'block %d read %d\n' 0 100 1 101 2 102 3 103; echo '[SUCCESS] every block wrote and read its slot')"
[ "$(cat "$work/mixed_mode_printf.out")" = "$expected" ] || { echo "unexpected mixed_mode_printf output"; exit 1; }
run_example runtime_compile
grep -q '^\[SUCCESS\]' "$work/runtime_compile.out"
echo "examples OK"
