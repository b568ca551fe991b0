#include "client/core/memory_ops.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "client/core/call_pipeline.h"
#include "client/core/context_ops.h"
#include "client/core/copy_planner.h"
#include "client/core/daemon_calls.h"
#include "client/core/device_address.h"
#include "client/core/device_identity.h"
#include "client/core/host_memory.h"
#include "client/core/model_ops.h"
#include "client/core/runtime.h"
#include "client/core/stream_ops.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "common/wire_constants.h"

namespace npud::client {
namespace {

const char* KindName(CopyKind kind) {
  switch (kind) {
    case CopyKind::kHostToHost:
      return "host-to-host";
    case CopyKind::kHostToDevice:
      return "host-to-device";
    case CopyKind::kDeviceToHost:
      return "device-to-host";
    default:
      return "device-to-device";
  }
}

// The direction of a copy. Like CANN's driver, the pointers decide: a side
// the kind calls "host" that is really device memory is copied as device
// memory (and ACL_MEMCPY_DEFAULT is resolved the same way), but a side the
// kind calls "device" must be device memory.
absl::StatusOr<CopyKind> ResolveKind(uint32_t raw, const void* dst, const void* src) {
  if (raw > static_cast<uint32_t>(CopyKind::kHostToBufToDevice)) {
    return AclError(kAclInvalidParam, absl::StrFormat("invalid memcpy kind %d", raw));
  }
  const Runtime& runtime = Runtime::Get();
  const bool dst_device = runtime.IsDevicePointer(dst);
  const bool src_device = runtime.IsDevicePointer(src);
  CopyKind kind = static_cast<CopyKind>(raw);
  if (kind == CopyKind::kHostToBufToDevice) kind = CopyKind::kHostToDevice;
  const bool says_src_device = kind == CopyKind::kDeviceToHost || kind == CopyKind::kDeviceToDevice;
  const bool says_dst_device = kind == CopyKind::kHostToDevice || kind == CopyKind::kDeviceToDevice;
  if (kind != CopyKind::kDefault &&
      ((says_src_device && !src_device) || (says_dst_device && !dst_device))) {
    return AclError(
        kRtParamInvalid,
        absl::StrFormat("%s copy from %p to %p: %p is not device memory", KindName(kind), src, dst,
                        says_src_device && !src_device ? src : dst));
  }
  return src_device ? (dst_device ? CopyKind::kDeviceToDevice : CopyKind::kDeviceToHost)
                    : (dst_device ? CopyKind::kHostToDevice : CopyKind::kHostToHost);
}

// Host-to-device and device-to-host: the copy planner of the daemon that
// holds the device memory decides how the bytes travel (copy_planner.h).
absl::Status CopyToDevice(uint64_t stream_id, uint64_t dst, const uint8_t* src, size_t count) {
  NPUD_ASSIGN_OR_RETURN(CopyPlanner * copies, Runtime::Get().CopiesFor(stream_id, dst));
  return copies->ToDevice(stream_id, dst, src, count);
}

absl::Status CopyToHost(uint64_t stream_id, void* dst, uint64_t src, size_t count) {
  NPUD_ASSIGN_OR_RETURN(CopyPlanner * copies, Runtime::Get().CopiesFor(stream_id, src));
  return copies->ToHost(stream_id, dst, src, count);
}

// Between devices of two daemons, through this process: neither daemon can
// order work of the other, so the stream is synchronized first and the
// bytes then move synchronously, a piece at a time.
absl::Status CopyAcrossDaemons(uint64_t stream_id, uint64_t dst, uint64_t src, size_t count) {
  constexpr size_t kPieceBytes = 16 << 20;
  if (StreamCaptures(stream_id)) {
    return AclError(kRtFeatureNotSupport,
                    "a captured copy between devices of two daemons (npud replays work within "
                    "one daemon only)");
  }
  if (stream_id != 0) {
    v1::Call sync;
    sync.mutable_synchronize_stream()->set_stream_id(stream_id);
    sync.mutable_synchronize_stream()->set_timeout_ms(-1);
    NPUD_RETURN_IF_ERROR(CallDaemon(std::move(sync)).status());
  }
  std::vector<uint8_t> piece(std::min(count, kPieceBytes));
  for (size_t offset = 0; offset < count; offset += piece.size()) {
    const size_t n = std::min(piece.size(), count - offset);
    NPUD_RETURN_IF_ERROR(CopyToHost(0, piece.data(), src + offset, n));
    NPUD_RETURN_IF_ERROR(CopyToDevice(0, dst + offset, piece.data(), n));
  }
  return absl::OkStatus();
}

absl::Status CopyOnDevice(uint64_t stream_id, uint64_t dst, uint64_t src, size_t count) {
  if (!Runtime::Get().SameDaemon(dst, src)) return CopyAcrossDaemons(stream_id, dst, src, count);
  v1::Call call;
  v1::CopyDevice* copy = call.mutable_copy_device();
  copy->set_stream_id(stream_id);
  copy->set_dst(dst);
  copy->set_src(src);
  copy->set_size(count);
  if (stream_id != 0) return PostToDaemon(std::move(call));
  return CallDaemon(std::move(call)).status();
}

}  // namespace

absl::StatusOr<void*> MallocDevice(size_t size, uint32_t policy, int32_t device_attr) {
  if (size == 0) return AclError(kAclInvalidParam, "cannot allocate 0 bytes");
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  if (device_attr >= 0 && device_attr != device) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("allocation attribute names device %d but the current "
                                    "device is %d",
                                    device_attr, device));
  }
  // CANN does not validate the policy: unknown values mean the default.
  v1::Call call;
  call.mutable_malloc()->set_device_id(device);
  call.mutable_malloc()->set_size(size);
  call.mutable_malloc()->set_policy(policy);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return reinterpret_cast<void*>(reply.malloc().address());
}

