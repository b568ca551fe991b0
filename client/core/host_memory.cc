#include "client/core/host_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include "absl/strings/str_format.h"
#include "client/core/call_pipeline.h"
#include "client/core/runtime.h"
#include "npud/v1/calls.pb.h"
#include "proto/npud/acl_status.h"

namespace npud::client {
namespace {

constexpr size_t kPage = 4096;

}  // namespace

absl::StatusOr<void*> MapSharedWindow(CallPipeline& session, uint64_t window_id, size_t size) {
  const int fd = memfd_create("npud-host", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) {
    const int err = errno;
    if (fd >= 0) close(fd);
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("cannot create %u bytes of shared host memory: %s", size,
                                    std::strerror(err)));
  }
  void* data = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (data == MAP_FAILED) {
    const int err = errno;
    close(fd);
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("cannot map shared host memory: %s", std::strerror(err)));
  }
  v1::Call call;
  call.mutable_register_host_memory()->set_window_id(window_id);
  call.mutable_register_host_memory()->set_size(size);
  session.PostWithFile(std::move(call), fd);  // Closes fd once sent.
  return data;
}

HostMemory& HostMemory::Get() {
  static HostMemory* memory = new HostMemory();
  return *memory;
}

absl::StatusOr<void*> HostMemory::Allocate(size_t size) {
  auto session = Runtime::Get().Session();
  if (!session.ok()) return session.status();
  Allocation allocation{size, 0, 0};
  void* pointer = nullptr;
  if ((*session)->CanShareMemory()) {
    allocation.mapped = (size + kPage - 1) / kPage * kPage;
    allocation.window_id = Runtime::Get().objects().MintId();
    auto mapped = MapSharedWindow(**session, allocation.window_id, allocation.mapped);
    if (!mapped.ok()) return mapped.status();
    pointer = *mapped;
  } else if (posix_memalign(&pointer, kPage, size) != 0) {
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("cannot allocate %u bytes of host memory", size));
  }
  absl::MutexLock lock(&mu_);
  allocations_[reinterpret_cast<uintptr_t>(pointer)] = allocation;
  return pointer;
}

absl::Status HostMemory::Free(void* pointer) {
  Allocation allocation;
  {
    absl::MutexLock lock(&mu_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(pointer));
    if (it == allocations_.end()) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%p was not allocated with aclrtMallocHost", pointer));
    }
    allocation = it->second;
    allocations_.erase(it);
  }
  if (allocation.window_id == 0) {
    std::free(pointer);
    return absl::OkStatus();
  }
  munmap(pointer, allocation.mapped);
  // Copies already queued keep the daemon's mapping until they have run.
  auto session = Runtime::Get().Session();
  if (session.ok()) {
    v1::Call call;
    call.mutable_release_host_memory()->set_window_id(allocation.window_id);
    (*session)->Post(std::move(call));
  }
  return absl::OkStatus();
}

const std::pair<const uintptr_t, HostMemory::Allocation>* HostMemory::Lookup(const void* pointer,
                                                                            size_t size) const {
  const uintptr_t p = reinterpret_cast<uintptr_t>(pointer);
  auto it = allocations_.upper_bound(p);
  if (it == allocations_.begin()) return nullptr;
  --it;
  const uintptr_t base = it->first;
  const size_t length = it->second.size;
  if (p - base >= length || size > length - (p - base)) return nullptr;
  return &*it;
}

bool HostMemory::Contains(const void* pointer, size_t size) const {
  absl::MutexLock lock(&mu_);
  return Lookup(pointer, size) != nullptr;
}

std::optional<WindowRange> HostMemory::FindWindow(const void* pointer, size_t size) const {
  absl::MutexLock lock(&mu_);
  const auto* entry = Lookup(pointer, size);
  if (entry == nullptr || entry->second.window_id == 0) return std::nullopt;
  return WindowRange{entry->second.window_id,
                     reinterpret_cast<uintptr_t>(pointer) - entry->first};
}

}  // namespace npud::client
