// Profiling (acl_prof.h) and mstx against a real npud on every transport:
// CANN's configuration checks and state machine, a collection that writes
// the session's real timeline (kernels, copies, ACL calls) and the
// program's markers under its result directory, msproftx's own failure
// codes, and model subscriptions that close their descriptor when they end.

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "aclnnop/aclnn_add.h"
#include "gtest/gtest.h"
#include "mstx/ms_tools_ext.h"
#include "tests/e2e/daemon_environment.h"

extern "C" int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx,
                                                 const uint32_t deviceId);

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr aclError kTxFailed = -1;

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/npud-prof-test-XXXXXX";
    path_ = mkdtemp(pattern);
  }
  ~TempDir() { (void)std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

std::vector<std::string> Entries(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str()); d != nullptr) {
    while (dirent* entry = readdir(d)) {
      const std::string name = entry->d_name;
      if (name != "." && name != "..") names.push_back(name);
    }
    closedir(d);
  }
  return names;
}

std::string ReadAll(const std::string& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The one file in `dir` whose name starts with `prefix`.
std::string FileStartingWith(const std::string& dir, const std::string& prefix) {
  for (const std::string& name : Entries(dir)) {
    if (absl::StartsWith(name, prefix)) return dir + "/" + name;
  }
  return "";
}

class ProfTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS); }

  // out = a + b through aclnnAdd: a kernel on the stream, and copies.
  void RunAdd() {
    const std::vector<float> host = {1, 2, 3, 4};
    const std::vector<int64_t> shape = {4};
    void* buffers[3] = {};
    aclTensor* tensors[3] = {};
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(aclrtMalloc(&buffers[i], 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemcpy(buffers[i], 16, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), 0);
      tensors[i] = aclCreateTensor(shape.data(), 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                                   shape.data(), 1, buffers[i]);
    }
    float one = 1;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(
        aclnnAddGetWorkspaceSize(tensors[0], tensors[1], alpha, tensors[2], &workspace, &executor),
        0);
    ASSERT_EQ(aclnnAdd(nullptr, workspace, executor, stream_), 0);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    aclDestroyScalar(alpha);
    for (int i = 0; i < 3; ++i) {
      aclDestroyTensor(tensors[i]);
      aclrtFree(buffers[i]);
    }
  }

  aclrtStream stream_ = nullptr;
};