absl::Status FreeDevice(void* pointer) {
  ManagedMemory& managed = Runtime::Get().managed_memory();
  if (managed.IsAllocation(pointer)) return managed.Free(pointer);
  v1::Call call;
  call.mutable_free()->set_address(Address(pointer));
  return CallDaemon(std::move(call)).status();
}

absl::StatusOr<void*> MallocHost(size_t size) {
  if (size == 0) return AclError(kAclInvalidParam, "cannot allocate 0 bytes");
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  return Runtime::Get().host_memory().Allocate(size);
}

absl::Status FreeHost(void* pointer) { return Runtime::Get().host_memory().Free(pointer); }

absl::StatusOr<void*> RegisterHost(void* pointer, uint64_t size, uint32_t flags) {
  // ACL_HOST_REG_MAPPED 2, IOMEMORY 4, READONLY 8, PINNED 1 << 28: every
  // registration is mapped here, and access is not restricted.
  constexpr uint32_t kKnownFlags = 0x2 | 0x4 | 0x8 | (1u << 28);
  if ((flags & ~kKnownFlags) != 0) {
    return AclError(kRtParamInvalid, absl::StrFormat("unknown host registration flags %#x", flags));
  }
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  return Runtime::Get().host_memory().Register(pointer, size, device);
}

absl::StatusOr<void*> HostDevicePointer(void* pointer, uint32_t flag) {
  if (flag != 0) return AclError(kRtParamInvalid, "aclrtHostGetDevicePointer flag must be 0");
  return Runtime::Get().host_memory().DevicePointer(pointer);
}

absl::Status UnregisterHost(void* pointer) {
  return Runtime::Get().host_memory().Unregister(pointer);
}

