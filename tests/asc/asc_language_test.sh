#!/bin/bash
# asc_language_test: CANN 9's way of writing AscendC (find_package(ASC), the ASC
# language, .asc sources, bisheng) against npud's install tree, as a user meets it.
#
#   asc_language_test.sh <npud build dir> <npud source dir>
#
# 1. Installs the build into a fresh prefix and sources its set_env.sh.
# 2. Configures and builds tests/asc/project/demo (kernels and main in one .asc:
#    template kernels launched from a host function template, a kernel in a
#    namespace launched without a stream, a template cube kernel printing with plain
#    printf, a mix kernel handing a value from its cube to its vector cores) and tests/asc/project/libs (ascendc_library STATIC and SHARED linked
#    into a C++ program) and tests/asc/project/rdc (-dc: a kernel calling device code
#    of another .asc) and tests/asc/project/fatbin (ascendc_fatbin_library: a kernel
#    object loaded by path) and tests/asc/project/symbols (`__gm__` variables shared
#    by kernels and the host, a kernel found by its host symbol, the binary's device
#    copy) and tests/asc/project/attributes (bisheng's [aicore] and [host, aicore]
#    function attributes, from a project's macros and written out, and the options
#    CANN projects pass: -mllvm, -Xhost-start ... -Xhost-end, --cce-enable-print);
#    checks the no-op rebuild, the rebuild after the .asc
#    changes and that the dependencies name the .asc and not bisheng's scratch files.
# 3. The bisheng command line: a whole program in one command, separate compile and
#    link, a dependency file, the ignored-option note, refused options, -xcce and
#    -v.
# 4. Runs every program against an npud of the prefix over the unix socket and TCP,
#    each checking its results against host goldens.
set -euo pipefail

build="$1"
source_dir="$2"
# shellcheck disable=SC1091
source "$source_dir/tests/support/install_prefix.sh" asc-test
install_build "$build"
for f in "$prefix/bin/bisheng" "$prefix/compiler/ccec_compiler/bin/bisheng" \
         "$prefix/lib64/cmake/asc-config.cmake" \
         "$prefix/compiler/tikcpp/ascendc_kernel_cmake/asc-config.cmake" \
         "$prefix/tikcpp/ascendc_kernel_cmake/asc_modules/CMakeASCInformation.cmake" \
         "$prefix/tikcpp/ascendc_kernel_cmake/include/utils/debug/asc_printf.h"; do
  [ -e "$f" ] || fail "missing $f in the install tree"
done
unset ASCEND_HOME_PATH ASCEND_CANN_PACKAGE_PATH CMAKE_PREFIX_PATH
# shellcheck disable=SC1091
source "$prefix/set_env.sh"

generator="Unix Makefiles"
if command -v ninja > /dev/null; then generator=Ninja; fi
src="$work/src"
cp -r "$source_dir/tests/asc/project" "$src"
for project in demo libs rdc fatbin symbols attributes; do
  step "configure and build $project ($generator)"
  cmake -S "$src/$project" -B "$src/$project/build" -G "$generator" > "$work/$project.configure.log" 2>&1 ||
    { cat "$work/$project.configure.log"; fail "configure $project"; }
  cmake --build "$src/$project/build" -j 2 > "$work/$project.build.log" 2>&1 ||
    { cat "$work/$project.build.log"; fail "build $project"; }
done
grep -q "bisheng: note: ignored (no meaning on npud's CPU AI cores): --cce-auto-sync=on" \
  "$work/demo.build.log" || { cat "$work/demo.build.log"; fail "no note for the ignored --cce option"; }
if grep -q "cce-enable-print" "$work/attributes.build.log"; then
  cat "$work/attributes.build.log"
  fail "--cce-enable-print (kernels always print) should be accepted without a note"
fi
if grep -i "warning" "$work/demo.build.log" "$work/libs.build.log" "$work/rdc.build.log" \
    "$work/symbols.build.log" "$work/attributes.build.log"; then
  fail "the builds printed warnings"
