// Compile-only C++17 check of the public headers: acl/acl.h and the C++ overloads of
// acl/acl_rt_api.h must build warning-free, and every overload must forward to a C
// entry point with matching parameter types. Nothing here is linked or run: the
// templates are instantiated inside a function that is never called.

#include "acl/acl.h"
#include "acl/acl_dump.h"
#include "acl/acl_prof.h"
#include "acl/acl_rt_api.h"
#include "acl/acl_rt_compile.h"
#include "acl/acl_tdt.h"
#include "acl/acl_tdt_queue.h"
#include "mstx/ms_tools_ext.h"

namespace {

[[maybe_unused]] void InstantiateOverloads() {
  aclrtStream stream = nullptr;
  aclrtEvent event = nullptr;
  float* dev = nullptr;
  const double* src = nullptr;
  int* host = nullptr;
  uint64_t actual = 0;
  aclrtMallocConfig cfg = {nullptr, 0};

  (void)aclrtSynchronizeDevice(100);
  (void)aclrtSynchronizeStream(stream, 100);
  (void)aclrtSynchronizeEvent(event, 100);
  (void)aclrtStreamWaitEvent(stream, event, 100);
  (void)aclrtCreateStream(&stream, 0U, ACL_STREAM_FAST_LAUNCH);
  (void)aclrtCreateEvent(&event, ACL_EVENT_SYNC);
  (void)aclrtSetOpExecuteTimeOut(uint64_t{10}, &actual);

  (void)aclrtMalloc(&dev, 64);
  (void)aclrtMalloc(&dev, 64, &cfg);
  (void)aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_ONLY);
  (void)aclrtMallocHost(&host, 64);
  (void)aclrtMemAllocManaged(&dev, 64);

  (void)aclrtMemcpy(dev, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE);
  (void)aclrtMemcpyAsync(dev, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream);
  (void)aclrtMemcpy2d(dev, 8, src, 8, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE);
  (void)aclrtMemcpy2dAsync(dev, 8, src, 8, 8, 8, ACL_MEMCPY_HOST_TO_DEVICE, stream);

  float* dsts[1] = {dev};
  int* srcs[1] = {host};
  size_t sizes[1] = {64};
  size_t destMaxs[1] = {64};
  size_t attrIdx[1] = {0};
  size_t failIndex = 0;
  aclrtMemcpyBatchAttr attr = {};
  (void)aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 1, attr);
  (void)aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, 1, &attr, attrIdx, 1, &failIndex);
  (void)aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 1, attr, stream);
  (void)aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 1, &attr, attrIdx, 1, stream);
  (void)aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 1, attr, &failIndex, stream);
  (void)aclrtMemcpyBatchAsync(dsts, destMaxs, srcs, sizes, 1, &attr, attrIdx, 1, &failIndex,
                              stream);

  aclrtPtrAttributes attributes = {};
  (void)aclrtPointerGetAttributes(dev, &attributes);
  int* mapped = nullptr;
  (void)aclrtHostRegister(host, 64, ACL_HOST_REGISTER_MAPPED, &mapped);
  (void)aclrtHostRegister(host, 64, uint32_t{ACL_HOST_REG_MAPPED});
  (void)aclrtHostGetDevicePointer(host, &mapped, 0U);
  (void)aclrtHostUnregister(host);

  aclrtMemManagedLocation location = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
  const float* ranges[1] = {dev};
  size_t locIdx[1] = {0};
  (void)aclrtMemManagedPrefetchAsync(dev, 64, location, 0U, stream);
  (void)aclrtMemManagedPrefetchBatchAsync(ranges, sizes, 1, location, 0U, stream);
  (void)aclrtMemManagedPrefetchBatchAsync(ranges, sizes, 1, &location, locIdx, 1, 0U, stream);

  static const int symbol = 0;
  void* symbolAddr = nullptr;
  size_t symbolSize = 0;
  (void)aclrtGetSymbolAddress(symbol, &symbolAddr);
  (void)aclrtGetSymbolSize(symbol, &symbolSize);
  (void)aclrtMemcpyFromSymbol(host, 4, symbol, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST);
  (void)aclrtMemcpyFromSymbolAsync(host, 4, symbol, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, stream);
  (void)aclrtMemcpyToSymbol(symbol, host, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE);
  (void)aclrtMemcpyToSymbolAsync(symbol, host, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, stream);

  // The plain C entry points stay reachable next to the overloads.
  void* raw = nullptr;
  (void)aclrtMalloc(&raw, 64, ACL_MEM_MALLOC_HUGE_FIRST);
  (void)aclrtMemcpy(raw, 64, static_cast<const void*>(src), 64, ACL_MEMCPY_HOST_TO_DEVICE);
  (void)aclrtSynchronizeDevice();
  (void)aclrtCreateStream(&stream);

  // dim3 is constexpr-constructible in C++.
  constexpr dim3 grid(2);
  static_assert(grid.x == 2 && grid.y == 1 && grid.z == 1, "dim3 defaults");

  ACL_APP_LOG(ACL_INFO, "%d", 1);
}

}  // namespace
