// abi_status.h
//
// The one place where absl::Status becomes aclError. Every ACL implementation
// ends with `return Result(status, __func__)`, or with
// `return ResultInto(status_or, out, __func__)` when it stores a value: on
// failure the code is recorded as the calling thread's last error
// (aclrtGetLastError), the message is kept for aclGetRecentErrMsg and logged.
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

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "acl/acl.h"

namespace npud::client {

aclError Result(const absl::Status& status, const char* function);
aclError Unrecorded(const absl::Status& status, const char* function);
// Result() for answers that are part of normal use (a poll that found
// nothing, such as aclrtProcessReport's timeout): logged at debug level.
aclError QuietResult(const absl::Status& status, const char* function);

// The RTC code of `status` (0 if OK); a failure's message is kept and logged.
aclError RtcResult(const absl::Status& status, const char* function);

// ACL_ERROR_INVALID_PARAM for a null required argument `what` of `function`.
aclError NullArgument(const char* function, const char* what);

// The default conversion of ResultInto: the value itself.
struct AsIs {
  template <typename T>
  T&& operator()(T&& value) const {
    return std::forward<T>(value);
  }
};

// On success stores convert(*value) in *out and returns ACL_SUCCESS; on
// failure leaves *out alone and returns Result(value.status(), function).
template <typename T, typename Out, typename Convert = AsIs>
aclError ResultInto(absl::StatusOr<T> value, Out* out, const char* function, Convert convert = {}) {
  if (!value.ok()) return Result(value.status(), function);
  *out = convert(*std::move(value));
  return ACL_SUCCESS;
}

// ResultInto() for the failures that are not recorded (see Unrecorded).
template <typename T, typename Out, typename Convert = AsIs>
aclError UnrecordedInto(absl::StatusOr<T> value, Out* out, const char* function,
                        Convert convert = {}) {
  if (!value.ok()) return Unrecorded(value.status(), function);
  *out = convert(*std::move(value));
  return ACL_SUCCESS;
}

}  // namespace npud::client

// Returns from the calling ACL function if `arg` is null.
#define NPUD_REQUIRE_NOT_NULL(arg)                         \
  do {                                                     \
    if ((arg) == nullptr) {                                \
      return ::npud::client::NullArgument(__func__, #arg); \
    }                                                      \
  } while (false)

#endif  // NPUD_CLIENT_ABI_ABI_STATUS_H_
