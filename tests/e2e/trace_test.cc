// Timelines against a live npud, on every transport variant: a client with
// NPUD_TRACE writes a Chrome trace at aclFinalize that holds its ACL calls
// and npud's spans of its streams, in the order the streams and an event
// imposed (checked by check_trace.py: valid JSON, tracks that nest, the
// expected work), and with NPUD_TRACE_BLOCKS=1 every block of every kernel
// inside it; `npuctl trace` records a running session from outside;
// bad input (an unwritable file, a session that does not exist) fails
// clearly without hurting the program or npud.

#include <stdlib.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::ChildProcess;
using npud::testing::NpudProcess;
using npud::testing::RunProcess;

class TraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (npud::testing::InprocFromEnv()) GTEST_SKIP() << "traces come from a daemon";
    auto started = NpudProcess::Start(npud::testing::TransportFromEnv());
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    char dir[] = "/tmp/npud-trace-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override {
    if (!dir_.empty()) RunProcess({"/bin/rm", "-rf", dir_}, {});
    if (daemon_ == nullptr) return;
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  // check_trace.py's exit status; its output in *output.
  int Check(const std::string& file, const std::vector<std::string>& flags,
            std::string* output) const {
    std::vector<std::string> argv = {PYTHON3, CHECK_TRACE, file};
    argv.insert(argv.end(), flags.begin(), flags.end());
    return RunProcess(argv, {}, output);
  }

  int Npuctl(const std::vector<std::string>& args, std::string* output) const {
    std::string command = std::string(NPUCTL_BINARY) + " --address=" + daemon_->grpc_address();
    for (const std::string& arg : args) command += " " + arg;
    return RunProcess({"/bin/sh", "-c", command + " 2>&1"}, {}, output);
  }

  // As the client decides (runtime.cc): on this host's sockets the clocks
  // are one; across TCP the client estimates the offset.
  bool SameClock() const { return absl::StartsWith(daemon_->address(), "unix"); }

  // Runs the "timeline" scenario against `address` with NPUD_TRACE (and
  // `env`); the trace file it wrote.
  std::string TraceTimeline(const std::string& address, const std::vector<std::string>& env) {
    std::vector<std::string> all = {"NPUD_ADDRESS=" + address, "NPUD_TRACE=" + dir_ + "/t.json"};
    all.insert(all.end(), env.begin(), env.end());
    std::string out;
    EXPECT_EQ(RunProcess({ACL_TEST_CLIENT, "timeline", E2E_KERNELS_PATH}, all, &out), 0) << out;
    EXPECT_TRUE(absl::StrContains(out, "TIMELINE OK")) << out;
    return dir_ + "/t.json";
  }

  std::unique_ptr<NpudProcess> daemon_;
  std::string dir_;
};

TEST_F(TraceTest, AClientTraceHoldsItsCallsAndItsStreams) {
  std::string out;
  const int rc = RunProcess(
      {ACL_TEST_CLIENT, "timeline", E2E_KERNELS_PATH},
      {"NPUD_ADDRESS=" + daemon_->address(), "NPUD_TRACE=" + dir_ + "/trace-%p.json"}, &out);
  ASSERT_EQ(rc, 0) << out;
  ASSERT_TRUE(absl::StrContains(out, "TIMELINE OK")) << out;
  // "%p" became the client's pid: the one file in the directory.
  std::string listing;
  ASSERT_EQ(RunProcess({"/bin/sh", "-c", "ls " + dir_}, {}, &listing), 0);
  std::smatch match;
  ASSERT_TRUE(std::regex_search(listing, match, std::regex(R"(trace-\d+\.json)"))) << listing;
  const std::string file = dir_ + "/" + match.str();

  std::vector<std::string> flags = {"--expect-host", "--timeline"};
  if (SameClock()) flags.push_back("--same-clock");
  std::string report;
  EXPECT_EQ(Check(file, flags, &report), 0) << report;
  EXPECT_TRUE(absl::StartsWith(report, "TRACE OK")) << report;
}

TEST_F(TraceTest, ABlockTraceHoldsEveryBlockOfEveryKernel) {
  const std::string file = TraceTimeline(daemon_->address(), {"NPUD_TRACE_BLOCKS=1"});
  std::vector<std::string> flags = {"--expect-host", "--timeline", "--all-blocks"};
  if (SameClock()) flags.push_back("--same-clock");
  std::string report;
  EXPECT_EQ(Check(file, flags, &report), 0) << report;
  EXPECT_TRUE(absl::StartsWith(report, "TRACE OK")) << report;
  // Blocks where none were asked for are refused.
  EXPECT_EQ(Check(file, {}, &report), 1) << report;
  EXPECT_TRUE(absl::StrContains(report, "did not ask")) << report;
}

// The client's own devices (no daemon) run kernels in its process: their
// blocks are traced the same way.
TEST_F(TraceTest, InProcessKernelsHaveBlockSpansToo) {
  const std::string file = TraceTimeline("inproc:", {"NPUD_TRACE_BLOCKS=1"});
  std::string report;
  EXPECT_EQ(Check(file, {"--expect-host", "--timeline", "--all-blocks", "--same-clock"}, &report),
            0)
      << report;
}

