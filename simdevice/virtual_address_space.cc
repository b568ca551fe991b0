#include "simdevice/virtual_address_space.h"

#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "simdevice/address_reservation.h"
#include "spdlog/spdlog.h"

namespace npud::sim {
namespace {

constexpr uint64_t kGranularity = PhysicalMemory::kGranularity;

bool Aligned(uint64_t value) { return value % kGranularity == 0; }

}  // namespace

// One reservation's address range: given back to the space when the
// reservation is released and no lingering mapping uses it any more.
class VirtualAddressSpace::Span {
 public:
  Span(VirtualAddressSpace* space, uint64_t address, uint64_t size)
      : space_(space), address_(address), size_(size) {}
  ~Span() { space_->ReturnRange(address_, size_); }
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;

 private:
  VirtualAddressSpace* const space_;
  const uint64_t address_;
  const uint64_t size_;
};

// Physical memory placed at an address. When the last pin goes, withdraws
// the range from other processes and fences it.
class VirtualAddressSpace::Mapping {
 public:
  Mapping(const VirtualAddressSpace* space, uint64_t address, uint64_t size, uint64_t offset,
          std::shared_ptr<PhysicalMemory> memory, std::shared_ptr<Span> span)
      : address(address),
        size(size),
        offset(offset),
        memory(std::move(memory)),
        space_(space),
        span_(std::move(span)) {}
  ~Mapping() {
    if (space_->release_observer_) space_->release_observer_(address, size);
    FenceAddressRange(address, size);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  const uint64_t address;
  const uint64_t size;
  const uint64_t offset;  // into memory's file
  const std::shared_ptr<PhysicalMemory> memory;
  // Guarded by the space's mu_.
  Access access = Access::kReadWrite;

 private:
  const VirtualAddressSpace* const space_;
  // Keeps the range out of the allocator while the pages are in place.
  const std::shared_ptr<Span> span_;
};

absl::StatusOr<std::unique_ptr<VirtualAddressSpace>> VirtualAddressSpace::Create(
    uint64_t span, uint64_t preferred_base) {
  span = (span + kGranularity - 1) / kGranularity * kGranularity;
  NPUD_ASSIGN_OR_RETURN(uint64_t base, ReserveAddressSpace(span, preferred_base));
  if (base % kGranularity != 0) {
    // Placed elsewhere, unaligned: take one granule more and trim both ends.
    munmap(reinterpret_cast<void*>(base), span);
    NPUD_ASSIGN_OR_RETURN(base, ReserveAddressSpace(span + kGranularity, 0));
    const uint64_t aligned = (base + kGranularity - 1) / kGranularity * kGranularity;
    if (aligned != base) munmap(reinterpret_cast<void*>(base), aligned - base);
    const uint64_t tail = base + span + kGranularity - (aligned + span);
    if (tail != 0) munmap(reinterpret_cast<void*>(aligned + span), tail);
    base = aligned;
  }
  return std::unique_ptr<VirtualAddressSpace>(new VirtualAddressSpace(base, span));
}

VirtualAddressSpace::VirtualAddressSpace(uint64_t base, uint64_t span)
    : base_(base), span_(span), ranges_(base, span) {}

VirtualAddressSpace::~VirtualAddressSpace() {
  std::map<uint64_t, Reservation> doomed;
  {
    absl::MutexLock lock(&mu_);
    doomed.swap(reservations_);
  }
  doomed.clear();  // Fences every mapping while the reservation exists.
  munmap(reinterpret_cast<void*>(base_), span_);
}

void VirtualAddressSpace::ReturnRange(uint64_t address, uint64_t size) {
  absl::MutexLock lock(&mu_);
  ranges_.Return(address, size);
}

absl::StatusOr<uint64_t> VirtualAddressSpace::Reserve(uint64_t owner, uint64_t size,
                                                      uint64_t alignment, uint64_t hint) {
  if (size == 0 || !Aligned(size)) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("reservation size %u is not a nonzero multiple of the "
                                    "allocation granularity (%u)",
                                    size, kGranularity));
  }
  if (alignment == 0) alignment = kGranularity;
  if ((alignment & (alignment - 1)) != 0 || !Aligned(alignment)) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("alignment %u is not a power-of-two multiple of %u", alignment,
                                    kGranularity));
  }
  absl::MutexLock lock(&mu_);
  uint64_t address = 0;
  if (hint != 0 && hint % alignment == 0 && InRange(hint) && ranges_.TakeAt(hint, size)) {
    address = hint;
  } else {
    address = ranges_.Take(size, alignment);
  }
  if (address == 0) {
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("no room for a %u byte reservation in the device virtual "
                                    "address space",
                                    size));
  }
  reservations_[address] =
      Reservation{owner, size, std::make_shared<Span>(this, address, size), {}, {}};
  return address;
}

