#include "client/core/host_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>

#include "absl/strings/str_format.h"
#include "client/core/call_pipeline.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

constexpr size_t kPage = 4096;

}  // namespace

absl::StatusOr<void*> MapSharedWindow(CallPipeline& session, uint64_t window_id, size_t size,
                                      void* at, v1::HostWindowUse use) {
  // npud seals it against shrinking (host_window.h); it may still grow.
  const int fd = memfd_create("npud-host", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0 ||
      (at != nullptr && pwrite(fd, at, size, 0) != static_cast<ssize_t>(size))) {
    const int err = errno;
    if (fd >= 0) close(fd);
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("cannot create %u bytes of shared host memory: %s", size,
                                    std::strerror(err)));
  }
  void* data = mmap(at, size, PROT_READ | PROT_WRITE, MAP_SHARED | (at ? MAP_FIXED : 0), fd, 0);
  if (data == MAP_FAILED) {
    const int err = errno;
    close(fd);
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("cannot map shared host memory: %s", std::strerror(err)));
  }
  v1::Call call;
  call.mutable_register_host_memory()->set_window_id(window_id);
  call.mutable_register_host_memory()->set_size(size);
  call.mutable_register_host_memory()->set_use(use);
  session.PostWithFile(std::move(call), fd);  // Closes fd once sent.
  return data;
}

absl::StatusOr<void*> HostMemory::Allocate(size_t size) {
  NPUD_ASSIGN_OR_RETURN(CallPipeline * session, Runtime::Get().Session());
  Allocation allocation{size, 0, 0};
  void* pointer = nullptr;
  // Shared memory is registered with one daemon; with several, a copy may
  // go to another, so host memory is then plain.
  if (session->CanShareMemory() && Runtime::Get().daemon_count() == 1) {
    allocation.mapped = (size + kPage - 1) / kPage * kPage;
    allocation.window_id = Runtime::Get().objects().MintId();
    NPUD_ASSIGN_OR_RETURN(pointer,
                          MapSharedWindow(*session, allocation.window_id, allocation.mapped));
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
    if (it == allocations_.end() || it->second.adopted || it->second.unified) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%p was not allocated with aclrtMallocHost", pointer));
    }
    allocation = it->second;
    allocations_.erase(it);
  }
  if (allocation.window_id == 0) {
    // Asynchronous copies send straight from pinned memory.
    auto session = Runtime::Get().Session();
    if (session.ok() && (*session)->bulk() != nullptr) {
      (*session)->bulk()->AwaitWritesFrom(pointer, allocation.size);
    }
    std::free(pointer);
    return absl::OkStatus();
  }
  Release(pointer, allocation);
  return absl::OkStatus();
}

void HostMemory::Release(void* pointer, const Allocation& allocation) {
  munmap(pointer, allocation.mapped);
  // Copies already queued keep the daemon's mappings until they have run.
  auto session = Runtime::Get().Session();
  if (!session.ok()) return;
  if (allocation.device_address != 0) {
    v1::Call call;
    call.mutable_unmap_host_window()->set_window_id(allocation.window_id);
    (*session)->Post(std::move(call));
  }
  v1::Call call;
  call.mutable_release_host_memory()->set_window_id(allocation.window_id);
  (*session)->Post(std::move(call));
}

