#include "simdevice/value_tasks.h"

#include <atomic>
#include <utility>

namespace npud::sim {
namespace {

// Device memory another thread (a kernel, another stream) may write.
uint64_t Load(const DeviceRange& at) {
  return __atomic_load_n(reinterpret_cast<const uint64_t*>(at.data()), __ATOMIC_ACQUIRE);
}

bool Holds(uint64_t current, uint64_t value, ValueCondition condition) {
  switch (condition) {
    case ValueCondition::kGreaterOrEqual:
      return current >= value;
    case ValueCondition::kEqual:
      return current == value;
    case ValueCondition::kAnd:
      return (current & value) != 0;
    case ValueCondition::kNor:
      return ~(current | value) != 0;
  }
  return false;
}

class ValueWaitTask final : public Task {
 public:
  ValueWaitTask(DeviceRange at, uint64_t value, ValueCondition condition, Poller* poller)
      : at_(std::move(at)), value_(value), condition_(condition), poller_(poller) {}

  Progress Run(const Waker& wake, absl::Status* status) override {
    if (!Holds(Load(at_), value_, condition_)) {
      poller_->WakeSoon(wake);
      return Progress::kPending;
    }
    *status = absl::OkStatus();
    return Progress::kDone;
  }
  bool WaitsOnOthers() const override { return true; }
  const char* name() const override { return "value-wait"; }
  TaskKind kind() const override { return TaskKind::kWait; }

 private:
  const DeviceRange at_;
  const uint64_t value_;
  const ValueCondition condition_;
  Poller* const poller_;
};

}  // namespace

std::unique_ptr<Task> MakeValueWriteTask(DeviceRange at, uint64_t value) {
  return std::make_unique<FunctionTask>("value-write", [at = std::move(at), value]() {
    __atomic_store_n(reinterpret_cast<uint64_t*>(at.data()), value, __ATOMIC_RELEASE);
    return absl::OkStatus();
  });
}

std::unique_ptr<Task> MakeValueWaitTask(DeviceRange at, uint64_t value, ValueCondition condition,
                                        Poller* poller) {
  return std::make_unique<ValueWaitTask>(std::move(at), value, condition, poller);
}

}  // namespace npud::sim
