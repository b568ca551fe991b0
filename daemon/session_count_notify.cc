// Session handlers for count notifies (aclrtCntNotify*): counters that
// streams set, add to or mask, and wait on until they reach a value.

#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "daemon/session.h"

namespace npud::daemon {
namespace {

using RecordMode = sim::CountNotify::RecordMode;
using WaitMode = sim::CountNotify::WaitMode;

absl::StatusOr<RecordMode> ToRecordMode(uint32_t mode) {
  switch (mode) {
    case static_cast<uint32_t>(RecordMode::kSet):
    case static_cast<uint32_t>(RecordMode::kAdd):
    case static_cast<uint32_t>(RecordMode::kOr):
    case static_cast<uint32_t>(RecordMode::kAnd):
      return static_cast<RecordMode>(mode);
    default:
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%u is not an aclrtCntNotifyRecordMode", mode));
  }
}

absl::StatusOr<WaitMode> ToWaitMode(uint32_t mode) {
  if (mode > static_cast<uint32_t>(WaitMode::kAllBits)) {
    return AclError(kRtParamInvalid, absl::StrFormat("%u is not an aclrtCntNotifyWaitMode", mode));
  }
  return static_cast<WaitMode>(mode);
}

}  // namespace

absl::StatusOr<std::shared_ptr<sim::CountNotify>> Session::FindCountNotify(
    uint64_t notify_id) const {
  absl::MutexLock lock(&mu_);
  auto it = count_notifies_.find(notify_id);
  if (it == count_notifies_.end()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("count notify %d does not exist", notify_id));
  }
  return it->second;
}

Session::Outcome Session::CreateCountNotify(const v1::CreateCountNotify& op) {
  if (auto device = devices_->Get(op.device_id()); !device.ok()) return device.status();
  if (op.notify_id() == 0) return AclError(kRtParamInvalid, "count notify id 0 is reserved");
  absl::MutexLock lock(&mu_);
  auto [it, inserted] = count_notifies_.try_emplace(op.notify_id());
  if (!inserted) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("count notify id %d already exists", op.notify_id()));
  }
  it->second = std::make_shared<sim::CountNotify>(op.device_id(), op.notify_id());
  return v1::Reply();
}

Session::Outcome Session::DestroyCountNotify(const v1::DestroyCountNotify& op) {
  absl::MutexLock lock(&mu_);
  if (count_notifies_.erase(op.notify_id()) == 0) {
    return AclError(kRtInvalidHandle,
                    absl::StrFormat("count notify %d does not exist", op.notify_id()));
  }
  return v1::Reply();
}

Session::Outcome Session::RecordCountNotify(const v1::RecordCountNotify& op) {
  auto mode = ToRecordMode(op.mode());
  if (!mode.ok()) return mode.status();
  auto notify = FindCountNotify(op.notify_id());
  if (!notify.ok()) return notify.status();
  return Done(
      Submit(op.stream_id(), sim::MakeCountRecordTask(*std::move(notify), *mode, op.value())));
}

Session::Outcome Session::WaitCountNotify(const v1::WaitCountNotify& op) {
  auto mode = ToWaitMode(op.mode());
  if (!mode.ok()) return mode.status();
  auto notify = FindCountNotify(op.notify_id());
  if (!notify.ok()) return notify.status();
  DelayedExecutor* timers = timers_;
  sim::WakeAt wake_at = [timers](absl::Time when, sim::Waker wake) {
    timers->RunAfter(when - absl::Now(), std::move(wake));
  };
  return Done(Submit(op.stream_id(), sim::MakeCountWaitTask(
                                         *std::move(notify), *mode, op.value(), op.clear(),
                                         absl::Milliseconds(op.timeout_ms()), std::move(wake_at))));
}

Session::Outcome Session::ResetCountNotify(const v1::ResetCountNotify& op) {
  auto notify = FindCountNotify(op.notify_id());
  if (!notify.ok()) return notify.status();
  return Done(Submit(op.stream_id(), sim::MakeCountResetTask(*std::move(notify))));
}

}  // namespace npud::daemon
