#!/bin/sh
# Builds the libFuzzer targets (clang, ASan+UBSan, NPUD_FUZZ=ON) in
# build-fuzz/ and runs each for SECONDS (default 60) from its seed corpus
# (tests/fuzz/corpus/<target>; new inputs go to a scratch copy). A crash,
# leak, sanitizer report or a 20 s hang fails the run and leaves the input
# in build-fuzz/artifacts/.
#
#   tools/run_fuzzers.sh [SECONDS]     CI runs 60; for a real search: 3600
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
./tools/install_deps.sh clang libclang-rt-14-dev
CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNPUD_SANITIZE=address,undefined -DNPUD_FUZZ=ON -DNPUD_THREAD_SAFETY=OFF
cmake --build build-fuzz --target frame_fuzzer session_fuzzer
mkdir -p build-fuzz/artifacts
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for target in frame session; do
  corpus=$(mktemp -d)
  cp tests/fuzz/corpus/$target/* "$corpus/"
  echo "fuzzing $target for $seconds s"
  build-fuzz/tests/fuzz/${target}_fuzzer -max_total_time="$seconds" -max_len=65536 \
    -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix=build-fuzz/artifacts/${target}- "$corpus"
  rm -rf "$corpus"
done
