// Smaller runtime calls against a real npud: binaries from aclrtCreateBinary,
// the dynamic unified buffer of a function, copies that are asynchronous only
// from pinned memory, task-scheduler memory, host-map capabilities and trace
// records, each with the checks CANN makes.

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

// aclrtMemcpyAsyncWithCondition is deprecated in CANN's header; it is still
// part of the API, so it is tested.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

class RuntimeMiscTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS); }
  aclrtStream stream_ = nullptr;
};

TEST_F(RuntimeMiscTest, ABinaryDescriptorLoadsLikeLoadFromData) {
  std::ifstream file(E2E_KERNELS_PATH, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  aclrtBinary binary = aclrtCreateBinary(bytes.data(), bytes.size());
  ASSERT_NE(binary, nullptr);
  aclrtBinHandle handle = nullptr;
  ASSERT_EQ(aclrtBinaryLoad(binary, &handle), ACL_SUCCESS);
  aclrtFuncHandle add = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(handle, "add_float", &add), ACL_SUCCESS);

  // The loaded kernel runs: z = x + y.
  constexpr uint32_t kCount = 64;
  std::vector<float> x(kCount, 1.5f), y(kCount, 2.0f), z(kCount, 0.0f);
  void* buffers[3] = {};
  for (void*& buffer : buffers) {
    ASSERT_EQ(aclrtMalloc(&buffer, kCount * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtMemcpy(buffers[0], kCount * 4, x.data(), kCount * 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(buffers[1], kCount * 4, y.data(), kCount * 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  struct {
    void* x;
    void* y;
    void* z;
    uint32_t n;
  } args{buffers[0], buffers[1], buffers[2], kCount};
  ASSERT_EQ(
      aclrtLaunchKernelWithHostArgs(add, 2, stream_, nullptr, &args, sizeof(args), nullptr, 0),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(z.data(), kCount * 4, buffers[2], kCount * 4, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(z, std::vector<float>(kCount, 3.5f));
  for (void* buffer : buffers) EXPECT_EQ(aclrtFree(buffer), ACL_SUCCESS);

  size_t ubuf = 7;
  EXPECT_EQ(aclrtFunctionGetAvailDynUbufPerBlock(add, 0, &ubuf), ACL_SUCCESS);
  EXPECT_EQ(ubuf, 0u) << "no 910B kernel is a SIMT one";
  EXPECT_EQ(aclrtFunctionGetAvailDynUbufPerBlock(add, 1, &ubuf), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFunctionGetAvailDynUbufPerBlock(add, 0, nullptr), ACL_ERROR_INVALID_PARAM);
  int not_a_function = 0;
  EXPECT_NE(aclrtFunctionGetAvailDynUbufPerBlock(&not_a_function, 0, &ubuf), ACL_SUCCESS);

  EXPECT_EQ(aclrtBinaryUnLoad(handle), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyBinary(binary), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyBinary(binary), ACL_ERROR_RT_PARAM_INVALID) << "destroyed";
  EXPECT_EQ(aclrtCreateBinary(nullptr, 10), nullptr);
  aclrtBinary empty = aclrtCreateBinary(bytes.data(), 0);
  EXPECT_EQ(aclrtBinaryLoad(empty, &handle), ACL_ERROR_RT_PARAM_INVALID) << "0 bytes";
  EXPECT_EQ(aclrtBinaryLoad(empty, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyBinary(empty), ACL_SUCCESS);
}

TEST_F(RuntimeMiscTest, ACopyWithConditionIsAsynchronousOnlyFromPinnedMemory) {
  constexpr size_t kBytes = 4096;
  void* device = nullptr;
  ASSERT_EQ(aclrtMallocForTaskScheduler(&device, kBytes, ACL_MEM_MALLOC_HUGE_FIRST, nullptr),
            ACL_SUCCESS);
  std::vector<uint8_t> pageable(kBytes, 0x3c);
  ASSERT_EQ(aclrtMemcpyAsyncWithCondition(device, kBytes, pageable.data(), kBytes,
                                          ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  // Synchronous for pageable memory: the bytes are there without a wait.
  std::vector<uint8_t> back(kBytes, 0);
  ASSERT_EQ(aclrtMemcpyAsyncWithCondition(back.data(), kBytes, device, kBytes,
                                          ACL_MEMCPY_DEVICE_TO_HOST, stream_),
            ACL_SUCCESS);
  EXPECT_EQ(back, pageable);

  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, kBytes), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsyncWithCondition(pinned, kBytes, device, kBytes, ACL_MEMCPY_DEVICE_TO_HOST,
                                          stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(static_cast<uint8_t*>(pinned)[kBytes - 1], 0x3c);

  EXPECT_EQ(
      aclrtMemcpyAsyncWithCondition(nullptr, kBytes, pinned, 0, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
      ACL_SUCCESS)
      << "0 bytes succeed before any check";
  EXPECT_EQ(
      aclrtMemcpyAsyncWithCondition(nullptr, kBytes, pinned, 8, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
      ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemcpyAsyncWithCondition(device, kBytes, pinned, 8,
                                          static_cast<aclrtMemcpyKind>(9), stream_),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);

  void* unused = nullptr;
  EXPECT_EQ(aclrtMallocForTaskScheduler(&unused, 0, ACL_MEM_MALLOC_HUGE_FIRST, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMallocForTaskScheduler(nullptr, 8, ACL_MEM_MALLOC_HUGE_FIRST, nullptr),
            ACL_ERROR_INVALID_PARAM);
  aclrtMallocConfig no_attrs{nullptr, 0};
  EXPECT_EQ(aclrtMallocForTaskScheduler(&unused, 8, ACL_MEM_MALLOC_HUGE_FIRST, &no_attrs),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(RuntimeMiscTest, HostMapCapabilitiesSayWhereRegistrationWorks) {
  // Registration maps host memory for the AI cores where the daemon shares
  // this host's memory; the capability must say the same.
  void* page = nullptr;
  ASSERT_EQ(posix_memalign(&page, 4096, 4096), 0);
  void* mapped = nullptr;
  const bool registers =
      aclrtHostRegister(page, 4096, ACL_HOST_REGISTER_MAPPED, &mapped) == ACL_SUCCESS;
  if (registers) {
    EXPECT_EQ(aclrtHostUnregister(page), ACL_SUCCESS);
  }
  free(page);
  aclrtHostMemMapCapability capability = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
  ASSERT_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIV, &capability), ACL_SUCCESS);
  EXPECT_EQ(capability == ACL_RT_HOST_MEM_MAP_SUPPORTED, registers);
  ASSERT_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_DVPP, &capability), ACL_SUCCESS);
  EXPECT_EQ(capability, ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED) << "npud has no DVPP";
  EXPECT_EQ(aclrtHostMemMapCapabilities(0, static_cast<aclrtHacType>(10), &capability),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtHostMemMapCapabilities(999, ACL_RT_HAC_TYPE_AIC, &capability),
            ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST_F(RuntimeMiscTest, NonBlockingSectionsNestAndMustBeOpened) {
  EXPECT_EQ(aclrtNonBlockingLaunchEnd(stream_, 0), ACL_ERROR_RT_PARAM_INVALID) << "none open";
  ASSERT_EQ(aclrtNonBlockingLaunchBegin(stream_, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtNonBlockingLaunchBegin(stream_, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtNonBlockingLaunchEnd(stream_, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtNonBlockingLaunchEnd(stream_, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtNonBlockingLaunchEnd(stream_, 0), ACL_ERROR_RT_PARAM_INVALID);
  // The default stream has its own count.
  ASSERT_EQ(aclrtNonBlockingLaunchBegin(nullptr, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtNonBlockingLaunchEnd(stream_, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtNonBlockingLaunchEnd(nullptr, 0), ACL_SUCCESS);
  int not_a_stream = 0;
  EXPECT_EQ(aclrtNonBlockingLaunchBegin(&not_a_stream, 0), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(RuntimeMiscTest, TraceRecordsAreCheckedAsCannChecksThem) {
  struct __attribute__((packed)) {
    uint64_t id;
    uint64_t model_id;
    uint16_t tag;
  } record{1, 2, 3};
  static_assert(sizeof(record) == 18);
  EXPECT_EQ(aclrtProfTrace(&record, sizeof(record), stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtProfTrace(&record, 8, nullptr), ACL_SUCCESS) << "shorter records are padded";
  EXPECT_EQ(aclrtProfTrace(&record, 19, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtProfTrace(&record, 0, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtProfTrace(nullptr, 18, stream_), ACL_ERROR_INVALID_PARAM);
  int not_a_stream = 0;
  EXPECT_EQ(aclrtProfTrace(&record, 18, &not_a_stream), ACL_ERROR_RT_INVALID_HANDLE);
}

}  // namespace
