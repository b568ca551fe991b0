#include "client/core/resource_limits.h"

#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/context_ops.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "client/core/thread_state.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

constexpr uint32_t kCubeCores = 0;
constexpr uint32_t kVectorCores = 1;

// The device's core count for `type`, checking both.
absl::StatusOr<uint32_t> CoreCount(int32_t device, uint32_t type) {
  if (type != kCubeCores && type != kVectorCores) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid resource type %d", type));
  }
  NPUD_ASSIGN_OR_RETURN(const std::vector<v1::DeviceDescription> devices, Runtime::Get().Devices());
  if (device < 0 || device >= static_cast<int32_t>(devices.size())) {
    return AclError(kRtInvalidDeviceId, absl::StrFormat("invalid device id %d", device));
  }
  const v1::DeviceDescription& d = devices[device];
  return type == kCubeCores ? d.cube_cores() : d.vector_cores();
}

absl::Status CheckValue(uint32_t value, uint32_t max) {
  if (value == 0 || value > max) {
    return AclError(kRtParamInvalid, absl::StrFormat("limit %d is outside 1..%d", value, max));
  }
  return absl::OkStatus();
}

template <typename Map, typename Key>
std::optional<uint32_t> Lookup(const Map& map, const Key& key) {
  auto it = map.find(key);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

CoreLimits& Limits() { return Runtime::Get().core_limits(); }

}  // namespace

void CoreLimits::SetDevice(int32_t device, uint32_t type, uint32_t value) {
  absl::MutexLock lock(&mu_);
  device_[{device, type}] = value;
}

std::optional<uint32_t> CoreLimits::Device(int32_t device, uint32_t type) const {
  absl::MutexLock lock(&mu_);
  return Lookup(device_, std::pair<int64_t, uint32_t>(device, type));
}

void CoreLimits::ResetDevice(int32_t device) {
  absl::MutexLock lock(&mu_);
  device_.erase({device, kCubeCores});
  device_.erase({device, kVectorCores});
}

void CoreLimits::SetStream(uint64_t stream, uint32_t type, uint32_t value) {
  absl::MutexLock lock(&mu_);
  stream_[{stream, type}] = value;
}

std::optional<uint32_t> CoreLimits::Stream(uint64_t stream, uint32_t type) const {
  absl::MutexLock lock(&mu_);
  return Lookup(stream_, std::pair<uint64_t, uint32_t>(stream, type));
}

void CoreLimits::ResetStream(uint64_t stream) {
  absl::MutexLock lock(&mu_);
  stream_.erase({stream, kCubeCores});
  stream_.erase({stream, kVectorCores});
}

absl::Status SetDeviceLimit(int32_t device, uint32_t type, uint32_t value) {
  NPUD_ASSIGN_OR_RETURN(const uint32_t max, CoreCount(device, type));
  NPUD_RETURN_IF_ERROR(CheckValue(value, max));
  Limits().SetDevice(device, type, value);
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> GetDeviceLimit(int32_t device, uint32_t type) {
  NPUD_ASSIGN_OR_RETURN(const uint32_t max, CoreCount(device, type));
  return Limits().Device(device, type).value_or(max);
}

absl::Status ResetDeviceLimits(int32_t device) {
  NPUD_RETURN_IF_ERROR(CoreCount(device, kCubeCores).status());
  Limits().ResetDevice(device);
  return absl::OkStatus();
}

absl::Status SetStreamLimit(void* stream, uint32_t type, uint32_t value) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  NPUD_ASSIGN_OR_RETURN(const uint32_t max, GetDeviceLimit(target.device, type));
  NPUD_RETURN_IF_ERROR(CheckValue(value, max));
  Limits().SetStream(target.id, type, value);
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> GetStreamLimit(void* stream, uint32_t type) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  NPUD_ASSIGN_OR_RETURN(const uint32_t device_limit, GetDeviceLimit(target.device, type));
  return Limits().Stream(target.id, type).value_or(device_limit);
}

absl::Status ResetStreamLimits(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  Limits().ResetStream(target.id);
  return absl::OkStatus();
}

absl::Status UseStreamLimitsInThread(void* stream) {
  NPUD_RETURN_IF_ERROR(ResolveStream(stream).status());
  ThisThread().resource_stream = stream;
  return absl::OkStatus();
}

absl::Status UnuseStreamLimitsInThread(void* stream) {
  NPUD_RETURN_IF_ERROR(ResolveStream(stream).status());
  std::optional<void*>& used = ThisThread().resource_stream;
  if (used.has_value() && *used == stream) used.reset();
  return absl::OkStatus();
}

absl::StatusOr<uint32_t> GetThreadLimit(uint32_t type) {
  if (const std::optional<void*> used = ThisThread().resource_stream; used.has_value()) {
    return GetStreamLimit(*used, type);
  }
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  return GetDeviceLimit(device, type);
}

}  // namespace npud::client
