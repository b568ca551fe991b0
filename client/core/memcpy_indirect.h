// memcpy_indirect.h
//
// Copies whose addresses live in device memory: CANN's memcpy descriptors
// (aclrtSetMemcpyDesc / aclrtMemcpyAsyncWithDesc) and copies through base
// address slots plus offsets (aclrtMemcpyAsyncWithOffset), and the cache
// maintenance descriptor (aclrtCmoSetDesc / aclrtCmoAsyncWithDesc).
//
// On the device the copy task reads its addresses when it runs. Here the
// client waits for the stream's earlier work, reads them, and enqueues an
// ordinary device-to-device copy: the copy sees every write ordered before
// it on the stream, at the price of one wait for the caller. (A write to
// the descriptor from another stream, racing with the copy, is undefined
// on the device too.)

#ifndef NPUD_CLIENT_CORE_MEMCPY_INDIRECT_H_
#define NPUD_CLIENT_CORE_MEMCPY_INDIRECT_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"

namespace npud::client {

// The size of a memcpy descriptor and of a cache maintenance descriptor,
// as on the 910B.
inline constexpr size_t kMemcpyDescriptorBytes = 32;
inline constexpr size_t kCacheDescriptorBytes = 32;

// Writes a descriptor for copying `count` bytes from `src` to `dst`, both
// device memory of one device, into `desc` (device memory, 64-byte
// aligned), synchronously.
absl::Status SetMemcpyDescriptor(void* desc, const void* src, void* dst, size_t count);
// Enqueues the copy `desc` describes on `stream`.
absl::Status MemcpyWithDescriptor(void* desc, void* stream);

// Copies `count` bytes from (*src_slot + src_offset) to (*dst_slot +
// dst_offset), the slots being 8-byte device words that hold base
// addresses; `dest_max` bounds dst_offset + count.
absl::Status MemcpyWithOffsets(void* dst_slot, size_t dest_max, size_t dst_offset,
                               const void* src_slot, size_t count, size_t src_offset, void* stream);

// Writes a cache maintenance descriptor for `size` bytes at `src` into
// `desc` (device memory), synchronously.
absl::Status SetCacheDescriptor(void* desc, const void* src, size_t size);
// aclrtCmoAsyncWithDesc: checks that `desc` holds a descriptor of device
// memory (read now: the operation does nothing to wait for, as the
// simulated device keeps no caches) and that `stream` is valid.
absl::Status CacheOperationWithDescriptor(void* desc, void* stream);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_MEMCPY_INDIRECT_H_
