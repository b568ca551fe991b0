#include "client/core/device_identity.h"

#include <vector>

#include "absl/strings/str_format.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// CANN's bound on device ids in its id checks (RT_MAX_DEV_NUM).
constexpr int32_t kMaxDeviceId = 64;
// The operations of aclrtAtomicOperation: [INTEGER_ADD, SIMD_SCALAR_EXCH].
constexpr int32_t kFirstAtomicOperation = 0;
constexpr int32_t kLastAtomicOperation = 44;
constexpr uint64_t kTopologyHccs = 0x01;
constexpr uint64_t kTopologySys = 0x10;

// SplitMix64's finalizer: spreads an id over all 64 bits.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

absl::StatusOr<int32_t> MapDeviceId(int32_t id) {
  if (id < 0) return AclError(kRtParamInvalid, absl::StrFormat("device id %d is negative", id));
  NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(id));
  return id;
}

absl::StatusOr<std::array<uint8_t, 16>> DeviceUuid(int32_t device) {
  NPUD_ASSIGN_OR_RETURN(const Runtime::DevicePlace place, Runtime::Get().PlaceOf(device));
  const uint64_t high = Mix(place.instance_id);
  const uint64_t low = Mix(high ^ static_cast<uint64_t>(place.local_device + 1));
  std::array<uint8_t, 16> uuid{};
  for (int i = 0; i < 8; ++i) {
    uuid[i] = static_cast<uint8_t>(high >> (56 - 8 * i));
    uuid[8 + i] = static_cast<uint8_t>(low >> (56 - 8 * i));
  }
  uuid[6] = static_cast<uint8_t>((uuid[6] & 0x0f) | 0x80);  // Version 8.
  uuid[8] = static_cast<uint8_t>((uuid[8] & 0x3f) | 0x80);  // Variant 10.
  return uuid;
}

absl::StatusOr<std::string> DevicePciBusId(int32_t device) {
  NPUD_ASSIGN_OR_RETURN(const Runtime::DevicePlace place, Runtime::Get().PlaceOf(device));
  return absl::StrFormat("%04x:%02x:%02x.%x", place.daemon & 0xffff,
                         (place.local_device + 1) & 0xff, 0, 0);
}

absl::StatusOr<int32_t> DeviceByPciBusId(std::string_view bus_id) {
  NPUD_ASSIGN_OR_RETURN(const std::vector<v1::DeviceDescription> devices, Runtime::Get().Devices());
  for (int32_t device = 0; device < static_cast<int32_t>(devices.size()); ++device) {
    NPUD_ASSIGN_OR_RETURN(const std::string id, DevicePciBusId(device));
    if (id == bus_id) return device;
  }
  return AclError(kRtParamInvalid,
                  absl::StrFormat("no device has the PCI bus id \"%s\"", std::string(bus_id)));
}

absl::StatusOr<uint64_t> DevicesTopology(int32_t device, int32_t other) {
  Runtime& runtime = Runtime::Get();
  NPUD_ASSIGN_OR_RETURN(const Runtime::DevicePlace a, runtime.PlaceOf(device));
  NPUD_ASSIGN_OR_RETURN(const Runtime::DevicePlace b, runtime.PlaceOf(other));
  return a.daemon == b.daemon ? kTopologyHccs : kTopologySys;
}

absl::StatusOr<int32_t> PeerAccessStatus(int32_t device, int32_t peer) {
  NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(device));
  if (peer < 0 || peer >= kMaxDeviceId) {
    return AclError(kRtParamInvalid, absl::StrFormat("peer device id %d is out of range", peer));
  }
  return Runtime::Get().objects().PeerAccessEnabled(device, peer) ? 1 : 0;
}

absl::Status AtomicCapabilities(uint32_t* capabilities, const int32_t* operations, uint32_t count,
                                int32_t device, const int32_t* peer) {
  if (capabilities == nullptr) return AclError(kRtParamInvalid, "capabilities is null");
  if (operations == nullptr) return AclError(kRtParamInvalid, "operations is null");
  if (count == 0) return AclError(kRtParamInvalid, "count must be positive");
  if (peer != nullptr && *peer == device) {
    return AclError(kRtInvalidDeviceId, "the source and destination devices are the same");
  }
  NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(device));
  if (peer != nullptr) NPUD_RETURN_IF_ERROR(Runtime::Get().CheckDevice(*peer));
  for (uint32_t i = 0; i < count; ++i) {
    if (operations[i] < kFirstAtomicOperation || operations[i] > kLastAtomicOperation) {
      return AclError(
          kRtParamInvalid,
          absl::StrFormat("operations[%d] = %d is not an aclrtAtomicOperation", i, operations[i]));
    }
  }
  for (uint32_t i = 0; i < count; ++i) capabilities[i] = 0;
  return absl::OkStatus();
}

}  // namespace npud::client