absl::Status RandomNumbersAsync(const RandomNumbersArgs& args, void* stream) {
  // The result types CANN documents, by aclDataType.
  constexpr std::pair<int32_t, v1::RandomType> kTypes[] = {
      {3, v1::RANDOM_TYPE_INT32},   {9, v1::RANDOM_TYPE_INT64},   {8, v1::RANDOM_TYPE_UINT32},
      {10, v1::RANDOM_TYPE_UINT64}, {1, v1::RANDOM_TYPE_FLOAT16}, {27, v1::RANDOM_TYPE_BFLOAT16},
      {0, v1::RANDOM_TYPE_FLOAT32}};
  const auto* type = std::find_if(std::begin(kTypes), std::end(kTypes),
                                  [&](const auto& entry) { return entry.first == args.data_type; });
  if (type == std::end(kTypes)) {
    return AclError(
        kRtParamInvalid,
        absl::StrFormat("aclrtRandomNumAsync does not take data type %d", args.data_type));
  }
  if (args.function > v1::RANDOM_DISTRIBUTION_TRUNCATED_NORMAL) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid random function %d", args.function));
  }
  if (args.count.from_device) {
    return AclError(kRtFeatureNotSupport, "aclrtRandomNumAsync with the count in device memory");
  }
  if (args.result == nullptr || args.counter == nullptr) {
    return AclError(kAclInvalidParam, "randomResultAddr and randomCounterAddr must be set");
  }
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  if (!Runtime::Get().IsDevicePointer(args.result) ||
      !Runtime::Get().IsDevicePointer(args.counter)) {
    return AclError(kRtParamInvalid, "random numbers and their counter live in device memory");
  }
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  v1::RandomNumbers* random = call.mutable_random_numbers();
  random->set_stream_id(target.id);
  random->set_distribution(static_cast<v1::RandomDistribution>(args.function));
  random->set_type(type->second);
  for (auto [from, to] :
       {std::pair{&args.a, random->mutable_a()}, std::pair{&args.b, random->mutable_b()},
        std::pair{&args.seed, random->mutable_seed()}}) {
    to->set_size(from->size);
    to->set_from_device(from->from_device);
    if (from->from_device) {
      to->set_address(from->bits);
    } else {
      to->set_bits(from->bits);
    }
  }
  uint64_t count = args.count.bits;
  if (args.count.size < 8) count &= (uint64_t{1} << (8 * args.count.size)) - 1;
  random->set_count(count);
  random->set_result(Address(args.result));
  random->set_counter(Address(args.counter));
  return PostToDaemon(std::move(call));
}

absl::Status ReduceAsync(void* dst, const void* src, uint64_t count, uint32_t kind, int32_t type,
                         void* stream) {
  // aclrtReduceKind: SUM, MAX, MIN are 10..12; EQUAL (13) has no documented
  // meaning to simulate.
  constexpr uint32_t kSum = 10, kMin = 12, kEqual = 13;
  if (kind == kEqual) {
    return AclError(kRtFeatureNotSupport,
                    "aclrtReduceAsync with ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL");
  }
  if (kind < kSum || kind > kMin) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid reduce kind %d", kind));
  }
  // The element types of the Atlas A2/A3 reduce, by aclDataType.
  constexpr std::pair<int32_t, v1::ReduceType> kTypes[] = {
      {2, v1::REDUCE_TYPE_INT8},    {6, v1::REDUCE_TYPE_INT16},     {3, v1::REDUCE_TYPE_INT32},
      {1, v1::REDUCE_TYPE_FLOAT16}, {27, v1::REDUCE_TYPE_BFLOAT16}, {0, v1::REDUCE_TYPE_FLOAT32}};
  const auto* it = std::find_if(std::begin(kTypes), std::end(kTypes),
                                [type](const auto& entry) { return entry.first == type; });
  if (it == std::end(kTypes)) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("aclrtReduceAsync does not take data type %d", type));
  }
  if (count == 0) return AclError(kRtParamInvalid, "aclrtReduceAsync of 0 bytes");
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  if (!Runtime::Get().IsDevicePointer(dst) || !Runtime::Get().IsDevicePointer(src)) {
    return AclError(kRtParamInvalid, "aclrtReduceAsync works on device memory only");
  }
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  v1::Call call;
  v1::ReduceDevice* reduce = call.mutable_reduce_device();
  reduce->set_stream_id(target.id);
  reduce->set_dst(Address(dst));
  reduce->set_src(Address(src));
  reduce->set_bytes(count);
  reduce->set_op(static_cast<v1::ReduceOp>(kind - kSum));
  reduce->set_type(it->second);
  return PostToDaemon(std::move(call));
}

