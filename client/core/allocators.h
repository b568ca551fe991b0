// allocators.h
//
// The user allocator API (acl_rt_allocator.h): descriptors that carry an
// application's allocator object and its callbacks, registered per stream
// (the last registration wins) and read back with aclrtAllocatorGetByStream.
// CANN calls them for the workspace of single operators and dynamic-shape
// models; npud's runtime needs no stream workspace, so it keeps and reports
// them only.
//
// Callbacks are kept as untyped function pointers; the ABI layer casts them
// back to their ACL types. Thread-safe.

#ifndef NPUD_CLIENT_CORE_ALLOCATORS_H_
#define NPUD_CLIENT_CORE_ALLOCATORS_H_

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

using AnyFunction = void (*)();

struct AllocatorDesc {
  void* allocator = nullptr;
  AnyFunction alloc = nullptr;
  AnyFunction free = nullptr;
  AnyFunction alloc_advise = nullptr;
  AnyFunction get_addr_from_block = nullptr;
};

// A new, empty descriptor, owned by the registry until destroyed.
AllocatorDesc* CreateAllocatorDesc();
absl::Status DestroyAllocatorDesc(AllocatorDesc* desc);
// Changes one field of a live descriptor.
absl::Status UpdateAllocatorDesc(AllocatorDesc* desc,
                                 absl::FunctionRef<void(AllocatorDesc&)> update);

// The stream keeps a copy: destroying the descriptor later leaves it.
absl::Status RegisterAllocator(void* stream, AllocatorDesc* desc);
absl::Status UnregisterAllocator(void* stream);
struct RegisteredAllocator {
  AllocatorDesc* desc;  // as registered; may have been destroyed since
  AllocatorDesc copy;
};
absl::StatusOr<RegisteredAllocator> AllocatorOf(void* stream);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_ALLOCATORS_H_
