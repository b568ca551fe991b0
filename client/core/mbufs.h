// mbufs.h
//
// Shared buffers (aclrtMbuf, and acltdtBuf which is the same handle): a data
// block with a valid length, a 96-byte private area for control data, and
// chains of buffers. On a device CANN takes them from the driver's shared
// pool; here the data block is pinned host memory (aclrtMallocHost), which
// the program reads and writes in place and the device copies from
// directly.
//
// Ownership follows the driver's mbuf model: aclrtCopyBufRef makes a second
// head on the same data block (the block lives while any head does); a
// chain belongs to its head, so freeing the head frees the buffers appended
// to it, and a buffer can be in one chain only.
//
// Handles are checked: an unknown or freed handle is ACL_ERROR_RT_PARAM_INVALID,
// never a dereference. Thread-safe.

#ifndef NPUD_CLIENT_CORE_MBUFS_H_
#define NPUD_CLIENT_CORE_MBUFS_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

// Size of the private (user data) area of every buffer, as the driver's.
inline constexpr size_t kMbufUserDataBytes = 96;
// Most buffers in one chain, head included.
inline constexpr size_t kMbufChainLimit = 128;

struct MbufData {
  void* data = nullptr;
  size_t size = 0;  // the whole data block, not the valid length
};

absl::StatusOr<void*> AllocMbuf(size_t size);
absl::Status FreeMbuf(void* buf);
absl::StatusOr<MbufData> MbufDataOf(void* buf);
absl::StatusOr<size_t> MbufDataLength(void* buf);
absl::Status SetMbufDataLength(void* buf, size_t length);
// Copy `size` bytes at `offset` of the private area out to `out` / in from `in`.
absl::Status GetMbufUserData(void* buf, void* out, size_t size, size_t offset);
absl::Status SetMbufUserData(void* buf, const void* in, size_t size, size_t offset);
absl::StatusOr<void*> CopyMbufRef(void* buf);
absl::Status AppendMbufChain(void* head, void* buf);
absl::StatusOr<uint32_t> MbufChainLength(void* head);
absl::StatusOr<void*> MbufFromChain(void* head, uint32_t index);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_MBUFS_H_
