#!/bin/sh
# Runs each libFuzzer target for SECONDS (default 60) from its seed corpus
# (tests/fuzz/corpus/<target>; new inputs go to a scratch copy). The targets
# come from the checked build (build-checked/: clang, ASan+UBSan, coverage
# instrumentation on all project code), which tools/run_checked_tests.sh
# makes; this builds them there if needed. A crash, leak, sanitizer report
# or a 20 s hang fails the run and leaves the input in
# build-checked/fuzz-artifacts/.
#
#   tools/run_fuzzers.sh [SECONDS]     CI runs 60; for a real search: 3600
set -eu
cd "$(dirname "$0")/.."
seconds=${1:-60}
if [ ! -f build-checked/CMakeCache.txt ]; then
  ./tools/install_deps.sh clang libclang-rt-14-dev
  CC=clang CXX=clang++ cmake -S . -B build-checked -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DNPUD_SANITIZE=address,undefined -DNPUD_THREAD_SAFETY=ON -DNPUD_FUZZ=ON \
    -DNPUD_BUILD_BENCH=OFF -DCMAKE_INSTALL_PREFIX="$PWD/build-checked/install"
fi
cmake --build build-checked --target frame_fuzzer session_fuzzer
artifacts=build-checked/fuzz-artifacts
mkdir -p "$artifacts"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
for target in frame session; do
  corpus=$(mktemp -d)
  cp tests/fuzz/corpus/$target/* "$corpus/"
  echo "fuzzing $target for $seconds s"
  build-checked/tests/fuzz/${target}_fuzzer -max_total_time="$seconds" -max_len=65536 \
    -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$artifacts/${target}-" "$corpus"
  rm -rf "$corpus"
done
