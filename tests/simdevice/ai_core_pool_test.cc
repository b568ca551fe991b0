#include "simdevice/ai_core_pool.h"

#include <atomic>
#include <csignal>
#include <set>

#include "absl/synchronization/notification.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace npud::sim {
namespace {

constexpr uint64_t kUbBytes = 64 << 10;

// Runs `work` on `pool` and waits until it has run; returns its core.
int RunAndWait(AiCorePool& pool, std::function<void()> work) {
  absl::Notification done;
  std::atomic<int> core{-1};
  pool.Submit([&](const CoreSlot& slot) {
    work();
    core.store(slot.core_id);
    done.Notify();
  });
  done.WaitForNotification();
  return core.load();
}

TEST(AiCorePoolTest, FaultsOneAfterTheOtherOnOneCoreAreEachCaught) {
  AiCorePool pool(1, kUbBytes);
  for (int i = 0; i < 3; ++i) {
    bool returned = true;
    KernelFault fault;
    RunAndWait(pool, [&] {
      returned = RunGuardedBlock(
          [] {
            volatile int* nowhere = nullptr;
            *nowhere = 1;
          },
          &fault);
    });
    EXPECT_FALSE(returned) << "fault " << i;
    EXPECT_EQ(fault.signal, SIGSEGV) << "fault " << i;
  }
}

TEST(AiCorePoolTest, WorkOneAtATimeStaysOnTheCoreThatLastRan) {
  AiCorePool pool(8, kUbBytes);
  std::set<int> cores;
  for (int i = 0; i < 40; ++i) {
    cores.insert(RunAndWait(pool, [] {}));
    // Time for the core to go back to idle after it has told us.
    absl::SleepFor(absl::Milliseconds(2));
  }
  // The most recently idle core is taken again (taking them in turn would
  // use all eight); a core slow to go idle may let another in now and then.
  EXPECT_LE(cores.size(), 3u);
}

TEST(AiCorePoolTest, WorkSubmittedAsWorkEndsRunsNextOnTheSameCore) {
  AiCorePool pool(4, kUbBytes);
  absl::Notification done;
  std::atomic<int> first{-1}, second{-1}, third{-1};
  pool.Submit([&](const CoreSlot& slot) {
    first.store(slot.core_id);
    pool.Submit([&](const CoreSlot& slot) {
      second.store(slot.core_id);
      done.Notify();
    });
    // Only the first submission waits for this work: the next one goes to
    // another core, which runs it while this one still holds its core.
    absl::Notification other;
    pool.Submit([&](const CoreSlot& slot) {
      third.store(slot.core_id);
      other.Notify();
    });
    other.WaitForNotification();
    EXPECT_EQ(second.load(), -1);
  });
  done.WaitForNotification();
  EXPECT_EQ(second.load(), first.load());
  EXPECT_NE(third.load(), first.load());
}

TEST(AiCorePoolTest, TheDestructorRunsWhatIsQueued) {
  std::atomic<int> ran{0};
  {
    AiCorePool pool(2, kUbBytes);
    for (int i = 0; i < 100; ++i) pool.Submit([&](const CoreSlot&) { ran.fetch_add(1); });
  }
  EXPECT_EQ(ran.load(), 100);
}

}  // namespace
}  // namespace npud::sim
