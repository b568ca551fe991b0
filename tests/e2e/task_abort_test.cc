// Aborting queued work end to end (aclrtStreamAbort, aclrtDeviceTaskAbort
// and its callbacks). Streams are held by a wait on an ACL_EVENT_EXTERNAL
// event nobody records, so their queued work can only end by an abort.

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

class TaskAbortTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventWithFlag(&never_, ACL_EVENT_EXTERNAL), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&slots_, 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(slots_, 8, 0, 8), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtFree(slots_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(never_), ACL_SUCCESS);
  }

  // Queues on `stream`: a wait that never ends, then a write to slot `slot`.
  void Hold(aclrtStream stream, size_t slot) {
    ASSERT_EQ(aclrtStreamWaitEvent(stream, never_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(static_cast<uint8_t*>(slots_) + slot, 1, 1, 1, stream), ACL_SUCCESS);
  }
  // A synchronize of `stream` on another thread, once it is waiting.
  std::future<aclError> SyncLater(aclrtStream stream) {
    auto result =
        std::async(std::launch::async, [stream] { return aclrtSynchronizeStream(stream); });
    EXPECT_EQ(result.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
        << "the stream should be held";
    return result;
  }
  uint8_t Slot(size_t slot) {
    uint8_t value = 7;
    EXPECT_EQ(
        aclrtMemcpy(&value, 1, static_cast<uint8_t*>(slots_) + slot, 1, ACL_MEMCPY_DEVICE_TO_HOST),
        ACL_SUCCESS);
    return value;
  }

  aclrtEvent never_ = nullptr;
  void* slots_ = nullptr;
};

TEST_F(TaskAbortTest, AStreamAbortDropsItsQueuedWorkAndFailsItsWaiters) {
  aclrtStream stream = nullptr;
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  Hold(stream, 0);
  Hold(other, 1);
  std::future<aclError> sync = SyncLater(stream);
  ASSERT_EQ(aclrtStreamAbort(stream), ACL_SUCCESS);
  EXPECT_EQ(sync.get(), ACL_ERROR_RT_STREAM_ABORT);

  // The stream works on; the other one is still held. (A synchronous copy
  // would wait for it: the slots are read once it is aborted too.)
  ASSERT_EQ(aclrtMemsetAsync(static_cast<uint8_t*>(slots_) + 2, 1, 1, 1, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(other, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY);
  ASSERT_EQ(aclrtStreamAbort(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS) << "nothing left to report";
  EXPECT_EQ(Slot(0), 0) << "the queued write was dropped";
  EXPECT_EQ(Slot(1), 0);
  EXPECT_EQ(Slot(2), 1);

  // Streams that record into a model have no tasks to abort.
  ASSERT_EQ(aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamAbort(stream), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureEnd(stream, &model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclrtStreamAbort(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

std::vector<std::string>* calls = nullptr;

int32_t Note(int32_t device, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void* args) {
  calls->push_back(std::string(static_cast<const char*>(args)) + " " + std::to_string(device) +
                   (stage == ACL_RT_DEVICE_TASK_ABORT_PRE ? " pre " : " post ") +
                   std::to_string(timeout));
  return 0;
}

TEST_F(TaskAbortTest, ADeviceAbortDropsTheWorkOfEveryStreamBetweenItsCallbacks) {
  std::vector<std::string> seen;
  calls = &seen;
  static char first[] = "a";
  static char second[] = "b";
  ASSERT_EQ(aclrtSetDeviceTaskAbortCallback("first", Note, first), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDeviceTaskAbortCallback("second", Note, second), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDeviceTaskAbortCallback("second", Note, second), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetDeviceTaskAbortCallback("", Note, second), ACL_ERROR_INVALID_PARAM);

  aclrtStream streams[2] = {};
  std::vector<std::future<aclError>> syncs;
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(aclrtCreateStream(&streams[i]), ACL_SUCCESS);
    Hold(streams[i], i);
    syncs.push_back(SyncLater(streams[i]));
  }
  ASSERT_EQ(aclrtDeviceTaskAbort(0, 1000), ACL_SUCCESS);
  for (auto& sync : syncs) EXPECT_EQ(sync.get(), ACL_ERROR_RT_DEVICE_TASK_ABORT);
  EXPECT_EQ(Slot(0), 0);
  EXPECT_EQ(Slot(1), 0);
  EXPECT_EQ(seen, (std::vector<std::string>{"a 0 pre 1000", "b 0 pre 1000", "a 0 post 1000",
                                            "b 0 post 1000"}));

  ASSERT_EQ(aclrtSetDeviceTaskAbortCallback("first", nullptr, nullptr), ACL_SUCCESS);
  seen.clear();
  EXPECT_EQ(aclrtDeviceTaskAbort(0, 0), ACL_SUCCESS);
  EXPECT_EQ(seen, (std::vector<std::string>{"b 0 pre 0", "b 0 post 0"}));
  EXPECT_EQ(aclrtDeviceTaskAbort(0, 36 * 60 * 1000 + 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDeviceTaskAbort(99, 0), ACL_ERROR_RT_INVALID_DEVICEID);
  ASSERT_EQ(aclrtSetDeviceTaskAbortCallback("second", nullptr, nullptr), ACL_SUCCESS);
  for (aclrtStream stream : streams) EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  calls = nullptr;
}

}  // namespace
