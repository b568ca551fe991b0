#include "client/core/memcpy_indirect.h"

#include "absl/strings/str_format.h"
#include "client/core/context_ops.h"
#include "client/core/device_address.h"
#include "client/core/memory_ops.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

constexpr uint64_t kMaxCopyBytes = uint64_t{4} << 30;
constexpr uint64_t kDescriptorAlignment = 64;
// Marks what aclrtSetMemcpyDesc / aclrtCmoSetDesc wrote ("npudMCPY",
// "npudCMO_"), so a descriptor never set is refused rather than followed.
constexpr uint64_t kMemcpyMagic = 0x5950434d6475706eULL;
constexpr uint64_t kCacheMagic = 0x5f4f4d436475706eULL;

// The device-resident layout of both descriptors.
struct Descriptor {
  uint64_t magic;
  uint64_t src;
  uint64_t dst;
  uint64_t count;
};
static_assert(sizeof(Descriptor) == kMemcpyDescriptorBytes);
static_assert(sizeof(Descriptor) == kCacheDescriptorBytes);

absl::StatusOr<PointerAttributes> DeviceMemory(const void* pointer, const char* what) {
  NPUD_ASSIGN_OR_RETURN(const PointerAttributes attributes, PointerAttributesOf(pointer));
  if (attributes.type != kDeviceMemory) {
    return AclError(kRtParamInvalid, absl::StrFormat("%s %p is not device memory", what, pointer));
  }
  return attributes;
}

absl::Status WriteDescriptor(void* desc, const Descriptor& descriptor) {
  return Memcpy(desc, sizeof(descriptor), &descriptor, sizeof(descriptor),
                static_cast<uint32_t>(CopyKind::kHostToDevice), /*async=*/false, nullptr);
}

// Reads `bytes` at `device` now (a synchronous copy, on no stream).
absl::Status ReadNow(const void* device, void* host, size_t bytes) {
  return Memcpy(host, bytes, device, bytes, static_cast<uint32_t>(CopyKind::kDeviceToHost),
                /*async=*/false, nullptr);
}

// `wait`: read after the stream's earlier work (a copy follows the
// descriptor); otherwise now (a cache operation only checks it).
absl::StatusOr<Descriptor> ReadDescriptor(void* desc, void* stream, uint64_t magic, bool wait) {
  NPUD_RETURN_IF_ERROR(DeviceMemory(desc, "the descriptor").status());
  if (wait) NPUD_RETURN_IF_ERROR(SynchronizeStream(stream, -1));
  Descriptor descriptor{};
  NPUD_RETURN_IF_ERROR(ReadNow(desc, &descriptor, sizeof(descriptor)));
  if (descriptor.magic != magic) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%p holds no descriptor of this kind (set it first)", desc));
  }
  return descriptor;
}

absl::Status D2dAsync(uint64_t dst, size_t dest_max, uint64_t src, size_t count, void* stream) {
  return Memcpy(reinterpret_cast<void*>(dst), dest_max, reinterpret_cast<const void*>(src), count,
                static_cast<uint32_t>(CopyKind::kDeviceToDevice), /*async=*/true, stream);
}

}  // namespace

absl::Status SetMemcpyDescriptor(void* desc, const void* src, void* dst, size_t count) {
  if (count > kMaxCopyBytes) {
    return AclError(kRtParamInvalid, absl::StrFormat("%d bytes is above 4 GiB", count));
  }
  if (Address(desc) % kDescriptorAlignment != 0) {
    return AclError(kRtParamInvalid, "the descriptor must be 64-byte aligned");
  }
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  NPUD_RETURN_IF_ERROR(DeviceMemory(desc, "the descriptor").status());
  NPUD_ASSIGN_OR_RETURN(const PointerAttributes from, DeviceMemory(src, "the source"));
  NPUD_ASSIGN_OR_RETURN(const PointerAttributes to, DeviceMemory(dst, "the destination"));
  if (from.device != to.device) {
    return AclError(kRtParamInvalid, "the source and destination are on different devices");
  }
  return WriteDescriptor(desc, Descriptor{kMemcpyMagic, Address(src), Address(dst), count});
}

absl::Status MemcpyWithDescriptor(void* desc, void* stream) {
  NPUD_RETURN_IF_ERROR(ResolveStream(stream).status());
  NPUD_ASSIGN_OR_RETURN(const Descriptor descriptor,
                        ReadDescriptor(desc, stream, kMemcpyMagic, /*wait=*/true));
  return D2dAsync(descriptor.dst, descriptor.count, descriptor.src, descriptor.count, stream);
}

absl::Status MemcpyWithOffsets(void* dst_slot, size_t dest_max, size_t dst_offset,
                               const void* src_slot, size_t count, size_t src_offset,
                               void* stream) {
  if (dst_slot == nullptr || src_slot == nullptr) {
    return AclError(kRtParamInvalid, "the address slots must not be null");
  }
  if (count > kMaxCopyBytes || dst_offset > dest_max || count > dest_max - dst_offset) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%d bytes at offset %d do not fit in destMax %d", count,
                                    dst_offset, dest_max));
  }
  NPUD_RETURN_IF_ERROR(ResolveStream(stream).status());
  NPUD_RETURN_IF_ERROR(DeviceMemory(dst_slot, "the destination slot").status());
  NPUD_RETURN_IF_ERROR(DeviceMemory(src_slot, "the source slot").status());
  // Both slots after the stream's earlier work: one wait.
  NPUD_RETURN_IF_ERROR(SynchronizeStream(stream, -1));
  uint64_t dst_base = 0, src_base = 0;
  NPUD_RETURN_IF_ERROR(ReadNow(dst_slot, &dst_base, sizeof(dst_base)));
  NPUD_RETURN_IF_ERROR(ReadNow(src_slot, &src_base, sizeof(src_base)));
  return D2dAsync(dst_base + dst_offset, dest_max - dst_offset, src_base + src_offset, count,
                  stream);
}

absl::Status SetCacheDescriptor(void* desc, const void* src, size_t size) {
  if (desc == nullptr || src == nullptr) {
    return AclError(kRtParamInvalid, "the descriptor and the source must not be null");
  }
  if (size == 0) return AclError(kRtParamInvalid, "a cache operation over 0 bytes");
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  NPUD_RETURN_IF_ERROR(DeviceMemory(desc, "the descriptor").status());
  NPUD_RETURN_IF_ERROR(CheckCacheRange(src, size));
  return WriteDescriptor(desc, Descriptor{kCacheMagic, Address(src), 0, size});
}

absl::Status CacheOperationWithDescriptor(void* desc, void* stream) {
  if (desc == nullptr) return AclError(kRtParamInvalid, "the descriptor is null");
  NPUD_RETURN_IF_ERROR(ResolveStream(stream).status());
  NPUD_ASSIGN_OR_RETURN(const Descriptor descriptor,
                        ReadDescriptor(desc, stream, kCacheMagic, /*wait=*/false));
  return CheckCacheRange(reinterpret_cast<const void*>(descriptor.src), descriptor.count);
}

}  // namespace npud::client
