#!/bin/sh
# The whole test suite: build, then every test (unit, end-to-end against
# real npud processes over unix sockets and TCP, install-tree checks).
set -eu
cd "$(dirname "$0")/.."
./tools/build.sh -DNPUD_BUILD_TESTS=ON
cd build
ctest --output-on-failure -j "$(nproc)"