fi
if readelf -S "$src/rdc/build/rdc_main" | grep npud_rdc_device > /dev/null; then
  fail "the rdc program keeps its relocatable device code section"
fi
fatbin="$src/fatbin/build/fill_kernels.o"
[ -f "$fatbin" ] || fail "ascendc_fatbin_library(fill_kernels) made no fill_kernels.o"
exported="$(nm -D --defined-only "$fatbin" | awk '{print $3}' | sort | tr '\n' ' ')"
[ "$exported" = "npud_kernel_params npud_kernel_table " ] || fail "fill_kernels.o exports: $exported"
if readelf -d "$fatbin" | grep acl_rt > /dev/null; then fail "fill_kernels.o needs the ACL runtime"; fi

if [ "$generator" = Ninja ]; then
  step "rebuilds: nothing to do, then the .asc changed, and the dependencies"
  again="$(ninja -C "$src/demo/build")"
  grep -q "no work to do" <<< "$again" || fail "a second build of demo did work"
  touch "$src/demo/kernels.asc"
  again="$(ninja -C "$src/demo/build")"
  grep -q "Linking ASC executable demo" <<< "$again" || fail "changing kernels.asc relinked nothing"
  deps="$(ninja -C "$src/demo/build" -t deps CMakeFiles/demo.dir/kernels.asc.o)"
  grep -q "$src/demo/kernels.asc" <<< "$deps" || fail "the dependencies do not name kernels.asc"
  grep -q "include/kernel_operator.h" <<< "$deps" || fail "the dependencies do not name kernel_operator.h"
  if grep -q "npud-bisheng" <<< "$deps"; then fail "the dependencies name bisheng's scratch files"; fi
fi

step "bisheng on the command line"
cli="$work/cli"
mkdir "$cli"
bisheng "$src/demo/kernels.asc" -o "$cli/demo_one" --npu-arch=dav-2201 -O2 -mllvm -cce-aicore-stack-size=0x8000 \
  2> "$cli/one.err" || { cat "$cli/one.err"; fail "bisheng kernels.asc -o demo_one"; }
grep -q "ignored (no meaning on npud's CPU AI cores): -mllvm -cce-aicore-stack-size=0x8000" "$cli/one.err" ||
  { cat "$cli/one.err"; fail "no note for -mllvm"; }
(cd "$cli" && bisheng -c -x asc "$src/demo/kernels.asc" -o kernels.o -MD -MF kernels.d --npu-arch=dav-2201 &&
   bisheng kernels.o -o demo_two) || fail "separate compile and link"
grep -q "kernels.o:" "$cli/kernels.d" || fail "the dependency file's target is not kernels.o"
grep -q "$src/demo/kernels.asc" "$cli/kernels.d" || fail "the dependency file does not name kernels.asc"
if grep -q "npud-bisheng" "$cli/kernels.d"; then fail "the dependency file names scratch files"; fi
nm "$cli/kernels.o" > "$cli/kernels.nm"  # (not piped into grep -q: pipefail and SIGPIPE)
grep -q " T main$" "$cli/kernels.nm" || fail "kernels.o holds no main"
if grep -q "npud_kernel_table" "$cli/kernels.nm"; then fail "the host object exports a kernel table"; fi
expect_refusal() {
  local message="$1"
  shift
  local rc=0
  bisheng "$@" > "$cli/refused.out" 2>&1 || rc=$?
  [ "$rc" = 1 ] && grep -qF -- "$message" "$cli/refused.out" ||
    { cat "$cli/refused.out"; fail "bisheng $* should fail with '$message' (exit $rc)"; }
}
expect_refusal "unknown NPU architecture 'dav-9999'" "$src/demo/kernels.asc" --npu-arch=dav-9999
expect_refusal "-E is not supported" -E "$src/demo/kernels.asc"
# --aicore-only: the device unit alone, then a kernel object of it.
(cd "$cli" && bisheng -c --aicore-only "$src/fatbin/fill.asc" -o fill_device.o &&
   bisheng -shared --aicore-only fill_device.o -o fill_by_hand.o) || fail "bisheng --aicore-only"
