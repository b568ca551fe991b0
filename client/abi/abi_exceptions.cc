#include "client/abi/abi_exceptions.h"

#include <exception>
#include <new>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "client/abi/abi_status.h"
#include "client/core/rtc_program.h"
#include "common/acl_status.h"

namespace npud::client {
namespace {

// The exception being handled, as far as a caller can be told about it. The
// text belongs to the exception, which lives until the caller's handler ends.
struct Caught {
  bool out_of_memory;
  const char* what;
};

Caught Classify() noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return {true, "out of memory"};
  } catch (const std::exception& e) {
    return {false, e.what()};
  } catch (...) {
    return {false, "an exception that is no std::exception"};
  }
}

std::string Message(const Caught& caught) {
  return caught.out_of_memory ? std::string(caught.what)
                              : absl::StrCat("C++ exception: ", caught.what);
}

}  // namespace

aclError ExceptionResult(const char* function) noexcept {
  const Caught caught = Classify();
  const AclCode code = caught.out_of_memory ? kAclBadAlloc : kAclInternalError;
  try {
    return Result(AclError(code, Message(caught)), function);
  } catch (...) {
    return code;  // Not even the report could be made.
  }
}

aclError RtcExceptionResult(const char* function) noexcept {
  const Caught caught = Classify();
  const rtc::RtcCode code = caught.out_of_memory ? rtc::kRtcOutOfMemory : rtc::kRtcFailure;
  try {
    return RtcResult(rtc::RtcError(code, Message(caught)), function);
  } catch (...) {
    return code;
  }
}

void ReportException(const char* function) noexcept {
  const Caught caught = Classify();
  try {
    Unrecorded(AclError(caught.out_of_memory ? kAclBadAlloc : kAclInternalError, Message(caught)),
               function);
  } catch (...) {
    // Nothing else to do: the caller returns its null or zero value.
  }
}

}  // namespace npud::client
