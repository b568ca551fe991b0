#include "simdevice/virtual_address_space.h"

#include <cstdint>
#include <cstring>
#include <memory>

#include "common/acl_status.h"
#include "gtest/gtest.h"
#include "simdevice/device_memory.h"
#include "simdevice/physical_memory.h"
#include "tests/simdevice/test_util.h"

namespace npud::sim {
namespace {

using ::npud::sim::testing::CodeOf;

constexpr uint64_t kGranule = PhysicalMemory::kGranularity;
// Preferred bases used only by this file.
constexpr uint64_t kSpaceBase = 0x340000000000ull;
constexpr uint64_t kDeviceBase = 0x348000000000ull;
constexpr uint64_t kOwner = 7;
constexpr uint64_t kOtherOwner = 8;

class VirtualAddressSpaceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto device = DeviceMemory::Create(64 * kGranule, kDeviceBase);
    ASSERT_TRUE(device.ok()) << device.status();
    device_ = *std::move(device);
    auto space = VirtualAddressSpace::Create(256 * kGranule, kSpaceBase);
    ASSERT_TRUE(space.ok()) << space.status();
    space_ = *std::move(space);
  }

  std::shared_ptr<PhysicalMemory> Physical(uint64_t size) {
    auto memory = PhysicalMemory::Create(device_.get(), 0, size);
    EXPECT_TRUE(memory.ok()) << memory.status();
    return memory.ok() ? *memory : nullptr;
  }

  // Reserves `size` bytes for `owner` and maps `memory` at its start.
  uint64_t ReserveAndMap(uint64_t owner, const std::shared_ptr<PhysicalMemory>& memory) {
    auto address = space_->Reserve(owner, memory->size(), 0, 0);
    EXPECT_TRUE(address.ok()) << address.status();
    if (!address.ok()) return 0;
    const absl::Status mapped = space_->Map(owner, *address, memory->size(), 0, memory);
    EXPECT_TRUE(mapped.ok()) << mapped;
    return *address;
  }

  // Destroyed in reverse: the space (its mappings hold physical memory
  // charged to the device) before the device.
  std::unique_ptr<DeviceMemory> device_;
  std::unique_ptr<VirtualAddressSpace> space_;
};

TEST_F(VirtualAddressSpaceTest, ReserveChecksSizeAndAlignmentAndHonoursFreeHints) {
  EXPECT_EQ(CodeOf(space_->Reserve(kOwner, 0, 0, 0)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(space_->Reserve(kOwner, kGranule + 4096, 0, 0)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(space_->Reserve(kOwner, kGranule, 3 * kGranule, 0)), kRtParamInvalid);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, space_->Reserve(kOwner, kGranule, 4 * kGranule, 0));
  EXPECT_EQ(a % (4 * kGranule), 0u);
  EXPECT_TRUE(space_->InRange(a));
  const uint64_t hint = space_->base() + 100 * kGranule;
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t b, space_->Reserve(kOwner, kGranule, 0, hint));
  EXPECT_EQ(b, hint);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t c, space_->Reserve(kOwner, kGranule, 0, hint));
  EXPECT_NE(c, hint) << "a taken hint is ignored";
  EXPECT_EQ(CodeOf(space_->Reserve(kOwner, 1024 * kGranule, 0, 0)), kRtMemoryAllocation);
}

TEST_F(VirtualAddressSpaceTest, TwoMappingsOfOnePhysicalMemoryShareBytes) {
  std::shared_ptr<PhysicalMemory> memory = Physical(2 * kGranule);
  const uint64_t a = ReserveAndMap(kOwner, memory);
  const uint64_t b = ReserveAndMap(kOtherOwner, memory);
  ASSERT_NE(a, 0u);
  ASSERT_NE(b, 0u);
  ASSERT_NE(a, b);
  SIM_ASSERT_OK_AND_ASSIGN(DeviceRange ra, space_->Find(kOwner, a + kGranule, 8));
  std::memcpy(ra.data(), "npud-vmm", 8);
  SIM_ASSERT_OK_AND_ASSIGN(DeviceRange rb, space_->Find(kOtherOwner, b + kGranule, 8));
  EXPECT_EQ(std::memcmp(rb.data(), "npud-vmm", 8), 0);
  EXPECT_EQ(rb.device_id, 0);
  EXPECT_EQ(rb.base, b);
}

