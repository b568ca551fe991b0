#include "client/core/managed_memory.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_format.h"
#include "client/core/context_ops.h"
#include "client/core/host_memory.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// aclrtMemManagedLocationType.
constexpr uint32_t kInvalid = 0, kDevice = 1, kHost = 2, kHostNuma = 3, kHostNumaCurrent = 4;
// aclrtMemManagedAdviseType.
enum Advice : uint32_t {
  kSetReadMostly = 0,
  kUnsetReadMostly,
  kSetPreferredLocation,
  kUnsetPreferredLocation,
  kSetAccessedBy,
  kUnsetAccessedBy,
};
// aclrtMemManagedRangeAttribute.
enum Attribute : uint32_t {
  kReadMostly = 1,
  kPreferredLocation,
  kAccessedBy,
  kPreferredLocationType,
  kPreferredLocationId,
  kLastPrefetchLocation,
  kLastPrefetchLocationType,
  kLastPrefetchLocationId,
};
// CANN's answers for "the host" and "not one location" in an id.
constexpr int32_t kHostId = -1;
constexpr int32_t kNoId = -2;
// One process may hold at most 3 TiB of managed memory, as in CANN.
constexpr uint64_t kProcessLimit = 3ull << 40;

// Checks a location named by the caller and returns it as stored: the
// current thread's NUMA node is node 0, the only one npud reports.
absl::StatusOr<ManagedLocation> Normalize(ManagedLocation location) {
  switch (location.type) {
    case kDevice: {
      NPUD_ASSIGN_OR_RETURN(const auto devices, Runtime::Get().Devices());
      if (location.id < 0 || static_cast<size_t>(location.id) >= devices.size()) {
        return AclError(kRtParamInvalid, absl::StrFormat("no device %d", location.id));
      }
      return location;
    }
    case kHost:
      return ManagedLocation{kHost, 0};
    case kHostNuma:
      if (location.id != 0) {
        return AclError(kRtParamInvalid,
                        absl::StrFormat("no host NUMA node %d (npud reports node 0)", location.id));
      }
      return location;
    case kHostNumaCurrent:
      return ManagedLocation{kHostNuma, 0};
    default:
      return AclError(kRtParamInvalid,
                      absl::StrFormat("invalid managed memory location type %d", location.type));
  }
}

int32_t IdOf(const ManagedLocation& location) {
  if (location.type == kHost) return kHostId;
  return location.type == kInvalid ? kNoId : location.id;
}

absl::Status StoreInt(int32_t value, void* data, size_t data_size) {
  if (data_size != sizeof(int32_t)) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("this attribute is a 4-byte integer, not %d bytes", data_size));
  }
  std::memcpy(data, &value, sizeof(value));
  return absl::OkStatus();
}

}  // namespace

bool operator==(const ManagedLocation& a, const ManagedLocation& b) {
  return a.type == b.type && (a.type == kHost || a.type == kInvalid || a.id == b.id);
}

absl::StatusOr<void*> ManagedMemory::Allocate(uint64_t size, uint32_t flag) {
  constexpr uint32_t kAttachGlobal = 0x1;
  if (size == 0) return AclError(kAclInvalidParam, "cannot allocate 0 bytes");
  if (flag != kAttachGlobal) {
    return AclError(
        kRtParamInvalid,
        absl::StrFormat("managed memory flag %#x: only ACL_RT_MEM_ATTACH_GLOBAL", flag));
  }
  if (size > kProcessLimit) {
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("%u bytes of managed memory exceed a process's 3 TiB", size));
  }
  const uint64_t rounded = (size + kGranule - 1) / kGranule * kGranule;
  {
    // Counted before the allocation, so that allocations at once cannot
    // together pass the limit.
    absl::MutexLock lock(&mu_);
    if (rounded > kProcessLimit - held_bytes_) {
      return AclError(
          kRtMemoryAllocation,
          absl::StrFormat("%u more bytes of managed memory exceed a process's 3 TiB", rounded));
    }
    held_bytes_ += rounded;
  }
  const absl::StatusOr<int32_t> device = CurrentDevice();
  const absl::StatusOr<void*> pointer =
      device.ok() ? host_.AllocateAtDeviceAddress(rounded, *device) : device.status();
  absl::MutexLock lock(&mu_);
  if (!pointer.ok()) {
    held_bytes_ -= rounded;
    return pointer.status();
  }
  allocations_[reinterpret_cast<uintptr_t>(*pointer)] =
      Allocation{rounded, std::vector<Granule>(rounded / kGranule)};
  return *pointer;
}

