// KernelHost against stand-in hosts (fake_kernel_host.cc): npud checks
// through /proc that a host really let go of memory it was told to unmap,
// and kills one that did not, rather than believing its acknowledgement.

#include "simdevice/executor/kernel_host.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "simdevice/device_memory.h"

namespace npud::sim {
namespace {

// A preferred base used only by this file.
constexpr uint64_t kBase = 0x340000000000ull;

class KernelHostTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto memory = DeviceMemory::Create(64 << 20, kBase);
    ASSERT_TRUE(memory.ok()) << memory.status();
    memory_ = *std::move(memory);
    auto address = memory_->Allocate(8192);
    ASSERT_TRUE(address.ok()) << address.status();
    auto block = memory_->Find(*address, 8192);
    ASSERT_TRUE(block.ok()) << block.status();
    block_ = *std::move(block);
  }

  std::shared_ptr<KernelHost> Start(const std::string& binary) {
    KernelHostConfig config;
    config.binary = binary;
    config.session_id = 7;
    config.unmap_timeout = absl::Seconds(5);
    std::vector<DescribedBinary> described;
    auto host = KernelHost::Start(config, {}, &described);
    EXPECT_TRUE(host.ok()) << host.status();
    return host.ok() ? *host : nullptr;
  }

  HostGrant Grant() const {
    HostGrant grant;
    grant.address = block_->address();
    grant.size = 8192;
    grant.fd = block_->fd();
    grant.source = reinterpret_cast<uintptr_t>(block_.get());
    return grant;
  }

  std::unique_ptr<DeviceMemory> memory_;
  DeviceMemory::BlockRef block_;
};

TEST_F(KernelHostTest, AHostThatUnmapsStays) {
  std::shared_ptr<KernelHost> host = Start(HONEST_HOST);
  ASSERT_NE(host, nullptr);
  host->SyncGrants({Grant()});
  host->SyncGrants({});
  EXPECT_TRUE(host->alive());
  // And again: map, then revoke by range.
  host->SyncGrants({Grant()});
  host->Revoke(block_->address() + 4096, 1);
  EXPECT_TRUE(host->alive());
}

TEST_F(KernelHostTest, AHostThatKeepsAnUnmappedGrantMappedIsKilled) {
  std::shared_ptr<KernelHost> host = Start(HOST_KEEPING_MAPPINGS);
  ASSERT_NE(host, nullptr);
  host->SyncGrants({Grant()});
  EXPECT_TRUE(host->alive());
  host->SyncGrants({});
  EXPECT_FALSE(host->alive());
}

TEST_F(KernelHostTest, AHostThatKeepsTheMemoryFileIsKilled) {
  std::shared_ptr<KernelHost> host = Start(HOST_KEEPING_DESCRIPTORS);
  ASSERT_NE(host, nullptr);
  host->SyncGrants({Grant()});
  EXPECT_TRUE(host->alive());
  host->Revoke(block_->address(), 8192);
  EXPECT_FALSE(host->alive());
}

}  // namespace
}  // namespace npud::sim
