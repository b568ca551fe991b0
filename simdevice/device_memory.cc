#include "simdevice/device_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "simdevice/address_reservation.h"
#include "spdlog/spdlog.h"

namespace npud::sim {
namespace {

constexpr uint64_t kGuardBytes = DeviceMemory::kPageSize;

uint64_t RoundUp(uint64_t value, uint64_t to) { return (value + to - 1) / to * to; }

// A memory file of `bytes` (sealed: nobody it is handed to can shrink it
// under npud, which would turn npud's own accesses into SIGBUS) mapped at
// `address`; returns its descriptor.
absl::StatusOr<int> MapAllocation(uint64_t address, uint64_t bytes) {
  const int fd = memfd_create("npud-device-memory", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) {
    return AclError(kRtMemoryAllocation,
                    absl::StrCat("cannot create device memory: ", std::strerror(errno),
                                 errno == EMFILE ? " (npud holds as many descriptors as it may; "
                                                   "each allocation takes one)"
                                                 : ""));
  }
  if (ftruncate(fd, static_cast<off_t>(bytes)) != 0 ||
      fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0 ||
      mmap(reinterpret_cast<void*>(address), bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
           fd, 0) == MAP_FAILED) {
    const int err = errno;
    close(fd);
    FenceAddressRange(address, bytes);
    return AclError(kRtMemoryAllocation,
                    absl::StrCat("cannot map device memory: ", std::strerror(err)));
  }
  return fd;
}

}  // namespace

uint64_t DeviceMemory::SpanFor(uint64_t capacity) {
  // Every allocation is followed by a guard page, so in the worst case (all
  // allocations one page) the guards take as much room as the data.
  return 2 * RoundUp(capacity, kPageSize) + (64ull << 20);
}

absl::StatusOr<std::unique_ptr<DeviceMemory>> DeviceMemory::Create(uint64_t capacity,
                                                                   uint64_t preferred_base,
                                                                   HostMemoryBudget* budget) {
  if (capacity == 0 || capacity > (1ull << 42)) {
    return AclError(kRtParamInvalid, absl::StrCat("unsupported device memory size ", capacity));
  }
  capacity = RoundUp(capacity, kPageSize);
  const uint64_t span = SpanFor(capacity);
  NPUD_ASSIGN_OR_RETURN(const uint64_t base, ReserveAddressSpace(span, preferred_base));
  return std::unique_ptr<DeviceMemory>(new DeviceMemory(base, span, capacity, budget));
}

DeviceMemory::DeviceMemory(uint64_t base, uint64_t span, uint64_t capacity,
                           HostMemoryBudget* budget)
    : base_(base),
      span_(span),
      capacity_(capacity),
      budget_(budget),
      // The first page stays a guard, so no allocation starts at the base.
      ranges_(base + kGuardBytes, span - kGuardBytes) {}

DeviceMemory::~DeviceMemory() {
  // Release the blocks while the reservation still exists (their pages are
  // fenced one by one), then drop the reservation itself.
  std::map<uint64_t, BlockRef> doomed;
  {
    absl::MutexLock lock(&mu_);
    doomed.swap(allocations_);
  }
  doomed.clear();
  munmap(reinterpret_cast<void*>(base_), span_);
}

uint64_t DeviceMemory::peak_used_bytes() const {
  absl::MutexLock lock(&mu_);
  return peak_;
}

uint64_t DeviceMemory::used_bytes() const {
  absl::MutexLock lock(&mu_);
  return used_;
}

DeviceMemory::Block::~Block() { owner_->Release(address_, reserved_, fd_); }

absl::Status DeviceMemory::TakeFromBudget(uint64_t bytes) {
  if (budget_ == nullptr || budget_->Take(bytes)) return absl::OkStatus();
  return AclError(kRtMemoryAllocation,
                  absl::StrFormat("npud's host memory limit (--host_memory_limit_mib): %u bytes "
                                  "requested, %u of %u in use by all devices",
                                  bytes, budget_->used(), budget_->limit()));
}

absl::StatusOr<uint64_t> DeviceMemory::Allocate(uint64_t size) {
  if (size == 0) return AclError(kRtParamInvalid, "device allocation of 0 bytes");
  if (size > capacity_) {
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("cannot allocate %u bytes: device has %u", size, capacity_));
  }
  const uint64_t reserved = RoundUp(size, kPageSize);
  uint64_t address = 0;
  {
    absl::MutexLock lock(&mu_);
    if (used_ + reserved > capacity_) {
      return AclError(kRtMemoryAllocation,
                      absl::StrFormat("out of device memory: %u bytes requested, %u of %u in use",
                                      size, used_, capacity_));
    }
    NPUD_RETURN_IF_ERROR(TakeFromBudget(reserved));
    address = ranges_.Take(reserved + kGuardBytes, kPageSize);
    if (address == 0) {
      if (budget_ != nullptr) budget_->Give(reserved);
      return AclError(
          kRtMemoryAllocation,
          absl::StrFormat("device address space fragmented: no room for %u bytes", size));
    }
    used_ += reserved;
    peak_ = std::max(peak_, used_);
  }
  // Outside the lock: the range is ours alone until it is published below.
  absl::StatusOr<int> fd = MapAllocation(address, reserved);
  if (!fd.ok()) {
    absl::MutexLock lock(&mu_);
    used_ -= reserved;
    if (budget_ != nullptr) budget_->Give(reserved);
    ranges_.Return(address, reserved + kGuardBytes);
    return fd.status();
  }
  auto block = std::make_shared<const Block>(this, address, size, reserved, *fd);
  absl::MutexLock lock(&mu_);
  allocations_[address] = std::move(block);
  return address;
}

