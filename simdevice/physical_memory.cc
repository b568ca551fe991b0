#include "simdevice/physical_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::sim {

absl::StatusOr<std::shared_ptr<PhysicalMemory>> PhysicalMemory::Create(DeviceMemory* charged_to,
                                                                       int device_id,
                                                                       uint64_t size) {
  if (size == 0 || size % kGranularity != 0) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("physical memory size %u is not a nonzero multiple of the "
                                    "allocation granularity (%u)",
                                    size, kGranularity));
  }
  NPUD_RETURN_IF_ERROR(charged_to->Charge(size));
  const int fd = memfd_create("npud-physical", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) {
    const int err = errno;
    if (fd >= 0) close(fd);
    charged_to->Uncharge(size);
    return AclError(
        kRtMemoryAllocation,
        absl::StrFormat("cannot back %u bytes of physical memory: %s", size, std::strerror(err)));
  }
  return std::shared_ptr<PhysicalMemory>(new PhysicalMemory(charged_to, device_id, size, fd));
}

std::shared_ptr<PhysicalMemory> PhysicalMemory::AdoptHostMemory(int fd, int device_id,
                                                                uint64_t size) {
  return std::shared_ptr<PhysicalMemory>(new PhysicalMemory(nullptr, device_id, size, fd));
}

PhysicalMemory::~PhysicalMemory() {
  close(fd_);
  if (charged_to_ != nullptr) charged_to_->Uncharge(size_);
}

}  // namespace npud::sim
