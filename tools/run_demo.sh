#!/bin/bash
# The main job: build and install npud, start a daemon, build CANN-style
# samples against the install tree only — a program using include/ and
# lib64/libacl_rt.so (g++ -Wall -Werror), and a project whose AscendC
# kernels build with the tree's ascendc.cmake — and run them against it.
#
# Builds only what the demo needs (daemon, client library, toolchain,
# tools: no tests, no benchmarks); tools/run_tests.sh adds the tests to the
# same tree later without rebuilding any of it.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/build.sh -DNPUD_BUILD_TESTS=OFF
source install/set_env.sh

work="$(mktemp -d)"
trap 'kill "${npud_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
npud --listen="unix://$work/npud.sock" --ready_file="$work/ready" 2> "$work/npud.log" &
npud_pid=$!
for _ in $(seq 200); do [ -e "$work/ready" ] && break; sleep 0.05; done

g++ -std=c++17 -O2 -Wall -Werror examples/memory_copies/memory_copies.cpp \
  -I"$ASCEND_HOME_PATH/include" -L"$ASCEND_HOME_PATH/lib64" -lacl_rt -o "$work/memory_copies"
NPUD_ADDRESS="unix://$work/npud.sock" "$work/memory_copies"

cp -r examples/mixed_mode_printf "$work/"
cmake -S "$work/mixed_mode_printf" -B "$work/mixed_mode_printf/build" -G Ninja > /dev/null
cmake --build "$work/mixed_mode_printf/build" > /dev/null
NPUD_ADDRESS="unix://$work/npud.sock" "$work/mixed_mode_printf/build/mixed_mode_printf"
echo "--- npud log ---"
cat "$work/npud.log"
