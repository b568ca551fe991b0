// One session's kernels against another's on one device, with real client
// processes against a real npud: a session keeping every core busy on four
// streams does not starve another session's short kernel (its p99 is
// asserted loosely here; bench/fair_share_bench prints the exact figures),
// and two busy sessions whose tokens carry weights 1 and 3 get the CPU time
// of their kernel hosts in that proportion (host_cpu_share.h); a session
// filling npud's compile queue does not keep another from compiling.

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_test.h"
#include "tests/e2e/npud_process.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NPUD_TEST_SANITIZED 1
#endif
#elif defined(__SANITIZE_ADDRESS__)
#define NPUD_TEST_SANITIZED 1
#endif
#ifndef NPUD_TEST_SANITIZED
#define NPUD_TEST_SANITIZED 0
#endif

namespace {

using npud::testing::ChildProcess;

struct VictimFigures {
  long rounds = 0;
  double p50_us = 0, p99_us = 0, max_us = 0;
};

// CPU time (user + system) of process `pid` so far, in clock ticks.
long CpuTicks(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  // Fields after the command, which is in parentheses and may hold spaces.
  std::istringstream rest(text.substr(text.rfind(')') + 2));
  std::string field;
  long utime = 0, stime = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) utime = std::stol(field);
    if (i == 15) stime = std::stol(field);
  }
  return utime + stime;
}

// The path of process `pid`'s group in the cgroup v1 cpu hierarchy ("" if
// it has none).
std::string CpuGroupOf(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cgroup");
  for (std::string line; std::getline(in, line);) {
    const std::vector<std::string> fields = absl::StrSplit(line, absl::MaxSplits(':', 2));
    if (fields.size() != 3) continue;
    for (absl::string_view controller : absl::StrSplit(fields[1], ',')) {
      if (controller == "cpu") return fields[2];
    }
  }
  return "";
}

// Whether the suite runs over the unix socket (the variant that runs what
// does not depend on the transport).
bool OnTheUnixSocket() {
  const char* transport = std::getenv("NPUD_TEST_TRANSPORT");
  return transport == nullptr || std::string(transport) == "unix";
}

bool InRootCpuGroup() {
  const std::string group = CpuGroupOf(getpid());
  return group.empty() || group == "/";
}

// A cgroup v1 cpu group this test process (and so the npud and clients it
// starts) runs in until it ends; removed then.
class TestCpuGroup {
 public:
  static constexpr const char* kTop = "/sys/fs/cgroup/cpu";

  static std::optional<TestCpuGroup> Enter() {
    if (!InRootCpuGroup() || access(kTop, W_OK) != 0) return std::nullopt;
    const std::string path = "/npud-fair-share-" + std::to_string(getpid());
    if (mkdir((kTop + path).c_str(), 0755) != 0) return std::nullopt;
    std::ofstream(std::string(kTop) + path + "/cgroup.procs") << getpid() << std::flush;
    if (CpuGroupOf(getpid()) != path) {
      rmdir((kTop + path).c_str());
      return std::nullopt;
    }
    return TestCpuGroup(path);
  }
  TestCpuGroup(TestCpuGroup&& other) noexcept : path_(std::move(other.path_)) {
    other.path_.clear();
  }
  ~TestCpuGroup() {
    if (path_.empty()) return;
    std::ofstream(std::string(kTop) + "/cgroup.procs") << getpid() << std::flush;
    for (int i = 0; i < 50 && rmdir((kTop + path_).c_str()) != 0; ++i) {
      absl::SleepFor(absl::Milliseconds(100));  // processes still leaving
    }
  }

  const std::string& path() const { return path_; }
  // Groups below ours.
  int Children() const {
    int children = 0;
    DIR* dir = opendir((kTop + path_).c_str());
    if (dir == nullptr) return -1;
    while (dirent* entry = readdir(dir)) {
      if (entry->d_type == DT_DIR && entry->d_name[0] != '.') ++children;
    }
    closedir(dir);
    return children;
  }

