#!/bin/bash
# The main job: build and install npud, start a daemon, build a CANN-style
# sample against the install tree only (g++ -Wall -Werror, include/ and
# lib64/libacl_rt.so) and run it against the daemon.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/build.sh
source install/set_env.sh

work="$(mktemp -d)"
trap 'kill "${npud_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
npud --listen="unix://$work/npud.sock" --ready_file="$work/ready" 2> "$work/npud.log" &
npud_pid=$!
for _ in $(seq 200); do [ -e "$work/ready" ] && break; sleep 0.05; done

g++ -std=c++17 -O2 -Wall -Werror examples/memory_copies/memory_copies.cpp \
  -I"$ASCEND_HOME_PATH/include" -L"$ASCEND_HOME_PATH/lib64" -lacl_rt -o "$work/memory_copies"
NPUD_ADDRESS="unix://$work/npud.sock" "$work/memory_copies"
echo "--- npud log ---"
cat "$work/npud.log"
