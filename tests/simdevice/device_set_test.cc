#include "simdevice/device_set.h"

#include <algorithm>
#include <memory>
#include <thread>

#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "simdevice/device.h"
#include "simdevice/device_memory.h"
#include "tests/simdevice/test_util.h"

namespace npud::sim {
namespace {

using ::npud::sim::testing::CodeOf;

constexpr uint64_t kMiB = 1ull << 20;
constexpr uint64_t kTiB = 1ull << 40;
constexpr uint64_t kPage = DeviceMemory::kPageSize;
// Where DeviceSet places device 0 (device_set.cc).
constexpr uint64_t kDefaultBase = 0x200000000000ull;

DeviceSet::Options SmallOptions(int devices = 2, int threads = 2) {
  DeviceSet::Options options;
  options.device_count = devices;
  options.device.hbm_bytes = 64 * kMiB;
  options.scheduler_threads = threads;
  return options;
}

class DeviceSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto set = DeviceSet::Create(SmallOptions());
    ASSERT_TRUE(set.ok()) << set.status();
    set_ = *std::move(set);
  }

  Device& device(int id) { return **set_->Get(id); }

  std::unique_ptr<DeviceSet> set_;
};

TEST_F(DeviceSetTest, CreateRejectsBadDeviceCounts) {
  EXPECT_EQ(CodeOf(DeviceSet::Create(SmallOptions(0))), kRtParamInvalid);
  EXPECT_EQ(CodeOf(DeviceSet::Create(SmallOptions(-1))), kRtParamInvalid);
  EXPECT_EQ(CodeOf(DeviceSet::Create(SmallOptions(65))), kRtParamInvalid);
  DeviceSet::Options no_memory = SmallOptions();
  no_memory.device.hbm_bytes = 0;
  EXPECT_EQ(CodeOf(DeviceSet::Create(no_memory)), kRtParamInvalid);
}

TEST_F(DeviceSetTest, GetReturnsDevicesByIdAndRejectsOthers) {
  ASSERT_EQ(set_->count(), 2);
  for (int id = 0; id < 2; ++id) {
    SIM_ASSERT_OK_AND_ASSIGN(Device * d, set_->Get(id));
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->id(), id);
    EXPECT_EQ(d->config().hbm_bytes, 64 * kMiB);
    EXPECT_EQ(d->memory().capacity(), 64 * kMiB);
  }
  EXPECT_NE(&device(0), &device(1));
  EXPECT_EQ(CodeOf(set_->Get(-1)), kRtInvalidDeviceId);
  EXPECT_EQ(CodeOf(set_->Get(2)), kRtInvalidDeviceId);
  EXPECT_EQ(CodeOf(set_->Get(1000)), kRtInvalidDeviceId);
}

TEST_F(DeviceSetTest, SchedulerUsesTheRequestedThreads) {
  EXPECT_EQ(set_->scheduler().workers(), 2);
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceSet> defaults,
                           DeviceSet::Create(SmallOptions(1, 0)));
  EXPECT_EQ(defaults->scheduler().workers(),
            std::max(4, static_cast<int>(std::thread::hardware_concurrency())));
}

TEST_F(DeviceSetTest, DevicesHaveDisjointRangesAtTheDefaultBase) {
  const DeviceMemory& m0 = device(0).memory();
  const DeviceMemory& m1 = device(1).memory();
  EXPECT_EQ(m0.base(), kDefaultBase);
  EXPECT_EQ(m1.base(), kDefaultBase + kTiB);  // one TiB stride for small devices
  EXPECT_LE(m0.base() + m0.span(), m1.base());

  EXPECT_EQ(set_->DeviceOfAddress(m0.base()), &device(0));
  EXPECT_EQ(set_->DeviceOfAddress(m0.base() + m0.span() - 1), &device(0));
  EXPECT_EQ(set_->DeviceOfAddress(m1.base() + kPage), &device(1));
  EXPECT_EQ(set_->DeviceOfAddress(m0.base() + m0.span()), nullptr);
  EXPECT_EQ(set_->DeviceOfAddress(m1.base() + m1.span()), nullptr);
  EXPECT_EQ(set_->DeviceOfAddress(0), nullptr);
  int on_stack = 0;
  EXPECT_EQ(set_->DeviceOfAddress(reinterpret_cast<uint64_t>(&on_stack)), nullptr);
}

TEST(DeviceSetSlotTest, EachAddressSlotMovesDevicesAndVirtualAddressesTogether) {
  uint64_t previous_end = 0;
  for (int slot = 0; slot < DeviceSet::kAddressSlots; ++slot) {
    DeviceSet::Options options = SmallOptions();
    options.address_slot = slot;
    SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceSet> set, DeviceSet::Create(options));
    const uint64_t base = kDefaultBase + static_cast<uint64_t>(slot) * 16 * kTiB;
    const DeviceMemory& m0 = (*set->Get(0))->memory();
    const DeviceMemory& m1 = (*set->Get(1))->memory();
    EXPECT_EQ(m0.base(), base) << "slot " << slot;
    EXPECT_EQ(m1.base(), base + kTiB) << "slot " << slot;
    EXPECT_EQ(set->vmm().base() + set->vmm().span(), base) << "slot " << slot;
    // Disjoint from the slot below: a client may use both daemons at once.
    EXPECT_GE(set->vmm().base(), previous_end) << "slot " << slot;
    previous_end = m1.base() + m1.span();
  }
}

