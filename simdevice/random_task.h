// random_task.h
//
// The built-in random number task (aclrtRandomNumAsync): fills device
// memory with numbers of a distribution, from a Philox4x32-10 stream keyed
// by the seed and started at the 128-bit counter kept in device memory,
// which the task then advances past the blocks it used — so consecutive
// tasks with one counter give fresh numbers, and a reset counter repeats
// them. (The real device's engine is also counter based; its exact
// numbers are not reproduced.)
//
// Uniform: [a, b) (integers: a <= x < b). Normal: mean a, deviation b;
// truncated redraws beyond two deviations. Dropout bitmask: bit i of the
// output (little-endian within bytes) is 1, keep, with probability 1 - a.
// Floating results round to the element type to nearest even.

#ifndef NPUD_SIMDEVICE_RANDOM_TASK_H_
#define NPUD_SIMDEVICE_RANDOM_TASK_H_

#include <cstdint>
#include <memory>
#include <optional>

#include "simdevice/device_range.h"
#include "simdevice/task.h"

namespace npud::sim {

enum class RandomDistribution { kDropoutBitmask, kUniform, kNormal, kTruncatedNormal };
enum class RandomType { kInt32, kInt64, kUint32, kUint64, kFloat16, kBfloat16, kFloat32 };

size_t ElementBytes(RandomType type);

// A parameter: its bytes (little-endian, `size` of them), given or read
// from device memory when the task runs.
struct RandomParam {
  uint64_t bits = 0;
  uint32_t size = 0;
  std::optional<DeviceRange> source;
};

struct RandomSpec {
  RandomDistribution distribution = RandomDistribution::kUniform;
  // The type of the results and of a and b (a dropout ratio is a float).
  RandomType type = RandomType::kFloat32;
  RandomParam a, b, seed;
  uint64_t count = 0;
  // count elements (bitmask: count bits) and 16 bytes of counter.
  DeviceRange result;
  DeviceRange counter;
};

std::unique_ptr<Task> MakeRandomTask(RandomSpec spec);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_RANDOM_TASK_H_
