// physical_memory.h
//
// PhysicalMemory: device memory without an address of its own
// (aclrtMallocPhysical). It is backed by a memfd, so any number of virtual
// ranges (see VirtualAddressSpace), in any session, can map the same bytes;
// its size is charged against the device's capacity for as long as the
// object lives.
//
// Shared by the handles and mappings that refer to it; the memory goes back
// to the device when the last of them is gone. Revoke() marks it as no
// longer usable through copies (the exporter of shared memory has gone),
// while the bytes stay valid until then, so nothing can touch reused memory.
//
// Thread-safe. Must not outlive the DeviceMemory it is charged to.

#ifndef NPUD_SIMDEVICE_PHYSICAL_MEMORY_H_
#define NPUD_SIMDEVICE_PHYSICAL_MEMORY_H_

#include <atomic>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "simdevice/device_memory.h"

namespace npud::sim {

class PhysicalMemory {
 public:
  // Granularity of sizes, offsets and addresses of physical memory and its
  // mappings, as the huge pages of the real device.
  static constexpr uint64_t kGranularity = 2ull << 20;

  // `size` must be a nonzero multiple of kGranularity.
  static absl::StatusOr<std::shared_ptr<PhysicalMemory>> Create(DeviceMemory* charged_to,
                                                                int device_id, uint64_t size);
  // Host memory a client shares with the daemon (its memfd, which this
  // object then owns), seen through device addresses: not device memory, so
  // charged to no device. `size` must be a multiple of kGranularity and fit
  // the file.
  static std::shared_ptr<PhysicalMemory> AdoptHostMemory(int fd, int device_id, uint64_t size);
  ~PhysicalMemory();
  PhysicalMemory(const PhysicalMemory&) = delete;
  PhysicalMemory& operator=(const PhysicalMemory&) = delete;

  int device_id() const { return device_id_; }
  uint64_t size() const { return size_; }
  // The memfd holding the bytes; owned by this object.
  int fd() const { return fd_; }

  void Revoke() { revoked_.store(true, std::memory_order_release); }
  bool revoked() const { return revoked_.load(std::memory_order_acquire); }

 private:
  PhysicalMemory(DeviceMemory* charged_to, int device_id, uint64_t size, int fd)
      : charged_to_(charged_to), device_id_(device_id), size_(size), fd_(fd) {}

  DeviceMemory* const charged_to_;  // nullptr for adopted host memory
  const int device_id_;
  const uint64_t size_;
  const int fd_;
  std::atomic<bool> revoked_{false};
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_PHYSICAL_MEMORY_H_
