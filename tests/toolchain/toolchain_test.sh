#!/bin/bash
# toolchain_test: npud's AscendC build toolchain as a CANN user meets it.
#
#   toolchain_test.sh <npud build dir> <npud source dir>
#
# 1. Installs the build into a fresh prefix (cmake --install).
# 2. Configures and builds, against that prefix only, the projects under
#    tests/toolchain/project (copied to a scratch dir): a program linking only an
#    ascendc_library(kernels STATIC ...), one linking three kernel libraries (STATIC, SHARED,
#    OBJECT), and an ascendc_fatbin_library. Checks what the build produced: the fatbin
#    object at CMAKE_INSTALL_PREFIX/fatbin/<name>/<name>.o at build time, every kernel
#    object's npud_kernel_table (names, packed argument sizes), their exported and needed
#    symbols, the no-op rebuild, the rebuild after a kernel source changes, install, and
#    the error for an unknown SOC_VERSION.
# 3. Runs the programs against an npud started from the prefix and checks their output.
#    If the runtime answers the first kernel load/launch of a program with
#    ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000; the program exits 77), that program is
#    reported as skipped; any other failure fails the test.
# 4. Runs kernel_isolation_test (over the local protocol and TCP) against the hostile
#    kernels built by the installed ascendc.cmake, as a user would build them.
set -euo pipefail

build="$1"
source_dir="$2"
# shellcheck disable=SC1091
source "$source_dir/tests/support/install_prefix.sh" toolchain-test

# --- 1. The install tree.
install_build "$build"
kdir="$prefix/tikcpp/ascendc_kernel_cmake"
for f in "$kdir/ascendc.cmake" "$kdir/npud_ascendc_embed.cmake" \
         "$kdir/npud_ascendc_options.cmake" "$kdir/include/kernel_operator.h" \
         "$kdir/include/npud_ascendc/host_launch.h" "$kdir/include/npud_ascendc/device_launch.h" \
         "$prefix/include/acl/acl.h" "$prefix/lib64/libacl_rt.so" "$prefix/bin/npud"; do
  [ -e "$f" ] || fail "missing $f in the install tree"
done
# The kernel scanner that ascendc.cmake runs (and npud, for run-time compilation).
[ -x "$prefix/bin/npud-ascendc-scan" ] || fail "missing $prefix/bin/npud-ascendc-scan in the install tree"
[ ! -e "$kdir/npud_ascendc_rewrite.cmake" ] || fail "the old cmake -P source pass is still installed"

# --- 2. Build the sample-style projects with nothing but the install tree, found the way
# the runtime samples find it: ASCENDC_CMAKE_DIR and SOC_VERSION from the environment.
src="$work/src"
cp -r "$source_dir/tests/toolchain/project" "$src"
mkdir -p "$src/samples/hostile/kernels"
cp "$source_dir/tests/e2e/kernels/hostile_kernels.cc" "$src/samples/hostile/kernels/"
unset ASCEND_CANN_PACKAGE_PATH ASCEND_HOME_PATH ASCEND_INSTALL_PATH
export ASCENDC_CMAKE_DIR="$kdir"
export SOC_VERSION=Ascend910B1
generator="Unix Makefiles"
if command -v ninja > /dev/null; then generator=Ninja; fi
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

step "configure ($generator)"
cmake -S "$src" -B "$src/build" -G "$generator" "${launcher[@]}" > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure"; }
grep -q "SOC_VERSION ascend310p3 (__NPU_ARCH__ 2002)" "$work/configure.log" ||
  { cat "$work/configure.log"; fail "SOC_VERSION ascend310p3 did not select __NPU_ARCH__ 2002"; }

step "build"
cmake --build "$src/build" -j 2 > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }
if grep -qi "warning" "$work/build.log"; then
  cat "$work/build.log"
  fail "the build printed warnings"
fi

fatbin="$src/samples/fatbin/out/fatbin/fill_kernels/fill_kernels.o"
table_check="$src/build/samples/fatbin/table_check"
mixed_device="$src/build/samples/mixed/auto_gen/kernels/libkernels_device.so"
multi_gen="$src/build/samples/multi/auto_gen"

step "fatbin object at CMAKE_INSTALL_PREFIX/fatbin/<name>/<name>.o at build time"
[ -f "$fatbin" ] || fail "$fatbin was not built"
[ "$(head -c 4 "$fatbin" | od -An -c | tr -d ' ')" = "177ELF" ] || fail "$fatbin is not an ELF file"

