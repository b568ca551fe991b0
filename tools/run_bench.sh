#!/bin/bash
# Runs the benchmark suite: builds it, runs each benchmark (every figure is
# printed next to a baseline measured in the same run, with the ratio) and
# merges their results into one JSON file.
#
#   tools/run_bench.sh [output.json]      (default: build/bench/results.json)
#
# NPUD_BENCH_MAX_SIZE=67108864 skips the 1 GiB copies for a quicker run.
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
./tools/build.sh
out="${1:-$repo_root/build/bench/results.json}"
dir="$(mktemp -d /tmp/npud-bench-results-XXXXXX)"
trap 'rm -rf "$dir"' EXIT

echo "== synchronous call latency"
build/bench/sync_call_latency --json="$dir/latency.json"
echo
echo "== kernels and launch rates"
build/bench/kernel_bench --json="$dir/kernels.json"
echo
echo "== half GEMM: cube path and Matmul API against a blocked C++ GEMM"
build/bench/gemm_bench
echo
echo "== row softmax: the advanced API against a vectorised plain loop"
build/bench/softmax_bench
echo
echo "== one session's kernels against another's on one device"
build/bench/fair_share_bench
echo
echo "== timeline (NPUD_TRACE) overhead"
build/bench/trace_overhead
echo
echo "== copy bandwidth"
build/bench/transfer_bench --max_size="${NPUD_BENCH_MAX_SIZE:-1073741824}" \
  --json="$dir/transfer.json"

python3 - "$dir" "$out" <<'PY'
import json, pathlib, sys
merged = {}
for name in ("latency", "kernels", "transfer"):
    merged.update(json.loads((pathlib.Path(sys.argv[1]) / f"{name}.json").read_text()))
pathlib.Path(sys.argv[2]).write_text(json.dumps(merged, indent=2) + "\n")
PY
echo
echo "results: $out"
