// npud in a memory cgroup whose limit is below the host's RAM, as in a
// container started with --memory or a Kubernetes pod with a memory limit:
// its default host memory limit is three quarters of the cgroup's (said at
// start), no device advertises more than that, and a client allocating past
// it gets 207001 and npud keeps serving. Before, the default came from the
// host's RAM: the allocation was granted and filling it had the kernel
// OOM-kill npud with every session.
//
// Needs root and a writable cgroup v1 memory controller (this project's CI
// machines); skipped otherwise. Under cgroup v2 a process cannot leave a
// group for a child of it and come back (no processes in inner groups), so
// there only the reader's unit test (tests/daemon) runs.

#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::ChildProcess;
using npud::testing::NpudProcess;

constexpr uint64_t kMiB = uint64_t{1} << 20;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.flush();
  return out.good();
}

// A v1 memory cgroup below this process's own, with a memory limit;
// removed when it goes away (once no process is left in it).
class MemoryCgroup {
 public:
  // nullptr where there is no writable v1 memory controller.
  static std::unique_ptr<MemoryCgroup> Create(uint64_t limit_bytes) {
    std::string mount;
    for (absl::string_view line : absl::StrSplit(ReadText("/proc/self/mountinfo"), '\n')) {
      const std::vector<std::string> fields = absl::StrSplit(line, ' ');
      // The host's view (mount root "/") of the memory hierarchy.
      if (fields.size() > 9 && fields[3] == "/" && absl::StrContains(line, " - cgroup ") &&
          absl::EndsWith(line, ",memory")) {
        mount = fields[4];
      }
    }
    std::string own;
    for (absl::string_view line : absl::StrSplit(ReadText("/proc/self/cgroup"), '\n')) {
      const std::vector<std::string> fields = absl::StrSplit(line, absl::MaxSplits(':', 2));
      if (fields.size() == 3 && fields[1] == "memory") own = fields[2];
    }
    if (mount.empty() || own.empty()) return nullptr;
    auto group = std::unique_ptr<MemoryCgroup>(new MemoryCgroup());
    group->parent_ = mount + (own == "/" ? "" : own);
    group->dir_ = absl::StrCat(group->parent_, "/npud-cgroup-test-", getpid());
    if (mkdir(group->dir_.c_str(), 0755) != 0) return nullptr;
    if (!WriteText(group->dir_ + "/memory.limit_in_bytes", std::to_string(limit_bytes))) {
      return nullptr;
    }
    return group;
  }
  ~MemoryCgroup() { rmdir(dir_.c_str()); }

  // Moves this process in (what it starts meanwhile stays there) or back.
  bool Enter() const { return WriteText(dir_ + "/cgroup.procs", std::to_string(getpid())); }
  bool Leave() const { return WriteText(parent_ + "/cgroup.procs", std::to_string(getpid())); }

 private:
  MemoryCgroup() = default;
  std::string parent_;
  std::string dir_;
};

TEST(CgroupMemoryTest, TheDefaultHostMemoryLimitFollowsTheCgroupLimit) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to make a memory cgroup";
  const uint64_t ram = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  if (ram <= 2048 * kMiB) GTEST_SKIP() << "needs more than 2 GiB of RAM";
  std::unique_ptr<MemoryCgroup> group = MemoryCgroup::Create(512 * kMiB);
  if (group == nullptr) GTEST_SKIP() << "no writable cgroup v1 memory controller";

  ASSERT_TRUE(group->Enter());
  auto started = NpudProcess::Start(NpudProcess::Transport::kUnix);
  ASSERT_TRUE(group->Leave());
  ASSERT_TRUE(started.ok()) << started.status();
  std::unique_ptr<NpudProcess> daemon = *std::move(started);
  EXPECT_TRUE(absl::StrContains(daemon->Log(),
                                "host memory limit: 384 MiB, three quarters of the cgroup "
                                "memory limit (512 MiB"))
      << daemon->Log();
  // No device advertises more than that budget: 384 MiB, not the 16 GiB
  // of --memory_gib=16.
  EXPECT_TRUE(absl::StrContains(daemon->Log(),
                                "device memory: 384 MiB per device instead of --memory_gib=16 "
                                "(16384 MiB), bounded by the host memory limit (384 MiB, three "
                                "quarters of the cgroup memory limit (512 MiB"))
      << daemon->Log();
  EXPECT_TRUE(absl::StrContains(daemon->Log(), "384 MiB each, 384 MiB of host memory for all"))
      << daemon->Log();

  // 1 GiB, filled, in a 512 MiB container: refused, not npud killed.
  {
    auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", std::to_string(1024 * kMiB)},
                                      {"NPUD_ADDRESS=" + daemon->address()});
    ASSERT_TRUE(client.ok()) << client.status();
    EXPECT_EQ((*client)->ReadLine(absl::Seconds(60)), "");
    (*client)->CloseStdin();
    EXPECT_EQ((*client)->Wait(), 3) << "aclrtMalloc of 1 GiB was not refused\n" << daemon->Log();
  }
  ASSERT_TRUE(daemon->Alive()) << daemon->Log();
  // Within the limit, npud still serves.
  auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", std::to_string(64 * kMiB)},
                                    {"NPUD_ADDRESS=" + daemon->address()});
  ASSERT_TRUE(client.ok()) << client.status();
  EXPECT_TRUE(absl::StartsWith((*client)->ReadLine(absl::Seconds(60)), "ADDR")) << daemon->Log();
  (*client)->CloseStdin();
  EXPECT_EQ((*client)->Wait(), 0);
  const absl::Status stopped = daemon->Stop();
  EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon->Log();
}

}  // namespace
