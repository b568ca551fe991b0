#!/bin/sh
# Configures and builds npud in ./build and installs the CANN-style tree in
# ./install. Usage: tools/build.sh [extra cmake args]
set -eu
cd "$(dirname "$0")/.."
./tools/install_deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_INSTALL_PREFIX="$PWD/install" "$@"
cmake --build build
cmake --install build > /dev/null