nm "$cli/fill_device.o" > "$cli/fill_device.nm"
if grep -q "aclrt" "$cli/fill_device.nm"; then fail "the --aicore-only object calls the ACL runtime"; fi
nm -D --defined-only "$cli/fill_by_hand.o" > "$cli/fill_by_hand.nm"
grep -q " npud_kernel_table$" "$cli/fill_by_hand.nm" || fail "the --aicore-only link made no kernel object"
expect_refusal "no input files" -O2
# -xcce (the language attached, as shmem passes it): a .cpp compiled as AscendC.
cp "$src/attributes/scale.asc" "$cli/scale_cce.cpp"
bisheng -xcce "$cli/scale_cce.cpp" -I"$src/attributes" -o "$cli/attributes_cce" \
  --npu-arch=dav-2201 -Xhost-start -Xhost-end --cce-enable-print 2> "$cli/cce.err" ||
  { cat "$cli/cce.err"; fail "bisheng -xcce scale_cce.cpp"; }
version="$(bisheng -v)"
grep -q "^npud bisheng " <<< "$version" || fail "bisheng -v says: $version"
printf '__global__ void broken( {\n' > "$cli/broken.asc"
rc=0
bisheng -c "$cli/broken.asc" -o "$cli/broken.o" > "$cli/broken.out" 2>&1 || rc=$?
[ "$rc" != 0 ] && grep -q "broken.asc:1" "$cli/broken.out" ||
  { cat "$cli/broken.out"; fail "a compile error should name broken.asc:1 (exit $rc)"; }

start_npud "unix://$work/npud.sock,127.0.0.1:0"
for _ in $(seq 400); do [ -s "$work/ready" ] && break; sleep 0.05; done
[ -s "$work/ready" ] || { cat "$work/npud.log"; fail "npud did not start"; }
port="$(sed -n 2p "$work/ready")"

# run <address> <name> <program> <expected line>...
run() {
  local address="$1" name="$2" program="$3" rc=0
  shift 3
  NPUD_ADDRESS="$address" "$program" > "$work/$name.out" 2> "$work/$name.err" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "--- stdout"; cat "$work/$name.out"; echo "--- stderr"; cat "$work/$name.err"
    tail -20 "$work/npud.log"
    fail "$name over $address exited with $rc"
  fi
  for line in "$@"; do
    grep -qxF "$line" "$work/$name.out" || { cat "$work/$name.out"; fail "$name: no line '$line'"; }
  done
  echo "$name over $address: $(tail -1 "$work/$name.out")"
}
for address in "unix://$work/npud.sock" "127.0.0.1:$port"; do
  for program in "$src/demo/build/demo" "$cli/demo_one" "$cli/demo_two"; do
    run "$address" "$(basename "$program")" "$program" "axpy_tile<256> over 4 blocks: PASS" \
      "axpy_tile<512> over 3 blocks: PASS" "ops::block_ids on the default stream: PASS" \
      "[AIC Block 0/2] cube kernel 7" "[AIC Block 1/2] cube kernel 7" \
      "mix_handoff over 3 groups: PASS" "demo: PASS"
  done
  run "$address" libs "$src/libs/build/libs_main" "libs: PASS"
  run "$address" rdc "$src/rdc/build/rdc_main" "rdc: PASS"
  run "$address" fatbin "$src/fatbin/build/fatbin_main" "fatbin: PASS"
  run "$address" symbols "$src/symbols/build/symbols" "symbols: PASS"
  for program in "$src/attributes/build/attributes" "$cli/attributes_cce"; do
    # The string that spells an attribute is printed as written.
    run "$address" "$(basename "$program")" "$program" "[AIV Block 0/4] [aicore] scale of 100" \
      "attributes: PASS"
  done
done
echo "asc language OK"
