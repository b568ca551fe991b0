// abi_status.h
//
// The one place where absl::Status becomes aclError. Every exported function
// ends with `return Result(status, __func__)`: on failure it records the code
// as the calling thread's last error (aclrtGetLastError), keeps the message
// for aclGetRecentErrMsg and logs it.
//
// As in CANN, some failures are not recorded as the last error (only their
// message is kept): argument checks of the ACL layer (null pointers, zero
// sizes) and the fixed "no current context" answers of aclrtGetDevice and
// aclrtGetCurrentContext. Those use Unrecorded().
//
// The run-time compiler (acl_rt_compile.h) answers with its own codes
// (rtc::RtcError in client/core/rtc_program.h) and, being a library of its
// own in CANN, never records them: RtcResult().

#ifndef NPUD_CLIENT_ABI_ABI_STATUS_H_
#define NPUD_CLIENT_ABI_ABI_STATUS_H_

#include "absl/status/status.h"
#include "acl/acl.h"

namespace npud::client {

aclError Result(const absl::Status& status, const char* function);
aclError Unrecorded(const absl::Status& status, const char* function);

// The RTC code of `status` (0 if OK); a failure's message is kept and logged.
aclError RtcResult(const absl::Status& status, const char* function);

// ACL_ERROR_INVALID_PARAM for a null required argument `what` of `function`.
aclError NullArgument(const char* function, const char* what);

}  // namespace npud::client

// Returns from the calling ACL function if `arg` is null.
#define NPUD_REQUIRE_NOT_NULL(arg)                         \
  do {                                                     \
    if ((arg) == nullptr) {                                \
      return ::npud::client::NullArgument(__func__, #arg); \
    }                                                      \
  } while (false)

#endif  // NPUD_CLIENT_ABI_ABI_STATUS_H_
