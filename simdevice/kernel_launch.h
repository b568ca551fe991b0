// kernel_launch.h
//
// The stream task of one kernel launch run in this process (the in-process
// transport; npud itself runs kernels in a kernel host, see
// executor/hosted_launch.h): fans the launch's blocks out over the AI cores
// (kernel_blocks.h), parks its stream until the last block is done, then
// hands the blocks' printf output to the launch's print sink and completes
// with the first block's failure, if any.

#ifndef NPUD_SIMDEVICE_KERNEL_LAUNCH_H_
#define NPUD_SIMDEVICE_KERNEL_LAUNCH_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "simdevice/ai_core_pool.h"
#include "simdevice/device_range.h"
#include "simdevice/kernel_module.h"
#include "simdevice/launch_observer.h"
#include "simdevice/task.h"

namespace npud::sim {

struct LaunchSpec {
  std::shared_ptr<const KernelModule> module;
  // npud's id of the module's binary (Task::FailedLaunch reports it).
  uint64_t binary_id = 0;
  int kernel = 0;
  uint32_t block_dim = 1;
  // The packed arguments; may be longer than the kernel's args_size (the
  // tail then holds placeholder data the arguments point into).
  std::string args;
  // (pointer slot offset, data offset) pairs within `args`: each slot is set
  // to the address of its data once the task owns the arguments. Offsets
  // must have been checked against args.size().
  std::vector<std::pair<uint32_t, uint32_t>> placeholders;
  // If set, the arguments are read from this device memory when the launch
  // starts (and `args` is ignored).
  std::optional<DeviceRange> args_source;
  uint64_t ub_bytes = 0;
  int device_id = 0;
  uint64_t stream_id = 0;
  // Asked whether to time the blocks, told the output and float overflow.
  // May be null (no blocks timed, nothing told).
  std::shared_ptr<const LaunchObserver> observer;
};

// A launch on this process's AI cores. Launches queued behind it on its
// stream join it and run right after it; with `stop_on_failure` (the
// stream's mode) those after a failed one do not run. `pool` must outlive
// the task.
std::unique_ptr<Task> MakeKernelLaunchTask(LaunchSpec spec, bool stop_on_failure, AiCorePool* pool);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_KERNEL_LAUNCH_H_