TEST_F(VirtualAddressSpaceTest, FindRefusesOtherOwnersUnmappedAndOverlongRanges) {
  std::shared_ptr<PhysicalMemory> memory = Physical(kGranule);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, space_->Reserve(kOwner, 2 * kGranule, 0, 0));
  SIM_ASSERT_OK(space_->Map(kOwner, a, kGranule, 0, memory));
  SIM_EXPECT_OK(space_->Find(kOwner, a, kGranule).status());
  EXPECT_EQ(CodeOf(space_->Find(kOtherOwner, a, 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(space_->Find(kOwner, a + kGranule, 1)), kRtParamInvalid) << "not mapped";
  EXPECT_EQ(CodeOf(space_->Find(kOwner, a, kGranule + 1)), kRtParamInvalid) << "past the end";
  EXPECT_EQ(CodeOf(space_->Find(kOwner, space_->base() + 200 * kGranule, 1)), kRtParamInvalid);
}

TEST_F(VirtualAddressSpaceTest, MapChecksBoundsAndOverlap) {
  std::shared_ptr<PhysicalMemory> memory = Physical(2 * kGranule);
  SIM_ASSERT_OK_AND_ASSIGN(uint64_t a, space_->Reserve(kOwner, 4 * kGranule, 0, 0));
  EXPECT_EQ(CodeOf(space_->Map(kOwner, a, 3 * kGranule, 0, memory)), kRtParamInvalid)
      << "larger than the physical memory";
  EXPECT_EQ(CodeOf(space_->Map(kOwner, a, kGranule, 2 * kGranule, memory)), kRtParamInvalid)
      << "offset at the end";
  EXPECT_EQ(CodeOf(space_->Map(kOwner, a + 4096, kGranule, 0, memory)), kRtParamInvalid)
      << "unaligned address";
  EXPECT_EQ(CodeOf(space_->Map(kOwner, a + 3 * kGranule, 2 * kGranule, 0, memory)), kRtParamInvalid)
      << "runs past the reservation";
  EXPECT_EQ(CodeOf(space_->Map(kOtherOwner, a, kGranule, 0, memory)), kRtParamInvalid);
  SIM_ASSERT_OK(space_->Map(kOwner, a, 2 * kGranule, 0, memory));
  EXPECT_EQ(CodeOf(space_->Map(kOwner, a + kGranule, kGranule, 0, memory)), kRtParamInvalid)
      << "overlaps";
  SIM_EXPECT_OK(space_->Map(kOwner, a + 2 * kGranule, kGranule, kGranule, memory));
}

TEST_F(VirtualAddressSpaceTest, UnmappedRangeStaysUntilTheLastPinAndBlocksRemapping) {
  std::shared_ptr<PhysicalMemory> memory = Physical(kGranule);
  const uint64_t a = ReserveAndMap(kOwner, memory);
  SIM_ASSERT_OK_AND_ASSIGN(DeviceRange pinned, space_->Find(kOwner, a, 16));
  SIM_ASSERT_OK(space_->Unmap(kOwner, a));
  EXPECT_EQ(CodeOf(space_->Find(kOwner, a, 1)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(space_->Unmap(kOwner, a)), kRtParamInvalid) << "double unmap";
  // Queued work holding the pin can still touch the bytes ...
  std::memset(pinned.data(), 0x5a, 16);
  // ... and until it lets go the range cannot be mapped again.
  EXPECT_EQ(CodeOf(space_->Map(kOwner, a, kGranule, 0, memory)), kRtParamInvalid);
  pinned = DeviceRange();
  SIM_ASSERT_OK(space_->Map(kOwner, a, kGranule, 0, memory));
  SIM_ASSERT_OK_AND_ASSIGN(DeviceRange again, space_->Find(kOwner, a, 16));
  EXPECT_EQ(again.data()[15], 0x5a) << "same physical memory, same bytes";
}

TEST_F(VirtualAddressSpaceTest, ReleaseRequiresUnmapping) {
  std::shared_ptr<PhysicalMemory> memory = Physical(kGranule);
  const uint64_t a = ReserveAndMap(kOwner, memory);
  EXPECT_EQ(CodeOf(space_->Release(kOwner, a)), kRtParamInvalid);
  EXPECT_EQ(CodeOf(space_->Release(kOtherOwner, a)), kRtParamInvalid);
  SIM_ASSERT_OK(space_->Unmap(kOwner, a));
  SIM_ASSERT_OK(space_->Release(kOwner, a));
  EXPECT_EQ(CodeOf(space_->Release(kOwner, a)), kRtParamInvalid) << "double release";
}

TEST_F(VirtualAddressSpaceTest, PhysicalMemoryIsChargedUntilTheLastHolderLetsGo) {
  const uint64_t before = device_->used_bytes();
  std::shared_ptr<PhysicalMemory> memory = Physical(4 * kGranule);
  EXPECT_EQ(device_->used_bytes(), before + 4 * kGranule);
  const uint64_t a = ReserveAndMap(kOwner, memory);
  memory.reset();  // The handle goes; the mapping keeps the memory.
  EXPECT_EQ(device_->used_bytes(), before + 4 * kGranule);
  SIM_ASSERT_OK(space_->Unmap(kOwner, a));
  EXPECT_EQ(device_->used_bytes(), before);
  EXPECT_EQ(CodeOf(PhysicalMemory::Create(device_.get(), 0, 65 * kGranule)), kRtMemoryAllocation);
  EXPECT_EQ(CodeOf(PhysicalMemory::Create(device_.get(), 0, kGranule / 2)), kRtParamInvalid);
}

TEST_F(VirtualAddressSpaceTest, RevokedMemoryIsRefusedWithAnIpcError) {
  std::shared_ptr<PhysicalMemory> memory = Physical(kGranule);
  const uint64_t a = ReserveAndMap(kOwner, memory);
  memory->Revoke();
  EXPECT_EQ(CodeOf(space_->Find(kOwner, a, 1)), kRtIpcError);
}

TEST_F(VirtualAddressSpaceTest, ReleaseAllDropsAnOwnersReservationsAndMemory) {
  const uint64_t before = device_->used_bytes();
  ReserveAndMap(kOwner, Physical(kGranule));
  ReserveAndMap(kOwner, Physical(2 * kGranule));
  const uint64_t other = ReserveAndMap(kOtherOwner, Physical(kGranule));
  EXPECT_EQ(space_->UsageOf(kOwner).mapped_bytes, 3 * kGranule);
  space_->ReleaseAll(kOwner);
  EXPECT_EQ(space_->UsageOf(kOwner).reserved_bytes, 0u);
  EXPECT_EQ(device_->used_bytes(), before + kGranule) << "only the other owner's memory is left";
  SIM_EXPECT_OK(space_->Find(kOtherOwner, other, 1).status());
}

TEST_F(VirtualAddressSpaceTest, AccessFlagsAreRecordedPerMapping) {
  const uint64_t a = ReserveAndMap(kOwner, Physical(kGranule));
  SIM_ASSERT_OK(space_->SetAccess(kOwner, a, kGranule, VirtualAddressSpace::Access::kRead));
  SIM_ASSERT_OK_AND_ASSIGN(VirtualAddressSpace::AccessInfo info, space_->GetAccess(kOwner, a));
  EXPECT_EQ(info.access, VirtualAddressSpace::Access::kRead);
  EXPECT_EQ(info.device_id, 0);
  EXPECT_EQ(
      CodeOf(space_->SetAccess(kOwner, a, 2 * kGranule, VirtualAddressSpace::Access::kReadWrite)),
      kRtParamInvalid)
      << "part of the range is not mapped";
}

}  // namespace
}  // namespace npud::sim
