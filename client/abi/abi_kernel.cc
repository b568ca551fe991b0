// ACL kernel entry points: binaries, functions, argument lists, launches.

#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/abi/launch_attributes.h"
#include "client/core/binary_descriptors.h"
#include "client/core/handles.h"
#include "client/core/kernel_ops.h"
#include "client/core/resource_limits.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"
#include "common/status_macros.h"

using npud::client::AttributesOf;
using npud::client::FunctionRef;
using npud::client::Result;
using npud::client::ResultInto;

namespace {

// A configuration that announces attributes must have them.
#define NPUD_REQUIRE_CONFIG(cfg)                   \
  do {                                             \
    if ((cfg) != nullptr && (cfg)->numAttrs > 0) { \
      NPUD_REQUIRE_NOT_NULL((cfg)->attrs);         \
    }                                              \
  } while (0)

// Bytes the runtime needs for an argument list made by
// aclrtKernelArgsInitByUserMem (the list itself lives in the client core).
constexpr size_t kArgsHandleBytes = 64;

// The entry of a function is its index in the binary's kernel table.
absl::StatusOr<aclrtFuncHandle> FunctionAtEntry(aclrtBinHandle binary, uint64_t entry) {
  NPUD_ASSIGN_OR_RETURN(const uint32_t count, npud::client::FunctionCount(binary));
  if (entry >= count) {
    return npud::AclError(npud::kRtInvalidHandle,
                          absl::StrFormat("no function at entry %d", entry));
  }
  std::vector<aclrtFuncHandle> all(count);
  NPUD_RETURN_IF_ERROR(npud::client::EnumerateFunctions(binary, all.data(), count));
  return all[entry];
}

// Copies the kernel name of `function` with its NUL to `out` (`capacity` bytes).
absl::Status CopyFunctionName(aclrtFuncHandle function, uint32_t capacity, char* out) {
  NPUD_ASSIGN_OR_RETURN(const FunctionRef resolved, npud::client::ResolveFunction(function));
  const std::string& kernel = resolved.kernel.name;
  if (capacity <= kernel.size()) {
    return npud::AclError(npud::kRtParamInvalid,
                          absl::StrFormat("name '%s' needs %d bytes", kernel, kernel.size() + 1));
  }
  std::memcpy(out, kernel.c_str(), kernel.size() + 1);
  return absl::OkStatus();
}

// What aclrtGetFunctionAttribute answers for `attr` of `function`.
absl::StatusOr<int64_t> FunctionAttribute(aclrtFuncHandle function, aclrtFuncAttribute attr) {
  NPUD_ASSIGN_OR_RETURN(const FunctionRef resolved, npud::client::ResolveFunction(function));
  switch (attr) {
    case ACL_FUNC_ATTR_KERNEL_TYPE:
      return resolved.kernel.kernel_type == 0   ? ACL_KERNEL_TYPE_VECTOR
             : resolved.kernel.kernel_type == 1 ? ACL_KERNEL_TYPE_CUBE
                                                : ACL_KERNEL_TYPE_MIX;
    case ACL_FUNC_ATTR_KERNEL_RATIO:
      return 0;
    default:
      return npud::AclError(npud::kRtParamInvalid, "unknown function attribute");
  }
}

size_t ParamCount(const FunctionRef& function) { return function.kernel.params.size(); }

// Stores where parameter `index` of `function` lies in its packed arguments.
absl::Status ParamInfo(const void* function, size_t index, size_t* offset, size_t* size) {
  NPUD_ASSIGN_OR_RETURN(const FunctionRef resolved,
                        npud::client::ResolveFunction(const_cast<void*>(function)));
  if (index >= ParamCount(resolved)) {
    return npud::AclError(npud::kRtParamInvalid,
                          absl::StrFormat("the kernel has %d parameters", ParamCount(resolved)));
  }
  *offset = resolved.kernel.params[index].first;
  *size = resolved.kernel.params[index].second;
  return absl::OkStatus();
}

}  // namespace

namespace npud::abi_impl {

aclError aclrtSetOpExecuteTimeOut(uint32_t timeout) {  // seconds
  return Result(npud::client::SetExecuteTimeout(uint64_t{timeout} * 1'000'000).status(), __func__);
}

aclError aclrtSetOpExecuteTimeOutWithMs(uint32_t timeout) {
  return Result(npud::client::SetExecuteTimeout(uint64_t{timeout} * 1000).status(), __func__);
}

aclError aclrtSetOpExecuteTimeOutV2(uint64_t timeout, uint64_t* actualTimeout) {  // us
  NPUD_REQUIRE_NOT_NULL(actualTimeout);
  return ResultInto(npud::client::SetExecuteTimeout(timeout), actualTimeout, __func__);
}

aclError aclrtGetOpTimeOutInterval(uint64_t* interval) {
  NPUD_REQUIRE_NOT_NULL(interval);
  *interval = npud::client::kOpTimeoutIntervalUs;
  return ACL_SUCCESS;
}

aclError aclrtGetOpExecuteTimeout(uint32_t* const timeoutMs) {
  NPUD_REQUIRE_NOT_NULL(timeoutMs);
  *timeoutMs = static_cast<uint32_t>(npud::client::ExecuteTimeoutUs() / 1000);
  return ACL_SUCCESS;
}

aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  NPUD_REQUIRE_NOT_NULL(binPath);
  NPUD_REQUIRE_NOT_NULL(binHandle);
  (void)options;  // Lazy loading and magic values change nothing here.
  return ResultInto(npud::client::LoadBinaryFile(binPath), binHandle, __func__);
}

