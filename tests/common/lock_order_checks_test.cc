#include "common/lock_order_checks.h"

#include <cstdlib>

#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"

namespace npud {
namespace {

// Takes two locks in one order, then in the other: a potential deadlock.
void InvertLockOrder() {
  absl::Mutex a;
  absl::Mutex b;
  {
    absl::MutexLock first(&a);
    absl::MutexLock second(&b);
  }
  {
    absl::MutexLock first(&b);
    absl::MutexLock second(&a);
  }
}

TEST(LockOrderChecksDeathTest, OnWhenAskedForACycleAborts) {
  EXPECT_DEATH(
      {
        setenv("NPUD_CHECK_LOCK_ORDER", "1", 1);
        ConfigureLockOrderChecks();
        InvertLockOrder();
      },
      "Potential Mutex deadlock");
}

TEST(LockOrderChecksTest, OffByDefault) {
  unsetenv("NPUD_CHECK_LOCK_ORDER");
  ConfigureLockOrderChecks();
  InvertLockOrder();  // would abort if the check were on
  SUCCEED();
}

}  // namespace
}  // namespace npud
