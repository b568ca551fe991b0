#!/bin/sh
# What CI runs (.ci/run), stage by stage, each timed; a developer runs it to
# see how long CI will take before CI does.
#
#   tools/ci_stages.sh [--budget_minutes=N] [STAGE...]
#
# Stages (all of them, in this order, when none are named):
#   tests    the test command README.md documents (tools/run_tests.sh): the
#            g++ build of everything and every test over every transport
#   checked  clang with AddressSanitizer, UndefinedBehaviorSanitizer and the
#            thread-safety analysis (tools/run_checked_tests.sh): the unit
#            tests and one variant per transport family of the end-to-end
#            suites; the fuzz targets are built in the same tree
#   fuzz     each fuzz target for 60 s (tools/run_fuzzers.sh)
#   format   clang-format (tools/format.sh --check)
#
# Prints each stage's wall time and the total, also into
# build/ci_stage_times.txt. Fails when a stage fails, and when the whole run
# passed --budget_minutes (CI: 45, half its 90-minute limit on this machine
# kind).
set -eu
cd "$(dirname "$0")/.."
budget=0
stages=""
for arg in "$@"; do
  case "$arg" in
    --budget_minutes=*) budget="${arg#--budget_minutes=}" ;;
    tests|checked|fuzz|format) stages="$stages $arg" ;;
    *) echo "usage: tools/ci_stages.sh [--budget_minutes=N] [tests|checked|fuzz|format ...]" >&2
       exit 2 ;;
  esac
done
[ -n "$stages" ] || stages="tests checked fuzz format"

report=""
total=0
print_report() {
  mkdir -p build
  {
    echo "CI stages (wall time):"
    printf '%b' "$report"
    printf '  %-8s %6d s  (%d min)\n' total "$total" $((total / 60))
  } | tee build/ci_stage_times.txt
}

for stage in $stages; do
  case "$stage" in
    tests) command="./tools/run_tests.sh" ;;
    checked) command="./tools/run_checked_tests.sh" ;;
    fuzz) command="./tools/run_fuzzers.sh 60" ;;
    format) command="./tools/format.sh --check" ;;
  esac
  echo "=== stage $stage: $command"
  start=$(date +%s)
  status=0
  $command || status=$?
  took=$(( $(date +%s) - start ))
  total=$((total + took))
  report="$report$(printf '  %-8s %6d s' "$stage" "$took")\n"
  echo "=== stage $stage: ${took} s"
  if [ "$status" -ne 0 ]; then
    print_report
    echo "stage $stage failed (exit $status)" >&2
    exit "$status"
  fi
done
print_report
if [ "$budget" -gt 0 ] && [ "$total" -gt $((budget * 60)) ]; then
  echo "CI took $((total / 60)) min, past its budget of $budget min: look at the stage" \
       "times above (tools/ci_stages.sh shows them on any machine) and make the slow stage" \
       "cheaper before CI reaches its limit" >&2
  exit 1
fi
