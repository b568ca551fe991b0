#include "client/core/resource_limits.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"

namespace npud::client {
namespace {

constexpr uint32_t kCubeCores = 0;
constexpr uint32_t kVectorCores = 1;

// Limits set so far, keyed by (device or stream id, type). Unset means the
// device's full core count.
struct Limits {
  absl::Mutex mu;
  absl::flat_hash_map<std::pair<int64_t, uint32_t>, uint32_t> device ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<std::pair<uint64_t, uint32_t>, uint32_t> stream ABSL_GUARDED_BY(mu);
};

Limits& AllLimits() {
  static Limits* limits = new Limits();
  return *limits;
}

// The device's core count for `type`, checking both.
absl::StatusOr<uint32_t> CoreCount(int32_t device, uint32_t type) {
  if (type != kCubeCores && type != kVectorCores) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid resource type %d", type));
  }
  auto devices = Runtime::Get().Devices();
  if (!devices.ok()) return devices.status();
  if (device < 0 || device >= static_cast<int32_t>(devices->size())) {
    return AclError(kRtInvalidDeviceId, absl::StrFormat("invalid device id %d", device));
  }
  const v1::DeviceDescription& d = (*devices)[device];
  return type == kCubeCores ? d.cube_cores() : d.vector_cores();
}

absl::Status CheckValue(uint32_t value, uint32_t max) {
  if (value == 0 || value > max) {
    return AclError(kRtParamInvalid, absl::StrFormat("limit %d is outside 1..%d", value, max));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status SetDeviceLimit(int32_t device, uint32_t type, uint32_t value) {
  auto max = CoreCount(device, type);
  if (!max.ok()) return max.status();
  if (absl::Status s = CheckValue(value, *max); !s.ok()) return s;
  Limits& limits = AllLimits();
  absl::MutexLock lock(&limits.mu);
  limits.device[{device, type}] = value;
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> GetDeviceLimit(int32_t device, uint32_t type) {
  auto max = CoreCount(device, type);
  if (!max.ok()) return max.status();
  Limits& limits = AllLimits();
  absl::MutexLock lock(&limits.mu);
  auto it = limits.device.find({device, type});
  return it == limits.device.end() ? *max : it->second;
}

absl::Status ResetDeviceLimits(int32_t device) {
  if (auto max = CoreCount(device, kCubeCores); !max.ok()) return max.status();
  Limits& limits = AllLimits();
  absl::MutexLock lock(&limits.mu);
  limits.device.erase({device, kCubeCores});
  limits.device.erase({device, kVectorCores});
  return absl::OkStatus();
}

absl::Status SetStreamLimit(void* stream, uint32_t type, uint32_t value) {
  auto target = ResolveStream(stream);
  if (!target.ok()) return target.status();
  auto max = GetDeviceLimit(target->device, type);
  if (!max.ok()) return max.status();
  if (absl::Status s = CheckValue(value, *max); !s.ok()) return s;
  Limits& limits = AllLimits();
  absl::MutexLock lock(&limits.mu);
  limits.stream[{target->id, type}] = value;
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> GetStreamLimit(void* stream, uint32_t type) {
  auto target = ResolveStream(stream);
  if (!target.ok()) return target.status();
  auto device_limit = GetDeviceLimit(target->device, type);
  if (!device_limit.ok()) return device_limit.status();
  Limits& limits = AllLimits();
  absl::MutexLock lock(&limits.mu);
  auto it = limits.stream.find({target->id, type});
  return it == limits.stream.end() ? *device_limit : it->second;
}

absl::Status ResetStreamLimits(void* stream) {
  auto target = ResolveStream(stream);
  if (!target.ok()) return target.status();
  Limits& limits = AllLimits();
  absl::MutexLock lock(&limits.mu);
  limits.stream.erase({target->id, kCubeCores});
  limits.stream.erase({target->id, kVectorCores});
  return absl::OkStatus();
}

}  // namespace npud::client
