#!/bin/sh
# The layers of docs/design.md "Layers", checked two ways:
#
#  * by the compiler: each folder's targets see only the include root of
#    their layer (CMakeLists.txt, npud_layer), so a client file that
#    includes a daemon header does not compile. Shown here by compiling such
#    includes against the roots the build uses (and the allowed ones, to
#    show the roots work);
#  * by reading the sources, for what include roots cannot hide (gRPC and
#    protobuf are system headers): simdevice/ and common/ (but common/grpc/)
#    never include them, nor the generated protocol, and only files named
#    grpc_* include gRPC in daemon/ and client/.
#
#   check_layers.sh CXX LAYERS_DIR SOURCE_DIR
set -eu
cxx=$1
layers=$2
src=$3
failures=0
fail() {
  echo "layering: $*" >&2
  failures=$((failures + 1))
}

# compiles(LAYER HEADER): whether "#include HEADER" compiles with LAYER's root.
compiles() {
  printf '#include "%s"\n' "$2" |
    "$cxx" -std=c++17 -fsyntax-only -x c++ -I"$layers/$1" -I/usr/include - 2>/dev/null
}
check_compile() {  # LAYER HEADER yes|no
  if compiles "$1" "$2"; then got=yes; else got=no; fi
  [ "$got" = "$3" ] || fail "including $2 in layer $1: expected it to compile: $3, it did: $got"
}
check_compile client common/unique_fd.h yes
check_compile client daemon/daemon_core.h no
check_compile client simdevice/device.h no
check_compile simdevice simdevice/device_memory.h yes
check_compile simdevice daemon/session/session.h no
check_compile simdevice client/core/runtime.h no
check_compile common common/frame_io.h yes
check_compile common simdevice/device_memory.h no
check_compile daemon simdevice/device_memory.h yes
check_compile daemon client/core/runtime.h no

# forbid(DESCRIPTION PATTERN FILE...): no FILE includes what PATTERN matches.
forbid() {
  what=$1
  pattern=$2
  shift 2
  found=$(grep -lE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pattern)" "$@" 2>/dev/null || true)
  [ -z "$found" ] || fail "$what:" $found
}
cd "$src"
forbid "simdevice includes gRPC, protobuf, the protocol, the daemon or the client" \
  'grpcpp/|grpc/|google/protobuf/|npud/v1/|daemon/|client/' \
  $(find simdevice -name '*.cc' -o -name '*.h')
forbid "common (outside common/grpc/) includes gRPC, protobuf or the protocol" \
  'grpcpp/|grpc/|google/protobuf/|npud/' \
  $(find common -path common/grpc -prune -o \( -name '*.cc' -o -name '*.h' \) -print)
forbid "client includes the daemon or the simulated device" 'daemon/|simdevice/' \
  $(find client -name '*.cc' -o -name '*.h')
forbid "a daemon or client file not named grpc_* includes gRPC" 'grpcpp/' \
  $(find daemon client -name '*.h' ! -name 'grpc_*') \
  $(find daemon client -name '*.cc' ! -name 'grpc_*' ! -path daemon/main.cc)

if [ "$failures" -gt 0 ]; then
  echo "layering: $failures violation(s); see docs/design.md \"Layers\"" >&2
  exit 1
fi
echo "layering: all layers hold"
