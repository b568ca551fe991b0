// The cgroup memory limit reader (daemon/host_memory_limit.h) against
// directories of fake /proc and /sys files laid out as the kernel shows
// them: cgroup v2 inside a container's namespace and on a host path with a
// limited ancestor, cgroup v1 (a container's view of its own group, as on a
// hybrid layout where v2 has no memory controller), and groups without a
// limit; then the default host memory limit it leads to, and the device
// memory each device advertises under it.

#include "daemon/host_memory_limit.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace npud::daemon {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

class CgroupMemoryLimitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/npud-cgroup-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    root_ = dir;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  // Writes `text` to `path` below the fake root, making its directories.
  void Write(const std::string& path, const std::string& text) {
    const std::filesystem::path file = root_ + path;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
  }

  std::string root_;
};

constexpr char kV2Mount[] =
    "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
    "rw,nsdelegate,memory_recursiveprot\n";

TEST_F(CgroupMemoryLimitTest, V2InsideAContainersNamespace) {
  Write("/proc/self/cgroup", "0::/\n");
  Write("/proc/self/mountinfo", std::string("22 1 0:21 / / rw - overlay overlay rw\n") + kV2Mount);
  Write("/sys/fs/cgroup/memory.max", "536870912\n");
  const auto limit = ReadCgroupMemoryLimit(root_);
  ASSERT_TRUE(limit.has_value());
  EXPECT_EQ(limit->bytes, 512 * kMiB);
  EXPECT_EQ(limit->file, "/sys/fs/cgroup/memory.max");
}

TEST_F(CgroupMemoryLimitTest, V2TheLowestLimitOnThePathBinds) {
  Write("/proc/self/cgroup", "0::/kubepods.slice/pod1.slice/ctr.scope\n");
  Write("/proc/self/mountinfo", kV2Mount);
  Write("/sys/fs/cgroup/kubepods.slice/memory.max", "max\n");
  Write("/sys/fs/cgroup/kubepods.slice/pod1.slice/memory.max", "1073741824\n");
  Write("/sys/fs/cgroup/kubepods.slice/pod1.slice/ctr.scope/memory.max", "max\n");
  const auto limit = ReadCgroupMemoryLimit(root_);
  ASSERT_TRUE(limit.has_value());
  EXPECT_EQ(limit->bytes, 1024 * kMiB);
  EXPECT_EQ(limit->file, "/sys/fs/cgroup/kubepods.slice/pod1.slice/memory.max");
}

TEST_F(CgroupMemoryLimitTest, V2MaxIsNoLimit) {
  Write("/proc/self/cgroup", "0::/user.slice\n");
  Write("/proc/self/mountinfo", kV2Mount);
  Write("/sys/fs/cgroup/user.slice/memory.max", "max\n");
  EXPECT_FALSE(ReadCgroupMemoryLimit(root_).has_value());
}

// podman or Docker on cgroup v1 (and this project's CI machines, whose v2
// hierarchy has no memory controller): the container sees its own group
// mounted as the top of the memory hierarchy.
TEST_F(CgroupMemoryLimitTest, V1HybridContainerView) {
  Write("/proc/self/cgroup",
        "5:devices:/libpod_parent/libpod-abc\n4:memory:/libpod_parent/libpod-abc\n"
        "1:cpu,cpuacct:/libpod_parent/libpod-abc\n0::/libpod_parent/libpod-abc\n");
  Write("/proc/self/mountinfo",
        "31 23 0:28 / /sys/fs/cgroup ro - tmpfs tmpfs ro,mode=755\n"
        "35 31 0:32 /libpod_parent/libpod-abc /sys/fs/cgroup/memory ro - cgroup cgroup "
        "rw,memory\n"
        "36 31 0:33 /libpod_parent/libpod-abc /sys/fs/cgroup/cpu,cpuacct ro - cgroup cgroup "
        "rw,cpu,cpuacct\n"
        "41 31 0:38 / /sys/fs/cgroup/unified ro - cgroup2 cgroup2 rw\n");
  Write("/sys/fs/cgroup/memory/memory.limit_in_bytes", "268435456\n");
  Write("/sys/fs/cgroup/cpu,cpuacct/memory.limit_in_bytes", "1\n");  // not the memory controller
  Write("/sys/fs/cgroup/unified/cgroup.procs", "1\n");               // v2 without memory.max
  const auto limit = ReadCgroupMemoryLimit(root_);
  ASSERT_TRUE(limit.has_value());
  EXPECT_EQ(limit->bytes, 256 * kMiB);
  EXPECT_EQ(limit->file, "/sys/fs/cgroup/memory/memory.limit_in_bytes");
}