step "kernel tables (name:packed argument bytes:type)"
"$table_check" "$fatbin" fill_sequence:16:0 tiled_marker:24:0 no_args:0:0
"$table_check" "$mixed_device" StoreValue:16:0 ReadValue:8:0 ScaleValues:24:0 SayHello:0:0 ReportArch:8:0
"$table_check" "$multi_gen/scale_kernels/libscale_kernels_device.so" Triple:16:0 HostOnlySeen:8:0
"$table_check" "$multi_gen/offset_kernels/liboffset_kernels_device.so" AddOffset:16:0
"$table_check" "$multi_gen/misc_kernels/libmisc_kernels_device.so" Negate:16:0

step "kernel objects export only their kernel and parameter tables and need no ACL runtime"
for object in "$fatbin" "$mixed_device" "$multi_gen"/*/lib*_device.so; do
  exported="$(nm -D --defined-only "$object" | awk '{print $3}' | sort | tr '\n' ' ')"
  [ "$exported" = "npud_kernel_params npud_kernel_table " ] || fail "$object exports: $exported"
  # (grep reads captured output: with pipefail, `cmd | grep -q` fails when grep's early exit
  # kills the writer with SIGPIPE.)
  if grep -q "acl" <<< "$(nm -D --undefined-only "$object")"; then fail "$object needs ACL symbols"; fi
  if grep -q "acl_rt\|ascendcl" <<< "$(readelf -d "$object")"; then fail "$object links the ACL runtime"; fi
done
for program in samples/mixed/mixed_main samples/multi/multi_main; do
  if grep -q "npud_kernel_table" <<< "$(nm "$src/build/$program")"; then fail "$program has a kernel table"; fi
  grep -q "aclrtLaunchKernelWithHostArgs" <<< "$(nm -u "$src/build/$program")" ||
    fail "$program does not launch through aclrtLaunchKernelWithHostArgs"
done
grep -q " T _Z8OffsetDojPvPij" <<< "$(nm -D --defined-only "$src/build/samples/multi/liboffset_kernels.so")" ||
  fail "liboffset_kernels.so does not export its host wrapper"

step "the rewritten source keeps line numbers"
rewritten="$src/build/samples/mixed/auto_gen/kernels/0_value_kernels.rewritten.cpp"
original="$src/kernel_func/value_kernels.cpp"
[ "$(($(wc -l < "$original") + 1))" = "$(wc -l < "$rewritten")" ] || fail "line count of $rewritten"
grep -q '::npud_ascendc_launch<(StoreValue)>("StoreValue", blockDim, nullptr, stream)(slots, value)' "$rewritten" ||
  fail "StoreValue<<<>>> was not rewritten"
grep -q 'Fake<<<1, nullptr, nullptr>>>' "$rewritten" || fail "a <<<>>> in a comment was rewritten"

if [ "$generator" = Ninja ]; then
  step "no-op rebuild"
  grep -q "no work to do" <<< "$(ninja -C "$src/build" -n)" || { ninja -C "$src/build" -n -d explain | head -20; fail "rebuild is not a no-op"; }
fi

step "a changed kernel source is scanned again"
printf '\nextern "C" __global__ __aicore__ void added_later(GM_ADDR out, uint64_t v)\n{\n    *reinterpret_cast<__gm__ uint64_t*>(out) = v;\n}\n' \
  >> "$src/samples/fatbin/kernels/fill_kernels.cpp"
cmake --build "$src/build" -j 2 > "$work/rebuild.log" 2>&1 || { cat "$work/rebuild.log"; fail "rebuild"; }
"$table_check" "$fatbin" fill_sequence:16:0 tiled_marker:24:0 no_args:0:0 added_later:16:0

step "install of the project"
cmake --install "$src/build" > "$work/project-install.log" 2>&1 || { cat "$work/project-install.log"; fail "install"; }
[ -f "$fatbin" ] && [ -x "$src/samples/fatbin/out/bin/fatbin_main" ] || fail "cmake --install of the project"
cmake --install "$src/build" --prefix "$work/elsewhere" > /dev/null 2>&1 || fail "install into another prefix"
[ -f "$work/elsewhere/fatbin/fill_kernels/fill_kernels.o" ] && [ -f "$work/elsewhere/lib/libkernels.a" ] ||
  fail "install into another prefix did not place fatbin/fill_kernels/fill_kernels.o and lib/libkernels.a"

step "unknown SOC_VERSION"
mkdir -p "$work/badsoc"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(badsoc CXX)\nset(SOC_VERSION Ascend999X)\ninclude($ENV{ASCENDC_CMAKE_DIR}/ascendc.cmake)\n' \
  > "$work/badsoc/CMakeLists.txt"
if cmake -S "$work/badsoc" -B "$work/badsoc/build" > "$work/badsoc.log" 2>&1; then
  fail "SOC_VERSION Ascend999X was accepted"
fi
grep -q "SOC_VERSION 'Ascend999X' is not a SoC the npud simulator models" <<< "$(tr -s ' \n' ' ' < "$work/badsoc.log")" ||
  { cat "$work/badsoc.log"; fail "no clear message for SOC_VERSION Ascend999X"; }

# --- 3. Run the programs against npud.
start_npud "unix://$work/npud.sock"
export NPUD_ADDRESS="unix://$work/npud.sock"

skipped=()
# run <name> <dir> <program>: runs it in <dir>; 0 = passed, 1 = skipped (207000).
run() {
  local name="$1" dir="$2" program="$3" rc=0
  step "run $name"
  (cd "$dir" && "$program") > "$work/$name.out" 2> "$work/$name.err" || rc=$?
  if [ "$rc" = 77 ] && grep -q "LAUNCH NOT SUPPORTED: .* returned 207000" "$work/$name.out"; then
    cat "$work/$name.out"
    skipped+=("$name")
    return 1
  fi
  if [ "$rc" != 0 ]; then
    echo "--- stdout"; cat "$work/$name.out"; echo "--- stderr"; cat "$work/$name.err"
    echo "--- npud log (tail)"; tail -20 "$work/npud.log"
    fail "$name exited with $rc"
  fi
  cat "$work/$name.out"
  return 0
}

# Lines of $work/<name>.out matching a regular expression.
count() { grep -c -- "$2" "$work/$1.out" || true; }

if run mixed "$src" "$src/build/samples/mixed/mixed_main"; then
  for value in 100 101 102 103 200 201 202 203 300 301; do
    [ "$(count mixed "^Source data: $value\$")" = 1 ] || fail "mixed: no 'Source data: $value' from the device"
  done
  [ "$(count mixed '^Destination data: 100$')" = 1 ] || fail "mixed: no 'Destination data: 100' from the device"
  [ "$(count mixed '^Hello from block [0-2] of 3$')" = 3 ] || fail "mixed: not 3 'Hello from block' lines"
  [ "$(count mixed '^device __NPU_ARCH__: 2201$')" = 1 ] || fail "mixed: the kernel did not see __NPU_ARCH__ 2201"
  [ "$(count mixed '^MIXED OK$')" = 1 ] || fail "mixed: no 'MIXED OK'"
fi
if run multi "$src" "$src/build/samples/multi/multi_main"; then
  [ "$(count multi '^MULTI OK$')" = 1 ] || fail "multi: no 'MULTI OK'"
fi
# The installed program, run as the samples' run.sh do: from the sample directory, with the
# package's lib64 on LD_LIBRARY_PATH (install strips the build tree's RPATH).
export LD_LIBRARY_PATH="$prefix/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if run fatbin "$src/samples/fatbin" "$src/samples/fatbin/out/bin/fatbin_main"; then
  [ "$(count fatbin '^FATBIN OK$')" = 1 ] || fail "fatbin: no 'FATBIN OK'"
fi

# The kernel isolation suite, its attacks built as a user builds kernels. It starts its own
# npud (the build tree's) over the local protocol and over TCP.
hostile="$(find "$src" -name hostile_kernels.o -path "*fatbin/hostile_kernels/*" | head -1)"
[ -f "$hostile" ] || fail "ascendc_fatbin_library(hostile_kernels) built no fatbin/hostile_kernels/hostile_kernels.o"
"$table_check" "$hostile" call_exit:0:0 call_abort:0:0 kill_self:0:0 spin_forever:0:0 wild_write:8:0 \
  peek:16:0 create_file:16:0 run_shell:8:0 open_socket:8:0 call_fork:8:0 get_pid:8:0 \
  constructor_report:8:0 scan_descriptors:16:0 grow_grant:16:0 duplicate_grant:16:0 \
  shared_memory:8:0 memory_file:8:0 forge_log:8:0 forge_control:0:0
for transport in unix tcp; do
  step "kernel_isolation_test ($transport) with the installed toolchain's hostile kernels"
  NPUD_HOSTILE_KERNELS="$hostile" NPUD_TEST_TRANSPORT="$transport" \
    "$build/tests/e2e/kernel_isolation_test" > "$work/isolation-$transport.log" 2>&1 ||
    { tail -60 "$work/isolation-$transport.log"; fail "kernel_isolation_test ($transport)"; }
  grep -q "^\[  PASSED  \]" "$work/isolation-$transport.log" || fail "kernel_isolation_test ($transport) passed nothing"
  tail -1 "$work/isolation-$transport.log"
done

if [ "${#skipped[@]}" -gt 0 ]; then
  echo "SKIPPED: runtime does not launch kernels yet (ACL_ERROR_RT_FEATURE_NOT_SUPPORT from: ${skipped[*]})"
else
  echo "toolchain OK"
fi