absl::Status Memset32(void* dst, size_t dest_max, uint32_t value, size_t count, bool async,
                      void* stream) {
  if (count == 0) return absl::OkStatus();
  if (count > dest_max / 4) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%d words exceed memSize %d", count, dest_max));
  }
  if (Address(dst) % 4 != 0) {
    return AclError(kRtParamInvalid, absl::StrFormat("%p is not 4-byte aligned", dst));
  }
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  if (!Runtime::Get().IsDevicePointer(dst)) {
    return AclError(kRtParamInvalid, absl::StrFormat("%p is not device memory", dst));
  }
  uint64_t stream_id = 0;
  if (async) {
    NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
    stream_id = target.id;
  }
  v1::Call call;
  v1::Memset* memset = call.mutable_memset();
  memset->set_stream_id(stream_id);
  memset->set_address(Address(dst));
  memset->set_count(static_cast<uint64_t>(count) * 4);
  memset->set_value(value);
  memset->set_pattern_bytes(4);
  if (async) return PostToDaemon(std::move(call));
  return CallDaemon(std::move(call)).status();
}

absl::Status Memcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                      size_t height, uint32_t kind, bool async, void* stream) {
  if (width == 0 || height == 0) {
    return AclError(kRtParamInvalid, absl::StrFormat("a 2D copy of %dx%d bytes", width, height));
  }
  if (dpitch < width || spitch < width) {
    return AclError(kRtParamInvalid, absl::StrFormat("pitches %d and %d must be at least the "
                                                     "width %d",
                                                     dpitch, spitch, width));
  }
  size_t dst_span = 0, src_span = 0;
  if (__builtin_mul_overflow(dpitch, height - 1, &dst_span) ||
      __builtin_mul_overflow(spitch, height - 1, &src_span) ||
      __builtin_add_overflow(dst_span, width, &dst_span) ||
      __builtin_add_overflow(src_span, width, &src_span)) {
    return AclError(kRtParamInvalid, "the 2D copy's extent overflows");
  }
  if (dpitch == width && spitch == width) {
    return Memcpy(dst, dst_span, src, src_span, kind, async, stream);
  }
  for (size_t row = 0; row < height; ++row) {
    NPUD_RETURN_IF_ERROR(Memcpy(static_cast<uint8_t*>(dst) + row * dpitch, width,
                                static_cast<const uint8_t*>(src) + row * spitch, width, kind, async,
                                stream));
  }
  return absl::OkStatus();
}

absl::StatusOr<PointerAttributes> PointerAttributesOf(const void* ptr) {
  PointerAttributes attributes;
  Runtime& runtime = Runtime::Get();
  if (runtime.IsDevicePointer(ptr)) {
    attributes.type = runtime.managed_memory().Contains(ptr) ? kManagedMemory : kDeviceMemory;
    attributes.page_size = 4096;
    NPUD_ASSIGN_OR_RETURN(const std::vector<v1::DeviceDescription> devices, runtime.Devices());
    const uint64_t address = Address(ptr);
    for (const v1::DeviceDescription& device : devices) {
      if (address >= device.va_base() && address - device.va_base() < device.va_size()) {
        attributes.device = static_cast<uint32_t>(device.device_id());
      }
    }
    return attributes;  // a reserved virtual address: device 0 unless in a device's range
  }
  attributes.type = runtime.host_memory().Contains(ptr, 1) ? kHostMemory : kUnregisteredMemory;
  attributes.page_size = static_cast<uint32_t>(sysconf(_SC_PAGESIZE));
  return attributes;
}

