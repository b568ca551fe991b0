// Physical memory and reserved addresses (aclrtMallocPhysical,
// aclrtReserveMemAddress, aclrtMapMem): what they are charged and report,
// handles shared in one process, bad input; and access to mappings:
// aclrtMemMapNoAccess maps memory unusable — copies are refused and kernels
// of a kernel host cannot reach it — until aclrtMemSetAccess grants access,
// and ACL_RT_MEM_ACCESS_FLAGS_NONE takes it away again.

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"
#include "tests/e2e/kernels/e2e_kernel_args.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr size_t kGranularity = size_t{2} << 20;
constexpr uint32_t kCount = 1024;

class PhysicalMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
};

aclrtPhysicalMemProp DeviceMemProp(uint32_t device) {
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  return prop;
}

TEST_F(PhysicalMemoryTest, PhysicalMemoryIsChargedAndDescribesItself) {
  aclrtPhysicalMemProp prop = DeviceMemProp(0);
  size_t granularity = 0;
  ASSERT_EQ(
      aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
      ACL_SUCCESS);
  EXPECT_EQ(granularity, size_t{2} << 20);
  size_t free0 = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total), ACL_SUCCESS);
  aclrtDrvMemHandle handle = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&handle, 8 * granularity, &prop, 0), ACL_SUCCESS);
  size_t free1 = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total), ACL_SUCCESS);
  EXPECT_EQ(free0 - free1, 8 * granularity);

  aclrtPhysicalMemProp back = {};
  ASSERT_EQ(aclrtMemGetAllocationPropertiesFromHandle(handle, &back), ACL_SUCCESS);
  EXPECT_EQ(back.memAttr, ACL_HBM_MEM_HUGE);
  EXPECT_EQ(back.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);

  void* va = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&va, 8 * granularity, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(va, 8 * granularity, 0, handle, 0), ACL_SUCCESS);
  aclrtMemAccessDesc desc = {};
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
  desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  ASSERT_EQ(aclrtMemSetAccess(va, 8 * granularity, &desc, 1), ACL_SUCCESS);
  aclrtMemLocation location = {};
  uint64_t flags = 0;
  ASSERT_EQ(aclrtMemGetAccess(va, &location, &flags), ACL_SUCCESS);
  EXPECT_EQ(flags, uint64_t{ACL_RT_MEM_ACCESS_FLAGS_READ});
  EXPECT_EQ(location.id, 0u);

  // A retained handle names the same memory: mapped again, it shows the
  // bytes written through the first mapping.
  ASSERT_EQ(aclrtMemset(va, 8 * granularity, 0x42, 8 * granularity), ACL_SUCCESS);
  aclrtDrvMemHandle retained = nullptr;
  ASSERT_EQ(aclrtMemRetainAllocationHandle(static_cast<char*>(va) + granularity, &retained),
            ACL_SUCCESS);
  void* again = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&again, 8 * granularity, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(again, 8 * granularity, 0, retained, 0), ACL_SUCCESS);
  unsigned char seen = 0;
  ASSERT_EQ(aclrtMemcpy(&seen, 1, static_cast<char*>(again) + 5, 1, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(seen, 0x42);
  ASSERT_EQ(aclrtUnmapMem(again), ACL_SUCCESS);
  ASSERT_EQ(aclrtReleaseMemAddress(again), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreePhysical(retained), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemRetainAllocationHandle(again, &retained), ACL_ERROR_RT_PARAM_INVALID);

  // Freeing the handle keeps the mapped memory until it is unmapped.
  ASSERT_EQ(aclrtFreePhysical(handle), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(va, 64, 7, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
  ASSERT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  size_t free2 = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total), ACL_SUCCESS);
  EXPECT_EQ(free2, free0);
}

TEST_F(PhysicalMemoryTest, PhysicalMemoryBadInput) {
  aclrtPhysicalMemProp prop = DeviceMemProp(0);
  aclrtDrvMemHandle handle = nullptr;
  size_t granularity = 0;
  EXPECT_EQ(
      aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &granularity),
      ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(
      aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocPhysical(&handle, 4096, &prop, 0), ACL_ERROR_RT_PARAM_INVALID)
      << "not a multiple of the granularity";
  aclrtPhysicalMemProp bad_device = DeviceMemProp(99);
  EXPECT_EQ(aclrtMallocPhysical(&handle, 2 << 20, &bad_device, 0), ACL_ERROR_RT_INVALID_DEVICEID);
  aclrtPhysicalMemProp host = prop;
  host.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  EXPECT_EQ(aclrtMallocPhysical(&handle, 2 << 20, &host, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  size_t free_before = 0, total = 0;
  ASSERT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free_before, &total), ACL_SUCCESS);
  EXPECT_EQ(aclrtMallocPhysical(&handle, (total / (2 << 20) + 1) * (2 << 20), &prop, 0),
            ACL_ERROR_RT_MEMORY_ALLOCATION);

  ASSERT_EQ(aclrtMallocPhysical(&handle, 2 << 20, &prop, 0), ACL_SUCCESS);
  void* va = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&va, 4 << 20, 0, nullptr, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtMapMem(va, 4 << 20, 0, handle, 0), ACL_ERROR_RT_PARAM_INVALID)
      << "larger than the physical memory";
  EXPECT_EQ(aclrtMapMem(va, 2 << 20, 0, reinterpret_cast<aclrtDrvMemHandle>(0x1234), 0),
            ACL_ERROR_RT_INVALID_HANDLE);
  int on_stack = 0;
  EXPECT_EQ(aclrtMapMem(&on_stack, 2 << 20, 0, handle, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtUnmapMem(va), ACL_ERROR_RT_PARAM_INVALID) << "nothing mapped";
  // Reserved but unmapped addresses are not usable memory.
  EXPECT_EQ(aclrtMemset(va, 16, 0, 16), ACL_ERROR_RT_PARAM_INVALID);
  uint64_t shareable = 0;
  EXPECT_EQ(aclrtMemExportToShareableHandle(handle, ACL_MEM_HANDLE_TYPE_NONE, 4, &shareable),
            ACL_ERROR_RT_PARAM_INVALID);
  aclrtDrvMemHandle imported = nullptr;
  EXPECT_EQ(aclrtMemImportFromShareableHandle(0x7777, 0, &imported), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(handle), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtFreePhysical(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(PhysicalMemoryTest, FabricHandleRoundTripInOneProcess) {
  aclrtPhysicalMemProp prop = DeviceMemProp(0);
  aclrtDrvMemHandle handle = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&handle, 2 << 20, &prop, 0), ACL_SUCCESS);
  aclrtMemFabricHandle fabric = {};
  ASSERT_EQ(aclrtMemExportToShareableHandleV2(handle, ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION,
                                              ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fabric),
            ACL_SUCCESS);
  aclrtDrvMemHandle imported = nullptr;
  ASSERT_EQ(
      aclrtMemImportFromShareableHandleV2(&fabric, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &imported),
      ACL_SUCCESS);
  // Both handles name the same bytes.
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&a, 2 << 20, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtReserveMemAddress(&b, 2 << 20, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(a, 2 << 20, 0, handle, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(b, 2 << 20, 0, imported, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(a, 2 << 20, 0x61, 2 << 20), ACL_SUCCESS);
  char seen[4] = {};
  ASSERT_EQ(aclrtMemcpy(seen, 4, static_cast<char*>(b) + 12345, 4, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(std::string(seen, 4), "aaaa");

  aclrtMemFabricHandle garbage = {};
  aclrtDrvMemHandle none = nullptr;
  EXPECT_EQ(
      aclrtMemImportFromShareableHandleV2(&garbage, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &none),
      ACL_ERROR_RT_PARAM_INVALID);
  for (void* va : {a, b}) {
    ASSERT_EQ(aclrtUnmapMem(va), ACL_SUCCESS);
    ASSERT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtFreePhysical(imported), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreePhysical(handle), ACL_SUCCESS);
}

class VmmAccessTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtPhysicalMemProp prop = {};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    ASSERT_EQ(aclrtMallocPhysical(&handle_, kGranularity, &prop, 0), ACL_SUCCESS);
    ASSERT_EQ(aclrtReserveMemAddress(&va_, kGranularity, 0, nullptr, 0), ACL_SUCCESS);
  }
  void TearDown() override {
    if (mapped_) {
      EXPECT_EQ(aclrtUnmapMem(va_), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtReleaseMemAddress(va_), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreePhysical(handle_), ACL_SUCCESS);
  }

  aclError SetAccess(aclrtMemAccessFlags flags) {
    aclrtMemAccessDesc desc = {};
    desc.flags = flags;
    desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    desc.location.id = 0;
    return aclrtMemSetAccess(va_, kGranularity, &desc, 1);
  }
  uint64_t AccessFlags() {
    aclrtMemLocation location = {};
    uint64_t flags = 99;
    EXPECT_EQ(aclrtMemGetAccess(va_, &location, &flags), ACL_SUCCESS);
    return flags;
  }

  aclrtDrvMemHandle handle_ = nullptr;
  void* va_ = nullptr;
  bool mapped_ = false;
};

TEST_F(VmmAccessTest, NoAccessMappingWaitsForSetAccess) {
  EXPECT_EQ(aclrtMemMapNoAccess(va_, 0, 0, handle_, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemMapNoAccess(va_, kGranularity, 0, handle_, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemMapNoAccess(nullptr, kGranularity, 0, handle_, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemMapNoAccess(va_, kGranularity, 0, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  ASSERT_EQ(aclrtMemMapNoAccess(va_, kGranularity, 0, handle_, 0), ACL_SUCCESS);
  mapped_ = true;
  EXPECT_EQ(AccessFlags(), uint64_t{ACL_RT_MEM_ACCESS_FLAGS_NONE});
  EXPECT_EQ(aclrtMemset(va_, 64, 1, 64), ACL_ERROR_RT_PARAM_INVALID);

  ASSERT_EQ(SetAccess(ACL_RT_MEM_ACCESS_FLAGS_READWRITE), ACL_SUCCESS);
  EXPECT_EQ(AccessFlags(), uint64_t{ACL_RT_MEM_ACCESS_FLAGS_READWRITE});
  ASSERT_EQ(aclrtMemset(va_, 64, 0x5A, 64), ACL_SUCCESS);
  unsigned char seen = 0;
  ASSERT_EQ(aclrtMemcpy(&seen, 1, static_cast<char*>(va_) + 63, 1, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(seen, 0x5A);

  // Taken away again.
  ASSERT_EQ(SetAccess(ACL_RT_MEM_ACCESS_FLAGS_NONE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(&seen, 1, va_, 1, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(VmmAccessTest, KernelsReachOnlyMemoryWithAccess) {
  if (npud::testing::DaemonEnvironment::daemon() == nullptr) {
    GTEST_SKIP() << "kernels in the test's own process see every mapping";
  }
  aclrtStream stream = nullptr;
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle add = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryLoadFromFile(E2E_KERNELS_PATH, nullptr, &binary), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryGetFunction(binary, "add_float", &add), ACL_SUCCESS);
  void* inputs = nullptr;
  ASSERT_EQ(aclrtMalloc(&inputs, kCount * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const std::vector<float> ones(kCount, 1.0f);
  ASSERT_EQ(aclrtMemcpy(inputs, kCount * sizeof(float), ones.data(), kCount * sizeof(float),
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  npud::testing::AddFloatArgs args{static_cast<float*>(inputs), static_cast<float*>(inputs),
                                   static_cast<float*>(va_), kCount};
  auto launch = [&] {
    EXPECT_EQ(
        aclrtLaunchKernelWithHostArgs(add, 1, stream, nullptr, &args, sizeof(args), nullptr, 0),
        ACL_SUCCESS);
    return aclrtSynchronizeStream(stream);
  };

  ASSERT_EQ(aclrtMemMapNoAccess(va_, kGranularity, 0, handle_, 0), ACL_SUCCESS);
  mapped_ = true;
  EXPECT_NE(launch(), ACL_SUCCESS) << "a kernel wrote into memory mapped without access";
  ASSERT_EQ(SetAccess(ACL_RT_MEM_ACCESS_FLAGS_READWRITE), ACL_SUCCESS);
  ASSERT_EQ(launch(), ACL_SUCCESS);
  std::vector<float> sums(kCount);
  ASSERT_EQ(aclrtMemcpy(sums.data(), kCount * sizeof(float), va_, kCount * sizeof(float),
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(sums.front(), 2.0f);
  EXPECT_EQ(sums.back(), 2.0f);

  EXPECT_EQ(aclrtFree(inputs), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
}

}  // namespace