// The checker can fail: a trace without the timeline's work is refused.
TEST_F(TraceTest, TheCheckerRefusesATraceWithoutTheWork) {
  std::string out;
  ASSERT_EQ(
      RunProcess({ACL_TEST_CLIENT, "flows"},
                 {"NPUD_ADDRESS=" + daemon_->address(), "NPUD_TRACE=" + dir_ + "/f.json"}, &out),
      0)
      << out;
  std::string report;
  EXPECT_EQ(Check(dir_ + "/f.json", {"--expect-host"}, &report), 0) << report;
  EXPECT_EQ(Check(dir_ + "/f.json", {"--timeline"}, &report), 1) << report;
  EXPECT_EQ(Check(dir_ + "/f.json", {"--blocks"}, &report), 1) << report;
  std::ofstream(dir_ + "/broken.json") << "{\"traceEvents\": [";
  EXPECT_EQ(Check(dir_ + "/broken.json", {}, &report), 1) << report;
  std::ofstream(dir_ + "/overlap.json") << R"({"traceEvents": [
        {"name":"process_name","ph":"M","pid":1,"tid":0,"args":{"name":"p"}},
        {"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"t"}},
        {"name":"a","cat":"copy","ph":"X","pid":1,"tid":1,"ts":0,"dur":10},
        {"name":"b","cat":"copy","ph":"X","pid":1,"tid":1,"ts":5,"dur":10}]})";
  EXPECT_EQ(Check(dir_ + "/overlap.json", {}, &report), 1) << report;
  EXPECT_TRUE(absl::StrContains(report, "overlaps")) << report;
  // A kernel whose blocks are said to be traced, with one of its two
  // missing (core processes are 500000000 past their device's).
  std::ofstream(dir_ + "/block.json") << R"({"traceEvents": [
        {"name":"process_name","ph":"M","pid":1000000000,"tid":0,"args":{"name":"d"}},
        {"name":"thread_name","ph":"M","pid":1000000000,"tid":3,"args":{"name":"s"}},
        {"name":"process_name","ph":"M","pid":1500000000,"tid":0,"args":{"name":"c"}},
        {"name":"thread_name","ph":"M","pid":1500000000,"tid":0,"args":{"name":"core"}},
        {"name":"k","cat":"kernel","ph":"X","pid":1000000000,"tid":3,"ts":0,"dur":10,
         "args":{"stream":3,"block_dim":2,"blocks":true}},
        {"name":"k","cat":"block","ph":"X","pid":1500000000,"tid":0,"ts":1,"dur":2,
         "args":{"stream":3,"block_dim":2,"block":0}}]})";
  EXPECT_EQ(Check(dir_ + "/block.json", {"--blocks"}, &report), 1) << report;
  EXPECT_TRUE(absl::StrContains(report, "holds blocks [0]")) << report;
}

TEST_F(TraceTest, AnUnwritableTraceFileDoesNotFailTheProgram) {
  std::string out;
  const std::string command =
      absl::StrCat(ACL_TEST_CLIENT, " timeline ", E2E_KERNELS_PATH, " 2>&1");
  const int rc = RunProcess({"/bin/sh", "-c", command},
                            {"NPUD_ADDRESS=" + daemon_->address(),
                             "NPUD_TRACE=" + dir_ + "/no/such/dir/t.json", "NPUD_LOG_LEVEL=warn"},
                            &out);
  EXPECT_EQ(rc, 0) << out;
  EXPECT_TRUE(absl::StrContains(out, "TIMELINE OK")) << out;
  // The log says why there is no trace.
  EXPECT_TRUE(absl::StrContains(out, "cannot write the trace")) << out;
}

TEST_F(TraceTest, NpuctlTracesARunningSession) {
  auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "add-loop", E2E_KERNELS_PATH},
                                    {"NPUD_ADDRESS=" + daemon_->address()});
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_EQ((*client)->ReadLine(absl::Seconds(60)), "READY");
  std::string json;
  ASSERT_EQ(Npuctl({"--json", "sessions"}, &json), 0) << json;
  const std::regex own(R"re("sessionId":\s*"(\d+)",\s*"pid":\s*")re" +
                       std::to_string((*client)->pid()) + "\"");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(json, match, own)) << json;
  const std::string session = match[1];

  const std::string file = dir_ + "/npuctl.json";
  std::string output;
  ASSERT_EQ(
      Npuctl({"--json", "trace", "--session", session, "--seconds=1", "--output=" + file}, &output),
      0)
      << output;
  EXPECT_TRUE(absl::StrContains(output, "\"session\": " + session)) << output;
  const std::string blocks = dir_ + "/blocks.json";
  ASSERT_EQ(
      Npuctl({"trace", "--session", session, "--seconds=0.5", "--blocks", "--output=" + blocks},
             &output),
      0)
      << output;
  (*client)->WriteLine("stop");
  EXPECT_TRUE(absl::StartsWith((*client)->ReadLine(absl::Seconds(60)), "ROUNDS "));
  EXPECT_EQ((*client)->Wait(), 0);

  std::string report;
  EXPECT_EQ(Check(file, {}, &report), 0) << report;
  std::ifstream in(file);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(absl::StrContains(text, "\"name\":\"add_float\",\"cat\":\"kernel\"")) << text;
  EXPECT_FALSE(absl::StrContains(text, "\"cat\":\"acl\"")) << "npuctl sees no host calls";
  EXPECT_EQ(Check(blocks, {"--blocks"}, &report), 0) << report;
}

TEST_F(TraceTest, NpuctlTraceOfNoSessionFails) {
  std::string output;
  EXPECT_EQ(
      Npuctl({"trace", "--session=987654", "--seconds=0.1", "--output=" + dir_ + "/x"}, &output), 1)
      << output;
  EXPECT_TRUE(absl::StrContains(output, "no session 987654")) << output;
  EXPECT_EQ(Npuctl({"trace", "--seconds=1"}, &output), 2) << output;
  EXPECT_EQ(Npuctl({"trace", "--session=1", "--seconds=9999"}, &output), 2) << output;
}

}  // namespace
