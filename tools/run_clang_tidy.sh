#!/bin/sh
# Runs clang-tidy (.clang-tidy at the top) over the project's own sources,
# using build/compile_commands.json (tools/build.sh writes it).
set -eu
cd "$(dirname "$0")/.."
[ -f build/compile_commands.json ] || ./tools/build.sh
run-clang-tidy -quiet -p build -j "$(nproc)" \
  "$PWD/(bench|client|common|daemon|simdevice|tools|tests)/.*\.cc$"