// Runs first: msproftx is off until a collection with ACL_PROF_MSPROFTX.
TEST_F(ProfTest, MsproftxAnswersItsOwnCodesWhileOff) {
  EXPECT_EQ(aclprofCreateStamp(), nullptr);
  EXPECT_EQ(aclprofMark(nullptr), kTxFailed);
  EXPECT_EQ(aclprofPush(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofPop(), kTxFailed);
  uint32_t id = 0;
  EXPECT_EQ(aclprofRangeStart(nullptr, &id), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofRangeStop(999), kTxFailed);
  EXPECT_EQ(aclprofSetStampTraceMessage(nullptr, "x", 1), kTxFailed);
  EXPECT_EQ(aclprofMarkEx("abc", 2, stream_), kTxFailed) << "length is not the message's";
  EXPECT_EQ(aclprofMarkEx("abc", 3, stream_), ACL_SUCCESS);
  // mstx without a recording: no-ops, range id 0; the tool is npud's.
  EXPECT_EQ(mstxRangeStartA("nothing records", stream_), 0u);
  uint64_t tool = 0;
  mstxGetToolId(&tool);
  EXPECT_EQ(tool, static_cast<uint64_t>(MSTX_TOOL_MSPROF_ID));
  EXPECT_EQ(mstxDomainCreateA("default"), nullptr);
  mstxDomainHandle_t domain = mstxDomainCreateA("mine");
  EXPECT_NE(domain, nullptr);
  EXPECT_EQ(mstxDomainCreateA("mine"), domain);
  mstxDomainDestroy(domain);
}

TEST_F(ProfTest, ConfigurationsAreCheckedAsCannChecksThem) {
  uint32_t devices[2] = {0, 0};
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME), nullptr);
  EXPECT_EQ(aclprofCreateConfig(devices, 2, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME), nullptr)
      << "a device twice";
  uint32_t missing = count;
  EXPECT_EQ(aclprofCreateConfig(&missing, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME),
            nullptr);
  EXPECT_EQ(aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME), nullptr)
      << "no devices without ACL_PROF_MSPROFTX";
  aclprofConfig* tx_only =
      aclprofCreateConfig(nullptr, 0, ACL_AICORE_NONE, nullptr, ACL_PROF_MSPROFTX);
  EXPECT_NE(tx_only, nullptr);
  EXPECT_EQ(aclprofDestroyConfig(tx_only), ACL_SUCCESS);
  EXPECT_EQ(aclprofDestroyConfig(nullptr), ACL_ERROR_INVALID_PARAM);

  EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MIN, "1", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "0", 1),
            ACL_ERROR_INVALID_PROFILING_CONFIG);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "fast", 4),
            ACL_ERROR_INVALID_PROFILING_CONFIG);
  EXPECT_EQ(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2), ACL_SUCCESS);

  TempDir dir;
  EXPECT_EQ(aclprofInit(nullptr, 4), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofInit(dir.path().c_str(), 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclprofInit(dir.path().c_str(), dir.path().size() + 1), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclprofInit(dir.path().c_str(), dir.path().size()), ACL_SUCCESS);
  EXPECT_EQ(aclprofInit(dir.path().c_str(), dir.path().size()), ACL_ERROR_REPEAT_INITIALIZE);

  EXPECT_EQ(aclprofStart(nullptr), ACL_ERROR_INVALID_PARAM);
  aclprofConfig* nothing = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, 0);
  ASSERT_NE(nothing, nullptr);
  EXPECT_EQ(aclprofStart(nothing), ACL_ERROR_INVALID_PARAM) << "collects nothing";
  aclprofConfig* unknown = aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, 1ULL << 40);
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(aclprofStart(unknown), ACL_ERROR_PROF_MODULES_UNSUPPORTED);
  aclprofConfig* bad_metric = aclprofCreateConfig(devices, 1, static_cast<aclprofAicoreMetrics>(42),
                                                  nullptr, ACL_PROF_AICORE_METRICS);
  ASSERT_NE(bad_metric, nullptr);
  EXPECT_EQ(aclprofStart(bad_metric), ACL_ERROR_INVALID_PARAM);

  aclprofConfig* tasks =
      aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
  aclprofConfig* calls =
      aclprofCreateConfig(devices, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_ACL_API);
  ASSERT_EQ(aclprofStart(tasks), ACL_SUCCESS);
  EXPECT_EQ(aclprofStart(tasks), ACL_SUCCESS) << "the same collection again";
  EXPECT_EQ(aclprofStart(calls), ACL_ERROR_INVALID_PROFILING_CONFIG);
  EXPECT_EQ(aclprofStop(calls), ACL_ERROR_INVALID_PROFILING_CONFIG);
  EXPECT_EQ(aclprofStop(tasks), ACL_SUCCESS);
  EXPECT_EQ(aclprofStop(tasks), ACL_SUCCESS) << "nothing to stop";
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS) << "not initialized: nothing to do";
  for (aclprofConfig* config : {nothing, unknown, bad_metric, tasks, calls}) {
    EXPECT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
  }
}

