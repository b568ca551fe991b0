// ACL device symbols: kernels and `__gm__` variables named by their host
// addresses, device variables of a binary, and the binary's device copy with
// its kernels' entries.

#include <cstddef>
#include <cstdint>
#include <utility>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/abi/device_symbol_exports.h"
#include "client/core/device_symbols.h"
#include "client/core/kernel_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

using npud::client::Result;
using npud::client::ResultInto;

namespace {

// Kernel core types (npud_kernel_abi.h: NPUD_CORE_TYPE_*).
constexpr uint32_t kVectorKernel = 0;
constexpr uint32_t kCubeKernel = 1;

}  // namespace

// Not ACL API: the registry that generated host code fills
// (npud_ascendc/host_launch.h).
extern "C" __attribute__((visibility("default"))) void npudRegisterDeviceSymbol(
    const void* symbol, const char* name, size_t size, int is_variable,
    aclError (*load)(aclrtBinHandle*)) {
  if (symbol == nullptr || name == nullptr || load == nullptr) return;
  npud::client::RegisterDeviceSymbol(
      symbol, npud::client::DeviceSymbol{name, size, is_variable != 0,
                                         reinterpret_cast<int (*)(void**)>(load)});
}

extern "C" __attribute__((visibility("default"))) void npudUnregisterDeviceSymbol(
    const void* symbol) {
  npud::client::UnregisterDeviceSymbol(symbol);
}

namespace npud::abi_impl {

aclError aclrtGetSymbolAddress(const void* symbol, void** devPtr) {
  NPUD_REQUIRE_NOT_NULL(symbol);
  NPUD_REQUIRE_NOT_NULL(devPtr);
  return ResultInto(npud::client::SymbolVariable(symbol), devPtr, __func__,
                    [](const npud::client::DeviceVariable& variable) {
                      return reinterpret_cast<void*>(variable.address);
                    });
}

aclError aclrtGetSymbolSize(const void* symbol, size_t* size) {
  NPUD_REQUIRE_NOT_NULL(symbol);
  NPUD_REQUIRE_NOT_NULL(size);
  return ResultInto(npud::client::SymbolVariable(symbol), size, __func__,
                    [](const npud::client::DeviceVariable& variable) {
                      return static_cast<size_t>(variable.size);
                    });
}

aclError aclrtMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                             aclrtMemcpyKind kind) {
  if (count == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(symbol);
  NPUD_REQUIRE_NOT_NULL(src);
  return Result(npud::client::CopyToSymbol(symbol, src, count, offset, kind, false, nullptr),
                __func__);
}

aclError aclrtMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                  aclrtMemcpyKind kind, aclrtStream stream) {
  if (count == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(symbol);
  NPUD_REQUIRE_NOT_NULL(src);
  return Result(npud::client::CopyToSymbol(symbol, src, count, offset, kind, true, stream),
                __func__);
}

aclError aclrtMemcpyFromSymbol(void* dst, size_t dstMax, const void* symbol, size_t count,
                               size_t offset, aclrtMemcpyKind kind) {
  if (count == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(symbol);
  NPUD_REQUIRE_NOT_NULL(dst);
  return Result(
      npud::client::CopyFromSymbol(dst, dstMax, symbol, count, offset, kind, false, nullptr),
      __func__);
}

aclError aclrtMemcpyFromSymbolAsync(void* dst, size_t dstMax, const void* symbol, size_t count,
                                    size_t offset, aclrtMemcpyKind kind, aclrtStream stream) {
  if (count == 0) return ACL_SUCCESS;
  NPUD_REQUIRE_NOT_NULL(symbol);
  NPUD_REQUIRE_NOT_NULL(dst);
  return Result(
      npud::client::CopyFromSymbol(dst, dstMax, symbol, count, offset, kind, true, stream),
      __func__);
}

aclError aclrtBinaryGetGlobal(aclrtBinHandle binHandle, const char* name, void** dptr,
                              size_t* size) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  NPUD_REQUIRE_NOT_NULL(name);
  if (dptr == nullptr && size == nullptr) {
    return Result(npud::AclError(npud::kAclInvalidParam, "dptr and size cannot both be null"),
                  __func__);
  }
  absl::StatusOr<npud::client::DeviceVariable> variable =
      npud::client::BinaryVariable(binHandle, name);
  if (!variable.ok()) return Result(variable.status(), __func__);
  if (dptr != nullptr) *dptr = reinterpret_cast<void*>(variable->address);
  if (size != nullptr) *size = variable->size;
  return ACL_SUCCESS;
}

aclError aclrtGetFuncBySymbol(const void* symbol, aclrtFuncHandle* funcHandle) {
  NPUD_REQUIRE_NOT_NULL(symbol);
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  return ResultInto(npud::client::FunctionBySymbol(symbol), funcHandle, __func__);
}

aclError aclrtBinaryGetDevAddress(const aclrtBinHandle binHandle, void** binAddr, size_t* binSize) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  NPUD_REQUIRE_NOT_NULL(binAddr);
  NPUD_REQUIRE_NOT_NULL(binSize);
  absl::StatusOr<std::pair<uint64_t, uint64_t>> image = npud::client::BinaryImage(binHandle);
  if (!image.ok()) return Result(image.status(), __func__);
  *binAddr = reinterpret_cast<void*>(image->first);
  *binSize = static_cast<size_t>(image->second);
  return ACL_SUCCESS;
}

// The entry of a kernel in the binary's device copy: on the cube core for
// cube and mix kernels, on the vector core for vector and mix kernels; the
// other is null (0 for the size), as CANN reports a kernel that does not
// run there.
aclError aclrtGetFunctionAddr(aclrtFuncHandle funcHandle, void** aicAddr, void** aivAddr) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(aicAddr);
  NPUD_REQUIRE_NOT_NULL(aivAddr);
  absl::StatusOr<npud::client::FunctionCodeRange> code = npud::client::FunctionCode(funcHandle);
  if (!code.ok()) return Result(code.status(), __func__);
  void* const entry = reinterpret_cast<void*>(code->address);
  *aicAddr = code->kernel_type != kVectorKernel ? entry : nullptr;
  *aivAddr = code->kernel_type != kCubeKernel ? entry : nullptr;
  return ACL_SUCCESS;
}

aclError aclrtGetFunctionSize(aclrtFuncHandle funcHandle, size_t* aicSize, size_t* aivSize) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(aicSize);
  NPUD_REQUIRE_NOT_NULL(aivSize);
  absl::StatusOr<npud::client::FunctionCodeRange> code = npud::client::FunctionCode(funcHandle);
  if (!code.ok()) return Result(code.status(), __func__);
  *aicSize = code->kernel_type != kVectorKernel ? code->size : 0;
  *aivSize = code->kernel_type != kCubeKernel ? code->size : 0;
  return ACL_SUCCESS;
}

}  // namespace npud::abi_impl
