// ACL host callbacks (aclrtLaunchCallback and the report thread calls,
// aclrtLaunchHostFunc and the host function thread calls) and exception
// callbacks with the getters of aclrtExceptionInfo.

#include <cstdint>
#include <utility>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/exception_callbacks.h"
#include "client/core/host_callbacks.h"
#include "client/core/kernel_ops.h"
#include "client/core/stream_ops.h"
#include "client/generated/acl_impl.h"
#include "common/acl_status.h"

// acl_rt.h declares it opaque; this is what the getters read.
struct rtExceptionInfo {
  npud::client::TaskFailure failure;
};

using npud::client::HostCallbacks;
using npud::client::Result;

namespace {

using Kind = HostCallbacks::Kind;

// CANN: -1 waits forever, otherwise a positive number of milliseconds.
bool ValidTimeout(int32_t timeout) { return timeout == -1 || timeout > 0; }

aclError Subscribe(Kind kind, uint64_t thread_id, aclrtStream stream, const char* function) {
  auto target = npud::client::ResolveStream(stream);
  if (!target.ok()) return Result(target.status(), function);
  return Result(HostCallbacks::Get().Subscribe(kind, thread_id, target->id, target->device),
                function);
}

aclError Unsubscribe(Kind kind, uint64_t thread_id, aclrtStream stream, const char* function) {
  auto target = npud::client::ResolveStream(stream);
  if (!target.ok()) return Result(target.status(), function);
  return Result(HostCallbacks::Get().Unsubscribe(kind, thread_id, target->id), function);
}

aclError Process(Kind kind, int32_t timeout, const char* function) {
  if (!ValidTimeout(timeout)) {
    return Result(npud::AclError(npud::kAclInvalidParam, "timeout must be -1 or > 0"), function);
  }
  absl::Status processed = HostCallbacks::Get().Process(kind, timeout);
  return npud::ToAclCode(processed) == npud::kRtReportTimeout
             ? npud::client::QuietResult(processed, function)
             : Result(processed, function);
}

aclError Launch(Kind kind, aclrtStream stream, void (*fn)(void*), void* data, bool blocking,
                const char* function) {
  if (fn == nullptr) {
    return Result(npud::AclError(npud::kRtParamInvalid, "the callback function is null"), function);
  }
  auto target = npud::client::ResolveStream(stream);
  if (!target.ok()) return Result(target.status(), function);
  return Result(HostCallbacks::Get().Launch(
                    kind, target->id, [fn, data] { fn(data); }, blocking),
                function);
}

// The key of aclrtSetExceptionInfoCallback's one function; registered
// functions are keyed by their address, which is never 0.
constexpr uint64_t kSetCallbackKey = 0;

npud::client::ExceptionFn Wrap(aclrtExceptionInfoCallback callback) {
  return [callback](const npud::client::TaskFailure& failure) {
    rtExceptionInfo info{failure};
    callback(&info);
  };
}

// What the getters answer for a null info (CANN's invalid value).
constexpr uint32_t kInvalidExceptionInfo = 0xFFFFFFFF;

}  // namespace

namespace npud::abi_impl {

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return Subscribe(Kind::kReport, threadId, stream, __func__);
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return Unsubscribe(Kind::kReport, threadId, stream, __func__);
}

aclError aclrtProcessReport(int32_t timeout) { return Process(Kind::kReport, timeout, __func__); }

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  if (blockType != ACL_CALLBACK_BLOCK && blockType != ACL_CALLBACK_NO_BLOCK) {
    return Result(AclError(kAclInvalidParam,
                           "blockType must be ACL_CALLBACK_BLOCK or "
                           "ACL_CALLBACK_NO_BLOCK"),
                  __func__);
  }
  return Launch(Kind::kReport, stream, fn, userData, blockType == ACL_CALLBACK_BLOCK, __func__);
}

aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  NPUD_REQUIRE_NOT_NULL(exeStream);
  return Subscribe(Kind::kHostFunc, hostFuncThreadId, exeStream, __func__);
}

aclError aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream) {
  NPUD_REQUIRE_NOT_NULL(exeStream);
  return Unsubscribe(Kind::kHostFunc, hostFuncThreadId, exeStream, __func__);
}

aclError aclrtProcessHostFunc(int32_t timeout) {
  return Process(Kind::kHostFunc, timeout, __func__);
}

