#!/bin/bash
# Builds and runs the AscendC examples of asc-devkit (examples/01_simd_cpp_api,
# 00_introduction and 01_utilities by default) unchanged against this project's
# install tree and an npud, the way each README says: in <example>/build, the
# commands of the README's block (its variables, cmake, make, gen_data.py, the
# program, verify_result.py, with the README's arguments), and prints, per example
# and transport, PASS or the stage that failed with its first error line.
#
#   tools/check_asc_devkit_examples.sh <asc-devkit checkout or bare git dir> [example dir ...]
#
# Example dirs are relative to examples/01_simd_cpp_api (e.g. 02_features/04_compile/01_separate_compile).
#
# The examples are exported into a temporary directory (nothing of theirs is
# written into this repository). Needs an installed tree: ./install
# (tools/build.sh), or the one NPUD_INSTALL_DIR names. SHOW_LOGS=1 prints the logs of passing examples too.
#
# NPUD_CHECK_TRANSPORT says how the programs reach the devices, one or several
# of (comma separated; each example is built once and run under each in turn):
#   unix    (default) an npud on a unix socket in the work directory
#   tcp     an npud on loopback TCP, as a framed session on its own port
#           (NPUD_ADDRESS=npud://127.0.0.1:port; the bulk channel carries large copies)
#   grpc    the same npud over gRPC on loopback TCP (NPUD_ADDRESS=127.0.0.1:port)
#   inproc  no daemon: the devices run inside the program (NPUD_ADDRESS=inproc:)
set -uo pipefail
repo_root="$(cd "$(dirname "$0")/.." && pwd)"
source_repo="$1"
shift
base=examples/01_simd_cpp_api
work="$(mktemp -d /tmp/npud-asc-devkit-XXXXXX)"
npud_pids=()
cleanup() {
  for pid in "${npud_pids[@]}"; do kill "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

if [ -d "$source_repo/.git" ]; then git_dir="$source_repo/.git"; else git_dir="$source_repo"; fi
git --git-dir="$git_dir" archive HEAD "$base" | tar -x -C "$work"
examples=("$@")
if [ ${#examples[@]} -eq 0 ]; then
  mapfile -t examples < <(cd "$work/$base" && find 00_introduction 01_utilities -name CMakeLists.txt \
    -printf '%h\n' | sort)
fi

# shellcheck disable=SC1091
install_dir="${NPUD_INSTALL_DIR:-$repo_root/install}"
source "$install_dir/set_env.sh"
IFS=, read -r -a transports <<< "${NPUD_CHECK_TRANSPORT:-unix}"
# Starts an npud listening on $2 with the ready file $work/$1.ready (the gRPC
# ports of --listen, one a line, then "npud <port>" for its own TCP port).
start_npud() {
  "$install_dir/bin/npud" --listen="$2" --ready_file="$work/$1.ready" --memory_gib=4 \
    2> "$work/$1.npud.log" &
  npud_pids+=($!)
  for _ in $(seq 400); do [ -e "$work/$1.ready" ] && return 0; sleep 0.05; done
  echo "npud ($1) did not become ready; its log:" >&2
  cat "$work/$1.npud.log" >&2
  exit 1
}
declare -A address
for transport in "${transports[@]}"; do
  case "$transport" in
    unix)
      start_npud unix "unix://$work/npud.sock"
      address[unix]="unix://$work/npud.sock"
      ;;
    tcp | grpc)
      # One npud on loopback serves both: gRPC on --listen, frames on its own port.
      if [ ! -e "$work/loopback.ready" ]; then start_npud loopback "127.0.0.1:0"; fi
      address[tcp]="npud://127.0.0.1:$(awk '$1 == "npud" { print $2 }' "$work/loopback.ready")"
      address[grpc]="127.0.0.1:$(head -1 "$work/loopback.ready")"
      ;;
    inproc)
      address[inproc]="inproc:"
      ;;
    *)
      echo "NPUD_CHECK_TRANSPORT: '$transport' is none of unix, tcp, grpc, inproc" >&2
      exit 2
      ;;
  esac
  echo "transport $transport: NPUD_ADDRESS=${address[$transport]}"
