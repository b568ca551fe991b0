// npud-sandbox-run, the sandbox of run-time compilation, run for real: a
// shell inside it may write its scratch directory and nothing else, sees no
// network, and is stopped by its CPU limit.

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/subprocess.h"
#include "gtest/gtest.h"

namespace {

class SandboxRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/npud-sandbox-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    outside_ = absl::StrCat(dir_, "-outside");
  }
  void TearDown() override { std::system(absl::StrCat("rm -rf ", dir_, " ", outside_).c_str()); }

  // Runs `script` with /bin/sh in the sandbox; returns how it ended and
  // leaves its output in output_.
  npud::ExitStatus Run(const std::string& script, const std::string& limits = "") {
    npud::SpawnOptions spawn;
    spawn.argv = {NPUD_SANDBOX_RUN, "--writable=" + dir_};
    if (!limits.empty()) spawn.argv.push_back(limits);
    spawn.argv.insert(spawn.argv.end(), {"--", "/bin/sh", "-c", script});
    spawn.stdout_path = absl::StrCat(outside_, ".log");
    spawn.cwd = dir_;  // relative paths reach the writable directory too
    absl::StatusOr<pid_t> pid = npud::Spawn(spawn);
    EXPECT_TRUE(pid.ok()) << pid.status();
    absl::StatusOr<npud::ExitStatus> exit = npud::WaitUntil(*pid, absl::Now() + absl::Seconds(60));
    EXPECT_TRUE(exit.ok()) << exit.status();
    std::ifstream in(spawn.stdout_path);
    std::stringstream text;
    text << in.rdbuf();
    output_ = text.str();
    unlink(spawn.stdout_path.c_str());
    return *exit;
  }

  std::string dir_;
  std::string outside_;
  std::string output_;
};

TEST_F(SandboxRunTest, WritesOnlyItsScratchDirectory) {
  const npud::ExitStatus exit =
      Run(absl::StrCat("touch ", dir_, "/inside && touch relative && echo inside; touch ", outside_,
                       " || echo refused; echo tmp=$TMPDIR"));
  EXPECT_EQ(exit.kind, npud::ExitStatus::Kind::kExited);
  EXPECT_NE(output_.find("inside"), std::string::npos) << output_;
  EXPECT_NE(output_.find("refused"), std::string::npos) << output_;
  EXPECT_NE(output_.find("tmp=" + dir_), std::string::npos) << output_;
  struct stat info;
  EXPECT_EQ(stat(absl::StrCat(dir_, "/inside").c_str(), &info), 0);
  EXPECT_NE(stat(outside_.c_str(), &info), 0) << outside_ << " was created";
}

TEST_F(SandboxRunTest, SeesNoNetwork) {
  // /proc/net/dev lists the interfaces of the process's network namespace.
  Run("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '");
  EXPECT_EQ(output_, "lo\n");
}

TEST_F(SandboxRunTest, CpuLimitStopsARunaway) {
  const absl::Time start = absl::Now();
  const npud::ExitStatus exit = Run("while :; do :; done", "--cpu_seconds=1");
  EXPECT_EQ(exit.kind, npud::ExitStatus::Kind::kSignaled);
  EXPECT_LT(absl::Now() - start, absl::Seconds(30));
}

}  // namespace
