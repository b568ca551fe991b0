#include "common/subprocess.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace npud {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

class SubprocessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/npud-subprocess-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override { std::system(("rm -rf " + dir_).c_str()); }
  std::string dir_;
};

TEST_F(SubprocessTest, RunsWithEnvironmentDirectoryAndOutput) {
  SpawnOptions options;
  options.argv = {"sh", "-c", "echo out $NPUD_SUBPROCESS_TEST; pwd; echo err >&2; exit 3"};
  options.extra_env = {"NPUD_SUBPROCESS_TEST=visible"};
  options.cwd = dir_;
  options.stdout_path = dir_ + "/log";
  auto pid = Spawn(options);
  ASSERT_TRUE(pid.ok()) << pid.status();
  auto exit = WaitUntil(*pid, absl::Now() + absl::Seconds(30));
  ASSERT_TRUE(exit.ok()) << exit.status();
  EXPECT_EQ(exit->kind, ExitStatus::Kind::kExited);
  EXPECT_EQ(exit->value, 3);
  EXPECT_EQ(ReadFile(dir_ + "/log"), "out visible\n" + dir_ + "\nerr\n");
}

TEST_F(SubprocessTest, SeparateStderrAndAppend) {
  SpawnOptions options;
  options.argv = {"sh", "-c", "echo out; echo err >&2"};
  options.stdout_path = dir_ + "/out";
  options.stderr_path = dir_ + "/err";
  options.append_output = true;
  for (int i = 0; i < 2; ++i) {
    auto pid = Spawn(options);
    ASSERT_TRUE(pid.ok());
    ASSERT_TRUE(WaitUntil(*pid, absl::Now() + absl::Seconds(30)).ok());
  }
  EXPECT_EQ(ReadFile(dir_ + "/out"), "out\nout\n");
  EXPECT_EQ(ReadFile(dir_ + "/err"), "err\nerr\n");
}

TEST_F(SubprocessTest, NoDescriptorOfOursLeaksIntoTheChild) {
  const int fd = dup(1);  // not close-on-exec
  ASSERT_GE(fd, 3);
  SpawnOptions options;
  options.argv = {"sh", "-c", "ls /proc/self/fd"};
  options.stdout_path = dir_ + "/fds";
  auto pid = Spawn(options);
  ASSERT_TRUE(pid.ok());
  ASSERT_TRUE(WaitUntil(*pid, absl::Now() + absl::Seconds(30)).ok());
  close(fd);
  // 0, 1, 2 and the descriptor ls opens for /proc/self/fd.
  std::istringstream listed(ReadFile(dir_ + "/fds"));
  int count = 0;
  for (std::string line; std::getline(listed, line);) ++count;
  EXPECT_LE(count, 4);
}

TEST_F(SubprocessTest, DeadlineKillsTheWholeGroup) {
  SpawnOptions options;
  // The shell's child would survive if only the shell were killed.
  options.argv = {"sh", "-c", "sleep 60 & echo $! > " + dir_ + "/child; wait"};
  options.detach = SpawnOptions::Detach::kProcessGroup;
  auto pid = Spawn(options);
  ASSERT_TRUE(pid.ok());
  const absl::Time start = absl::Now();
  auto exit = WaitUntil(*pid, absl::Now() + absl::Milliseconds(500));
  ASSERT_TRUE(exit.ok());
  EXPECT_EQ(exit->kind, ExitStatus::Kind::kTimedOut);
  EXPECT_LT(absl::Now() - start, absl::Seconds(10));
  const pid_t child = std::atoi(ReadFile(dir_ + "/child").c_str());
  ASSERT_GT(child, 0);
  // Killed with the group (a zombie until init reaps it counts as gone).
  const absl::Time deadline = absl::Now() + absl::Seconds(10);
  bool gone = false;
  while (!gone && absl::Now() < deadline) {
    const std::string stat = ReadFile("/proc/" + std::to_string(child) + "/stat");
    gone = stat.empty() || stat.find(") Z") != std::string::npos;
    if (!gone) absl::SleepFor(absl::Milliseconds(10));
  }
  EXPECT_TRUE(gone);
}

TEST_F(SubprocessTest, SignalsAreReported) {
  SpawnOptions options;
  options.argv = {"sh", "-c", "kill -9 $$"};
  auto pid = Spawn(options);
  ASSERT_TRUE(pid.ok());
  auto exit = WaitUntil(*pid, absl::Now() + absl::Seconds(30));
  ASSERT_TRUE(exit.ok());
  EXPECT_EQ(exit->kind, ExitStatus::Kind::kSignaled);
  EXPECT_EQ(exit->value, 9);
}

TEST_F(SubprocessTest, MissingProgramIsNotFound) {
  SpawnOptions options;
  options.argv = {"/nonexistent/npud-no-such-program"};
  EXPECT_TRUE(absl::IsNotFound(Spawn(options).status()));
  options.argv.clear();
  EXPECT_TRUE(absl::IsInvalidArgument(Spawn(options).status()));
}

}  // namespace
}  // namespace npud