absl::StatusOr<VirtualAddressSpace::Reservation*> VirtualAddressSpace::Lookup(uint64_t owner,
                                                                              uint64_t address,
                                                                              uint64_t size) const {
  auto it = reservations_.upper_bound(address);
  if (it != reservations_.begin()) {
    --it;
    Reservation& reservation = it->second;
    const uint64_t start = it->first;
    if (address - start < reservation.size && reservation.owner == owner) {
      if (size > reservation.size - (address - start)) {
        return AclError(kRtParamInvalid,
                        absl::StrFormat("range %#x+%u runs past the end of reservation %#x+%u",
                                        address, size, start, reservation.size));
      }
      return &reservation;
    }
  }
  return AclError(
      kRtParamInvalid,
      absl::StrFormat("%#x is not inside an address range this process reserved", address));
}

absl::StatusOr<const std::shared_ptr<VirtualAddressSpace::Mapping>*> VirtualAddressSpace::MappingAt(
    const Reservation& reservation, uint64_t address, uint64_t size) {
  auto it = reservation.mappings.upper_bound(address);
  if (it != reservation.mappings.begin()) {
    const std::shared_ptr<Mapping>& mapping = std::prev(it)->second;
    if (address - mapping->address < mapping->size) {
      if (size > mapping->size - (address - mapping->address)) {
        return AclError(kRtParamInvalid,
                        absl::StrFormat("range %#x+%u runs past the end of mapping %#x+%u", address,
                                        size, mapping->address, mapping->size));
      }
      return &mapping;
    }
  }
  return AclError(
      kRtParamInvalid,
      absl::StrFormat("%#x is reserved but no physical memory is mapped there", address));
}

absl::StatusOr<const std::shared_ptr<VirtualAddressSpace::Mapping>*> VirtualAddressSpace::MappingOf(
    uint64_t owner, uint64_t address, uint64_t size) const {
  NPUD_ASSIGN_OR_RETURN(Reservation * reservation, Lookup(owner, address, size));
  return MappingAt(*reservation, address, size);
}

absl::Status VirtualAddressSpace::Release(uint64_t owner, uint64_t address) {
  Reservation doomed;
  {
    absl::MutexLock lock(&mu_);
    auto it = reservations_.find(address);
    if (it == reservations_.end() || it->second.owner != owner) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%#x is not the start of an address range this process "
                                      "reserved",
                                      address));
    }
    if (!it->second.mappings.empty()) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("reservation %#x still has %u mapping(s); unmap them first",
                                      address, it->second.mappings.size()));
    }
    doomed = std::move(it->second);
    reservations_.erase(it);
  }
  // Dropping the span outside mu_: it may give the range back right here.
  return absl::OkStatus();
}

absl::Status VirtualAddressSpace::Map(uint64_t owner, uint64_t address, uint64_t size,
                                      uint64_t offset, std::shared_ptr<PhysicalMemory> memory,
                                      Access access) {
  if (memory == nullptr) return AclError(kRtParamInvalid, "no physical memory to map");
  if (size == 0 || !Aligned(size) || !Aligned(offset) || !Aligned(address)) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("map of %#x+%u at offset %u: address, size and offset must "
                                    "be multiples of the granularity (%u)",
                                    address, size, offset, kGranularity));
  }
  if (offset > memory->size() || size > memory->size() - offset) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("offset %u + size %u exceeds the %u bytes of physical memory",
                                    offset, size, memory->size()));
  }
  absl::MutexLock lock(&mu_);
  NPUD_ASSIGN_OR_RETURN(Reservation * reservation, Lookup(owner, address, size));
  Reservation& r = *reservation;
  const auto overlaps = [address, size](uint64_t start, uint64_t length) {
    return start < address + size && address < start + length;
  };
  for (const auto& [start, mapping] : r.mappings) {
    if (overlaps(start, mapping->size)) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%#x+%u overlaps the mapping at %#x", address, size, start));
    }
  }
  r.lingering.erase(std::remove_if(r.lingering.begin(), r.lingering.end(),
                                   [](const Lingering& l) { return l.mapping.expired(); }),
                    r.lingering.end());
  for (const Lingering& l : r.lingering) {
    if (overlaps(l.address, l.size)) {
      return AclError(
          kRtParamInvalid,
          absl::StrFormat("%#x+%u was unmapped but queued work still uses it", l.address, l.size));
    }
  }
  void* placed = mmap(reinterpret_cast<void*>(address), size, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_FIXED, memory->fd(), static_cast<off_t>(offset));
  if (placed == MAP_FAILED) {
    return AclError(kRtMemoryAllocation, absl::StrFormat("cannot map physical memory at %#x: %s",
                                                         address, std::strerror(errno)));
  }
  auto mapping = std::make_shared<Mapping>(this, address, size, offset, std::move(memory), r.span);
  mapping->access = access;
  r.mappings[address] = std::move(mapping);
  generation_.fetch_add(1);
  return absl::OkStatus();
}

