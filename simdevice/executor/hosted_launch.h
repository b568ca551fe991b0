// hosted_launch.h
//
// The stream task of a kernel launch that runs in a kernel host: sends the
// launch when the stream reaches it, parks the stream until the host
// answers, then hands the blocks' printf output to the print sink and
// completes with the launch's status (the device exception of a failed
// block, of a host that died, or of a timeout).
//
// Launches queued on a stream behind work still running are batched: the
// task absorbs the launches submitted after it (same host, host arguments,
// up to kMaxBatch of them) and sends them together; the host runs them in
// order, so a stream of small launches costs one round trip per batch
// instead of one per launch.

#ifndef NPUD_SIMDEVICE_EXECUTOR_HOSTED_LAUNCH_H_
#define NPUD_SIMDEVICE_EXECUTOR_HOSTED_LAUNCH_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "simdevice/device_range.h"
#include "simdevice/executor/kernel_host.h"
#include "simdevice/launch_observer.h"
#include "simdevice/task.h"

namespace npud::sim {

struct HostedLaunchSpec {
  std::shared_ptr<KernelHost> host;
  HostedLaunch launch;
  // The launches after a failed one do not run (the stream's mode).
  bool stop_on_failure = false;
  // If set, the arguments are read from this device memory when the launch
  // starts (and launch.args is replaced).
  std::optional<DeviceRange> args_source;
  uint32_t min_args_size = 0;
  // Asked when the batch is sent whether its launches time their blocks;
  // told the batch's output and float overflow (the launches of a batch
  // share a stream and a device). May be null.
  std::shared_ptr<const LaunchObserver> observer;
  // Held until the launch has run: the memory its host was given when it
  // was submitted, so that memory freed meanwhile (by its exporter, say)
  // stays mapped for it. May be null.
  std::shared_ptr<const void> keep_alive;
};

std::unique_ptr<Task> MakeHostedLaunchTask(HostedLaunchSpec spec);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_EXECUTOR_HOSTED_LAUNCH_H_
