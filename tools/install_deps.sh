#!/bin/sh
# Installs the Debian 12 packages npud builds and tests with, plus any
# packages named as arguments (e.g. the checked build's clang).
set -eu
packages="build-essential cmake ninja-build ccache pkg-config python3 git openssl
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev libabsl-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev libssl-dev prometheus-cpp-dev $*"
missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
