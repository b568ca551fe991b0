# install_prefix.sh: what the tests that install the build into a scratch CANN-style
# prefix share. Source it with the test's name:
#
#   source "$source_dir/tests/support/install_prefix.sh" toolchain-test
#
# It sets $work (a scratch directory, removed at exit) and $prefix ($work/cann), and
# defines fail, step, install_build <build dir> (cmake --install into $prefix) and
# start_npud <listen addresses> (the prefix's npud with --ready_file=$work/ready,
# logging to $work/npud.log, killed at exit; returns once it serves).

work="$(mktemp -d "/tmp/npud-$1-XXXXXX")"
prefix="$work/cann"
npud_pid=""
cleanup() {
  if [ -n "$npud_pid" ]; then kill "$npud_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAILED: $*"
  exit 1
}
step() { echo "== $*"; }

install_build() {
  step "install into $prefix"
  cmake --install "$1" --prefix "$prefix" > "$work/install.log"
}

start_npud() {
  step "start npud"
  "$prefix/bin/npud" --listen="$1" --ready_file="$work/ready" --memory_gib=1 \
    2> "$work/npud.log" &
  npud_pid=$!
  for _ in $(seq 400); do [ -e "$work/ready" ] && break; sleep 0.05; done
  [ -e "$work/ready" ] || { cat "$work/npud.log"; fail "npud did not start"; }
}
