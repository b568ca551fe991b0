#include "simdevice/device_set.h"

#include <algorithm>
#include <thread>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::sim {
namespace {

constexpr uint64_t kTiB = 1ull << 40;
// Slot 0's devices start at 32 TiB: above the usual heap and below the usual
// mmap and stack areas of x86-64 and aarch64 Linux processes (the four slots
// end at 92 TiB, well below the 128 TiB of a 47-bit user address space).
constexpr uint64_t kDeviceAddressBase = 32 * kTiB;
// The 4 TiB below a slot's devices hold its reserved virtual addresses.
constexpr uint64_t kVirtualAddressSpan = 4 * kTiB;
// Each slot holds the reserved virtual addresses and 12 TiB of devices.
constexpr uint64_t kAddressSlotSpan = 16 * kTiB;

}  // namespace

absl::StatusOr<std::unique_ptr<DeviceSet>> DeviceSet::Create(const Options& options) {
  if (options.device_count < 1 || options.device_count > 64) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("device count %d is outside 1..64", options.device_count));
  }
  if (options.address_slot < 0 || options.address_slot >= kAddressSlots) {
    return AclError(kRtParamInvalid, absl::StrFormat("address slot %d is outside 0..%d",
                                                     options.address_slot, kAddressSlots - 1));
  }
  // Device address ranges sit far from where processes usually map memory,
  // so a client's host pointers and the daemon's device addresses (numbers
  // from two address spaces) do not collide.
  const uint64_t stride =
      (DeviceMemory::SpanFor(options.device.hbm_bytes) + kTiB - 1) / kTiB * kTiB;
  const uint64_t slot_shift = static_cast<uint64_t>(options.address_slot) * kAddressSlotSpan;
  const uint64_t device_base = kDeviceAddressBase + slot_shift;
  if (options.address_slot > 0 &&
      stride * options.device_count > kAddressSlotSpan - kVirtualAddressSpan) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%d devices of %d TiB address span each do not fit address "
                                    "slot %d (%d TiB); use fewer devices or slot 0",
                                    options.device_count, stride / kTiB, options.address_slot,
                                    (kAddressSlotSpan - kVirtualAddressSpan) / kTiB));
  }
  int threads = options.scheduler_threads;
  if (threads <= 0) threads = std::max(4, static_cast<int>(std::thread::hardware_concurrency()));
  // One core per simulated vector core: a launch's blocks run side by side as
  // on the device (up to the core count).
  std::unique_ptr<DeviceSet> set(new DeviceSet(
      threads, static_cast<int>(std::max(options.device.vector_cores, options.device.cube_cores)),
      options.device.ub_bytes));
  set->host_memory_ = std::make_unique<HostMemoryBudget>(options.host_memory_limit_bytes);
  for (int id = 0; id < options.device_count; ++id) {
    const uint64_t base = device_base + static_cast<uint64_t>(id) * stride;
    NPUD_ASSIGN_OR_RETURN(
        std::unique_ptr<DeviceMemory> memory,
        DeviceMemory::Create(options.device.hbm_bytes, base, set->host_memory_.get()));
    set->devices_.push_back(std::make_unique<Device>(id, options.device, std::move(memory)));
  }
  NPUD_ASSIGN_OR_RETURN(set->vmm_, VirtualAddressSpace::Create(kVirtualAddressSpan,
                                                               device_base - kVirtualAddressSpan));
  set->WatchReleases();
  return set;
}

DeviceSet::DeviceSet(int scheduler_threads, int cores, uint64_t ub_bytes)
    : scheduler_(std::make_unique<StreamScheduler>(scheduler_threads)),
      core_count_(cores),
      ub_bytes_(ub_bytes) {}

void DeviceSet::WatchReleases() {
  KernelHostDirectory* hosts = kernel_hosts_.get();
  auto revoke = [hosts](uint64_t address, uint64_t size) { hosts->Revoke(address, size); };
  for (const auto& device : devices_) device->memory().SetReleaseObserver(revoke);
  vmm_->SetReleaseObserver(revoke);
}

AiCorePool& DeviceSet::cores() {
  absl::MutexLock lock(&cores_mu_);
  if (cores_ == nullptr) cores_ = std::make_unique<AiCorePool>(core_count_, ub_bytes_);
  return *cores_;
}

std::vector<std::pair<uint64_t, uint64_t>> DeviceSet::AddressRanges() const {
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  for (const auto& device : devices_) {
    ranges.emplace_back(device->memory().base(), device->memory().span());
  }
  ranges.emplace_back(vmm_->base(), vmm_->span());
  return ranges;
}

DeviceSet::~DeviceSet() {
  // Workers first: no task or block may run once memory goes.
  scheduler_.reset();
  {
    absl::MutexLock lock(&cores_mu_);
    cores_.reset();
  }
  vmm_.reset();
  devices_.clear();
}

absl::StatusOr<Device*> DeviceSet::Get(int device_id) const {
  if (device_id < 0 || device_id >= count()) {
    return AclError(
        kRtInvalidDeviceId,
        absl::StrFormat("invalid device id %d (this npud has %d devices)", device_id, count()));
  }
  return devices_[device_id].get();
}

Device* DeviceSet::DeviceOfAddress(uint64_t address) const {
  for (const auto& device : devices_) {
    if (device->memory().InRange(address)) return device.get();
  }
  return nullptr;
}

absl::StatusOr<DeviceRange> DeviceSet::Resolve(uint64_t address, uint64_t size) const {
  Device* device = DeviceOfAddress(address);
  if (device == nullptr) {
    return AclError(kRtParamInvalid, absl::StrFormat("0x%x is not a device address", address));
  }
  NPUD_ASSIGN_OR_RETURN(DeviceMemory::BlockRef block, device->memory().Find(address, size));
  const uint64_t base = block->address();
  const uint64_t extent = block->size();
  const int fd = block->fd();
  return DeviceRange{std::move(block), device->id(), address, size, base, extent, fd, 0};
}

}  // namespace npud::sim
