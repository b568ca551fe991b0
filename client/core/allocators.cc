#include "client/core/allocators.h"

#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

struct Registry {
  absl::Mutex mu;
  absl::flat_hash_map<AllocatorDesc*, std::unique_ptr<AllocatorDesc>> descs ABSL_GUARDED_BY(mu);
  absl::flat_hash_map<uint64_t, RegisteredAllocator> streams ABSL_GUARDED_BY(mu);
};

// Never destroyed: descriptors may be used from static destructors.
Registry& TheRegistry() {
  static auto* registry = new Registry();
  return *registry;
}

absl::Status Unknown(const AllocatorDesc* desc) {
  return AclError(kRtParamInvalid, absl::StrFormat("%p is not a live allocator descriptor", desc));
}

}  // namespace

AllocatorDesc* CreateAllocatorDesc() {
  auto desc = std::make_unique<AllocatorDesc>();
  AllocatorDesc* raw = desc.get();
  Registry& r = TheRegistry();
  absl::MutexLock lock(&r.mu);
  r.descs.emplace(raw, std::move(desc));
  return raw;
}

absl::Status DestroyAllocatorDesc(AllocatorDesc* desc) {
  Registry& r = TheRegistry();
  absl::MutexLock lock(&r.mu);
  if (r.descs.erase(desc) == 0) return Unknown(desc);
  return absl::OkStatus();
}

absl::Status UpdateAllocatorDesc(AllocatorDesc* desc,
                                 absl::FunctionRef<void(AllocatorDesc&)> update) {
  Registry& r = TheRegistry();
  absl::MutexLock lock(&r.mu);
  auto it = r.descs.find(desc);
  if (it == r.descs.end()) return Unknown(desc);
  update(*it->second);
  return absl::OkStatus();
}

absl::Status RegisterAllocator(void* stream, AllocatorDesc* desc) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  Registry& r = TheRegistry();
  absl::MutexLock lock(&r.mu);
  auto it = r.descs.find(desc);
  if (it == r.descs.end()) return Unknown(desc);
  const AllocatorDesc& d = *it->second;
  if (d.allocator == nullptr || d.alloc == nullptr || d.free == nullptr ||
      d.get_addr_from_block == nullptr) {
    return AclError(kRtParamInvalid,
                    "the allocator descriptor needs its object and its alloc, free and "
                    "get-address callbacks set before it is registered");
  }
  r.streams[target.id] = RegisteredAllocator{desc, d};
  return absl::OkStatus();
}

absl::Status UnregisterAllocator(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  Registry& r = TheRegistry();
  absl::MutexLock lock(&r.mu);
  if (r.streams.erase(target.id) == 0) {
    return AclError(kRtParamInvalid, "no allocator is registered on the stream");
  }
  return absl::OkStatus();
}

absl::StatusOr<RegisteredAllocator> AllocatorOf(void* stream) {
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  Registry& r = TheRegistry();
  absl::MutexLock lock(&r.mu);
  auto it = r.streams.find(target.id);
  if (it == r.streams.end()) {
    return AclError(kRtParamInvalid, "no allocator is registered on the stream");
  }
  return it->second;
}

}  // namespace npud::client
