#include "client/abi/abi_status.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "client/core/client_log.h"
#include "client/core/rtc_program.h"
#include "client/core/thread_state.h"
#include "common/acl_status.h"

namespace npud::client {

namespace {

aclError Fail(const absl::Status& status, const char* function, int32_t code, bool record,
              spdlog::level::level_enum level = spdlog::level::warn) {
  ThreadState& thread = ThisThread();
  if (record) thread.last_error = code;
  thread.last_message = absl::StrCat(function, " failed (", code, "): ", status.message());
  ClientLog().log(level, "{}", thread.last_message);
  return code;
}

}  // namespace

aclError Result(const absl::Status& status, const char* function) {
  return status.ok() ? ACL_SUCCESS : Fail(status, function, ToAclCode(status), /*record=*/true);
}

aclError Unrecorded(const absl::Status& status, const char* function) {
  return status.ok() ? ACL_SUCCESS : Fail(status, function, ToAclCode(status), /*record=*/false);
}

aclError QuietResult(const absl::Status& status, const char* function) {
  return status.ok()
             ? ACL_SUCCESS
             : Fail(status, function, ToAclCode(status), /*record=*/true, spdlog::level::debug);
}

aclError RtcResult(const absl::Status& status, const char* function) {
  return status.ok() ? ACL_SUCCESS
                     : Fail(status, function, rtc::RtcCodeOf(status), /*record=*/false);
}

aclError NullArgument(const char* function, const char* what) {
  return Unrecorded(AclError(kAclInvalidParam, absl::StrCat(what, " must not be null")), function);
}

}  // namespace npud::client
