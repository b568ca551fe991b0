// ACL kernel entry points: binaries, functions, argument lists, launches.

#include <cstring>
#include <vector>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/handles.h"
#include "client/core/kernel_ops.h"
#include "client/core/resource_limits.h"
#include "common/acl_status.h"

using npud::client::Result;

namespace {

// Bytes the runtime needs for an argument list made by
// aclrtKernelArgsInitByUserMem (the list itself lives in the client core).
constexpr size_t kArgsHandleBytes = 64;

aclError Store(const char* function, absl::StatusOr<void*> value, void** out) {
  if (!value.ok()) return Result(value.status(), function);
  *out = *value;
  return ACL_SUCCESS;
}

}  // namespace

extern "C" {

aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  NPUD_REQUIRE_NOT_NULL(binPath);
  NPUD_REQUIRE_NOT_NULL(binHandle);
  (void)options;  // Lazy loading and magic values change nothing here.
  return Store(__func__, npud::client::LoadBinaryFile(binPath), binHandle);
}

aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                 const aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle) {
  NPUD_REQUIRE_NOT_NULL(data);
  NPUD_REQUIRE_NOT_NULL(binHandle);
  (void)options;
  return Store(__func__,
               npud::client::LoadBinary({static_cast<const char*>(data), length}, "<memory>"),
               binHandle);
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  return Result(npud::client::UnloadBinary(binHandle), __func__);
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                aclrtFuncHandle* funcHandle) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  NPUD_REQUIRE_NOT_NULL(kernelName);
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  return Store(__func__, npud::client::GetFunction(binHandle, kernelName), funcHandle);
}

// The entry of a function is its index in the binary's kernel table.
aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                       aclrtFuncHandle* funcHandle) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  auto count = npud::client::FunctionCount(binHandle);
  if (!count.ok()) return Result(count.status(), __func__);
  if (funcEntry >= *count) {
    return Result(npud::AclError(npud::kRtInvalidHandle,
                                 absl::StrFormat("no function at entry %d", funcEntry)),
                  __func__);
  }
  std::vector<aclrtFuncHandle> all(*count);
  aclError result =
      Result(npud::client::EnumerateFunctions(binHandle, all.data(), *count), __func__);
  if (result == ACL_SUCCESS) *funcHandle = all[funcEntry];
  return result;
}

aclError aclrtBinaryGetFunctionCount(aclrtBinHandle binHandle, uint32_t* count) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  NPUD_REQUIRE_NOT_NULL(count);
  auto n = npud::client::FunctionCount(binHandle);
  if (!n.ok()) return Result(n.status(), __func__);
  *count = *n;
  return ACL_SUCCESS;
}

aclError aclrtBinaryEnumerateFunctions(const aclrtBinHandle binHandle, aclrtFuncHandle* funcHandles,
                                       uint32_t numFunctions) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  NPUD_REQUIRE_NOT_NULL(funcHandles);
  return Result(npud::client::EnumerateFunctions(binHandle, funcHandles, numFunctions), __func__);
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name) {
  NPUD_REQUIRE_NOT_NULL(name);
  auto function = npud::client::ResolveFunction(funcHandle);
  if (!function.ok()) return Result(function.status(), __func__);
  const std::string& kernel = function->kernel.name;
  if (maxLen <= kernel.size()) {
    return Result(npud::AclError(npud::kRtParamInvalid, absl::StrFormat("name '%s' needs %d bytes",
                                                                        kernel, kernel.size() + 1)),
                  __func__);
  }
  std::memcpy(name, kernel.c_str(), kernel.size() + 1);
  return ACL_SUCCESS;
}

aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                   int64_t* attrValue) {
  NPUD_REQUIRE_NOT_NULL(attrValue);
  auto function = npud::client::ResolveFunction(funcHandle);
  if (!function.ok()) return Result(function.status(), __func__);
  switch (attrType) {
    case ACL_FUNC_ATTR_KERNEL_TYPE:
      *attrValue = function->kernel.kernel_type == 0   ? ACL_KERNEL_TYPE_VECTOR
                   : function->kernel.kernel_type == 1 ? ACL_KERNEL_TYPE_CUBE
                                                       : ACL_KERNEL_TYPE_MIX;
      return ACL_SUCCESS;
    case ACL_FUNC_ATTR_KERNEL_RATIO:
      *attrValue = 0;
      return ACL_SUCCESS;
    default:
      return Result(npud::AclError(npud::kRtParamInvalid, "unknown function attribute"), __func__);
  }
}

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  auto function = npud::client::ResolveFunction(funcHandle);
  if (!function.ok()) return Result(function.status(), __func__);
  *binHandle = npud::client::MakeHandle(npud::client::HandleKind::kBinary, function->binary_id);
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  return Store(__func__, npud::client::ArgsInit(funcHandle), argsHandle);
}

aclError aclrtKernelArgsInitByUserMem(aclrtFuncHandle funcHandle, aclrtArgsHandle argsHandle,
                                      void* userHostMem, size_t actualArgsSize) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  NPUD_REQUIRE_NOT_NULL(userHostMem);
  if (actualArgsSize == 0) return npud::client::NullArgument(__func__, "actualArgsSize");
  return Result(npud::client::ArgsInitAt(funcHandle, argsHandle), __func__);
}

