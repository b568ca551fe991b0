// Per-session limits end to end: a daemon started with --session_memory_mib,
// --session_streams and --session_events refuses the call that would pass a
// limit with the CANN out-of-resource code, counts allocations, IPC imports
// and physical memory together, and never lets one client's use change what
// another client may do.

#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::ChildProcess;
using npud::testing::DaemonEnvironment;
using npud::testing::RunProcess;

constexpr size_t kMiB = 1 << 20;

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new DaemonEnvironment(
    {"--session_memory_mib=64", "--session_streams=6", "--session_events=4"}));

std::unique_ptr<ChildProcess> Client(const std::vector<std::string>& args) {
  std::vector<std::string> argv = {ACL_TEST_CLIENT};
  argv.insert(argv.end(), args.begin(), args.end());
  auto child =
      ChildProcess::Spawn(argv, {"NPUD_ADDRESS=" + DaemonEnvironment::daemon()->address()});
  EXPECT_TRUE(child.ok()) << child.status();
  return child.ok() ? *std::move(child) : nullptr;
}

// The value after "NAME " in the child's next line, or "".
std::string Field(ChildProcess& child, const std::string& name) {
  const std::string line = child.ReadLine(absl::Seconds(30));
  return absl::StartsWith(line, name + " ") ? line.substr(name.size() + 1) : "";
}

class SessionLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
};

TEST_F(SessionLimitsTest, MemoryCountsAllocationsImportsAndPhysicalMemory) {
  void* mine = nullptr;
  ASSERT_EQ(aclrtMalloc(&mine, 40 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* more = nullptr;
  EXPECT_EQ(aclrtMalloc(&more, 32 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_RT_MEMORY_ALLOCATION);

  // Another client has a limit of its own.
  auto holder = Client({"hold", std::to_string(48 * kMiB)});
  ASSERT_NE(holder, nullptr);
  EXPECT_NE(Field(*holder, "ADDR"), "");

  // Imported memory counts against the importer.
  auto exporter = Client({"export", std::to_string(32 * kMiB), "0"});
  ASSERT_NE(exporter, nullptr);
  const std::string key = Field(*exporter, "KEY");
  ASSERT_NE(key, "");
  exporter->WriteLine(absl::StrCat("allow ", getpid()));
  ASSERT_EQ(Field(*exporter, "CODE"), "0");
  void* imported = nullptr;
  EXPECT_EQ(aclrtIpcMemImportByKey(&imported, key.c_str(), 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
  ASSERT_EQ(aclrtFree(mine), ACL_SUCCESS);
  ASSERT_EQ(aclrtIpcMemImportByKey(&imported, key.c_str(), 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&more, 40 * kMiB, ACL_MEM_MALLOC_HUGE_FIRST),
            ACL_ERROR_RT_MEMORY_ALLOCATION);

  // So does physical memory.
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.memAttr = ACL_HBM_MEM_NORMAL;
  aclrtDrvMemHandle physical = nullptr;
  EXPECT_EQ(aclrtMallocPhysical(&physical, 40 * kMiB, &prop, 0), ACL_ERROR_RT_MEMORY_ALLOCATION);
  ASSERT_EQ(aclrtIpcMemClose(key.c_str()), ACL_SUCCESS);
  ASSERT_EQ(aclrtMallocPhysical(&physical, 40 * kMiB, &prop, 0), ACL_SUCCESS);

  // The admin view shows the use against the limit.
  std::string out;
  ASSERT_EQ(RunProcess({NPUCTL_BINARY, "--address=" + DaemonEnvironment::daemon()->grpc_address(),
                        "sessions"},
                       {}, &out),
            0);
  EXPECT_NE(out.find(absl::StrCat("limit:", 40 * kMiB, "/", 64 * kMiB)), std::string::npos) << out;
  EXPECT_EQ(aclrtFreePhysical(physical), ACL_SUCCESS);
  exporter->WriteLine("free");
  EXPECT_EQ(Field(*exporter, "CODE"), "0");
}

TEST_F(SessionLimitsTest, StreamsAndEventsStopAtTheirLimits) {
  std::vector<aclrtStream> streams;
  aclError code = ACL_SUCCESS;
  while (streams.size() < 10) {
    aclrtStream stream = nullptr;
    code = aclrtCreateStream(&stream);
    if (code != ACL_SUCCESS) break;
    streams.push_back(stream);
  }
  EXPECT_EQ(code, ACL_ERROR_RT_NO_STREAM_RESOURCE);
  // The context's default stream counts too.
  EXPECT_EQ(streams.size(), 5u);
  ASSERT_EQ(aclrtDestroyStream(streams.back()), ACL_SUCCESS);
  streams.pop_back();
  aclrtStream again = nullptr;
  EXPECT_EQ(aclrtCreateStream(&again), ACL_SUCCESS);
  streams.push_back(again);
  for (aclrtStream stream : streams) EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);

  std::vector<aclrtEvent> events(4);
  for (aclrtEvent& event : events) ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  aclrtEvent extra = nullptr;
  EXPECT_EQ(aclrtCreateEvent(&extra), ACL_ERROR_RT_NO_EVENT_RESOURCE);
  for (aclrtEvent event : events) EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

}  // namespace