TEST_F(CgroupMemoryLimitTest, V1UnlimitedIsAHugeNumber) {
  Write("/proc/self/cgroup", "4:memory:/user/1000\n");
  Write("/proc/self/mountinfo",
        "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
  Write("/sys/fs/cgroup/memory/user/1000/memory.limit_in_bytes", "9223372036854771712\n");
  Write("/sys/fs/cgroup/memory/user/memory.limit_in_bytes", "9223372036854771712\n");
  Write("/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
  EXPECT_FALSE(ReadCgroupMemoryLimit(root_).has_value());
}

TEST_F(CgroupMemoryLimitTest, NoCgroupFilesNoLimit) {
  EXPECT_FALSE(ReadCgroupMemoryLimit(root_).has_value());
}

TEST(DefaultHostMemoryLimitTest, ThreeQuartersOfTheLowerOfRamAndTheCgroupLimit) {
  const uint64_t ram = 16384 * kMiB;
  const HostMemoryDefault host = DefaultHostMemoryLimit(ram, std::nullopt);
  EXPECT_EQ(host.bytes, 12288 * kMiB);
  EXPECT_EQ(host.source, "this host's RAM (16384 MiB)");

  const HostMemoryDefault limited =
      DefaultHostMemoryLimit(ram, CgroupMemoryLimit{512 * kMiB, "/sys/fs/cgroup/memory.max"});
  EXPECT_EQ(limited.bytes, 384 * kMiB);
  EXPECT_EQ(limited.source, "the cgroup memory limit (512 MiB, /sys/fs/cgroup/memory.max)");

  // A limit above the RAM does not bind: the RAM does.
  EXPECT_EQ(DefaultHostMemoryLimit(ram, CgroupMemoryLimit{2 * ram, "x"}).bytes, 12288 * kMiB);
}

// The DaemonSet's case: a 16 GiB container limit, three quarters of it the
// host memory limit, and --memory_gib=64 asked for each device.
TEST(BoundDeviceMemoryTest, ACgroupLimitBoundsTheAdvertisedMemory) {
  const uint64_t gib = 1024 * kMiB;
  const CgroupMemoryLimit cgroup{16 * gib, "/sys/fs/cgroup/memory.max"};
  const AdvertisedDeviceMemory bounded = BoundDeviceMemory(
      64 * gib, 12 * gib, "three quarters of the cgroup memory limit (16384 MiB, x)", cgroup);
  EXPECT_EQ(bounded.bytes, 12 * gib);
  EXPECT_EQ(bounded.reason,
            "the host memory limit (12288 MiB, three quarters of the cgroup memory limit "
            "(16384 MiB, x))");
  // A request within the bound stands, and says nothing.
  const AdvertisedDeviceMemory within = BoundDeviceMemory(8 * gib, 12 * gib, "y", cgroup);
  EXPECT_EQ(within.bytes, 8 * gib);
  EXPECT_EQ(within.reason, "");
}

// --host_memory_limit_mib above the cgroup's limit: the cgroup's binds.
TEST(BoundDeviceMemoryTest, TheCgroupLimitWhenTheHostLimitIsAboveIt) {
  const CgroupMemoryLimit cgroup{(512 * kMiB) + 12345,
                                 "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
  const AdvertisedDeviceMemory bounded =
      BoundDeviceMemory(uint64_t{64} << 30, 2048 * kMiB, "--host_memory_limit_mib", cgroup);
  EXPECT_EQ(bounded.bytes, 512 * kMiB);  // whole MiB
  EXPECT_EQ(bounded.reason,
            "npud's cgroup memory limit (512 MiB, /sys/fs/cgroup/memory/memory.limit_in_bytes)");
}

// Without a cgroup limit the request stands even above the host memory
// limit: device memory is reserved lazily (README.md).
TEST(BoundDeviceMemoryTest, NoCgroupLimitTheRequestStands) {
  const AdvertisedDeviceMemory free =
      BoundDeviceMemory(uint64_t{64} << 30, 256 * kMiB, "--host_memory_limit_mib", std::nullopt);
  EXPECT_EQ(free.bytes, uint64_t{64} << 30);
  EXPECT_EQ(free.reason, "");
}

}  // namespace
}  // namespace npud::daemon