TEST_F(ProfTest, ACollectionWritesTheTimelineAndTheMarkers) {
  TempDir dir;
  ASSERT_EQ(aclprofInit(dir.path().c_str(), dir.path().size()), ACL_SUCCESS);
  uint32_t device = 0;
  aclprofConfig* config =
      aclprofCreateConfig(&device, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, nullptr,
                          ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX);
  ASSERT_NE(config, nullptr);
  ASSERT_EQ(aclprofStart(config), ACL_SUCCESS);

  void* stamp = aclprofCreateStamp();
  ASSERT_NE(stamp, nullptr);
  ASSERT_EQ(aclprofSetStampTraceMessage(stamp, "outer_push", 10), ACL_SUCCESS);
  ASSERT_EQ(aclprofPush(stamp), ACL_SUCCESS);
  void* range = aclprofCreateStamp();
  ASSERT_EQ(aclprofSetStampTraceMessage(range, "add_range", 9), ACL_SUCCESS);
  uint32_t range_id = 1000;
  ASSERT_EQ(aclprofRangeStart(range, &range_id), ACL_SUCCESS);
  EXPECT_LT(range_id, 100u);
  mstxDomainHandle_t domain = mstxDomainCreateA("npud_test_domain");
  const mstxRangeId mstx_range = mstxDomainRangeStartA(domain, "mstx_range", stream_);
  EXPECT_NE(mstx_range, 0u);
  RunAdd();
  mstxDomainRangeEnd(domain, mstx_range);
  mstxMarkA("mstx_mark", stream_);
  ASSERT_EQ(aclprofRangeStop(range_id), ACL_SUCCESS);
  ASSERT_EQ(aclprofMark(range), ACL_SUCCESS);
  ASSERT_EQ(aclprofPop(), ACL_SUCCESS);
  EXPECT_EQ(aclprofPop(), kTxFailed) << "the stack is empty";
  aclprofDestroyStamp(stamp);
  aclprofDestroyStamp(range);
  ASSERT_EQ(aclprofStop(config), ACL_SUCCESS);
  EXPECT_EQ(mstxRangeStartA("after the collection", stream_), 0u);
  ASSERT_EQ(aclprofDestroyConfig(config), ACL_SUCCESS);
  ASSERT_EQ(aclprofFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclprofCreateStamp(), nullptr) << "the stamps went with aclprofFinalize";

  const std::vector<std::string> runs = Entries(dir.path());
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(runs[0], "PROF_00000"))
      << runs[0];  // n: the collection in this process
  const std::string run = dir.path() + "/" + runs[0];
  EXPECT_TRUE(absl::StrContains(ReadAll(run + "/host/start_info"), "collectionTimeBegin"));
  EXPECT_TRUE(absl::StrContains(ReadAll(run + "/host/end_info"), "collectionTimeEnd"));
  EXPECT_TRUE(absl::StrContains(ReadAll(run + "/device_0/end_info.0"), "clockMonotonicRaw"));
  EXPECT_TRUE(absl::StrContains(ReadAll(run + "/host/sample.json"), "\"0x83\""));

  const std::string out = run + "/mindstudio_profiler_output";
  const std::string trace = ReadAll(FileStartingWith(out, "msprof_2"));
  EXPECT_TRUE(absl::StrContains(trace, "\"npud_aclnn_elementwise\"")) << "the kernel's span";
  EXPECT_TRUE(absl::StrContains(trace, "\"aclnnAdd\"") ||
              absl::StrContains(trace, "\"aclrtLaunchKernelWithHostArgs\""))
      << "the ACL calls";
  for (const char* marker : {"outer_push", "add_range", "mstx_range", "mstx_mark"}) {
    EXPECT_TRUE(absl::StrContains(trace, std::string("\"") + marker + "\"")) << marker;
  }
  EXPECT_TRUE(absl::StrContains(trace, "\"domain\":\"npud_test_domain\""));
  const std::string ops = ReadAll(FileStartingWith(out, "op_summary_"));
  EXPECT_TRUE(absl::StrContains(ops, ",npud_aclnn_elementwise,AI_CORE,")) << ops;
  EXPECT_TRUE(absl::StrContains(ReadAll(FileStartingWith(out, "task_time_")), "MEMCPY"));
  const std::string tx = ReadAll(FileStartingWith(out, "msprof_tx_"));
  EXPECT_TRUE(absl::StrContains(tx, ",range,")) << tx;
  EXPECT_TRUE(absl::StrContains(tx, "mstx_mark")) << tx;
}

TEST_F(ProfTest, SubscriptionsEndByClosingTheirDescriptor) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  aclprofSubscribeConfig* config = aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, &fds[1]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(aclprofCreateSubscribeConfig(2, ACL_AICORE_NONE, &fds[1]), nullptr);
  EXPECT_EQ(aclprofCreateSubscribeConfig(1, ACL_AICORE_NONE, nullptr), nullptr);
  EXPECT_EQ(aclprofModelSubscribe(77, config), ACL_ERROR_INVALID_MODEL_ID) << "never loaded";
  ASSERT_EQ(MsprofSetDeviceIdByGeModelIdx(77, 0), 0);
  EXPECT_EQ(aclprofModelSubscribe(77, nullptr), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclprofModelSubscribe(77, config), ACL_SUCCESS);
  EXPECT_EQ(aclprofModelSubscribe(77, config), ACL_ERROR_PROF_REPEAT_SUBSCRIBE);
  TempDir dir;
  EXPECT_EQ(aclprofInit(dir.path().c_str(), dir.path().size()), ACL_ERROR_PROF_API_CONFLICT);
  EXPECT_EQ(aclprofModelUnSubscribe(78), ACL_ERROR_INVALID_MODEL_ID);
  ASSERT_EQ(aclprofModelUnSubscribe(77), ACL_SUCCESS);
  EXPECT_EQ(fds[1], -1) << "the write end was closed and marked so";
  char byte = 0;
  EXPECT_EQ(read(fds[0], &byte, 1), 0) << "the reader sees the end";
  EXPECT_EQ(aclprofModelUnSubscribe(77), ACL_ERROR_INVALID_MODEL_ID) << "not subscribed";
  // The subscription mode ended with it.
  ASSERT_EQ(aclprofInit(dir.path().c_str(), dir.path().size()), ACL_SUCCESS);
  EXPECT_EQ(aclprofFinalize(), ACL_SUCCESS);
  size_t size = 0;
  EXPECT_EQ(aclprofGetOpDescSize(&size), ACL_SUCCESS);
  EXPECT_EQ(size, 80u);
  uint32_t count = 0;
  char junk[80] = {};
  EXPECT_EQ(aclprofGetOpNum(junk, sizeof(junk), &count), ACL_ERROR_INVALID_PARAM) << "unsigned";
  EXPECT_EQ(aclprofDestroySubscribeConfig(config), ACL_SUCCESS);
  close(fds[0]);
}

}  // namespace