aclError aclrtBinaryLoadFromData(const void* data, size_t length,
                                 const aclrtBinaryLoadOptions* options, aclrtBinHandle* binHandle) {
  NPUD_REQUIRE_NOT_NULL(data);
  NPUD_REQUIRE_NOT_NULL(binHandle);
  (void)options;
  return ResultInto(npud::client::LoadBinary({static_cast<const char*>(data), length}, "<memory>"),
                    binHandle, __func__);
}

aclrtBinary aclrtCreateBinary(const void* data, size_t dataLen) {
  if (data == nullptr) {
    npud::client::NullArgument(__func__, "data");
    return nullptr;
  }
  return npud::client::CreateBinaryDescriptor(data, dataLen);
}

aclError aclrtDestroyBinary(aclrtBinary binary) {
  NPUD_REQUIRE_NOT_NULL(binary);
  return Result(npud::client::DestroyBinaryDescriptor(binary), __func__);
}

aclError aclrtBinaryLoad(const aclrtBinary binary, aclrtBinHandle* binHandle) {
  NPUD_REQUIRE_NOT_NULL(binary);
  NPUD_REQUIRE_NOT_NULL(binHandle);
  return ResultInto(npud::client::LoadBinaryDescriptor(binary), binHandle, __func__);
}

// No function of a 910B kernel is a SIMT one, and only those have dynamic
// unified buffer to report.
aclError aclrtFunctionGetAvailDynUbufPerBlock(void* func, uint32_t flags, size_t* dynamicUbufSize) {
  NPUD_REQUIRE_NOT_NULL(func);
  NPUD_REQUIRE_NOT_NULL(dynamicUbufSize);
  if (flags != 0) {
    return npud::client::Unrecorded(npud::AclError(npud::kAclInvalidParam, "flags must be 0"),
                                    __func__);
  }
  absl::Status known = npud::client::ResolveFunction(func).status();
  if (!known.ok()) return Result(known, __func__);
  *dynamicUbufSize = 0;
  return ACL_SUCCESS;
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
  return ResultInto(npud::client::GetFunction(binHandle, kernelName), funcHandle, __func__);
}

aclError aclrtBinaryGetFunctionByEntry(aclrtBinHandle binHandle, uint64_t funcEntry,
                                       aclrtFuncHandle* funcHandle) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  return ResultInto(FunctionAtEntry(binHandle, funcEntry), funcHandle, __func__);
}

aclError aclrtBinaryGetFunctionCount(aclrtBinHandle binHandle, uint32_t* count) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  NPUD_REQUIRE_NOT_NULL(count);
  return ResultInto(npud::client::FunctionCount(binHandle), count, __func__);
}

aclError aclrtBinaryEnumerateFunctions(const aclrtBinHandle binHandle, aclrtFuncHandle* funcHandles,
                                       uint32_t numFunctions) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  NPUD_REQUIRE_NOT_NULL(funcHandles);
  return Result(npud::client::EnumerateFunctions(binHandle, funcHandles, numFunctions), __func__);
}

aclError aclrtGetFunctionName(aclrtFuncHandle funcHandle, uint32_t maxLen, char* name) {
  NPUD_REQUIRE_NOT_NULL(name);
  return Result(CopyFunctionName(funcHandle, maxLen, name), __func__);
}

aclError aclrtGetFunctionAttribute(aclrtFuncHandle funcHandle, aclrtFuncAttribute attrType,
                                   int64_t* attrValue) {
  NPUD_REQUIRE_NOT_NULL(attrValue);
  return ResultInto(FunctionAttribute(funcHandle, attrType), attrValue, __func__);
}

aclError aclrtFunctionGetBinary(const aclrtFuncHandle funcHandle, aclrtBinHandle* binHandle) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  return ResultInto(npud::client::ResolveFunction(funcHandle), binHandle, __func__,
                    [](const FunctionRef& function) {
                      return npud::client::MakeHandle(npud::client::HandleKind::kBinary,
                                                      function.binary_id);
                    });
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  return ResultInto(npud::client::ArgsInit(funcHandle), argsHandle, __func__);
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
  return ResultInto(npud::client::ArgsAppend(argsHandle, param, paramSize), paramHandle, __func__);
}

aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
                                          aclrtParamHandle* paramHandle) {
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  NPUD_REQUIRE_NOT_NULL(paramHandle);
  return ResultInto(npud::client::ArgsAppendPlaceholder(argsHandle), paramHandle, __func__);
}

aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
                                             aclrtParamHandle paramHandle, size_t dataSize,
                                             void** bufferAddr) {
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  NPUD_REQUIRE_NOT_NULL(paramHandle);
  if (dataSize == 0) return npud::client::NullArgument(__func__, "dataSize");
  NPUD_REQUIRE_NOT_NULL(bufferAddr);
  return ResultInto(npud::client::ArgsPlaceholderBuffer(argsHandle, paramHandle, dataSize),
                    bufferAddr, __func__);
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
  NPUD_REQUIRE_CONFIG(cfg);
  return Result(npud::client::LaunchDeviceArgs(funcHandle, numBlocks, stream, argsData, argsSize,
                                               AttributesOf(cfg)),
                __func__);
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                     aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                     aclrtArgsHandle argsHandle, void* reserve) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  NPUD_REQUIRE_NOT_NULL(argsHandle);
  NPUD_REQUIRE_CONFIG(cfg);
  (void)reserve;
  return Result(
      npud::client::LaunchArgs(funcHandle, numBlocks, stream, argsHandle, AttributesOf(cfg)),
      __func__);
}

aclError aclrtLaunchKernelWithHostArgs(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                       aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                       void* hostArgs, size_t argsSize,
                                       aclrtPlaceHolderInfo* placeHolderArray,
                                       size_t placeHolderNum) {
  NPUD_REQUIRE_NOT_NULL(funcHandle);
  if (argsSize > 0) NPUD_REQUIRE_NOT_NULL(hostArgs);
  if (placeHolderNum > 0) NPUD_REQUIRE_NOT_NULL(placeHolderArray);
  NPUD_REQUIRE_CONFIG(cfg);
  static_assert(sizeof(npud::client::PlaceholderSpan) == sizeof(aclrtPlaceHolderInfo),
                "the placeholder layouts must agree");
  return Result(npud::client::LaunchHostArgs(
                    funcHandle, numBlocks, stream, hostArgs, argsSize,
                    reinterpret_cast<const npud::client::PlaceholderSpan*>(placeHolderArray),
                    placeHolderNum, AttributesOf(cfg)),
                __func__);
}

aclError aclrtLaunchKernelWithArgsArray(void* func, uint32_t numBlocks, aclrtStream stream,
                                        aclrtLaunchKernelCfg* cfg, void** args) {
  NPUD_REQUIRE_NOT_NULL(func);
  NPUD_REQUIRE_CONFIG(cfg);
  size_t params = 0;
  const aclError resolved =
      ResultInto(npud::client::ResolveFunction(func), &params, __func__, ParamCount);
  if (resolved != ACL_SUCCESS) return resolved;
  if (params > 0) NPUD_REQUIRE_NOT_NULL(args);
  return Result(npud::client::LaunchArgsArray(func, numBlocks, stream, args, AttributesOf(cfg)),
                __func__);
}

aclError aclrtFunctionGetParamCount(const void* func, size_t* paramCount) {
  NPUD_REQUIRE_NOT_NULL(func);
  NPUD_REQUIRE_NOT_NULL(paramCount);
  return ResultInto(npud::client::ResolveFunction(const_cast<void*>(func)), paramCount, __func__,
                    ParamCount);
}

aclError aclrtFunctionGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                   size_t* paramSize) {
  NPUD_REQUIRE_NOT_NULL(func);
  NPUD_REQUIRE_NOT_NULL(paramOffset);
  NPUD_REQUIRE_NOT_NULL(paramSize);
  return Result(ParamInfo(func, paramIndex, paramOffset, paramSize), __func__);
}

aclError aclrtSetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t value) {
  return Result(npud::client::SetDeviceLimit(deviceId, type, value), __func__);
}

aclError aclrtGetDeviceResLimit(int32_t deviceId, aclrtDevResLimitType type, uint32_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  return ResultInto(npud::client::GetDeviceLimit(deviceId, type), value, __func__);
}

aclError aclrtResetDeviceResLimit(int32_t deviceId) {
  return Result(npud::client::ResetDeviceLimits(deviceId), __func__);
}

aclError aclrtSetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t value) {
  return Result(npud::client::SetStreamLimit(stream, type, value), __func__);
}

aclError aclrtGetStreamResLimit(aclrtStream stream, aclrtDevResLimitType type, uint32_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  return ResultInto(npud::client::GetStreamLimit(stream, type), value, __func__);
}

aclError aclrtResetStreamResLimit(aclrtStream stream) {
  return Result(npud::client::ResetStreamLimits(stream), __func__);
}

aclError aclrtUseStreamResInCurrentThread(aclrtStream stream) {
  return Result(npud::client::UseStreamLimitsInThread(stream), __func__);
}

aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream) {
  return Result(npud::client::UnuseStreamLimitsInThread(stream), __func__);
}

aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type, uint32_t* value) {
  NPUD_REQUIRE_NOT_NULL(value);
  return ResultInto(npud::client::GetThreadLimit(type), value, __func__);
}

}  // namespace npud::abi_impl
