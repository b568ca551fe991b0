#include "client/abi/unsupported.h"

#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "client/core/client_log.h"
#include "client/core/thread_state.h"

namespace npud::client {

aclError ReportUnsupported(const char* function_name) noexcept {
  try {
    static absl::Mutex mu(absl::kConstInit);
    static auto* reported = new absl::flat_hash_set<std::string>();
    bool first = false;
    {
      absl::MutexLock lock(&mu);
      first = reported->insert(function_name).second;
    }
    if (first) {
      ClientLog().warn("{} is not simulated by npud; it returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT",
                       function_name);
    }
    ThreadState& thread = ThisThread();
    thread.last_error = ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
    thread.last_message = absl::StrCat(function_name, " is not supported by the npud simulator");
  } catch (...) {
    // Out of memory: the answer is the same without its report.
  }
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}

}  // namespace npud::client