bool ManagedMemory::IsAllocation(const void* pointer) const {
  absl::MutexLock lock(&mu_);
  return allocations_.count(reinterpret_cast<uintptr_t>(pointer)) != 0;
}

absl::Status ManagedMemory::Free(void* pointer) {
  {
    absl::MutexLock lock(&mu_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(pointer));
    if (it == allocations_.end()) {
      return AclError(kRtParamInvalid, absl::StrFormat("%p is not managed memory", pointer));
    }
    held_bytes_ -= it->second.size;
    allocations_.erase(it);
  }
  return host_.FreeAtDeviceAddress(pointer);
}

bool ManagedMemory::Contains(const void* pointer) const {
  absl::MutexLock lock(&mu_);
  return Find(pointer, 1).ok();
}

absl::StatusOr<ManagedMemory::Span> ManagedMemory::Find(const void* pointer, uint64_t size) const {
  const uintptr_t p = reinterpret_cast<uintptr_t>(pointer);
  auto it = allocations_.upper_bound(p);
  if (it != allocations_.begin()) {
    --it;
    const uint64_t offset = p - it->first;
    if (offset < it->second.size && size <= it->second.size - offset) {
      auto* allocation = const_cast<Allocation*>(&it->second);
      return Span{allocation, offset / kGranule, (offset + size - 1) / kGranule};
    }
  }
  return AclError(
      kRtParamInvalid,
      absl::StrFormat("%p+%u is not inside one allocation of managed memory", pointer, size));
}

absl::Status ManagedMemory::Advise(const void* pointer, uint64_t size, uint32_t advise,
                                   ManagedLocation location) {
  if (advise > kUnsetAccessedBy) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid managed memory advice %d", advise));
  }
  if (size == 0 || size % kGranule != 0) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("advice size %u is not a positive multiple of 2 MiB", size));
  }
  const bool uses_location =
      advise == kSetPreferredLocation || advise == kSetAccessedBy || advise == kUnsetAccessedBy;
  if (uses_location) {
    NPUD_ASSIGN_OR_RETURN(location, Normalize(location));
  }
  absl::MutexLock lock(&mu_);
  NPUD_ASSIGN_OR_RETURN(const Span span, Find(pointer, size));
  for (size_t i = span.first; i <= span.last; ++i) {
    Granule& granule = span.allocation->granules[i];
    std::vector<ManagedLocation>& accessors = granule.accessed_by;
    const auto accessor = std::find(accessors.begin(), accessors.end(), location);
    switch (advise) {
      case kSetReadMostly:
      case kUnsetReadMostly:
        granule.read_mostly = advise == kSetReadMostly;
        break;
      case kSetPreferredLocation:
        granule.preferred = location;
        break;
      case kUnsetPreferredLocation:
        granule.preferred = ManagedLocation{};
        break;
      case kSetAccessedBy:
        if (accessor == accessors.end()) accessors.push_back(location);
        break;
      default:
        if (accessor != accessors.end()) accessors.erase(accessor);
        break;
    }
  }
  return absl::OkStatus();
}

absl::Status ManagedMemory::Prefetch(const std::vector<ManagedPrefetch>& prefetches, uint64_t flags,
                                     void* stream) {
  if (flags != 0) {
    return AclError(kRtParamInvalid, absl::StrFormat("prefetch flags %#x must be 0", flags));
  }
  NPUD_RETURN_IF_ERROR(ResolveStream(stream).status());
  std::vector<ManagedLocation> targets;
  for (const ManagedPrefetch& prefetch : prefetches) {
    if (prefetch.size == 0 || prefetch.size % kGranule != 0) {
      return AclError(
          kRtParamInvalid,
          absl::StrFormat("prefetch size %u is not a positive multiple of 2 MiB", prefetch.size));
    }
    NPUD_ASSIGN_OR_RETURN(ManagedLocation target, Normalize(prefetch.location));
    targets.push_back(target);
  }
  absl::MutexLock lock(&mu_);
  std::vector<Span> spans;
  for (const ManagedPrefetch& prefetch : prefetches) {
    NPUD_ASSIGN_OR_RETURN(Span span, Find(prefetch.pointer, prefetch.size));
    spans.push_back(span);
  }
  for (size_t i = 0; i < spans.size(); ++i) {
    for (size_t g = spans[i].first; g <= spans[i].last; ++g) {
      spans[i].allocation->granules[g].last_prefetch = targets[i];
    }
  }
  return absl::OkStatus();
}

