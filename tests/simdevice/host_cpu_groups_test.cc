// Kernel hosts' CPU groups (simdevice/executor/host_cpu_groups.h) against
// directories of fake /proc and cgroup files: when npud needs them (not in
// the root CPU group, v1 and v2), what it writes to prepare its group and to
// place a host, and the weights it writes. The real kernel's part is
// fair_share_test's WeightsShareTheCoresInACgroupOfNpudsOwn.

#include "simdevice/executor/host_cpu_groups.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace npud::sim {
namespace {

constexpr char kV1CpuMount[] =
    "33 25 0:29 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu\n";
constexpr char kV2Mount[] =
    "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
    "rw,nsdelegate\n";

class HostCpuGroupsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/npud-cpu-groups-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    root_ = dir;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  void Write(const std::string& path, const std::string& text) {
    const std::filesystem::path file = root_ + path;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }
  std::string Read(const std::string& path) {
    std::ifstream in(root_ + path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::string root_;
};

TEST_F(HostCpuGroupsTest, NoneInTheRootGroupOfV1) {
  Write("/proc/self/cgroup", "4:memory:/x\n2:cpu:/\n0::/\n");
  Write("/proc/self/mountinfo", std::string(kV1CpuMount) + kV2Mount);
  auto groups = HostCpuGroups::ForThisProcess(42, root_);
  ASSERT_TRUE(groups.ok()) << groups.status();
  EXPECT_EQ(*groups, nullptr);
}

TEST_F(HostCpuGroupsTest, NoneInTheRootGroupOfV2) {
  Write("/proc/self/cgroup", "0::/\n");
  Write("/proc/self/mountinfo", kV2Mount);
  Write("/sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory pids\n");
  auto groups = HostCpuGroups::ForThisProcess(42, root_);
  ASSERT_TRUE(groups.ok()) << groups.status();
  EXPECT_EQ(*groups, nullptr);
}

// A hybrid layout: the cpu controller is in v1, below a systemd unit's group.
TEST_F(HostCpuGroupsTest, V1GroupsBelowNpudsOwn) {
  Write("/proc/self/cgroup", "2:cpu:/system.slice/npud.service\n0::/system.slice/npud.service\n");
  Write("/proc/self/mountinfo", std::string(kV2Mount) + kV1CpuMount);
  Write("/sys/fs/cgroup/cpu/system.slice/npud.service/cpu.shares", "1024\n");
  auto groups = HostCpuGroups::ForThisProcess(42, root_);
  ASSERT_TRUE(groups.ok()) << groups.status();
  ASSERT_NE(*groups, nullptr);
  const std::string unit = "/sys/fs/cgroup/cpu/system.slice/npud.service";
  EXPECT_EQ((*groups)->directory(), root_ + unit);
  ASSERT_TRUE((*groups)->Place(4711, 3).ok());
  EXPECT_EQ(Read(unit + "/npud-kernel-host-4711/cpu.shares"), "3072");
  EXPECT_EQ(Read(unit + "/npud-kernel-host-4711/cgroup.procs"), "4711");
  // npud itself stays where it is on v1.
  EXPECT_FALSE(std::filesystem::exists(root_ + unit + "/npud"));
}

// v2 in a container: npud moves into a leaf, then enables cpu for children.
TEST_F(HostCpuGroupsTest, V2MovesNpudIntoALeafFirst) {
  Write("/proc/self/cgroup", "0::/\n");
  Write("/proc/self/mountinfo", kV2Mount);
  Write("/sys/fs/cgroup/cgroup.controllers", "cpu memory pids\n");
  Write("/sys/fs/cgroup/cpu.weight", "100\n");
  auto groups = HostCpuGroups::ForThisProcess(42, root_);
  ASSERT_TRUE(groups.ok()) << groups.status();
  ASSERT_NE(*groups, nullptr);
  EXPECT_EQ(Read("/sys/fs/cgroup/npud/cgroup.procs"), "42");
  EXPECT_EQ(Read("/sys/fs/cgroup/cgroup.subtree_control"), "+cpu");
  ASSERT_TRUE((*groups)->Place(4711, 0.5).ok());
  EXPECT_EQ(Read("/sys/fs/cgroup/npud-kernel-host-4711/cpu.weight"), "50");
  EXPECT_EQ(Read("/sys/fs/cgroup/npud-kernel-host-4711/cgroup.procs"), "4711");
}

TEST_F(HostCpuGroupsTest, V2WithoutTheCpuControllerIsAnError) {
  Write("/proc/self/cgroup", "0::/user.slice/session-1.scope\n");
  Write("/proc/self/mountinfo", kV2Mount);
  Write("/sys/fs/cgroup/user.slice/session-1.scope/cgroup.controllers", "memory pids\n");
  auto groups = HostCpuGroups::ForThisProcess(42, root_);
  EXPECT_EQ(groups.status().code(), absl::StatusCode::kFailedPrecondition) << groups.status();
}

TEST_F(HostCpuGroupsTest, AGroupThatIsNotThereIsNotDelegated) {
  Write("/proc/self/cgroup", "2:cpu:/gone\n");
  Write("/proc/self/mountinfo", kV1CpuMount);
  auto groups = HostCpuGroups::ForThisProcess(42, root_);
  EXPECT_EQ(groups.status().code(), absl::StatusCode::kPermissionDenied) << groups.status();
}

TEST(HostCpuSharesTest, WeightsScaleTheDefaultWithinTheKernelsRange) {
  EXPECT_EQ(HostCpuGroups::SharesFor(1, false), 1024u);
  EXPECT_EQ(HostCpuGroups::SharesFor(3, false), 3072u);
  EXPECT_EQ(HostCpuGroups::SharesFor(0.001, false), 2u);
  EXPECT_EQ(HostCpuGroups::SharesFor(1, true), 100u);
  EXPECT_EQ(HostCpuGroups::SharesFor(100, true), 10000u);
  EXPECT_EQ(HostCpuGroups::SharesFor(1000, true), 10000u);
  EXPECT_EQ(HostCpuGroups::SharesFor(0.001, true), 1u);
}

}  // namespace
}  // namespace npud::sim
