// memory_tasks.h
//
// Copies and memsets on validated (pinned) device ranges, as stream tasks.
// Each range stays pinned until its task is gone, so freeing the memory while
// the task waits in its stream cannot make the task touch unmapped pages.

#ifndef NPUD_SIMDEVICE_MEMORY_TASKS_H_
#define NPUD_SIMDEVICE_MEMORY_TASKS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/types/span.h"
#include "simdevice/device_range.h"
#include "simdevice/task.h"

namespace npud::sim {

// Writes `bytes` (whose size must equal dst.size) to dst.
std::unique_ptr<Task> MakeWriteTask(DeviceRange dst, std::string bytes);

// Takes the bytes of a read, chunk by chunk, at its own pace: a consumer
// that has too much unread (a client that does not keep up) parks the read,
// and with it the stream, instead of making anyone buffer without bound.
class ReadConsumer {
 public:
  virtual ~ReadConsumer() = default;
  // The bytes at `offset` of the read; `last` marks its end (a read of 0
  // bytes delivers one empty last chunk). Must not block.
  virtual void Deliver(uint64_t offset, absl::Span<const uint8_t> bytes, bool last) = 0;
  // True if the consumer takes another chunk now. Otherwise it arranges for
  // `wake` to be called once it does — never from inside this call — and
  // returns false.
  virtual bool ReadyOrWake(const Waker& wake) = 0;
};

// Hands the bytes of src to `consumer` in chunks of at most `chunk_bytes`.
std::unique_ptr<Task> MakeReadTask(DeviceRange src, size_t chunk_bytes,
                                   std::shared_ptr<ReadConsumer> consumer);

// Copies src to dst (same size; the ranges may be on different devices and
// may overlap).
std::unique_ptr<Task> MakeCopyTask(DeviceRange dst, DeviceRange src);

// Fills dst with `value`.
std::unique_ptr<Task> MakeMemsetTask(DeviceRange dst, uint8_t value);
// Repeats the 32-bit `value` over `dst` (a multiple of 4 bytes).
std::unique_ptr<Task> MakeFill32Task(DeviceRange dst, uint32_t value);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_MEMORY_TASKS_H_