absl::Status VirtualAddressSpace::Unmap(uint64_t owner, uint64_t address) {
  std::shared_ptr<Mapping> doomed;
  absl::MutexLock lock(&mu_);
  NPUD_ASSIGN_OR_RETURN(Reservation * reservation, Lookup(owner, address, 1));
  Reservation& r = *reservation;
  auto it = r.mappings.find(address);
  if (it == r.mappings.end()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("no physical memory is mapped starting at %#x", address));
  }
  doomed = std::move(it->second);
  r.mappings.erase(it);
  generation_.fetch_add(1);
  r.lingering.push_back(Lingering{doomed->address, doomed->size, doomed});
  // `doomed` is released after the lock (declared first): if it is the last
  // reference, the pages are fenced there; the reservation still holds the
  // span, so no lock is needed for that.
  return absl::OkStatus();
}

absl::Status VirtualAddressSpace::SetAccess(uint64_t owner, uint64_t address, uint64_t size,
                                            Access access) {
  absl::MutexLock lock(&mu_);
  NPUD_ASSIGN_OR_RETURN(Reservation * reservation, Lookup(owner, address, size));
  // Every mapping the range touches must be mapped all the way.
  uint64_t at = address;
  while (at < address + size) {
    NPUD_ASSIGN_OR_RETURN(const std::shared_ptr<Mapping>* mapping, MappingAt(*reservation, at, 1));
    Mapping& found = **mapping;
    if ((found.access == Access::kNone) != (access == Access::kNone)) generation_.fetch_add(1);
    found.access = access;
    at = found.address + found.size;
  }
  return absl::OkStatus();
}

absl::StatusOr<VirtualAddressSpace::AccessInfo> VirtualAddressSpace::GetAccess(
    uint64_t owner, uint64_t address) const {
  absl::MutexLock lock(&mu_);
  NPUD_ASSIGN_OR_RETURN(const std::shared_ptr<Mapping>* mapping, MappingOf(owner, address, 1));
  return AccessInfo{(*mapping)->memory->device_id(), (*mapping)->access};
}

absl::StatusOr<std::shared_ptr<PhysicalMemory>> VirtualAddressSpace::MemoryAt(
    uint64_t owner, uint64_t address) const {
  absl::MutexLock lock(&mu_);
  NPUD_ASSIGN_OR_RETURN(const std::shared_ptr<Mapping>* mapping, MappingOf(owner, address, 1));
  return (*mapping)->memory;
}

absl::StatusOr<DeviceRange> VirtualAddressSpace::Find(uint64_t owner, uint64_t address,
                                                      uint64_t size) const {
  absl::MutexLock lock(&mu_);
  NPUD_ASSIGN_OR_RETURN(const std::shared_ptr<Mapping>* mapping, MappingOf(owner, address, size));
  const std::shared_ptr<Mapping>& pinned = *mapping;
  if (pinned->access == Access::kNone) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("the memory mapped at %#x has no access yet: it was mapped "
                                    "with aclrtMemMapNoAccess and needs aclrtMemSetAccess",
                                    pinned->address));
  }
  if (pinned->memory->revoked()) {
    return AclError(kRtIpcError,
                    absl::StrFormat("the process that shared the physical memory mapped at %#x "
                                    "has ended",
                                    pinned->address));
  }
  return DeviceRange{
      pinned,       pinned->memory->device_id(), address,       size, pinned->address,
      pinned->size, pinned->memory->fd(),        pinned->offset};
}

void VirtualAddressSpace::ReleaseAll(uint64_t owner) {
  std::vector<Reservation> doomed;
  {
    absl::MutexLock lock(&mu_);
    for (auto it = reservations_.begin(); it != reservations_.end();) {
      if (it->second.owner == owner) {
        doomed.push_back(std::move(it->second));
        it = reservations_.erase(it);
      } else {
        ++it;
      }
    }
  }
}

std::vector<VirtualAddressSpace::MappedRange> VirtualAddressSpace::MappingsOf(
    uint64_t owner) const {
  std::vector<MappedRange> ranges;
  absl::MutexLock lock(&mu_);
  for (const auto& [address, reservation] : reservations_) {
    if (reservation.owner != owner) continue;
    for (const auto& [start, mapping] : reservation.mappings) {
      if (mapping->access == Access::kNone) continue;
      ranges.push_back({mapping->address, mapping->size, mapping->offset, mapping->memory});
    }
  }
  return ranges;
}

VirtualAddressSpace::Usage VirtualAddressSpace::UsageOf(uint64_t owner) const {
  Usage usage;
  absl::MutexLock lock(&mu_);
  for (const auto& [address, reservation] : reservations_) {
    if (reservation.owner != owner) continue;
    usage.reserved_bytes += reservation.size;
    for (const auto& [start, mapping] : reservation.mappings) usage.mapped_bytes += mapping->size;
  }
  return usage;
}

}  // namespace npud::sim
