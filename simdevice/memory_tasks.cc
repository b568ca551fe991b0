#include "simdevice/memory_tasks.h"

#include <cstring>
#include <utility>

namespace npud::sim {

std::unique_ptr<Task> MakeWriteTask(DeviceRange dst, std::string bytes) {
  return std::make_unique<FunctionTask>("write-device",
                                        [dst = std::move(dst), bytes = std::move(bytes)]() {
                                          std::memcpy(dst.data(), bytes.data(), bytes.size());
                                          return absl::OkStatus();
                                        });
}

std::unique_ptr<Task> MakeReadTask(DeviceRange src,
                                   std::function<void(absl::Span<const uint8_t>)> sink) {
  return std::make_unique<FunctionTask>("read-device",
                                        [src = std::move(src), sink = std::move(sink)]() {
                                          sink(absl::Span<const uint8_t>(src.data(), src.size));
                                          return absl::OkStatus();
                                        });
}

std::unique_ptr<Task> MakeCopyTask(DeviceRange dst, DeviceRange src) {
  return std::make_unique<FunctionTask>("copy-device",
                                        [dst = std::move(dst), src = std::move(src)]() {
                                          std::memmove(dst.data(), src.data(), dst.size);
                                          return absl::OkStatus();
                                        });
}

std::unique_ptr<Task> MakeMemsetTask(DeviceRange dst, uint8_t value) {
  return std::make_unique<FunctionTask>("memset-device", [dst = std::move(dst), value]() {
    std::memset(dst.data(), value, dst.size);
    return absl::OkStatus();
  });
}

}  // namespace npud::sim
