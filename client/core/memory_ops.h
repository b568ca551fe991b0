// memory_ops.h
//
// Device memory (allocated by the daemon at stable addresses), host memory
// (allocated here), memset and every memcpy kind, synchronous or on a stream.
//
// Copies to the device carry their bytes inline, split in chunks of at most
// kDataChunkBytes (common/wire_constants.h) that stay ordered on their stream; the source buffer is
// copied at call time, so it may be reused as soon as the call returns. Copies to the host come
// back as DataChunks written straight into the destination, which must stay valid until the stream
// is synchronized.

#ifndef NPUD_CLIENT_CORE_MEMORY_OPS_H_
#define NPUD_CLIENT_CORE_MEMORY_OPS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace npud::client {

// aclrtMemcpyKind values (client/abi/abi_memory.cc checks that they agree).
enum class CopyKind : uint32_t {
  kHostToHost = 0,
  kHostToDevice = 1,
  kDeviceToHost = 2,
  kDeviceToDevice = 3,
  kDefault = 4,
  kHostToBufToDevice = 5,
  kInnerDeviceToDevice = 6,
  kInterDeviceToDevice = 7,
};

// `device_attr` >= 0 is a device id the caller's allocation attributes name;
// it must be the current device.
absl::StatusOr<void*> MallocDevice(size_t size, uint32_t policy, int32_t device_attr = -1);
absl::Status FreeDevice(void* pointer);
absl::StatusOr<void*> MallocHost(size_t size);
absl::Status FreeHost(void* pointer);
// aclrtHostRegister (see HostMemory::Register); `flags` are ACL_HOST_REG_*.
absl::StatusOr<void*> RegisterHost(void* pointer, uint64_t size, uint32_t flags);
absl::StatusOr<void*> HostDevicePointer(void* pointer, uint32_t flag);
absl::Status UnregisterHost(void* pointer);

// `stream` is an aclrtStream handle when `async`, ignored otherwise.
// aclrtRandomNumAsync's task, as aclrtRandomNumTaskInfo gives it.
struct RandomParamArg {
  uint64_t bits = 0;  // the value's bytes, or its device address
  uint32_t size = 0;
  bool from_device = false;
};
struct RandomNumbersArgs {
  int32_t data_type = 0;  // aclDataType
  uint32_t function = 0;  // aclrtRandomNumFuncType
  // min/max, mean/stddev, or the dropout ratio in a.
  RandomParamArg a, b, seed, count;
  void* result = nullptr;
  void* counter = nullptr;
};
absl::Status RandomNumbersAsync(const RandomNumbersArgs& args, void* stream);
// aclrtReduceAsync: `kind` an aclrtReduceKind, `type` an aclDataType.
absl::Status ReduceAsync(void* dst, const void* src, uint64_t count, uint32_t kind, int32_t type,
                         void* stream);
absl::Status Memset(void* dst, size_t dest_max, int32_t value, size_t count, bool async,
                    void* stream);
absl::Status Memcpy(void* dst, size_t dest_max, const void* src, size_t count, uint32_t kind,
                    bool async, void* stream);
// aclrtMemcpy2d(Async): `height` rows of `width` bytes, `spitch` apart in
// the source and `dpitch` apart in the destination. Rows that are
// contiguous on both sides go as one copy; others as one copy per row, in
// order (a synchronous one waits for each).
absl::Status Memcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                      size_t height, uint32_t kind, bool async, void* stream);
// aclrtMemLocationType values.
enum MemLocation : uint32_t {
  kHostMemory = 0,
  kDeviceMemory = 1,
  kUnregisteredMemory = 2,
  kManagedMemory = 3,
  kHostNumaMemory = 4,
};

// aclrtPointerGetAttributes: where `ptr` lives. `device`: its device for
// device memory; `type` an aclrtMemLocationType (host for memory from
// aclrtMallocHost or registered with npud, unregistered otherwise).
struct PointerAttributes {
  uint32_t device = 0;
  uint32_t type = 0;
  uint32_t page_size = 0;
};
absl::StatusOr<PointerAttributes> PointerAttributesOf(const void* ptr);

// aclrtMemGetAddressRange: start and size of the allocation holding `ptr`
// (device memory, imported or mapped; aclrtMallocHost or registered host
// memory).
struct AddressRange {
  void* base = nullptr;
  size_t size = 0;
};
absl::StatusOr<AddressRange> AllocationRangeOf(const void* ptr);

// aclrtMemcpyAsyncWithCondition: an asynchronous copy when its host side is
// pinned (aclrtMallocHost, registered), else the stream's work is waited for
// and the copy made synchronously, as CANN does for pageable memory.
absl::Status MemcpyPinnedOrSync(void* dst, size_t dest_max, const void* src, size_t count,
                                uint32_t kind, void* stream);

// aclrtHostMemMapCapabilities: whether engine `hac_type` (aclrtHacType) of
// `device` reaches registered host memory. The AI cores and the copy
// engines do where aclrtHostRegister can map (the daemon on this host);
// npud has no AI CPU, RDMA, DVPP, UDMA or CCU engines.
absl::StatusOr<bool> HostMapCapability(int32_t device, uint32_t hac_type);
// aclrtCheckMemType: whether every one of `addresses` is memory of a class
// in `mem_type` (ACL_RT_MEM_TYPE_DEV 0x2, DVPP 0x8 and, as CANN's runtime
// spells it, 0x20 for reserved addresses). npud has no DVPP memory.
absl::StatusOr<bool> CheckMemoryTypes(const void* const* addresses, uint32_t count,
                                      uint32_t mem_type, uint32_t reserve);
// aclrtMemsetD32(Async): `count` 32-bit words of `value` at `dst` (device
// memory, 4-byte aligned), within `dest_max` bytes.
absl::Status Memset32(void* dst, size_t dest_max, uint32_t value, size_t count, bool async,
                      void* stream);
// aclrtMemFlush / aclrtMemInvalidate / aclrtCmoAsync: cache maintenance.
// The simulated device keeps no caches, so these check their arguments and
// change nothing (an asynchronous one is ordered trivially: it has no
// effect to order).
absl::Status CheckCacheRange(const void* ptr, size_t size);

struct MemInfo {
  size_t free_bytes;
  size_t total_bytes;
};
// aclrtGetMemUsageInfo: who uses `device`'s memory, most first: this
// process's allocations ("app") and the device's memory in use by every
// process ("device"), now and at their peak.
struct MemUsage {
  std::string name;
  uint64_t current_bytes;
  uint64_t peak_bytes;
};
absl::StatusOr<std::vector<MemUsage>> MemoryUsage(int32_t device);
// Memory of the current device; `attr` is an aclrtMemAttr.
absl::StatusOr<MemInfo> GetMemInfo(uint32_t attr);

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_MEMORY_OPS_H_