// Host functions always hold their stream until they return.
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void* args) {
  return Launch(Kind::kHostFunc, stream, fn, args, /*blocking=*/true, __func__);
}

aclError aclrtSetExceptionInfoCallback(aclrtExceptionInfoCallback callback) {
  client::SetExceptionCallback(kSetCallbackKey,
                               callback != nullptr ? Wrap(callback) : client::ExceptionFn());
  return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackRegister(aclrtExceptionInfoCallback callback) {
  if (callback == nullptr) {
    return Result(AclError(kRtParamInvalid, "the callback is null"), __func__);
  }
  client::SetExceptionCallback(reinterpret_cast<uintptr_t>(callback), Wrap(callback));
  return ACL_SUCCESS;
}

aclError aclrtExceptionInfoCallbackUnregister(aclrtExceptionInfoCallback callback) {
  if (callback == nullptr) {
    return Result(AclError(kRtParamInvalid, "the callback is null"), __func__);
  }
  client::SetExceptionCallback(reinterpret_cast<uintptr_t>(callback), client::ExceptionFn());
  return ACL_SUCCESS;
}

uint32_t aclrtGetTaskIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info != nullptr ? info->failure.task_id : kInvalidExceptionInfo;
}

uint32_t aclrtGetStreamIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info != nullptr ? info->failure.stream_id : kInvalidExceptionInfo;
}

uint32_t aclrtGetThreadIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info != nullptr ? info->failure.thread_id : kInvalidExceptionInfo;
}

uint32_t aclrtGetDeviceIdFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info != nullptr ? info->failure.device_id : kInvalidExceptionInfo;
}

uint32_t aclrtGetErrorCodeFromExceptionInfo(const aclrtExceptionInfo* info) {
  return info != nullptr ? info->failure.error_code : kInvalidExceptionInfo;
}

aclError aclrtGetArgsFromExceptionInfo(const aclrtExceptionInfo* info, void** devArgsPtr,
                                       uint32_t* devArgsLen) {
  NPUD_REQUIRE_NOT_NULL(info);
  NPUD_REQUIRE_NOT_NULL(devArgsPtr);
  NPUD_REQUIRE_NOT_NULL(devArgsLen);
  if (info->failure.binary_id == 0 || info->failure.args_address == 0) {
    return Result(AclError(kRtParamInvalid, info->failure.binary_id == 0
                                                ? "the failed task is not a kernel launch"
                                                : "npud could not keep the launch's arguments"),
                  __func__);
  }
  *devArgsPtr = reinterpret_cast<void*>(info->failure.args_address);
  *devArgsLen = info->failure.args_size;
  return ACL_SUCCESS;
}

aclError aclrtGetFuncHandleFromExceptionInfo(const aclrtExceptionInfo* info,
                                             aclrtFuncHandle* func) {
  NPUD_REQUIRE_NOT_NULL(info);
  NPUD_REQUIRE_NOT_NULL(func);
  if (info->failure.binary_id == 0) {
    return Result(AclError(kRtParamInvalid, "the failed task is not a kernel launch"), __func__);
  }
  void* handle = client::FunctionHandleOf(info->failure.binary_id, info->failure.kernel_index);
  if (handle == nullptr) {
    return Result(AclError(kRtInvalidHandle, "the failed kernel's binary was unloaded"), __func__);
  }
  *func = handle;
  return ACL_SUCCESS;
}

aclError aclrtBinarySetExceptionCallback(aclrtBinHandle binHandle,
                                         aclrtOpExceptionCallback callback, void* userData) {
  NPUD_REQUIRE_NOT_NULL(binHandle);
  absl::StatusOr<uint64_t> binary = client::ResolveBinary(binHandle);
  if (!binary.ok()) return Result(binary.status(), __func__);
  // Under the binary's handle (never a function's address or 0); null
  // removes it. The callback hears only of its own binary's kernels.
  client::ExceptionFn fn;
  if (callback != nullptr) {
    fn = [id = *binary, callback, userData](const client::TaskFailure& failure) {
      if (failure.binary_id != id) return;
      rtExceptionInfo info{failure};
      callback(&info, userData);
    };
  }
  client::SetExceptionCallback(reinterpret_cast<uintptr_t>(binHandle), std::move(fn));
  return ACL_SUCCESS;
}

}  // namespace npud::abi_impl
