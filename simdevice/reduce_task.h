// reduce_task.h
//
// The built-in reduce task (aclrtReduceAsync): dst[i] = dst[i] op src[i]
// over the elements of two equal device ranges, as the DMA engine's
// reducing copy does. Floating types compute in double and round to the
// element type to nearest even, as the hardware does; integers wrap.

#ifndef NPUD_SIMDEVICE_REDUCE_TASK_H_
#define NPUD_SIMDEVICE_REDUCE_TASK_H_

#include <cstddef>
#include <memory>

#include "simdevice/device_range.h"
#include "simdevice/task.h"

namespace npud::sim {

enum class ReduceOp { kSum, kMax, kMin };
enum class ReduceType { kInt8, kInt16, kInt32, kFloat16, kBfloat16, kFloat32 };

size_t ElementBytes(ReduceType type);

// `dst` and `src` have the same size, a multiple of ElementBytes(type);
// they may overlap only if they are the same range.
std::unique_ptr<Task> MakeReduceTask(DeviceRange dst, DeviceRange src, ReduceOp op,
                                     ReduceType type);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_REDUCE_TASK_H_
