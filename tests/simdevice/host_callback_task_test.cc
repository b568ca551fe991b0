#include "simdevice/host_callback_task.h"

#include <memory>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "gtest/gtest.h"
#include "simdevice/stream.h"
#include "simdevice/stream_scheduler.h"
#include "tests/simdevice/test_util.h"

namespace npud::sim {
namespace {

using ::npud::sim::testing::DrainWaiter;
using ::npud::sim::testing::kLongWait;
using ::npud::sim::testing::kShortWait;

// What the tasks announced, in order (true: dropped).
class Announcements {
 public:
  std::function<void(bool)> Recorder() {
    return [this](bool dropped) {
      absl::MutexLock lock(&mu_);
      seen_.push_back(dropped);
    };
  }
  std::vector<bool> seen() {
    absl::MutexLock lock(&mu_);
    return seen_;
  }

 private:
  absl::Mutex mu_;
  std::vector<bool> seen_;
};

class HostCallbackTaskTest : public ::testing::Test {
 protected:
  StreamScheduler scheduler_{2};
  std::shared_ptr<Stream> stream_ = std::make_shared<Stream>(0, 1, &scheduler_);
  Announcements announced_;
};

TEST_F(HostCallbackTaskTest, ABlockingCallbackHoldsTheStreamUntilItsGateOpens) {
  auto gate = std::make_shared<HostCallbackGate>();
  stream_->Submit(MakeHostCallbackTask(announced_.Recorder(), gate));
  DrainWaiter drained(*stream_);
  EXPECT_FALSE(drained.Wait(kShortWait));
  EXPECT_EQ(announced_.seen(), std::vector<bool>{false});
  gate->Open();
  ASSERT_TRUE(drained.Wait());
  EXPECT_TRUE(drained.status().ok());
  gate->Open();  // Later opens do nothing.
}

TEST_F(HostCallbackTaskTest, AnOpenGateOrNoGateDoesNotHoldTheStream) {
  auto open = std::make_shared<HostCallbackGate>();
  open->Open();
  stream_->Submit(MakeHostCallbackTask(announced_.Recorder(), open));
  stream_->Submit(MakeHostCallbackTask(announced_.Recorder(), nullptr));
  SIM_ASSERT_DRAINS_OK(*stream_);
  EXPECT_EQ(announced_.seen(), (std::vector<bool>{false, false}));
}

TEST_F(HostCallbackTaskTest, ACancelledCallbackIsAnnouncedAsDroppedOnlyIfNotYetDue) {
  auto first = std::make_shared<HostCallbackGate>();
  auto second = std::make_shared<HostCallbackGate>();
  stream_->Submit(MakeHostCallbackTask(announced_.Recorder(), first));
  stream_->Submit(MakeHostCallbackTask(announced_.Recorder(), second));
  // Wait until the first is due (announced and parked).
  for (int i = 0; i < 1000 && announced_.seen().empty(); ++i) absl::SleepFor(absl::Milliseconds(1));
  ASSERT_EQ(announced_.seen(), std::vector<bool>{false});
  // Both wait for the client: a forced destroy drops both; only the one
  // the client has not heard of is announced again, as dropped.
  stream_->CancelWaits(absl::CancelledError("destroyed"));
  SIM_ASSERT_DRAINS_OK(*stream_);
  EXPECT_EQ(announced_.seen(), (std::vector<bool>{false, true}));
}

// A destroy that comes while the callback is being announced (its Run() has
// not yet parked) must still drop it: otherwise it parks for a client that
// will never open its gate, and the stream never drains.
TEST_F(HostCallbackTaskTest, ACancelWhileTheCallbackIsBeingAnnouncedDropsIt) {
  absl::Notification announcing;
  absl::Notification go_on;
  auto gate = std::make_shared<HostCallbackGate>();
  stream_->Submit(MakeHostCallbackTask(
      [&](bool dropped) {
        announced_.Recorder()(dropped);
        if (!dropped) {
          announcing.Notify();
          go_on.WaitForNotificationWithTimeout(kLongWait);
        }
      },
      gate));
  ASSERT_TRUE(announcing.WaitForNotificationWithTimeout(kLongWait));
  stream_->CancelWaits(absl::CancelledError("destroyed"));
  go_on.Notify();
  SIM_ASSERT_DRAINS_OK(*stream_);
  // The client heard of it once; it is not announced again.
  EXPECT_EQ(announced_.seen(), std::vector<bool>{false});
}

}  // namespace
}  // namespace npud::sim
