#!/bin/bash
# Builds and runs CANN runtime samples (hicann/runtime, example/) unchanged
# against this project's install tree and an npud, with each sample's own
# CMakeLists.txt and run.sh, and prints PASS/FAIL per sample.
#
#   tools/check_upstream_samples.sh <runtime checkout or bare git dir> [sample ...]
#
# The samples are exported into a temporary directory (nothing of theirs is
# written into this repository). Without sample arguments, every sample
# that passes. The model_ri and callback samples' run.sh exit 0 whatever
# happens: they pass when they print no [ERROR] line, or, for the one
# whose errors are the point (callback/2), when it says it ran
# successfully. Needs an installed tree: ./install (tools/build.sh), or the
# one NPUD_INSTALL_DIR names. Only the samples are exported: what they include
# from CANN (profiling/aprof_pub.h of profiling/2_subscribe_model too) must
# come from the tree.
# SHOW_LOGS=1 prints the output of passing samples too. RUNS=N runs each
# sample N times in a row (its run.sh, so the first run builds it); it
# passes only if every run does.
set -uo pipefail
repo_root="$(cd "$(dirname "$0")/.." && pwd)"
# Several samples check their results with numpy.
"$repo_root/tools/install_deps.sh" python3-numpy > /dev/null
source_repo="$1"
shift
samples=("$@")
if [ ${#samples[@]} -eq 0 ]; then
  samples=(
    0_quickstart/0_hello_cann
    0_quickstart/1_error_handling
    0_quickstart/2_system_info
    0_quickstart/3_cross_version/0_runtime_compatibility
    0_quickstart/4_custom_kernel_launch
    1_basic_features/context/0_context_query
    1_basic_features/device/0_device_normal
    1_basic_features/device/1_device_multi_thread
    1_basic_features/device/2_device_P2P
    1_basic_features/event/0_event_status
    1_basic_features/event/1_event_timestamp
    1_basic_features/memory/0_h2h_memory_copy
    1_basic_features/memory/10_ipc_memory_withpid
    1_basic_features/memory/11_ipc_memory_withoutpid
    1_basic_features/memory/1_h2d_sync_memory_copy
    1_basic_features/memory/2_h2d_async_memory_copy
    1_basic_features/memory/3_d2h_sync_memory_copy
    1_basic_features/memory/4_d2h_async_memory_copy
    1_basic_features/memory/5_d2d_sync_memory_copy
    1_basic_features/memory/6_d2d_async_memory_copy
    1_basic_features/memory/7_physical_memory_sharing_withpid
    1_basic_features/memory/8_physical_memory_sharing_withoutpid
    1_basic_features/memory/9_multistream_sync_memory
    1_basic_features/stream/0_simple_stream
    1_basic_features/stream/1_stream_with_failure_mode
    1_basic_features/stream/2_multi_stream
    1_basic_features/stream/3_stream_config_query
    2_advanced_features/built_in_task/0_reduce_task
    2_advanced_features/built_in_task/1_random_num_task
    2_advanced_features/callback/0_simple_callback
    2_advanced_features/callback/1_callback_hostfunc
    2_advanced_features/callback/2_callback_exception
    2_advanced_features/ipcevent/0_ipcevent
    2_advanced_features/ipcevent/1_ipcevent_multi_device
    2_advanced_features/kernel/0_launch_kernel
    2_advanced_features/kernel/1_launch_kernel_with_reslimit
    2_advanced_features/label/0_simple_label
    2_advanced_features/model_ri/0_simple_model
    2_advanced_features/model_ri/1_model_update
    2_advanced_features/model_ri/2_model_switch
    2_advanced_features/model_ri/3_cond_model
    2_advanced_features/model_ri/4_model_sync_external
    2_advanced_features/notify/0_ipc_notify_withpid
    2_advanced_features/notify/1_ipc_notify_withoutpid
    2_advanced_features/tdt_channel/0_simple_channel
    2_advanced_features/tdt_channel/1_channel_capacity
    2_advanced_features/tdt_queue/0_simple_queue
    2_advanced_features/tdt_queue/1_queue_route
    3_memory_advanced/allocator/0_custom_allocator
    3_memory_advanced/host_register/0_simple_zero_copy
    3_memory_advanced/managed_memory/0_uvm_allocate
    4_reliability/overflow_detection/0_overflow_detection
    5_performance/adump/0_adump_args
    5_performance/adump/1_adump_callback
    5_performance/adump/2_model_dump_config
    5_performance/adump/3_save_exception_info
    5_performance/profiling/0_create_config
    5_performance/profiling/1_msproftx
    5_performance/profiling/2_subscribe_model
    5_performance/profiling/3_mstx_with_domain
  )
fi

work="$(mktemp -d /tmp/npud-samples-XXXXXX)"
cleanup() {
  [ -n "${npud_pid:-}" ] && kill "$npud_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

if [ -d "$source_repo/.git" ] || git -C "$source_repo" rev-parse --is-bare-repository >/dev/null 2>&1; then
  git -C "$source_repo" archive HEAD example | tar -x -C "$work"
else
  cp -r "$source_repo/example" "$work/"
fi

source "${NPUD_INSTALL_DIR:-$repo_root/install}/set_env.sh"
"$ASCEND_HOME_PATH/bin/npud" --listen="unix://$work/npud.sock" --ready_file="$work/ready" \
  2> "$work/npud.log" &
npud_pid=$!
for _ in $(seq 200); do [ -e "$work/ready" ] && break; sleep 0.05; done
export NPUD_ADDRESS="unix://$work/npud.sock"
set --  # set_sample_env.sh reads the positional parameters as its options.
source "$work/example/set_sample_env.sh" > "$work/set_sample_env.log" 2>&1 || { cat "$work/set_sample_env.log"; exit 1; }

# Samples check their results with numpy: use Debian's python3, which has
# it, where the first python3 on the PATH does not.
if ! python3 -c 'import numpy' 2> /dev/null && /usr/bin/python3 -c 'import numpy' 2> /dev/null; then
  mkdir -p "$work/bin"
  ln -s /usr/bin/python3 "$work/bin/python3"
  export PATH="$work/bin:$PATH"
fi

pass=0
fail=0
for sample in "${samples[@]}"; do
  dir="$work/example/$sample"
  log="$work/$(echo "$sample" | tr / _).log"
  if [ ! -d "$dir" ]; then
    echo "MISSING $sample"
    fail=$((fail + 1))
    continue
  fi
  modes=("")
  [ "$sample" = "2_advanced_features/kernel/0_launch_kernel" ] && modes=(simple placeholder)
  # Some samples exit 0 whatever happens and only print their verdict, or
  # only their errors.
  failed_lines=(-e '\[FAILURE\]' -e '\[FAIL\]')
  needed_line='.'
  case "$sample" in
    */callback/2_callback_exception) needed_line='sample successfully' ;;
    */model_ri/* | */callback/*) failed_lines+=(-e '\[ERROR\]') ;;
  esac
  for mode in "${modes[@]}"; do
    run=0
    run_passed=0
    while [ "$run" -lt "${RUNS:-1}" ]; do
      run=$((run + 1))
      (cd "$dir" && timeout 300 bash run.sh $mode) > "$log" 2>&1 && \
        ! grep -q "${failed_lines[@]}" "$log" && grep -q "$needed_line" "$log" || break
      run_passed=$run
    done
    if [ "$run_passed" -eq "${RUNS:-1}" ]; then
      echo "PASS $sample $mode${RUNS:+ ($RUNS runs)}"
      [ -n "${SHOW_LOGS:-}" ] && sed 's/^/    /' "$log"
      pass=$((pass + 1))
    else
      echo "FAIL $sample $mode (run $run; last lines of $log:)"
      tail -n 15 "$log" | sed 's/^/    /'
      fail=$((fail + 1))
    fi
  done
done
echo "passed $pass, failed $fail"
[ "$fail" -eq 0 ]