done

declare -A passed failed
for transport in "${transports[@]}"; do passed[$transport]=0; failed[$transport]=0; done
for example in "${examples[@]}"; do
  dir="$work/$base/$example"
  readme="$dir/README.md"
  # The README's command block (the first fenced block with a `cmake ... ..`
  # line), run line by line in build/ as a user would paste it: its variable
  # assignments (SCENARIO_NUM=0), cmake, make, gen_data.py, the program and
  # verify_result.py with the README's arguments. `mkdir/cd build` is done
  # here; make runs with -j 2 and the program under a timeout.
  mapfile -t commands < <(awk '
    /^[[:space:]]*```/ { if (inblock) { if (found) exit; inblock = 0; n = 0 } else inblock = 1; next }
    inblock {
      line = $0; sub(/[[:space:]]+#.*$/, "", line); sub(/^[[:space:]]+/, "", line)
      if (line ~ /^cmake .*\.\./) found = 1
      if (line != "") block[n++] = line
      if (found && !printed) { for (i = 0; i < n; i++) print block[i]; printed = 1; next }
      if (printed) print line
    }' "$readme" 2>/dev/null | tr ';' '\n' | sed -e 's/^[[:space:]]*//' -e '/^$/d' \
      -e '/^mkdir -p build/d' -e '/^cd build/d' -e '/^&&/d')
  if [ ${#commands[@]} -eq 0 ]; then commands=("cmake .." "make" "./demo"); fi
  for transport in "${transports[@]}"; do
    export NPUD_ADDRESS="${address[$transport]}"
    log="$dir/check.$transport.log"
    # A run after the first reuses the build (cmake and make find nothing to do)
    # but none of the data the previous run wrote after its build.
    if [ -e "$dir/.built" ]; then find "$dir" -type f -newer "$dir/.built" ! -name "check.*.log" -delete; fi
    rm -f "$dir/stage"
    stage=configure
    (
      set -e
      mkdir -p "$dir/build"
      cd "$dir/build"
      : > "$log"
      ran=0
      for command in "${commands[@]}"; do
        if [[ "$command" =~ ^[A-Za-z_][A-Za-z0-9_]*=[^[:space:]]*$ ]]; then
          :  # a variable of the README's (SCENARIO_NUM=0)
        else
          case "$command" in
            cmake*) echo configure > ../stage ;;
            make*) echo build > ../stage; command="make -j 2; touch ../.built" ;;
            python3*gen_data*) echo gen_data > ../stage; command="/usr/bin/$command" ;;
            python3*verify*) echo verify > ../stage; command="/usr/bin/$command" ;;
            ./*) echo run > ../stage; ran=1; command="timeout 300 $command" ;;
            *)
              # A tool around the program (mssanitizer ./demo, msopprof ... ./demo):
              # the program runs once by itself; other lines are not run.
              program="$(grep -oE '(^|[[:space:]])\./[A-Za-z0-9_]+' <<< "$command" | head -1 | tr -d ' ')"
              if [ -z "$program" ] || [ "$ran" = 1 ]; then continue; fi
              echo run > ../stage; ran=1; command="timeout 300 $program" ;;
          esac
        fi
        echo "+ $command" >> "$log"
        eval "$command" >> "$log" 2>&1
      done
    )
    rc=$?
    [ -f "$dir/stage" ] && stage="$(cat "$dir/stage")"
    if [ "$rc" = 0 ]; then
      echo "PASS $example ($transport)"
      passed[$transport]=$((passed[$transport] + 1))
      if [ "${SHOW_LOGS:-0}" = 1 ]; then sed 's/^/    /' "$log"; fi
    else
      why="$(grep -m1 -E 'error|Error|FAILED|failed|fail' "$log" | cut -c1-200)"
      echo "FAIL $example ($transport, $stage): ${why:-exit $rc}"
      failed[$transport]=$((failed[$transport] + 1))
    fi
  done
done
for transport in "${transports[@]}"; do
  echo "$transport: passed ${passed[$transport]}, failed ${failed[$transport]}"
done