absl::StatusOr<AddressRange> AllocationRangeOf(const void* ptr) {
  Runtime& runtime = Runtime::Get();
  if (auto host = runtime.host_memory().AllocationOf(ptr)) {
    return AddressRange{host->first, host->second};
  }
  if (!runtime.IsDevicePointer(ptr)) {
    return AclError(kRtParamInvalid, absl::StrFormat("%p is not inside an allocation", ptr));
  }
  v1::Call call;
  call.mutable_query_allocation()->set_address(Address(ptr));
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return AddressRange{reinterpret_cast<void*>(reply.allocation().base()),
                      static_cast<size_t>(reply.allocation().size())};
}

absl::Status MemcpyPinnedOrSync(void* dst, size_t dest_max, const void* src, size_t count,
                                uint32_t kind, void* stream) {
  const HostMemory& host = Runtime::Get().host_memory();
  const bool pageable =
      (kind == static_cast<uint32_t>(CopyKind::kHostToDevice) && !host.Contains(src, count)) ||
      (kind == static_cast<uint32_t>(CopyKind::kDeviceToHost) && !host.Contains(dst, count));
  if (!pageable) return Memcpy(dst, dest_max, src, count, kind, /*async=*/true, stream);
  NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
  if (StreamCaptures(target.id)) {
    return AclError(kRtParamInvalid,
                    "a copy of pageable memory is synchronous and cannot be captured");
  }
  NPUD_RETURN_IF_ERROR(SynchronizeStream(stream, -1));
  return Memcpy(dst, dest_max, src, count, kind, /*async=*/false, stream);
}

absl::StatusOr<bool> HostMapCapability(int32_t device, uint32_t hac_type) {
  constexpr uint32_t kAic = 2, kAiv = 3, kPcieDma = 4, kSdma = 6, kHacTypes = 10;
  NPUD_RETURN_IF_ERROR(MapDeviceId(device).status());
  if (hac_type >= kHacTypes) {
    return AclError(kRtParamInvalid, absl::StrFormat("%u is not an aclrtHacType", hac_type));
  }
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  if (hac_type != kAic && hac_type != kAiv && hac_type != kPcieDma && hac_type != kSdma) {
    return false;
  }
  Runtime& runtime = Runtime::Get();
  NPUD_ASSIGN_OR_RETURN(CallPipeline * session, runtime.Session());
  return session->CanShareMemory() && runtime.daemon_count() == 1;
}

absl::StatusOr<bool> CheckMemoryTypes(const void* const* addresses, uint32_t count,
                                      uint32_t mem_type, uint32_t reserve) {
  constexpr uint32_t kDev = 0x2, kDvpp = 0x8, kReserved = 0x20;
  if (reserve != 0) return AclError(kRtParamInvalid, "reserve must be 0");
  if (count == 0) return AclError(kRtParamInvalid, "the address list is empty");
  if ((mem_type & ~(kDev | kDvpp | kReserved)) != 0) {
    return AclError(kRtParamInvalid, absl::StrFormat("memory type %#x names no class", mem_type));
  }
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  Runtime& runtime = Runtime::Get();
  for (uint32_t i = 0; i < count; ++i) {
    const void* address = addresses[i];
    const bool reserved = runtime.IsReservedAddress(address);
    const bool device = !reserved && runtime.IsDevicePointer(address);
    if (!((device && (mem_type & kDev)) || (reserved && (mem_type & kReserved)))) return false;
  }
  return true;
}

absl::Status CheckCacheRange(const void* ptr, size_t size) {
  if (size == 0) return AclError(kRtParamInvalid, "a cache operation over 0 bytes");
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  if (!Runtime::Get().IsDevicePointer(ptr)) {
    return AclError(kRtParamInvalid, absl::StrFormat("%p is not device memory", ptr));
  }
  return absl::OkStatus();
}