absl::Status DeviceMemory::Free(uint64_t address) {
  BlockRef block;
  {
    absl::MutexLock lock(&mu_);
    auto it = allocations_.find(address);
    if (it == allocations_.end()) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("0x%x is not the start of a device allocation", address));
    }
    block = std::move(it->second);
    allocations_.erase(it);
  }
  // `block` may be the last reference: ~Block then runs Release() here,
  // outside mu_.
  return absl::OkStatus();
}

void DeviceMemory::Release(uint64_t address, uint64_t reserved, int fd) {
  // Withdraw the range from other processes and fence it before anyone can
  // be given it again; the pages go with the file.
  if (release_observer_) release_observer_(address, reserved);
  FenceAddressRange(address, reserved);
  close(fd);
  absl::MutexLock lock(&mu_);
  used_ -= reserved;
  if (budget_ != nullptr) budget_->Give(reserved);
  ranges_.Return(address, reserved + kGuardBytes);
}

absl::Status DeviceMemory::Charge(uint64_t bytes) {
  absl::MutexLock lock(&mu_);
  if (bytes > capacity_ - used_) {
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("out of device memory: %u bytes requested, %u of %u in use",
                                    bytes, used_, capacity_));
  }
  NPUD_RETURN_IF_ERROR(TakeFromBudget(bytes));
  used_ += bytes;
  peak_ = std::max(peak_, used_);
  return absl::OkStatus();
}

void DeviceMemory::Uncharge(uint64_t bytes) {
  absl::MutexLock lock(&mu_);
  used_ -= bytes;
  if (budget_ != nullptr) budget_->Give(bytes);
}

size_t DeviceMemory::allocation_count() const {
  absl::MutexLock lock(&mu_);
  return allocations_.size();
}

absl::StatusOr<DeviceMemory::BlockRef> DeviceMemory::Find(uint64_t address, uint64_t size) const {
  absl::MutexLock lock(&mu_);
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("0x%x is not inside any device allocation", address));
  }
  const BlockRef& block = std::prev(it)->second;
  if (address >= block->address() + block->size()) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("0x%x is not inside any device allocation", address));
  }
  if (size > block->address() + block->size() - address) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("range 0x%x+%u runs past the end of allocation 0x%x+%u",
                                    address, size, block->address(), block->size()));
  }
  return block;
}

}  // namespace npud::sim