absl::StatusOr<void*> HostMemory::AllocateAtDeviceAddress(size_t size, int32_t device) {
  NPUD_ASSIGN_OR_RETURN(CallPipeline * session, Runtime::Get().Session());
  if (!session->CanShareMemory() || Runtime::Get().daemon_count() > 1) {
    return AclError(kRtFeatureNotSupport,
                    "managed memory needs one daemon on this host (the local protocol): host "
                    "and device must map the same bytes");
  }
  NPUD_ASSIGN_OR_RETURN(void* host, Allocate(size));
  absl::StatusOr<void*> device_pointer = Register(host, size, device);
  if (!device_pointer.ok()) {
    Free(host).IgnoreError();
    return device_pointer.status();
  }
  void* target = *device_pointer;
  // The device address is npud's: claim it here without replacing anything,
  // then move the window's pages there.
  void* claimed =
      mmap(target, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (claimed != target ||
      mremap(host, size, size, MREMAP_MAYMOVE | MREMAP_FIXED, target) != target) {
    const int err = errno;
    if (claimed != MAP_FAILED) munmap(claimed, size);
    Unregister(host).IgnoreError();
    Free(host).IgnoreError();
    return AclError(kRtMemoryAllocation,
                    absl::StrFormat("cannot map managed memory at device address %p in this "
                                    "process: %s",
                                    target, std::strerror(err)));
  }
  absl::MutexLock lock(&mu_);
  auto node = allocations_.extract(reinterpret_cast<uintptr_t>(host));
  node.key() = reinterpret_cast<uintptr_t>(target);
  node.mapped().unified = true;
  allocations_.insert(std::move(node));
  return target;
}

absl::Status HostMemory::FreeAtDeviceAddress(void* pointer) {
  Allocation allocation;
  {
    absl::MutexLock lock(&mu_);
    auto it = allocations_.find(reinterpret_cast<uintptr_t>(pointer));
    if (it == allocations_.end() || !it->second.unified) {
      return AclError(kRtParamInvalid, absl::StrFormat("%p is not managed memory", pointer));
    }
    allocation = it->second;
    allocations_.erase(it);
  }
  Release(pointer, allocation);
  return absl::OkStatus();
}

absl::Status HostMemory::Adopt(CallPipeline& session, void* pointer, size_t size) {
  const uintptr_t start = reinterpret_cast<uintptr_t>(pointer) / kPage * kPage;
  const uintptr_t end = (reinterpret_cast<uintptr_t>(pointer) + size + kPage - 1) / kPage * kPage;
  const size_t length = end - start;
  {
    absl::MutexLock lock(&mu_);
    auto next = allocations_.lower_bound(start);
    const bool overlaps_next = next != allocations_.end() && next->first < end;
    const bool overlaps_prev = next != allocations_.begin() &&
                               std::prev(next)->first + std::prev(next)->second.mapped > start;
    if (overlaps_next || overlaps_prev) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%p+%u overlaps host memory registered or allocated "
                                      "before",
                                      pointer, size));
    }
  }
  // Same address, same contents, now shared with the daemon.
  const uint64_t window_id = Runtime::Get().objects().MintId();
  NPUD_RETURN_IF_ERROR(
      MapSharedWindow(session, window_id, length, reinterpret_cast<void*>(start)).status());
  absl::MutexLock lock(&mu_);
  allocations_[start] = Allocation{length, length, window_id, /*adopted=*/true, 0};
  return absl::OkStatus();
}

absl::StatusOr<void*> HostMemory::Register(void* pointer, size_t size, int32_t device) {
  if (size == 0) return AclError(kRtParamInvalid, "cannot register 0 bytes");
  NPUD_ASSIGN_OR_RETURN(CallPipeline * session, Runtime::Get().Session());
  if (!session->CanShareMemory()) {
    return AclError(kRtFeatureNotSupport,
                    "host memory registration needs the daemon on this host (local protocol)");
  }
  if (Runtime::Get().daemon_count() > 1) {
    return AclError(kRtFeatureNotSupport,
                    "host memory registration with several daemons (NPUD_ADDRESS lists more "
                    "than one)");
  }
  bool known;
  {
    absl::MutexLock lock(&mu_);
    known = Lookup(pointer, size) != nullptr;
  }
  if (!known) {
    NPUD_RETURN_IF_ERROR(Adopt(*session, pointer, size));
  }
  uint64_t window_id;
  uintptr_t base;
  {
    absl::MutexLock lock(&mu_);
    auto* entry = Lookup(pointer, size);
    if (entry == nullptr || entry->second.window_id == 0) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%p+%u cannot be registered", pointer, size));
    }
    if (entry->second.device_address != 0) {
      return AclError(kRtParamInvalid, absl::StrFormat("%p is already registered", pointer));
    }
    window_id = entry->second.window_id;
    base = entry->first;
  }
  v1::Call call;
  call.mutable_map_host_window()->set_window_id(window_id);
  call.mutable_map_host_window()->set_device_id(device);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, session->Call(std::move(call)));
  const uint64_t device_address = reply.malloc().address();
  absl::MutexLock lock(&mu_);
  if (auto* entry = Lookup(pointer, size)) entry->second.device_address = device_address;
  return reinterpret_cast<void*>(device_address + (reinterpret_cast<uintptr_t>(pointer) - base));
}