absl::Status ManagedMemory::PrefetchToDevice(const void* pointer, size_t size, int32_t device) {
  if (size == 0) return AclError(kAclInvalidParam, "cannot prefetch 0 bytes");
  NPUD_ASSIGN_OR_RETURN(const auto devices, Runtime::Get().Devices());
  if (device < 0 || static_cast<size_t>(device) >= devices.size()) {
    return AclError(kRtInvalidDeviceId, absl::StrFormat("no device %d", device));
  }
  absl::MutexLock lock(&mu_);
  NPUD_ASSIGN_OR_RETURN(const Span span, Find(pointer, size));
  for (size_t g = span.first; g <= span.last; ++g) {
    span.allocation->granules[g].last_prefetch = ManagedLocation{kDevice, device};
  }
  return absl::OkStatus();
}

absl::Status ManagedMemory::GetAttribute(uint32_t attribute, const void* pointer, size_t size,
                                         void* data, size_t data_size) const {
  if (size == 0) return AclError(kRtParamInvalid, "cannot query a range of 0 bytes");
  absl::MutexLock lock(&mu_);
  NPUD_ASSIGN_OR_RETURN(const Span span, Find(pointer, size));
  const std::vector<Granule>& granules = span.allocation->granules;
  // The location every granule of the range shares, else INVALID.
  auto common = [&](ManagedLocation Granule::*field) {
    const ManagedLocation first = granules[span.first].*field;
    for (size_t i = span.first + 1; i <= span.last; ++i) {
      if (!(granules[i].*field == first)) return ManagedLocation{};
    }
    return first;
  };
  switch (attribute) {
    case kReadMostly: {
      bool all = true;
      for (size_t i = span.first; i <= span.last; ++i) all = all && granules[i].read_mostly;
      return StoreInt(all ? 1 : 0, data, data_size);
    }
    case kPreferredLocation:
      return StoreInt(IdOf(common(&Granule::preferred)), data, data_size);
    case kLastPrefetchLocation:
      return StoreInt(IdOf(common(&Granule::last_prefetch)), data, data_size);
    case kPreferredLocationType:
      return StoreInt(static_cast<int32_t>(common(&Granule::preferred).type), data, data_size);
    case kLastPrefetchLocationType:
      return StoreInt(static_cast<int32_t>(common(&Granule::last_prefetch).type), data, data_size);
    case kPreferredLocationId:
    case kLastPrefetchLocationId: {
      const ManagedLocation where =
          common(attribute == kPreferredLocationId ? &Granule::preferred : &Granule::last_prefetch);
      const bool has_id = where.type == kDevice || where.type == kHostNuma;
      return StoreInt(has_id ? where.id : kNoId, data, data_size);
    }
    case kAccessedBy: {
      if (data_size == 0 || data_size % sizeof(int32_t) != 0) {
        return AclError(kRtParamInvalid,
                        absl::StrFormat("accessed-by results need a non-zero multiple of 4 "
                                        "bytes, not %d",
                                        data_size));
      }
      // Who was named for every granule of the range; the rest of the
      // array says "none" (-2).
      std::vector<int32_t> ids;
      for (const ManagedLocation& accessor : granules[span.first].accessed_by) {
        bool everywhere = true;
        for (size_t i = span.first + 1; i <= span.last && everywhere; ++i) {
          const auto& others = granules[i].accessed_by;
          everywhere = std::find(others.begin(), others.end(), accessor) != others.end();
        }
        if (everywhere) ids.push_back(IdOf(accessor));
      }
      ids.resize(data_size / sizeof(int32_t), kNoId);
      std::memcpy(data, ids.data(), data_size);
      return absl::OkStatus();
    }
    default:
      return AclError(kRtParamInvalid,
                      absl::StrFormat("invalid managed memory range attribute %d", attribute));
  }
}

}  // namespace npud::client
