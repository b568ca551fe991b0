#include "simdevice/memory_tasks.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace npud::sim {

std::unique_ptr<Task> MakeWriteTask(DeviceRange dst, std::string bytes) {
  const uint64_t size = bytes.size();
  return std::make_unique<FunctionTask>(
      "write-device",
      [dst = std::move(dst), bytes = std::move(bytes)]() {
        std::memcpy(dst.data(), bytes.data(), bytes.size());
        return absl::OkStatus();
      },
      TaskKind::kCopy, size);
}

namespace {

class ReadTask final : public Task {
 public:
  ReadTask(DeviceRange src, size_t chunk_bytes, std::shared_ptr<ReadConsumer> consumer)
      : src_(std::move(src)),
        chunk_bytes_(std::max<size_t>(chunk_bytes, 1)),
        consumer_(std::move(consumer)) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    do {
      if (!consumer_->ReadyOrWake(wake)) return Progress::kPending;
      const size_t n = std::min<uint64_t>(chunk_bytes_, src_.size - offset_);
      const uint64_t at = offset_;
      offset_ += n;
      consumer_->Deliver(at, absl::Span<const uint8_t>(src_.data() + at, n), offset_ == src_.size);
    } while (offset_ < src_.size);
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  const char* name() const override { return "read-device"; }
  TaskKind kind() const override { return TaskKind::kCopy; }
  void Spans(int64_t start_ns, int64_t end_ns, std::vector<TaskSpan>* out) const override {
    out->push_back(TaskSpan{name(), kind(), start_ns, end_ns, src_.size});
  }

 private:
  const DeviceRange src_;
  const size_t chunk_bytes_;
  const std::shared_ptr<ReadConsumer> consumer_;
  // Bytes delivered so far.
  uint64_t offset_ = 0;
};

}  // namespace

std::unique_ptr<Task> MakeReadTask(DeviceRange src, size_t chunk_bytes,
                                   std::shared_ptr<ReadConsumer> consumer) {
  return std::make_unique<ReadTask>(std::move(src), chunk_bytes, std::move(consumer));
}

std::unique_ptr<Task> MakeCopyTask(DeviceRange dst, DeviceRange src) {
  const uint64_t size = dst.size;
  return std::make_unique<FunctionTask>(
      "copy-device",
      [dst = std::move(dst), src = std::move(src)]() {
        std::memmove(dst.data(), src.data(), dst.size);
        return absl::OkStatus();
      },
      TaskKind::kCopy, size);
}

std::unique_ptr<Task> MakeMemsetTask(DeviceRange dst, uint8_t value) {
  const uint64_t size = dst.size;
  return std::make_unique<FunctionTask>(
      "memset-device",
      [dst = std::move(dst), value]() {
        std::memset(dst.data(), value, dst.size);
        return absl::OkStatus();
      },
      TaskKind::kMemset, size);
}

std::unique_ptr<Task> MakeFill32Task(DeviceRange dst, uint32_t value) {
  const uint64_t size = dst.size;
  return std::make_unique<FunctionTask>(
      "fill32-device",
      [dst = std::move(dst), value]() {
        for (uint64_t at = 0; at + 4 <= dst.size; at += 4) std::memcpy(dst.data() + at, &value, 4);
        return absl::OkStatus();
      },
      TaskKind::kMemset, size);
}

}  // namespace npud::sim
