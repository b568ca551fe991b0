// value_tasks.h
//
// aclrtValueWrite / aclrtValueWait: a stream writes a 64-bit value to device
// memory, or waits until the value there meets a condition — the device
// side of a flag shared between streams, processes, or a kernel.

#ifndef NPUD_SIMDEVICE_VALUE_TASKS_H_
#define NPUD_SIMDEVICE_VALUE_TASKS_H_

#include <cstdint>
#include <memory>

#include "simdevice/device_range.h"
#include "simdevice/poller.h"
#include "simdevice/task.h"

namespace npud::sim {

// Conditions of aclrtValueWait (ACL_STREAM_WAIT_VALUE_*).
enum class ValueCondition : uint32_t { kGreaterOrEqual = 0, kEqual = 1, kAnd = 2, kNor = 3 };

// `at` covers the 8 bytes written or watched.
std::unique_ptr<Task> MakeValueWriteTask(DeviceRange at, uint64_t value);
// `poller` must outlive the task.
std::unique_ptr<Task> MakeValueWaitTask(DeviceRange at, uint64_t value, ValueCondition condition,
                                        Poller* poller);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_VALUE_TASKS_H_
