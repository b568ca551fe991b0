// IpcRegistry on its own: keys, allow-lists, unexport, revocation when the
// exporter ends, and that a key is bound to the daemon instance.

#include "daemon/ipc_registry.h"

#include <memory>
#include <string>

#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "simdevice/device_set.h"

namespace npud::daemon {
namespace {

constexpr uint64_t kOwner = 1;
constexpr uint64_t kOther = 2;

class IpcRegistryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sim::DeviceSet::Options options;
    options.device_count = 1;
    options.device.hbm_bytes = 64ull << 20;
    options.scheduler_threads = 1;
    auto devices = sim::DeviceSet::Create(options);
    ASSERT_TRUE(devices.ok()) << devices.status();
    devices_ = *std::move(devices);
    auto address = devices_->Get(0).value()->memory().Allocate(8192);
    ASSERT_TRUE(address.ok());
    address_ = *address;
  }
  sim::DeviceRange Range() { return *devices_->Resolve(address_, 8192); }

  std::unique_ptr<sim::DeviceSet> devices_;
  uint64_t address_ = 0;
  IpcRegistry ipc_{0x1234};
};

TEST_F(IpcRegistryTest, AllowListsDecideWhoImports) {
  const std::string key = ipc_.ExportMemory(kOwner, Range(), /*check_pid=*/true);
  EXPECT_EQ(ToAclCode(ipc_.ImportMemory(key, 77).status()), kRtNoPermission);
  ASSERT_TRUE(ipc_.SetImportPids(kOwner, key, {77, 78}).ok());
  auto imported = ipc_.ImportMemory(key, 77);
  ASSERT_TRUE(imported.ok()) << imported.status();
  EXPECT_EQ((*imported)->address(), address_);
  EXPECT_TRUE((*imported)->Contains(address_ + 100, 200));
  EXPECT_FALSE((*imported)->Contains(address_ + 8000, 200));
  // Only the exporter sets the list.
  EXPECT_EQ(ToAclCode(ipc_.SetImportPids(kOther, key, {79})), kRtParamInvalid);
  EXPECT_EQ(ToAclCode(ipc_.ImportMemory(key, 79).status()), kRtNoPermission);
}

TEST_F(IpcRegistryTest, KeysWithoutPidCheckOpenToAnyone) {
  const std::string key = ipc_.ExportMemory(kOwner, Range(), /*check_pid=*/false);
  EXPECT_TRUE(ipc_.ImportMemory(key, 12345).ok());
}

TEST_F(IpcRegistryTest, UnexportKeepsImportersRevocationDoesNot) {
  const std::string key = ipc_.ExportMemory(kOwner, Range(), false);
  auto imported = ipc_.ImportMemory(key, 5);
  ASSERT_TRUE(imported.ok());
  EXPECT_TRUE(absl::IsNotFound(ipc_.Unexport(kOther, key)));
  ASSERT_TRUE(ipc_.Unexport(kOwner, key).ok());
  EXPECT_EQ(ToAclCode(ipc_.ImportMemory(key, 5).status()), kRtParamInvalid);
  EXPECT_TRUE((*imported)->Range(address_, 16).ok());  // unexport: importers keep it

  const std::string second = ipc_.ExportMemory(kOwner, Range(), false);
  auto again = ipc_.ImportMemory(second, 5);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(ipc_.exports_of(kOwner), 1u);
  ipc_.RevokeAll(kOwner);  // the exporter ended
  EXPECT_EQ(ipc_.exports_of(kOwner), 0u);
  EXPECT_EQ(ToAclCode((*again)->Range(address_, 16).status()), kRtIpcError);
  EXPECT_EQ(ToAclCode((*imported)->Range(address_, 16).status()), kRtIpcError);
}

TEST_F(IpcRegistryTest, KeysBelongToOneDaemonInstance) {
  const std::string key = ipc_.ExportMemory(kOwner, Range(), false);
  IpcRegistry other_daemon(0x9999);
  EXPECT_EQ(ToAclCode(other_daemon.ImportMemory(key, 5).status()), kRtParamInvalid);
  EXPECT_NE(key.find("1234"), std::string::npos);
}

TEST_F(IpcRegistryTest, EventsAreSharedUnderOneKeyUntilTheOwnerEnds) {
  auto event = std::make_shared<sim::Event>(0, 1, 0x40);
  const std::string key = ipc_.ExportEvent(kOwner, event);
  EXPECT_EQ(ipc_.ExportEvent(kOwner, event), key);  // one key per event
  auto opened = ipc_.OpenEvent(key);
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(opened->get(), event.get());
  ipc_.RevokeAll(kOwner);
  EXPECT_FALSE(ipc_.OpenEvent(key).ok());
}

TEST_F(IpcRegistryTest, NotifyAllowListsAreSetThroughTheNotify) {
  auto notify = std::make_shared<sim::Notify>(0, 3);
  EXPECT_EQ(ToAclCode(ipc_.SetNotifyPids(kOwner, notify, {8})), kRtParamInvalid);  // not exported
  const std::string key = ipc_.ExportNotify(kOwner, notify, /*check_pid=*/true);
  EXPECT_EQ(ToAclCode(ipc_.ImportNotify(key, 8).status()), kRtNoPermission);
  ASSERT_TRUE(ipc_.SetNotifyPids(kOwner, notify, {8}).ok());
  EXPECT_TRUE(ipc_.ImportNotify(key, 8).ok());
}

}  // namespace
}  // namespace npud::daemon
