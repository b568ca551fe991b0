// memory_tasks.h
//
// Copies and memsets on validated (pinned) device ranges, as stream tasks.
// Each range stays pinned until its task is gone, so freeing the memory while
// the task waits in its stream cannot make the task touch unmapped pages.

#ifndef NPUD_SIMDEVICE_MEMORY_TASKS_H_
#define NPUD_SIMDEVICE_MEMORY_TASKS_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/types/span.h"
#include "simdevice/device_range.h"
#include "simdevice/task.h"

namespace npud::sim {

// Writes `bytes` (whose size must equal dst.size) to dst.
std::unique_ptr<Task> MakeWriteTask(DeviceRange dst, std::string bytes);

// Hands the bytes of src to `sink` when the task runs; `sink` must not block.
std::unique_ptr<Task> MakeReadTask(DeviceRange src,
                                   std::function<void(absl::Span<const uint8_t>)> sink);

// Copies src to dst (same size; the ranges may be on different devices and
// may overlap).
std::unique_ptr<Task> MakeCopyTask(DeviceRange dst, DeviceRange src);

// Fills dst with `value`.
std::unique_ptr<Task> MakeMemsetTask(DeviceRange dst, uint8_t value);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_MEMORY_TASKS_H_
