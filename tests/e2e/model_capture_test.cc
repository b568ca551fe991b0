// Model capture and replay end to end (aclmdlRI*): work queued on a
// capturing stream is recorded by npud, not run; each execution runs all of
// it again, in order, on the stream it is given.

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

class ModelCaptureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryLoadFromFile(E2E_KERNELS_PATH, nullptr, &binary_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryGetFunction(binary_, "count_up", &count_up_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&counter_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtFree(counter_), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
  }

  // count_up: the counter goes from `expect` to expect + 1 (else far off).
  aclError CountUp(uint32_t expect, aclrtStream stream) {
    struct {
      void* counter;
      uint32_t expect;
    } args{counter_, expect};
    return aclrtLaunchKernelWithHostArgs(count_up_, 1, stream, nullptr, &args, sizeof(args),
                                         nullptr, 0);
  }
  void SetCounter(uint32_t value) {
    ASSERT_EQ(aclrtMemcpy(counter_, 4, &value, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  }
  uint32_t Counter() {
    uint32_t value = 0;
    EXPECT_EQ(aclrtMemcpy(&value, 4, counter_, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    return value;
  }
  // Captures: reset the counter, then count it up to 3.
  aclmdlRI CaptureCountToThree() {
    aclmdlRI model = nullptr;
    EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemsetAsync(counter_, 4, 0, 4, stream_), ACL_SUCCESS);
    for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(CountUp(i, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
    return model;
  }

  aclrtStream stream_ = nullptr;
  aclrtBinHandle binary_ = nullptr;
  aclrtFuncHandle count_up_ = nullptr;
  void* counter_ = nullptr;
};

TEST_F(ModelCaptureTest, CapturedWorkRunsOnlyWhenExecutedAndAllOfItEachTime) {
  SetCounter(77);
  aclmdlRI model = CaptureCountToThree();
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(Counter(), 77u) << "nothing captured may have run";
  for (int run = 0; run < 3; ++run) {
    SetCounter(99);
    ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(Counter(), 3u) << "run " << run;
  }
  // On another stream, and synchronously on the default stream.
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  SetCounter(5);
  ASSERT_EQ(aclmdlRIExecuteAsync(model, other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  EXPECT_EQ(Counter(), 3u);
  SetCounter(5);
  ASSERT_EQ(aclmdlRIExecute(model, 10000), ACL_SUCCESS);
  EXPECT_EQ(Counter(), 3u);
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(ModelCaptureTest, ACopyFromPageableMemoryReplaysItsCapturedBytes) {
  std::vector<uint32_t> host = {41};
  aclmdlRI model = nullptr;
  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(counter_, 4, host.data(), 4, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(CountUp(41, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  host[0] = 1000;
  ASSERT_EQ(aclmdlRIExecuteAsync(model, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(Counter(), 42u);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
}

void NoOp(void*) {}

TEST_F(ModelCaptureTest, CaptureStateAndRefusalsFollowCann) {
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  aclmdlRI during = reinterpret_cast<aclmdlRI>(1);
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, &during), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_EQ(during, nullptr);
  aclmdlRI model = nullptr;
  EXPECT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
  EXPECT_EQ(aclmdlRICaptureBegin(stream_, static_cast<aclmdlRICaptureMode>(9)),
            ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRICaptureBegin(stream_, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
            ACL_ERROR_RT_STREAM_CAPTURED);
  ASSERT_EQ(aclmdlRICaptureGetInfo(stream_, &status, &during), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(during, nullptr);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_STREAM_CAPTURED);
  aclrtStreamStatus query;
  EXPECT_EQ(aclrtStreamQuery(stream_, &query), ACL_ERROR_RT_STREAM_CAPTURED);
  EXPECT_EQ(aclrtDestroyStream(stream_), ACL_ERROR_RT_STREAM_CAPTURED);
  // What a run could not repeat is refused.
  uint32_t host = 0;
  EXPECT_EQ(aclrtMemcpyAsync(&host, 4, counter_, 4, ACL_MEMCPY_DEVICE_TO_HOST, stream_),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtLaunchHostFunc(stream_, NoOp, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  // The thread's mode is swapped.
  aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  mode = static_cast<aclmdlRICaptureMode>(7);
  EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_ERROR_INVALID_PARAM);

  ASSERT_EQ(aclmdlRICaptureEnd(stream_, &model), ACL_SUCCESS);
  EXPECT_EQ(model, during);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIExecuteAsync(nullptr, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIExecute(model, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroy(model), ACL_ERROR_RT_INVALID_HANDLE);
}

int destroyed_calls = 0;
void CountDestroy(void* data) { destroyed_calls += *static_cast<int*>(data); }

TEST_F(ModelCaptureTest, NamesIdsDumpsAndDestroyCallbacks) {
  aclmdlRI model = CaptureCountToThree();
  ASSERT_NE(model, nullptr);
  ASSERT_EQ(aclmdlRISetName(model, "count \"three\""), ACL_SUCCESS);
  char name[32];
  ASSERT_EQ(aclmdlRIGetName(model, sizeof(name), name), ACL_SUCCESS);
  EXPECT_STREQ(name, "count \"three\"");
  EXPECT_EQ(aclmdlRIGetName(model, 4, name), ACL_ERROR_RT_PARAM_INVALID);
  uint32_t id = 0;
  ASSERT_EQ(aclmdlRIGetId(model, &id), ACL_SUCCESS);
  EXPECT_NE(id, 0u);

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  EXPECT_EQ(aclmdlRIDebugPrint(model), ACL_SUCCESS);  // Still exported, for old programs.
#pragma GCC diagnostic pop
  const std::string path = ::testing::TempDir() + "model_capture_test.json";
  ASSERT_EQ(aclmdlRIDebugJsonPrint(model, path.c_str(), 0), ACL_SUCCESS);
  std::ifstream in(path);
  std::stringstream json;
  json << in.rdbuf();
  EXPECT_NE(json.str().find("\"name\":\"count \\\"three\\\"\""), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("{\"index\":0,\"type\":\"memset\"}"), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("{\"index\":3,\"type\":\"launch_kernel\"}"), std::string::npos)
      << json.str();
  EXPECT_EQ(json.str().find("\"index\":4"), std::string::npos) << json.str();

  static int one = 1;
  static int ten = 10;
  ASSERT_EQ(aclmdlRIDestroyRegisterCallback(model, CountDestroy, &one), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroyRegisterCallback(model, NoOp, &ten), ACL_SUCCESS);
  ASSERT_EQ(aclmdlRIDestroyUnregisterCallback(model, NoOp), ACL_SUCCESS);
  EXPECT_EQ(aclmdlRIDestroyUnregisterCallback(model, NoOp), ACL_ERROR_RT_PARAM_INVALID);
  destroyed_calls = 0;
  ASSERT_EQ(aclmdlRIDestroy(model), ACL_SUCCESS);
  EXPECT_EQ(destroyed_calls, 1);
}

}  // namespace