absl::Status Memset(void* dst, size_t dest_max, int32_t value, size_t count, bool async,
                    void* stream) {
  if (count == 0) return absl::OkStatus();
  if (count > dest_max) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("memset of %d bytes exceeds destMax %d", count, dest_max));
  }
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  if (!Runtime::Get().IsDevicePointer(dst)) {
    // CANN also sets host memory: any of it synchronously (the upstream
    // cross-server sample clears a sockaddr on the stack this way), memory
    // from aclrtMallocHost on a stream too. Neither needs the device.
    if (!async || Runtime::Get().host_memory().Contains(dst, count)) {
      std::memset(dst, value, count);
      return absl::OkStatus();
    }
    return AclError(kRtParamInvalid,
                    absl::StrFormat("%p is neither device memory nor from aclrtMallocHost", dst));
  }
  uint64_t stream_id = 0;
  if (async) {
    NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
    stream_id = target.id;
  }
  v1::Call call;
  v1::Memset* memset = call.mutable_memset();
  memset->set_stream_id(stream_id);
  memset->set_address(Address(dst));
  memset->set_count(count);
  memset->set_value(static_cast<uint32_t>(value) & 0xFF);
  if (async) return PostToDaemon(std::move(call));
  return CallDaemon(std::move(call)).status();
}

absl::Status Memcpy(void* dst, size_t dest_max, const void* src, size_t count, uint32_t raw_kind,
                    bool async, void* stream) {
  if (count == 0) return absl::OkStatus();
  if (raw_kind > static_cast<uint32_t>(CopyKind::kHostToBufToDevice)) {
    return AclError(kAclInvalidParam, absl::StrFormat("invalid memcpy kind %d", raw_kind));
  }
  if (dest_max == 0 || count > dest_max) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("copy of %d bytes exceeds destMax %d", count, dest_max));
  }
  NPUD_RETURN_IF_ERROR(CurrentContext().status());
  NPUD_ASSIGN_OR_RETURN(const CopyKind kind, ResolveKind(raw_kind, dst, src));
  if (dst == src) return absl::OkStatus();
  uint64_t stream_id = 0;
  if (async) {
    if (kind == CopyKind::kHostToHost) {
      return AclError(kRtFeatureNotSupport, "asynchronous host-to-host copies are not supported");
    }
    NPUD_ASSIGN_OR_RETURN(const StreamTarget target, ResolveStream(stream));
    stream_id = target.id;
  }
  switch (kind) {
    case CopyKind::kHostToHost:
      std::memmove(dst, src, count);
      return absl::OkStatus();
    case CopyKind::kHostToDevice:
      return CopyToDevice(stream_id, Address(dst), static_cast<const uint8_t*>(src), count);
    case CopyKind::kDeviceToHost:
      return CopyToHost(stream_id, dst, Address(src), count);
    default:
      return CopyOnDevice(stream_id, Address(dst), Address(src), count);
  }
}

absl::StatusOr<MemInfo> GetMemInfo(uint32_t attr) {
  NPUD_ASSIGN_OR_RETURN(const int32_t device, CurrentDevice());
  v1::Call call;
  call.mutable_get_mem_info()->set_device_id(device);
  call.mutable_get_mem_info()->set_attr(attr);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  return MemInfo{reply.mem_info().free_bytes(), reply.mem_info().total_bytes()};
}

absl::StatusOr<std::vector<MemUsage>> MemoryUsage(int32_t device) {
  v1::Call call;
  call.mutable_get_mem_info()->set_device_id(device);
  call.mutable_get_mem_info()->set_usage(true);
  NPUD_ASSIGN_OR_RETURN(const v1::Reply reply, CallDaemon(std::move(call)));
  std::vector<MemUsage> usage;
  for (const v1::MemUsage& component : reply.mem_info().usage()) {
    usage.push_back(MemUsage{component.name(), component.current_bytes(), component.peak_bytes()});
  }
  std::stable_sort(usage.begin(), usage.end(), [](const MemUsage& a, const MemUsage& b) {
    return a.current_bytes > b.current_bytes;
  });
  return usage;
}

}  // namespace npud::client
