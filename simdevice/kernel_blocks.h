// kernel_blocks.h
//
// Running the blocks of one kernel launch on the AI cores: what both the
// in-process launch task (kernel_launch.h) and the sandboxed kernel host
// (executor/kernel_host_main.cc) do once they know which entry to call.
//
// A trap or a failed check in kernel code (NpudBlockContext::trap), a C++
// exception and a memory fault each end their block with the device
// exception CANN reports: ACL_ERROR_RT_VECTOR_CORE_EXCEPTION for vector
// kernels, ACL_ERROR_RT_AICORE_EXCEPTION for cube and mix kernels. Other
// blocks still run; the first failure is the launch's.

#ifndef NPUD_SIMDEVICE_KERNEL_BLOCKS_H_
#define NPUD_SIMDEVICE_KERNEL_BLOCKS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"
#include "npud_kernel_abi.h"
#include "simdevice/ai_core_pool.h"
#include "simdevice/device_range.h"
#include "simdevice/kernel_module.h"
#include "simdevice/task.h"

namespace npud::sim {

struct BlockRun {
  NpudKernelEntry entry = nullptr;
  std::string kernel_name;
  std::string label;  // of the kernel's binary
  uint32_t kernel_type = NPUD_CORE_TYPE_VECTOR;
  uint32_t args_size = 0;  // what the entry expects
  uint32_t block_dim = 1;
  uint64_t ub_bytes = 0;
  int device_id = 0;
  uint64_t stream_id = 0;
  // The packed arguments, placeholders resolved; must not move once the
  // blocks run (they may point into it).
  std::string args;
  // Failures go to the log here (off where another process logs them).
  bool log_failures = true;
  // Record when and on which core each block ran (a trace asked for blocks).
  bool time_blocks = false;
  // Set to skip blocks that have not started.
  std::atomic<bool> cancelled{false};
};

// A run of kernel `kernel` of `module` (which must outlive it); the caller
// fills in the launch's figures and arguments.
std::shared_ptr<BlockRun> NewBlockRun(const KernelModule& module, int kernel);

// When and where one block ran.
struct BlockTime {
  uint32_t launch = 0;  // its launch's index in a kernel host's batch
  uint32_t block = 0;
  uint32_t core = 0;
  int64_t start_ns = 0;  // MonotonicNanos
  int64_t end_ns = 0;
};

struct BlockRunResult {
  absl::Status status;
  // The blocks' device printf output, block by block.
  std::string output;
  // (start, end) of each launch that ran, in MonotonicNanos, in order (a
  // kernel host's batch; its figures are the host's word only).
  std::vector<std::pair<int64_t, int64_t>> launch_times;
  // With BlockRun::time_blocks: the blocks that ran, in block order per
  // launch.
  std::vector<BlockTime> block_times;
  // A block's floating-point arithmetic overflowed, divided by zero or made
  // a NaN of numbers (IEEE overflow, divide-by-zero or invalid; half and
  // bfloat16 conversions that overflow count too).
  bool float_overflow = false;
  // With a failed status: the launch of the batch that failed (its index).
  uint32_t failed_launch = 0;
};

// Where a launch's result waits for its stream task to come back for it.
// Shared between the task and whatever finishes the launch, so a task
// dropped by force-destroy cannot pull it from under them.
class LaunchAnswer {
 public:
  void Set(BlockRunResult result) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    result_ = std::move(result);
    done_ = true;
  }
  // False until Set(); then moves the result out.
  bool Take(BlockRunResult* result) ABSL_LOCKS_EXCLUDED(mu_) {
    absl::MutexLock lock(&mu_);
    if (!done_) return false;
    *result = std::move(result_);
    return true;
  }

 private:
  absl::Mutex mu_;
  bool done_ ABSL_GUARDED_BY(mu_) = false;
  BlockRunResult result_ ABSL_GUARDED_BY(mu_);
};

// Launch arguments kept in device memory (aclrtLaunchKernelWithConfig's
// device args): their bytes, read when the launch starts; kRtParamInvalid
// when shorter than the `min_size` the kernel takes.
absl::Status ReadDeviceArgs(const DeviceRange& source, uint32_t min_size, std::string* args);

// Runs the blocks of `run` on `pool` and calls `done` once, on the core
// thread that finished the last block. `pool` must outlive the run.
void RunBlocks(std::shared_ptr<BlockRun> run, AiCorePool* pool,
               std::function<void(BlockRunResult)> done);

// Runs `runs` (one stream's launches) one after the other, each launch's
// blocks on the cores of `pool`, and calls `done` once, on the core thread
// that finished the last of them, with the first failure (and its index in
// failed_launch), all their output, each launch's (start, end) and, for
// launches that time their blocks, at most `max_block_times` block times.
// With `stop_on_failure` the launches after a failed one do not run. A
// launch started from the end of the one before stays on its core (see
// AiCorePool::Submit): a batch of one-block launches wakes one thread.
void RunLaunches(std::vector<std::shared_ptr<BlockRun>> runs, bool stop_on_failure,
                 AiCorePool* pool, size_t max_block_times,
                 std::function<void(BlockRunResult)> done);

// Sets each pointer slot of `args` to the address of its data within
// `args` ((slot offset, data offset) pairs, checked against args->size()).
void ResolvePlaceholders(std::string* args,
                         const std::vector<std::pair<uint32_t, uint32_t>>& placeholders);

// Appends a span for each block of `times` that belongs to launch `launch`
// of `kernel`'s span, kept inside that span (a kernel host's figures are
// its word only) and dropped when its block is not one of the kernel's.
void AppendBlockSpans(const TaskSpan& kernel, uint32_t launch, const std::vector<BlockTime>& times,
                      std::vector<TaskSpan>* out);

// The device exception a failing kernel of this type reports.
AclCode ExceptionCodeFor(uint32_t kernel_type);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_KERNEL_BLOCKS_H_
