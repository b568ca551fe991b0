// Event waits against a real npud: timeouts (aclrtStreamWaitEventWithTimeout,
// aclrtSetOpWaitTimeout, aclrtStreamWaitEventWithFlag), and the external
// record and wait flags of captured models, with the checks CANN makes.

#include <cstdint>
#include <functional>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

class EventWaitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&held_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&waiter_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&other_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&opener_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateNotify(&gate_, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventExWithFlag(&event_, ACL_EVENT_SYNC), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtSetOpWaitTimeout(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyNotify(gate_), ACL_SUCCESS);
    for (aclrtStream stream : {held_, waiter_, other_, opener_}) {
      EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
    }
  }

  // Queues a record of event_ on held_ that only runs once Release() opens
  // the gate in front of it; `before` queues work between the two.
  void RecordBehindTheGate(const std::function<void()>& before = {}) {
    ASSERT_EQ(aclrtWaitAndResetNotify(gate_, held_, 0), ACL_SUCCESS);
    if (before) before();
    ASSERT_EQ(aclrtRecordEvent(event_, held_), ACL_SUCCESS);
  }
  void Release() {
    ASSERT_EQ(aclrtRecordNotify(gate_, opener_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(held_), ACL_SUCCESS);
  }

  aclrtStream held_ = nullptr;
  aclrtStream waiter_ = nullptr;
  aclrtStream other_ = nullptr;
  aclrtStream opener_ = nullptr;  // opens the gate
  aclrtNotify gate_ = nullptr;
  aclrtEvent event_ = nullptr;
};

TEST_F(EventWaitTest, AWaitPastItsTimeoutFailsItsStream) {
  RecordBehindTheGate();
  ASSERT_EQ(aclrtStreamWaitEventWithTimeout(waiter_, event_, 1), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(waiter_), ACL_ERROR_RT_WAIT_TIMEOUT);
  Release();
  // Recorded in time: no failure.
  RecordBehindTheGate();
  ASSERT_EQ(aclrtStreamWaitEventWithTimeout(waiter_, event_, 30), ACL_SUCCESS);
  Release();
  EXPECT_EQ(aclrtSynchronizeStream(waiter_), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEventWithTimeout(waiter_, event_, -1), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(EventWaitTest, TheOpWaitTimeoutBoundsLaterWaits) {
  ASSERT_EQ(aclrtSetOpWaitTimeout(1), ACL_SUCCESS);
  RecordBehindTheGate();
  ASSERT_EQ(aclrtStreamWaitEvent(waiter_, event_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(waiter_), ACL_ERROR_RT_WAIT_TIMEOUT);
  // aclrtStreamWaitEventWithFlag's 0xFFFFFFFF means the same timeout.
  ASSERT_EQ(aclrtStreamWaitEventWithFlag(other_, event_, UINT32_MAX, ACL_EVENT_WAIT_DEFAULT),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(other_), ACL_ERROR_RT_WAIT_TIMEOUT);
  Release();
}

TEST_F(EventWaitTest, FlagsAreCheckedAndKept) {
  EXPECT_EQ(aclrtRecordEventWithFlag(event_, held_, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtRecordEventWithFlag(nullptr, held_, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtStreamWaitEventWithFlag(held_, event_, 5, ACL_EVENT_WAIT_EXTERNAL),
            ACL_ERROR_INVALID_PARAM)
      << "an external wait has no timeout";
  EXPECT_EQ(aclrtRecordEventWithFlag(event_, held_, ACL_EVENT_RECORD_EXTERNAL),
            ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  EXPECT_EQ(aclrtRecordEventWithFlag(event_, held_, ACL_EVENT_RECORD_DEFAULT),
            ACL_ERROR_RT_PARAM_INVALID)
      << "the first record fixed the external flag, even though it failed";
  aclrtEvent plain = nullptr;
  ASSERT_EQ(aclrtCreateEventWithFlag(&plain, ACL_EVENT_SYNC), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureBegin(held_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamWaitEventWithFlag(held_, plain, 0, ACL_EVENT_WAIT_EXTERNAL),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
      << "external waits take aclrtCreateEventExWithFlag events";
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(held_, &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(plain), ACL_SUCCESS);
}

TEST_F(EventWaitTest, AModelWaitsForAnOutsideRecordAndRecordsForOutsideWaiters) {
  constexpr size_t kBytes = 8 * sizeof(int32_t);
  const std::vector<int32_t> source = {1, 2, 3, 4, 5, 6, 7, 8};
  void* src = nullptr;
  void* mid = nullptr;
  void* dst = nullptr;
  for (void** buffer : {&src, &mid, &dst}) {
    ASSERT_EQ(aclrtMalloc(buffer, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(*buffer, kBytes, 0, kBytes), ACL_SUCCESS);
  }
  aclrtEvent done = nullptr;
  ASSERT_EQ(aclrtCreateEventExWithFlag(&done, ACL_EVENT_SYNC), ACL_SUCCESS);

  // The first model waits for event_ from outside, copies, and records done.
  aclmdlRI first = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(waiter_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEventWithFlag(waiter_, event_, 0, ACL_EVENT_WAIT_EXTERNAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(mid, kBytes, src, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, waiter_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEventWithFlag(done, waiter_, ACL_EVENT_RECORD_EXTERNAL), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(waiter_, &first), ACL_SUCCESS);

  // The source is written behind the gate, before the record: the model's
  // copy must wait for it.
  RecordBehindTheGate([&] {
    ASSERT_EQ(
        aclrtMemcpyAsync(src, kBytes, source.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, held_),
        ACL_SUCCESS);
  });
  ASSERT_EQ(aclmdlRIExecuteAsync(first, waiter_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(other_, done), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dst, kBytes, mid, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, other_),
            ACL_SUCCESS);
  Release();
  ASSERT_EQ(aclrtSynchronizeStream(other_), ACL_SUCCESS);
  std::vector<int32_t> got(8, 0);
  ASSERT_EQ(aclrtMemcpy(got.data(), kBytes, dst, kBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(got, source);

  EXPECT_EQ(aclmdlRIDestroy(first), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(done), ACL_SUCCESS);
  for (void* buffer : {src, mid, dst}) EXPECT_EQ(aclrtFree(buffer), ACL_SUCCESS);
}

}  // namespace