aclError aclrtKernelArgsGetHandleMemSize(aclrtFuncHandle funcHandle, size_t* memSize) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(memSize);
  *memSize = kArgsHandleBytes;
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsGetMemSize(aclrtFuncHandle funcHandle, size_t userArgsSize,
                                   size_t* actualArgsSize) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(actualArgsSize);
  *actualArgsSize = (userArgsSize + 7) / 8 * 8;
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                               aclrtParamHandle* paramHandle) {
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  NPUD_REQUIRE_NOT_NULL(param);
  if (paramSize == 0) return npud::client::NullArgument(__func__, "paramSize");
  NPUD_REQUIRE_NOT_NULL(paramHandle);
  return Store(__func__, npud::client::ArgsAppend(argsHandle, param, paramSize), paramHandle);
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                          aclrtParamHandle* paramHandle) {
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  NPUD_REQUIRE_NOT_NULL(paramHandle);
  return Store(__func__, npud::client::ArgsAppendPlaceholder(argsHandle), paramHandle);
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                             aclrtParamHandle paramHandle, size_t dataSize,
                                             void** bufferAddr) {
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  NPUD_REQUIRE_NOT_NULL(paramHandle);
  if (dataSize == 0) return npud::client::NullArgument(__func__, "dataSize");
  NPUD_REQUIRE_NOT_NULL(bufferAddr);
  return Store(__func__, npud::client::ArgsPlaceholderBuffer(argsHandle, paramHandle, dataSize),
               bufferAddr);
}

aclError aclrtKernelArgsParaUpdate(aclrtArgsHandle argsHandle, aclrtParamHandle paramHandle,
                                   void* param, size_t paramSize) {
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  NPUD_REQUIRE_NOT_NULL(paramHandle);
  NPUD_REQUIRE_NOT_NULL(param);
  if (paramSize == 0) return npud::client::NullArgument(__func__, "paramSize");
  return Result(npud::client::ArgsUpdate(argsHandle, paramHandle, param, paramSize), __func__);
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  return Result(npud::client::ArgsFinalize(argsHandle), __func__);
}

aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                           size_t argsSize, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(argsData);
  return Result(npud::client::LaunchDeviceArgs(funcHandle, numBlocks, stream, argsData, argsSize),
                __func__);
}

aclError aclrtLaunchKernelV2(aclrtFuncHandle funcHandle, uint32_t numBlocks, const void* argsData,
                             size_t argsSize, aclrtLaunchKernelCfg* cfg, aclrtStream stream) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(argsData);
  (void)cfg;  // Launch attributes (engine, timeouts, prefetch) do not apply here.
  return Result(npud::client::LaunchDeviceArgs(funcHandle, numBlocks, stream, argsData, argsSize),
                __func__);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                     aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                     aclrtArgsHandle argsHandle, void* reserve) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  (void)cfg;
  (void)reserve;
  return Result(npud::client::LaunchArgs(funcHandle, numBlocks, stream, argsHandle), __func__);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                       aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                       void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray,
                                       size_t placeHolderNum) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  if (argsSize > 0) NPUD_REQUIRE_NOT_NULL(hostArgs);
  if (placeHolderNum > 0) NPUD_REQUIRE_NOT_NULL(placeHolderArray);
  (void)cfg;
  static_assert(sizeof(npud::client::PlaceholderSpan) == sizeof(aclrtPlaceHolderInfo),
                "the placeholder layouts must agree");
  return Result(
      npud::client::LaunchHostArgs(
          funcHandle, numBlocks, stream, hostArgs, argsSize,
          reinterpret_cast<const npud::client::PlaceholderSpan*>(placeHolderArray), placeHolderNum),
      __func__);
}

aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream,
                                        aclrtLaunchKernelCfg* cfg, void** args) {
  NPUD_REQUIRE_NOT_NULL(func);
  (void)cfg;
  auto function = npud::client::ResolveFunction(func);
  if (!function.ok()) return Result(function.status(), __func__);
  if (!function->kernel.params.empty()) NPUD_REQUIRE_NOT_NULL(args);
  return Result(npud::client::LaunchArgsArray(func, numBlocks, stream, args), __func__);
}

aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount) {
  NPUD_REQUIRE_NOT_NULL(func);
  NPUD_REQUIRE_NOT_NULL(paramCount);
  auto function = npud::client::ResolveFunction(const_cast<void*>(func));
  if (!function.ok()) return Result(function.status(), __func__);
  *paramCount = function->kernel.params.size();
  return ACL_SUCCESS;
}

aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                   size_t* paramSize) {
  NPUD_REQUIRE_NOT_NULL(func);
  NPUD_REQUIRE_NOT_NULL(paramOffset);
  NPUD_REQUIRE_NOT_NULL(paramSize);
  auto function = npud::client::ResolveFunction(const_cast<void*>(func));
  if (!function.ok()) return Result(function.status(), __func__);
  if (paramIndex >= function->kernel.params.size()) {
    return Result(
        npud::AclError(npud::kRtParamInvalid, absl::StrFormat("the kernel has %d parameters",
                                                              function->kernel.params.size())),
        __func__);
  }
  *paramOffset = function->kernel.params[paramIndex].first;
  *paramSize = function->kernel.params[paramIndex].second;
  return ACL_SUCCESS;
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
  return Result(npud::client::SetDeviceLimit(deviceId, type, value), __func__);
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  auto limit = npud::client::GetDeviceLimit(deviceId, type);
  if (!limit.ok()) return Result(limit.status(), __func__);
  *value = *limit;
  return ACL_SUCCESS;
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  return Result(npud::client::ResetDeviceLimits(deviceId), __func__);
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
  return Result(npud::client::SetStreamLimit(stream, type, value), __func__);
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  auto limit = npud::client::GetStreamLimit(stream, type);
  if (!limit.ok()) return Result(limit.status(), __func__);
  *value = *limit;
  return ACL_SUCCESS;
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
  return Result(npud::client::ResetStreamLimits(stream), __func__);
}

}  // extern "C"