TEST(DeviceSetSlotTest, RefusesSlotsOutsideTheRangeAndDevicesThatOverflowTheirSlot) {
  DeviceSet::Options options = SmallOptions();
  options.address_slot = -1;
  EXPECT_EQ(CodeOf(DeviceSet::Create(options)), kRtParamInvalid);
  options.address_slot = DeviceSet::kAddressSlots;
  EXPECT_EQ(CodeOf(DeviceSet::Create(options)), kRtParamInvalid);
  // 12 one-TiB devices fill slot 1; the 13th would reach slot 2's addresses.
  options = SmallOptions(13, 1);
  options.device.hbm_bytes = kMiB;
  options.address_slot = 1;
  EXPECT_EQ(CodeOf(DeviceSet::Create(options)), kRtParamInvalid);
  options.device_count = 12;
  EXPECT_TRUE(DeviceSet::Create(options).ok());
  // Slot 0 keeps its old reach of 64 devices.
  options.device_count = 13;
  options.address_slot = 0;
  EXPECT_TRUE(DeviceSet::Create(options).ok());
}

TEST_F(DeviceSetTest, VirtualAddressesSitRightBelowTheDevices) {
  // Far from where a client's host pointers live, like the devices: a
  // client tells device pointers from host pointers by these ranges.
  const VirtualAddressSpace& vmm = set_->vmm();
  EXPECT_EQ(vmm.base() + vmm.span(), kDefaultBase);
  EXPECT_GE(vmm.span(), kTiB);
  EXPECT_EQ(set_->DeviceOfAddress(vmm.base()), nullptr);
  EXPECT_FALSE(vmm.InRange(kDefaultBase));
  EXPECT_TRUE(vmm.InRange(kDefaultBase - 1));
}

TEST_F(DeviceSetTest, ResolveFindsTheDeviceOfAnAllocation) {
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a0, device(0).memory().Allocate(10000));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a1, device(1).memory().Allocate(kPage));

  SIM_ASSERT_OK_AND_ASSIGN(DeviceRange r0, set_->Resolve(a0 + 8, 16));
  EXPECT_EQ(r0.device_id, 0);
  EXPECT_EQ(r0.address, a0 + 8);
  EXPECT_EQ(r0.size, 16u);
  ASSERT_NE(r0.pin, nullptr);
  EXPECT_EQ(r0.base, a0);
  EXPECT_EQ(r0.data(), reinterpret_cast<uint8_t*>(a0 + 8));

  SIM_ASSERT_OK_AND_ASSIGN(DeviceRange r1, set_->Resolve(a1, kPage));
  EXPECT_EQ(r1.device_id, 1);
  EXPECT_EQ(r1.base, a1);
  EXPECT_EQ(r1.size, kPage);
}

TEST_F(DeviceSetTest, ResolveRejectsNonDeviceAndUnallocatedAddresses) {
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, device(1).memory().Allocate(100));
  int on_stack = 0;
  EXPECT_EQ(CodeOf(set_->Resolve(reinterpret_cast<uint64_t>(&on_stack), 4)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(set_->Resolve(0, 1)), kRtParamInvalid);
  const DeviceMemory& m0 = device(0).memory();
  EXPECT_EQ(CodeOf(set_->Resolve(m0.base() + m0.span(), 1)), kRtParamInvalid);  // between devices
  EXPECT_EQ(CodeOf(set_->Resolve(m0.base() + kPage, 1)), kRtParamInvalid);      // unallocated
  EXPECT_EQ(CodeOf(set_->Resolve(a, 101)), kRtParamInvalid);                    // past the end
  EXPECT_EQ(CodeOf(set_->Resolve(a + 100, 1)), kRtParamInvalid);
  SIM_ASSERT_OK(device(1).memory().Free(a));
  EXPECT_EQ(CodeOf(set_->Resolve(a, 1)), kRtParamInvalid);  // freed
}

TEST_F(DeviceSetTest, ResolvedRangePinsTheAllocation) {
  DeviceMemory& memory = device(0).memory();
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, memory.Allocate(3 * kPage));
  SIM_ASSERT_OK_AND_ASSIGN(DeviceRange range, set_->Resolve(a, 3 * kPage));
  SIM_ASSERT_OK(memory.Free(a));
  EXPECT_EQ(memory.used_bytes(), 3 * kPage);
  range.data()[3 * kPage - 1] = 7;  // still mapped
  range.pin.reset();
  EXPECT_EQ(memory.used_bytes(), 0u);
}

TEST_F(DeviceSetTest, SecondSetFallsBackToOtherAddresses) {
  SIM_ASSERT_OK_AND_ASSIGN(std::unique_ptr<DeviceSet> other, DeviceSet::Create(SmallOptions()));
  for (int id = 0; id < 2; ++id) {
    SIM_ASSERT_OK_AND_ASSIGN(Device * d, other->Get(id));
    EXPECT_NE(d->memory().base(), device(id).memory().base());
  }
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t mine, device(0).memory().Allocate(kPage));
  SIM_ASSERT_OK_AND_ASSIGN(Device * other0, other->Get(0));
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t theirs, other0->memory().Allocate(kPage));
  EXPECT_EQ(CodeOf(other->Resolve(mine, 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(set_->Resolve(theirs, 1)), kRtParamInvalid);
  SIM_ASSERT_OK_AND_ASSIGN(DeviceRange r, other->Resolve(theirs, kPage));
  EXPECT_EQ(r.device_id, 0);
}

}  // namespace
}  // namespace npud::sim
