#include "daemon/session/memory_snapshot.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "simdevice/device_range.h"

namespace npud::daemon {

std::vector<sim::DeviceRange> MemorySnapshot::Allocations(const AllocationLedger& memory) {
  std::vector<sim::DeviceRange> ranges;
  for (const AllocationLedger::Touchable& allocation : memory.Allocations()) {
    // Gone since the list was taken: nothing to save.
    absl::StatusOr<sim::DeviceRange> range = memory.Owned(allocation.address, allocation.size);
    if (range.ok()) ranges.push_back(*std::move(range));
  }
  return ranges;
}

uint64_t MemorySnapshot::Save(const std::vector<sim::DeviceRange>& allocations) {
  std::vector<Region> regions;
  uint64_t bytes = 0;
  for (const sim::DeviceRange& range : allocations) {
    regions.push_back(
        {range.address, std::string(reinterpret_cast<const char*>(range.data()), range.size)});
    bytes += range.size;
  }
  absl::MutexLock lock(&mu_);
  regions_ = std::move(regions);
  return bytes;
}

absl::StatusOr<uint64_t> MemorySnapshot::Restore(const AllocationLedger& memory) const {
  absl::MutexLock lock(&mu_);
  if (!regions_) return AclError(kSnapshotRestoreFailed, "no backup to restore from");
  // Every range first, so that a restore is all or nothing.
  std::vector<sim::DeviceRange> ranges;
  for (const Region& region : *regions_) {
    absl::StatusOr<sim::DeviceRange> range = memory.Owned(region.address, region.bytes.size());
    if (!range.ok() || range->base != region.address || range->extent != region.bytes.size()) {
      return AclError(
          kSnapshotRestoreFailed,
          absl::StrFormat("the allocation at %#x that was backed up is gone", region.address));
    }
    ranges.push_back(*std::move(range));
  }
  uint64_t bytes = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    std::memcpy(ranges[i].data(), (*regions_)[i].bytes.data(), (*regions_)[i].bytes.size());
    bytes += ranges[i].size;
  }
  return bytes;
}

void MemorySnapshot::Discard() {
  absl::MutexLock lock(&mu_);
  regions_.reset();
}

}  // namespace npud::daemon
