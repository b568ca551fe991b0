#!/bin/bash
# Builds and runs the AscendC examples of asc-devkit (examples/01_simd_cpp_api,
# 00_introduction and 01_utilities by default) unchanged against this project's
# install tree and an npud, the way each README says: in <example>/build,
#   cmake <the README's -D options> ..; make -j
#   python3 ../scripts/gen_data.py                (if the README runs it)
#   ./<the README's program>
#   python3 ../scripts/verify_result.py output/output.bin output/golden.bin  (if the README runs it)
# and prints, per example, PASS or the stage that failed with its first error line.
#
#   tools/check_asc_devkit_examples.sh <asc-devkit checkout or bare git dir> [example dir ...]
#
# Example dirs are relative to examples/01_simd_cpp_api (e.g. 02_features/04_compile/01_separate_compile).
#
# The examples are exported into a temporary directory (nothing of theirs is
# written into this repository). Needs an installed tree in ./install
# (tools/build.sh). SHOW_LOGS=1 prints the logs of passing examples too.
set -uo pipefail
repo_root="$(cd "$(dirname "$0")/.." && pwd)"
source_repo="$1"
shift
base=examples/01_simd_cpp_api
work="$(mktemp -d /tmp/npud-asc-devkit-XXXXXX)"
npud_pid=""
cleanup() {
  if [ -n "$npud_pid" ]; then kill "$npud_pid" 2>/dev/null; fi
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
source "$repo_root/install/set_env.sh"
"$repo_root/install/bin/npud" --listen="unix://$work/npud.sock" --ready_file="$work/ready" \
  --memory_gib=4 2> "$work/npud.log" &
npud_pid=$!
for _ in $(seq 400); do [ -e "$work/ready" ] && break; sleep 0.05; done
export NPUD_ADDRESS="unix://$work/npud.sock"

passed=0
failed=0
for example in "${examples[@]}"; do
  dir="$work/$base/$example"
  log="$dir/check.log"
  readme="$dir/README.md"
  # The README's first cmake line: its -D options; its first ./program line.
  cmake_line="$(grep -m1 -E '^\s*cmake .*\.\.' "$readme" 2>/dev/null)"
  read -r -a defines <<< "$(grep -oE -- '-D[A-Z_]+=[^ ;]+' <<< "$cmake_line" | tr '\n' ' ')"
  program="$(grep -m1 -oE '^\s*\./[A-Za-z0-9_]+' "$readme" 2>/dev/null | tr -d ' ')"
  program="${program:-./demo}"
  stage=configure
  (
    set -e
    mkdir -p "$dir/build"
    cd "$dir/build"
    cmake "${defines[@]}" .. > "$log" 2>&1
    echo build > ../stage
    make -j 2 >> "$log" 2>&1
    if grep -q "python3 ../scripts/gen_data.py" ../README.md; then
      echo gen_data > ../stage
      /usr/bin/python3 ../scripts/gen_data.py >> "$log" 2>&1
    fi
    echo run > ../stage
    timeout 300 "$program" >> "$log" 2>&1
    if grep -q "python3 ../scripts/verify_result.py" ../README.md; then
      echo verify > ../stage
      /usr/bin/python3 ../scripts/verify_result.py output/output.bin output/golden.bin >> "$log" 2>&1
    fi
  )
  rc=$?
  [ -f "$dir/stage" ] && stage="$(cat "$dir/stage")"
  if [ "$rc" = 0 ]; then
    echo "PASS $example"
    passed=$((passed + 1))
    if [ "${SHOW_LOGS:-0}" = 1 ]; then sed 's/^/    /' "$log"; fi
  else
    why="$(grep -m1 -E 'error|Error|FAILED|failed|fail' "$log" | cut -c1-200)"
    echo "FAIL $example ($stage): ${why:-exit $rc}"
    failed=$((failed + 1))
  fi
done
echo "passed $passed, failed $failed"
