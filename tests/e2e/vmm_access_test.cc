// Access to mapped physical memory: aclrtMemMapNoAccess maps it unusable —
// copies are refused and kernels of a kernel host cannot reach it — until
// aclrtMemSetAccess grants access, and ACL_RT_MEM_ACCESS_FLAGS_NONE takes it
// away again.

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr size_t kGranularity = size_t{2} << 20;
constexpr uint32_t kCount = 1024;

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
  struct {
    void* x;
    void* y;
    void* z;
    uint32_t n;
  } args{inputs, inputs, va_, kCount};
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