absl::StatusOr<void*> HostMemory::DevicePointer(const void* pointer) const {
  absl::MutexLock lock(&mu_);
  const auto* entry = Lookup(pointer, 1);
  if (entry == nullptr || entry->second.device_address == 0) {
    return AclError(kRtParamInvalid, absl::StrFormat("%p is not registered host memory", pointer));
  }
  return reinterpret_cast<void*>(entry->second.device_address +
                                 (reinterpret_cast<uintptr_t>(pointer) - entry->first));
}

absl::Status HostMemory::Unregister(void* pointer) {
  NPUD_ASSIGN_OR_RETURN(CallPipeline * session, Runtime::Get().Session());
  Allocation allocation;
  uintptr_t base;
  {
    absl::MutexLock lock(&mu_);
    auto* entry = Lookup(pointer, 1);
    if (entry == nullptr || entry->second.device_address == 0 || entry->second.unified) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%p is not registered host memory", pointer));
    }
    entry->second.device_address = 0;
    allocation = entry->second;
    base = entry->first;
    if (allocation.adopted) allocations_.erase(base);
  }
  v1::Call call;
  call.mutable_unmap_host_window()->set_window_id(allocation.window_id);
  absl::Status unmapped = session->Call(std::move(call)).status();
  if (allocation.adopted) {
    // Back to private memory with the same contents at the same address.
    void* at = reinterpret_cast<void*>(base);
    std::string saved(static_cast<const char*>(at), allocation.mapped);
    mmap(at, allocation.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
         0);
    std::memcpy(at, saved.data(), saved.size());
    v1::Call release;
    release.mutable_release_host_memory()->set_window_id(allocation.window_id);
    session->Post(std::move(release));
  }
  return unmapped;
}

std::pair<const uintptr_t, HostMemory::Allocation>* HostMemory::Lookup(const void* pointer,
                                                                       size_t size) {
  const uintptr_t p = reinterpret_cast<uintptr_t>(pointer);
  auto it = allocations_.upper_bound(p);
  if (it == allocations_.begin()) return nullptr;
  --it;
  const uintptr_t base = it->first;
  const size_t length = it->second.size;
  if (p - base >= length || size > length - (p - base)) return nullptr;
  return &*it;
}

const std::pair<const uintptr_t, HostMemory::Allocation>* HostMemory::Lookup(const void* pointer,
                                                                             size_t size) const {
  return const_cast<HostMemory*>(this)->Lookup(pointer, size);
}

bool HostMemory::Contains(const void* pointer, size_t size) const {
  absl::MutexLock lock(&mu_);
  return Lookup(pointer, size) != nullptr;
}

std::optional<std::pair<void*, size_t>> HostMemory::AllocationOf(const void* pointer) const {
  absl::MutexLock lock(&mu_);
  const auto* entry = Lookup(pointer, 1);
  if (entry == nullptr) return std::nullopt;
  return std::make_pair(reinterpret_cast<void*>(entry->first), entry->second.size);
}

std::optional<WindowRange> HostMemory::FindWindow(const void* pointer, size_t size) const {
  absl::MutexLock lock(&mu_);
  const auto* entry = Lookup(pointer, size);
  if (entry == nullptr || entry->second.window_id == 0) return std::nullopt;
  return WindowRange{entry->second.window_id, reinterpret_cast<uintptr_t>(pointer) - entry->first};
}

}  // namespace npud::client
