#!/bin/sh
# The checked build: clang with AddressSanitizer, UndefinedBehaviorSanitizer
# and the thread-safety analysis of the Abseil annotations (-Wthread-safety
# -Werror) in build-checked/, then its tests. The same tree carries
# libFuzzer's coverage instrumentation and builds the fuzz targets
# (tools/run_fuzzers.sh runs them): one clang build serves both.
#
# Which tests: every unit test, and of the end-to-end suites one variant per
# transport family — the local protocol (unix), gRPC (tls: TCP with TLS),
# framed sessions (framed_tls) and in process (inproc). The other variants
# (unix_grpc, tcp, framed) reach the same session code through the same
# servers and run in tools/run_tests.sh. Left out here as well: tests
# labelled install_tree (they build programs with g++ against the install
# tree, and an uninstrumented program cannot load an instrumented
# libacl_rt.so) and container (its images are built with g++ from the
# checkout; run_tests.sh runs it where podman is installed).
#
#   tools/run_checked_tests.sh [ctest args]
set -eu
cd "$(dirname "$0")/.."
./tools/install_deps.sh clang libclang-rt-14-dev clang-format clang-tidy
CC=clang CXX=clang++ cmake -S . -B build-checked -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNPUD_SANITIZE=address,undefined -DNPUD_THREAD_SAFETY=ON -DNPUD_FUZZ=ON -DNPUD_BUILD_BENCH=OFF \
  -DCMAKE_INSTALL_PREFIX="$PWD/build-checked/install"
cmake --build build-checked
# Leaks, use-after-free and undefined behaviour fail the test that hit them.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# use_tls=0: clang 14's leak checker on glibc 2.36 crashes at exit ("Tracer
# caught signal 11") walking the dynamic TLS of kernel objects that were
# loaded and closed in the process (the in-process tests; kernel objects
# carry thread-local core buffers). Heap reachable only from thread-local
# storage is then not a root: tools/lsan.supp lists glibc's own such block.
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0:use_tls=0"
cd build-checked
ctest --output-on-failure -j "$(nproc)" -LE "install_tree|container" \
  -E "_(unix_grpc|tcp|framed)$" "$@"