 private:
  explicit TestCpuGroup(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

class FairShareTest : public npud::testing::DaemonTest {
 protected:
  std::unique_ptr<ChildProcess> Client(const std::vector<std::string>& args,
                                       const std::string& token = "") {
    std::vector<std::string> argv = {ACL_TEST_CLIENT};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<std::string> env = {"NPUD_ADDRESS=" + daemon_->address()};
    if (!token.empty()) env.push_back("NPUD_TOKEN=" + token);
    auto child = ChildProcess::Spawn(argv, env);
    EXPECT_TRUE(child.ok()) << child.status();
    if (!child.ok()) return nullptr;
    EXPECT_EQ((*child)->ReadLine(absl::Seconds(30)), "READY") << daemon_->Log();
    return *std::move(child);
  }

  // A hog: `blocks`-block launches of `kilo_rounds` thousand rounds of
  // work per block (1000: about 1 ms) on 4 streams for `seconds`.
  std::unique_ptr<ChildProcess> Hog(int blocks, int kilo_rounds, double seconds,
                                    const std::string& token = "") {
    return Client({"hog", E2E_KERNELS_PATH, std::to_string(blocks), std::to_string(kilo_rounds),
                   std::to_string(seconds)},
                  token);
  }

  VictimFigures Victim(double seconds) {
    VictimFigures figures;
    std::unique_ptr<ChildProcess> victim =
        Client({"victim", E2E_KERNELS_PATH, std::to_string(seconds)});
    if (victim == nullptr) return figures;
    const std::string line = victim->ReadLine(absl::Seconds(seconds + 30));
    EXPECT_EQ(std::sscanf(line.c_str(), "VICTIM %ld %lf %lf %lf", &figures.rounds, &figures.p50_us,
                          &figures.p99_us, &figures.max_us),
              4)
        << line << daemon_->Log();
    EXPECT_EQ(victim->Wait(), 0);
    return figures;
  }

  // Runs two 48-block hogs with tokens of weights 1 and 3 and expects
  // their kernel hosts' CPU times to split 25 / 75.
  void ExpectWeightsShareTheCores() {
    const std::string tokens = ::testing::TempDir() + "/fair_share_tokens";
    std::ofstream(tokens) << "light-token name=light weight=1\nheavy-token name=heavy weight=3\n";
    StartDaemon({"--auth_token_file=" + tokens});
    std::unique_ptr<ChildProcess> light = Hog(48, 5000, 6.0, "light-token");
    std::unique_ptr<ChildProcess> heavy = Hog(48, 5000, 6.0, "heavy-token");
    ASSERT_NE(light, nullptr);
    ASSERT_NE(heavy, nullptr);
    const pid_t light_host = KernelHostOf("light");
    const pid_t heavy_host = KernelHostOf("heavy");
    ASSERT_GT(light_host, 0);
    ASSERT_GT(heavy_host, 0);
    absl::SleepFor(absl::Milliseconds(500));
    const long light_start = CpuTicks(light_host), heavy_start = CpuTicks(heavy_host);
    absl::SleepFor(absl::Seconds(3));
    const long light_ticks = CpuTicks(light_host) - light_start;
    const long heavy_ticks = CpuTicks(heavy_host) - heavy_start;
    heavy_host_group_ = CpuGroupOf(heavy_host);
    EXPECT_EQ(light->Wait(), 0);
    EXPECT_EQ(heavy->Wait(), 0);
    const double share = static_cast<double>(heavy_ticks) / (heavy_ticks + light_ticks);
    std::printf("[figures] CPU ticks over 3 s: weight 1 %ld, weight 3 %ld: shares %.2f / %.2f\n",
                light_ticks, heavy_ticks, 1 - share, share);
    EXPECT_GT(light_ticks + heavy_ticks, 0);
#if NPUD_TEST_SANITIZED
    // Instrumented kernels and hosts move the split by more than the weights
    // are about (0.14-0.23 for weight 1 seen in the checked build): only the
    // direction is asserted there; the uninstrumented stage checks the split.
    EXPECT_GT(share, 0.6);
#else
    EXPECT_NEAR(share, 0.75, 0.08);
#endif
  }

  // The cpu cgroup the weight-3 host ran in.
  std::string heavy_host_group_;

  // The kernel host pid of the session whose tenant is `tenant`, from
  // npuctl's JSON; 0 if there is none.
  pid_t KernelHostOf(const std::string& tenant) {
    std::string json;
    EXPECT_EQ(npud::testing::RunProcess(
                  {NPUCTL_BINARY, "--address=" + daemon_->grpc_address(), "--json", "sessions"}, {},
                  &json),
              0)
        << json;
    // One session's fields, from its id to the next session's.
    static const std::regex kPid(R"re("kernelHostPid": "?(\d+))re");
    for (const absl::string_view session : absl::StrSplit(json, "\"sessionId\"")) {
      if (!absl::StrContains(session, "\"tenant\": \"" + tenant + "\"")) continue;
      const std::string text(session);
      std::smatch pid;
      if (std::regex_search(text, pid, kPid)) return static_cast<pid_t>(std::stol(pid[1]));
    }
    ADD_FAILURE() << "no kernel host for tenant " << tenant << " in\n" << json;
    return 0;
  }
};

// A victim's short kernel + synchronize, alone and while another session
// keeps all 48 cores busy on 4 streams: its p99 stays within 20 ms (loose:
// the bench prints the real figures). Before, it took p99 32 ms here (334 ms
// where the issue measured it).
TEST_F(FairShareTest, AShortKernelIsNotStarvedByAHog) {
  StartDaemon();
  const VictimFigures alone = Victim(1.0);
  std::unique_ptr<ChildProcess> hog = Hog(48, 2000, 4.0);
  ASSERT_NE(hog, nullptr);
  const VictimFigures shared = Victim(2.0);
  const std::string hogged = hog->ReadLine(absl::Seconds(30));
  EXPECT_TRUE(absl::StartsWith(hogged, "HOG ")) << hogged << daemon_->Log();
  EXPECT_EQ(hog->Wait(), 0);
  std::printf(
      "[figures] victim alone: %ld rounds, p50 %.0f us, p99 %.0f us; beside the hog: %ld rounds, "
      "p50 %.0f us, p99 %.0f us, max %.0f us; %s launches\n",
      alone.rounds, alone.p50_us, alone.p99_us, shared.rounds, shared.p50_us, shared.p99_us,
      shared.max_us, hogged.c_str());
  EXPECT_GT(shared.rounds, 0);
  // On this machine kind: p99 0.4-4 ms now, 32 ms when every kernel host
  // shared npud's scheduling group. Sanitized builds are slower all over.
  EXPECT_LE(shared.p99_us, NPUD_ADDRESS_SANITIZER ? 100000 : 20000);
}

// Two sessions keeping every core busy, with tokens of weights 1 and 3:
// their kernel hosts get a quarter and three quarters of the CPU time.
TEST_F(FairShareTest, WeightsShareTheCores) {
  {
    std::ifstream enabled("/proc/sys/kernel/sched_autogroup_enabled");
    int on = 0;
    if (!(enabled >> on) || on == 0) GTEST_SKIP() << "this kernel's autogroups are off";
  }
  if (geteuid() != 0) GTEST_SKIP() << "a weight above 1 needs npud to hold CAP_SYS_NICE";
  if (!InRootCpuGroup()) GTEST_SKIP() << "this test runs outside the root CPU cgroup";
  if (!OnTheUnixSocket()) GTEST_SKIP() << "kernel hosts are the same behind every transport";
  ExpectWeightsShareTheCores();
}

// The same with npud in a CPU cgroup of its own (a systemd unit with a cpu
// controller, a container), where autogroups do not apply: each host gets
// a group below npud's, weighted as its session. Before, both hosts' 48
// threads shared the CPUs thread by thread: 0.50 / 0.50.
TEST_F(FairShareTest, WeightsShareTheCoresInACgroupOfNpudsOwn) {
  if (!OnTheUnixSocket()) GTEST_SKIP() << "kernel hosts are the same behind every transport";
  std::optional<TestCpuGroup> group = TestCpuGroup::Enter();
  if (!group) GTEST_SKIP() << "no writable cgroup v1 cpu hierarchy at " << TestCpuGroup::kTop;
  ExpectWeightsShareTheCores();
  // Every host group is removed with its host.
  EXPECT_EQ(heavy_host_group_.substr(0, heavy_host_group_.rfind('/')), group->path())
      << heavy_host_group_ << " is not a group below npud's";
  EXPECT_TRUE(daemon_->Stop().ok()) << daemon_->Log();  // its hosts end with it
  daemon_.reset();
  EXPECT_EQ(group->Children(), 0) << "host groups left in " << group->path();
}

// One session keeping npud's compile queue full (40 threads compiling
// programs of their own, one compile at a time) does not keep another
// session from compiling: sessions take turns, and one holds at most half
// of the queue's places. Before, the other session's program was refused at
// once, the queue being full.
TEST_F(FairShareTest, AFullCompileQueueStillTakesAnotherSessionsProgram) {
  if (!OnTheUnixSocket()) GTEST_SKIP() << "the compile queue is the same behind every transport";
  StartDaemon({"--compile_jobs=1"});
  std::unique_ptr<ChildProcess> hog = Client({"compile-hog", "40", "30"});
  ASSERT_NE(hog, nullptr);
  absl::SleepFor(absl::Seconds(1));  // its compiles fill the queue
  const absl::Time start = absl::Now();
  std::unique_ptr<ChildProcess> other = Client({"compile-hog", "1", "0"});
  ASSERT_NE(other, nullptr);
  const std::string compiled = other->ReadLine(absl::Seconds(60));
  std::printf("[figures] one program beside a full compile queue: %s in %s\n", compiled.c_str(),
              absl::FormatDuration(absl::Now() - start).c_str());
  EXPECT_EQ(compiled, "COMPILE-HOG 1 0 0") << daemon_->Log();
  EXPECT_EQ(other->Wait(), 0);
  // The hog was refused past its share (the queue holds 32).
  hog->Kill(SIGTERM);
  EXPECT_NE(daemon_->Log().find("compilation of 'hog.cpp' refused"), std::string::npos)
      << daemon_->Log();
}

}  // namespace
