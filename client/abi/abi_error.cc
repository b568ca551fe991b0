// ACL error reporting entry points: the calling thread's last error.

#include <cstring>

#include "acl/acl.h"
#include "client/abi/abi_status.h"
#include "client/core/runtime.h"
#include "client/core/thread_state.h"
#include "client/generated/acl_impl.h"

using npud::client::ThisThread;

namespace npud::abi_impl {

aclError aclrtGetLastError(aclrtLastErrLevel level) {
  if (level != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  npud::client::ThreadState& thread = ThisThread();
  const aclError error = thread.last_error;
  thread.last_error = ACL_SUCCESS;
  return error;
}

aclError aclrtPeekAtLastError(aclrtLastErrLevel level) {
  if (level != ACL_RT_THREAD_LEVEL) return ACL_ERROR_INVALID_PARAM;
  return ThisThread().last_error;
}

const char* aclGetRecentErrMsg(void) {
  const std::string& message = ThisThread().last_message;
  return message.empty() ? nullptr : message.c_str();
}

aclError aclrtGetErrorVerbose(int32_t deviceId, aclrtErrorInfo* errorInfo) {
  NPUD_REQUIRE_NOT_NULL(errorInfo);
  if (absl::Status s = npud::client::Runtime::Get().CheckDevice(deviceId); !s.ok()) {
    return npud::client::Result(s, __func__);
  }
  // No memory or link errors are simulated; device exceptions are reported
  // through the failing stream.
  std::memset(errorInfo, 0, sizeof(*errorInfo));
  errorInfo->errorType = ACL_RT_NO_ERROR;
  return ACL_SUCCESS;
}

}  // namespace npud::abi_impl
