// npuctl against a live npud, on every transport variant: `info` and `top`
// show what a real client holds, `sessions --json` finds its session, `kill` ends it from npud's
// side — the client's next call fails, its device memory comes back and npud logs who killed it —
// and killing a session that does not exist fails clearly.

#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_test.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::ChildProcess;
using npud::testing::RunProcess;

class NpuctlTest : public npud::testing::DaemonTest {
 protected:
  void SetUp() override {
    if (npud::testing::InprocFromEnv()) GTEST_SKIP() << "npuctl needs a daemon";
    StartDaemon();
  }

  // npuctl's exit status; its stdout and stderr in *output.
  int Npuctl(const std::vector<std::string>& args, std::string* output) const {
    std::string command = std::string(NPUCTL_BINARY) + " --address=" + daemon_->grpc_address();
    for (const std::string& arg : args) command += " " + arg;
    return RunProcess({"/bin/sh", "-c", command + " 2>&1"}, {}, output);
  }

  // The used bytes npuctl reports for device 0.
  uint64_t UsedBytes() const {
    std::string json;
    EXPECT_EQ(Npuctl({"--json", "devices"}, &json), 0) << json;
    static const std::regex kUsed(R"re("usedBytes":\s*"(\d+)")re");
    std::smatch match;
    return std::regex_search(json, match, kUsed) ? std::stoull(match[1]) : ~uint64_t{0};
  }
};

TEST_F(NpuctlTest, KillEndsASessionAndReleasesWhatItHeld) {
  constexpr size_t kBytes = 8 << 20;
  auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", std::to_string(kBytes)},
                                    {"NPUD_ADDRESS=" + daemon_->address()});
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_TRUE(absl::StartsWith((*client)->ReadLine(absl::Seconds(30)), "ADDR "));
  EXPECT_GE(UsedBytes(), kBytes);

  std::string json;
  ASSERT_EQ(Npuctl({"--json", "sessions"}, &json), 0) << json;
  const std::regex own(R"re("sessionId":\s*"(\d+)",\s*"pid":\s*")re" +
                       std::to_string((*client)->pid()) + "\"");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(json, match, own)) << json;
  const std::string session = match[1];

  std::string output;
  ASSERT_EQ(Npuctl({"kill", session}, &output), 0) << output;
  EXPECT_TRUE(absl::StrContains(output, "session " + session + " killed")) << output;

  // The client's next call fails: its session is gone.
  (*client)->WriteLine("check");
  EXPECT_EQ((*client)->ReadLine(absl::Seconds(30)), "INTACT 0");
  (*client)->CloseStdin();
  EXPECT_EQ((*client)->Wait(), 0);

  uint64_t used = UsedBytes();
  for (const absl::Time end = absl::Now() + absl::Seconds(10); used != 0 && absl::Now() < end;) {
    absl::SleepFor(absl::Milliseconds(50));
    used = UsedBytes();
  }
  EXPECT_EQ(used, 0u) << "the killed session's memory was not released";
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "session " + session + " (pid ")) << daemon_->Log();
  EXPECT_TRUE(absl::StrContains(daemon_->Log(), "killed by an admin call")) << daemon_->Log();
  // npud serves on.
  EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "flows"}, {"NPUD_ADDRESS=" + daemon_->address()}), 0);
}

// info (npu-smi's habit) and top show what a real client holds.
TEST_F(NpuctlTest, InfoAndTopShowWhatAClientHolds) {
  auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", std::to_string(8 << 20)},
                                    {"NPUD_ADDRESS=" + daemon_->address()});
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_TRUE(absl::StartsWith((*client)->ReadLine(absl::Seconds(30)), "ADDR "));
  std::string info;
  ASSERT_EQ(Npuctl({"info"}, &info), 0) << info;
  // Device 0: the SoC, 24 cube and 48 vector cores, 8 of 16384 MiB used.
  EXPECT_TRUE(
      std::regex_search(info, std::regex(R"(\| 0 +Ascend910B1 +\| OK +\| 24/48 +\| 8 / 16384 )")))
      << info;
  std::string top;
  ASSERT_EQ(Npuctl({"top", "--iterations=2", "--interval_ms=50"}, &top), 0) << top;
  const std::regex row("\n\\d+ +" + std::to_string((*client)->pid()) + " +\\S+ +8 +");
  EXPECT_TRUE(std::regex_search(top, row)) << top;
  std::string json;
  ASSERT_EQ(Npuctl({"--json", "top", "--iterations=1"}, &json), 0) << json;
  EXPECT_TRUE(absl::StrContains(json, "\"devices\"")) << json;
  EXPECT_TRUE(absl::StrContains(json, "\"sessions\"")) << json;
  EXPECT_EQ(Npuctl({"top", "--iterations=many"}, &json), 2);
  // After an 8 MiB device-to-host copy the session table says by which path.
  (*client)->WriteLine("check");
  ASSERT_EQ((*client)->ReadLine(absl::Seconds(30)), "INTACT 1");
  std::string sessions;
  ASSERT_EQ(Npuctl({"sessions"}, &sessions), 0) << sessions;
  EXPECT_TRUE(std::regex_search(sessions, std::regex(R"(copied( \w+:\d+)*( \w+:8388608))")))
      << sessions;
  (*client)->CloseStdin();
  EXPECT_EQ((*client)->Wait(), 0);
}

// What container health checks and Kubernetes probes run.
TEST_F(NpuctlTest, HealthSaysServing) {
  std::string output;
  EXPECT_EQ(Npuctl({"health"}, &output), 0) << output;
  EXPECT_EQ(output, "SERVING\n");
}

TEST_F(NpuctlTest, KillingAnUnknownSessionFails) {
  std::string output;
  EXPECT_NE(Npuctl({"kill", "987654"}, &output), 0);
  EXPECT_TRUE(absl::StrContains(output, "no session 987654")) << output;
  EXPECT_EQ(Npuctl({"kill", "not-a-number"}, &output), 2);
  EXPECT_TRUE(absl::StrContains(output, "not a session id")) << output;
}

}  // namespace
