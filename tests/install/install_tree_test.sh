#!/bin/bash
# The install tree as a CANN user meets it: install into a fresh prefix,
# source its set_env.sh, build a program with g++ -Wall -Werror against only
# include/ and lib64/libacl_rt.so, and run it against npud on a unix socket,
# on TCP, and with NPUD_ADDRESS unset (the library starts a private npud).
# Then what AscendC projects link besides the runtime (toolkit_host.cpp: the
# half types, PlatformAscendC, securec, aprof_pub.h and the toolkit libraries
# under CANN's names), against npud's default device and one started with
# other core counts, whose figures the toolkit must report.
# Usage: install_tree_test.sh <build dir> <source dir>
set -euo pipefail
build="$1"
source_dir="$2"
work="$(mktemp -d /tmp/npud-install-test-XXXXXX)"
prefix="$work/cann"
cleanup() {
  for pid in ${npud_pid:-}; do kill "$pid" 2>/dev/null || true; done
  pkill -f "$work/xdg/npud.sock" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

cmake --install "$build" --prefix "$prefix" > /dev/null
devlib="$(uname -m)-linux/devlib"
for f in set_env.sh bin/setenv.bash bin/npud include/acl/acl.h include/acl/acl_rt.h \
         include/acl/error_codes/rt_error_codes.h lib64/libacl_rt.so \
         share/info/runtime/version.info include/aclnn/opdev/fp16_t.h \
         include/aclnn/opdev/bfloat16.h include/tiling/platform/platform_ascendc.h \
         include/profiling/aprof_pub.h lib64/libascendc_runtime.so lib64/libruntime.so \
         lib64/libmmpa.so lib64/liberror_manager.so "$devlib/libascend_hal.so"; do
  [ -e "$prefix/$f" ] || { echo "missing $f in the install tree"; exit 1; }
done
[ "$(readlink "$prefix/lib64/libascendcl.so")" = "libacl_rt.so" ] || { echo "libascendcl.so is not an alias"; exit 1; }
# Nothing from the build tree may be needed: a clean environment.
env -i HOME="$HOME" PATH=/usr/bin:/bin bash -c "source '$prefix/bin/setenv.bash' && \
  [ \"\$ASCEND_HOME_PATH\" = '$prefix' ] && [ \"\$ASCEND_INSTALL_PATH\" = '$prefix' ] && \
  command -v npud | grep -q '$prefix/bin/npud'" || { echo "setenv.bash does not set up the tree"; exit 1; }

source "$prefix/set_env.sh"
printf '#include "acl/acl.h"\nint main(void) { return aclrtGetSocName() == 0; }\n' > "$work/c11.c"
gcc -std=c11 -Wall -Wextra -Werror "$work/c11.c" -I"$prefix/include" -L"$prefix/lib64" -lacl_rt -o "$work/c11"
g++ -std=c++17 -O2 -Wall -Werror -D_GLIBCXX_USE_CXX11_ABI=0 \
  "$source_dir/examples/memory_copies/memory_copies.cpp" \
  -I"$prefix/include" -L"$prefix/lib64" -lascendcl -o "$work/memory_copies"
# The library names of CANN's toolkit, as projects list them (FindASC's list).
g++ -std=c++17 -O2 -Wall -Wextra -Werror -D_GLIBCXX_USE_CXX11_ABI=0 \
  "$source_dir/tests/install/toolkit_host.cpp" -I"$prefix/include" -I"$prefix/include/aclnn" \
  -L"$prefix/lib64" -L"$prefix/$devlib" -lascendc_runtime -lacl_rt -lruntime -lregister \
  -lerror_manager -lprofapi -lunified_dlog -lmmpa -lascend_dump -lc_sec -lascend_hal -ldl \
  -o "$work/toolkit_host"

# Found through PATH, as container entrypoints start it: npud must still
# find the install tree's AscendC headers for run-time compilation.
[ "$(command -v npud)" = "$prefix/bin/npud" ] || { echo "set_env.sh does not put npud on PATH"; exit 1; }
npud --listen="unix://$work/npud.sock,127.0.0.1:0" --ready_file="$work/ready" \
  --memory_gib=8 2> "$work/npud.log" &
npud_pid=$!
for _ in $(seq 400); do [ -s "$work/ready" ] && break; sleep 0.05; done
port="$(sed -n 2p "$work/ready")"
grep -q "AscendC headers in $prefix/" "$work/npud.log" ||
  { echo "npud started from PATH does not use the install tree's AscendC headers:"; cat "$work/npud.log"; exit 1; }

echo "== unix socket"
NPUD_ADDRESS="unix://$work/npud.sock" "$work/memory_copies"
echo "== toolkit libraries and headers"
NPUD_ADDRESS="unix://$work/npud.sock" NPUD_LOG_LEVEL=warn "$work/toolkit_host" \
  2> "$work/toolkit.err" || { cat "$work/toolkit.err"; exit 1; }
[ "$(grep -c "MsprofReportApi is not simulated" "$work/toolkit.err")" = 1 ] ||
  { cat "$work/toolkit.err"; echo "an unsupported call must log once"; exit 1; }
# A device of other figures: what the toolkit reports follows it.
npud --listen="unix://$work/npud-b3.sock" --ready_file="$work/ready-b3" --soc=Ascend910B3 \
  --cube_cores=20 --vector_cores=40 --memory_gib=4 2> "$work/npud-b3.log" &
npud_pid="$npud_pid $!"
for _ in $(seq 400); do [ -s "$work/ready-b3" ] && break; sleep 0.05; done
NPUD_ADDRESS="unix://$work/npud-b3.sock" "$work/toolkit_host"
echo "== TCP 127.0.0.1:$port"
NPUD_ADDRESS="127.0.0.1:$port" "$work/memory_copies"
echo "== autostart"
mkdir -m 700 "$work/xdg"
env -u NPUD_ADDRESS XDG_RUNTIME_DIR="$work/xdg" "$work/memory_copies"
[ -S "$work/xdg/npud.sock" ] || { echo "no private npud was started"; exit 1; }
# A second program finds the daemon the first one started.
env -u NPUD_ADDRESS XDG_RUNTIME_DIR="$work/xdg" "$work/memory_copies" > /dev/null
[ "$(grep -c 'serving' "$work/xdg/npud.log")" = 1 ] || { echo "a second daemon was started"; exit 1; }
# The SoC name works before aclInit (set_sample_env.sh relies on it).
NPUD_ADDRESS="unix://$work/npud.sock" "$work/c11"
echo "install tree OK"
