// binary_descriptors.h
//
// aclrtBinary: what aclrtCreateBinary makes, a reference to a kernel
// binary's bytes in the caller's memory (not a copy: the caller keeps them
// until it has loaded). aclrtBinaryLoad then loads them as
// aclrtBinaryLoadFromData does, but, as CANN's older flow, only with a
// current context. Handles are looked up, never dereferenced unchecked.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_BINARY_DESCRIPTORS_H_
#define NPUD_CLIENT_CORE_BINARY_DESCRIPTORS_H_

#include <cstddef>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

void* CreateBinaryDescriptor(const void* data, size_t length);
absl::Status DestroyBinaryDescriptor(void* binary);
// The aclrtBinHandle of the loaded bytes.
absl::StatusOr<void*> LoadBinaryDescriptor(void* binary);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_BINARY_DESCRIPTORS_H_
