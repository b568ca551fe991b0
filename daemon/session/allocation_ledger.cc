#include "daemon/session/allocation_ledger.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {

AllocationLedger::~AllocationLedger() { ReleaseAll(); }

absl::StatusOr<uint64_t> AllocationLedger::Allocate(int device_id, uint64_t size) {
  NPUD_ASSIGN_OR_RETURN(sim::Device * device, devices_->Get(device_id));
  NPUD_RETURN_IF_ERROR(quota_->Charge(size));
  absl::StatusOr<uint64_t> allocated = device->memory().Allocate(size);
  if (!allocated.ok()) {
    quota_->Uncharge(size);
    return allocated.status();
  }
  const uint64_t address = *allocated;
  absl::MutexLock lock(&mu_);
  allocations_[address] = Allocation{device_id, size};
  ++version_;
  uint64_t& held = allocated_[device_id];
  held += size;
  peak_[device_id] = std::max(peak_[device_id], held);
  return address;
}

absl::Status AllocationLedger::Free(uint64_t address) {
  Allocation allocation;
  {
    absl::MutexLock lock(&mu_);
    auto it = allocations_.find(address);
    if (it == allocations_.end()) {
      if (devices_->Resolve(address, 1).ok()) {
        spdlog::warn("session {} (pid {}) tried to free {:#x}, which it does not own", session_id_,
                     pid_, address);
      }
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%#x is not a device allocation of this process", address));
    }
    allocation = it->second;
    allocations_.erase(it);
    allocated_[allocation.device_id] -= allocation.size;
    ++version_;
  }
  quota_->Uncharge(allocation.size);
  NPUD_ASSIGN_OR_RETURN(sim::Device * device, devices_->Get(allocation.device_id));
  return device->memory().Free(address);
}

absl::Status AllocationLedger::AddImport(const std::string& key,
                                         std::shared_ptr<SharedMemory> memory) {
  NPUD_RETURN_IF_ERROR(quota_->Charge(memory->size()));
  std::shared_ptr<SharedMemory> replaced;  // released after the lock
  absl::MutexLock lock(&mu_);
  std::shared_ptr<SharedMemory>& slot = imports_[key];
  if (slot != nullptr) quota_->Uncharge(slot->size());
  replaced = std::exchange(slot, std::move(memory));
  ++version_;
  return absl::OkStatus();
}

bool AllocationLedger::CloseImport(const std::string& key) {
  std::shared_ptr<SharedMemory> closed;  // released after the lock
  absl::MutexLock lock(&mu_);
  auto it = imports_.find(key);
  if (it == imports_.end()) return false;
  closed = std::move(it->second);
  imports_.erase(it);
  quota_->Uncharge(closed->size());
  ++version_;
  return true;
}

absl::StatusOr<sim::DeviceRange> AllocationLedger::Access(uint64_t address, uint64_t size) const {
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [key, memory] : imports_) {
      if (memory->Contains(address, size)) return memory->Range(address, size);
    }
  }
  return Owned(address, size);
}

absl::StatusOr<sim::DeviceRange> AllocationLedger::Owned(uint64_t address, uint64_t size) const {
  if (devices_->vmm().InRange(address)) return devices_->vmm().Find(session_id_, address, size);
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange range, devices_->Resolve(address, size));
  absl::MutexLock lock(&mu_);
  if (!allocations_.contains(range.base)) {
    spdlog::warn("session {} (pid {}) tried to use {:#x}, memory it does not own", session_id_,
                 pid_, address);
    return AclError(
        kRtParamInvalid,
        absl::StrFormat("%#x is not inside a device allocation of this process", address));
  }
  return range;
}

uint64_t AllocationLedger::ReleaseAll() {
  absl::flat_hash_map<uint64_t, Allocation> allocations;
  absl::flat_hash_map<std::string, std::shared_ptr<SharedMemory>> imports;
  {
    absl::MutexLock lock(&mu_);
    allocations.swap(allocations_);
    imports.swap(imports_);
    allocated_.clear();
    ++version_;
  }
  uint64_t bytes = 0;
  for (const auto& [key, memory] : imports) quota_->Uncharge(memory->size());
  for (const auto& [address, allocation] : allocations) {
    quota_->Uncharge(allocation.size);
    auto device = devices_->Get(allocation.device_id);
    if (device.ok()) (*device)->memory().Free(address).IgnoreError();
    bytes += allocation.size;
  }
  return bytes;
}

uint64_t AllocationLedger::version() const {
  absl::MutexLock lock(&mu_);
  return version_;
}

std::vector<AllocationLedger::Touchable> AllocationLedger::Touchables() const {
  absl::MutexLock lock(&mu_);
  std::vector<Touchable> ranges = AllocationsLocked();
  for (const auto& [key, memory] : imports_) {
    ranges.push_back({memory->device_id(), memory->address(), memory->size()});
  }
  return ranges;
}

std::vector<AllocationLedger::Touchable> AllocationLedger::Allocations() const {
  absl::MutexLock lock(&mu_);
  return AllocationsLocked();
}

std::vector<AllocationLedger::Touchable> AllocationLedger::AllocationsLocked() const {
  std::vector<Touchable> ranges;
  for (const auto& [address, allocation] : allocations_) {
    ranges.push_back({allocation.device_id, address, allocation.size});
  }
  return ranges;
}

AllocationLedger::Usage AllocationLedger::usage() const {
  Usage usage;
  absl::MutexLock lock(&mu_);
  for (const auto& [device_id, bytes] : allocated_) {
    if (bytes > 0) usage.bytes_by_device[device_id] = bytes;
  }
  usage.peak_by_device = peak_;
  usage.allocations = allocations_.size();
  usage.imports = imports_.size();
  return usage;
}

}  // namespace npud::daemon
