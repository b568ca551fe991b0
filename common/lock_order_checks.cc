#include "common/lock_order_checks.h"

#include <cstdlib>
#include <cstring>

#include "absl/synchronization/mutex.h"

namespace npud {

void ConfigureLockOrderChecks() {
  const char* check = std::getenv("NPUD_CHECK_LOCK_ORDER");
  const bool on = check != nullptr && std::strcmp(check, "1") == 0;
  absl::SetMutexDeadlockDetectionMode(on ? absl::OnDeadlockCycle::kAbort
                                         : absl::OnDeadlockCycle::kIgnore);
}

}  // namespace npud
