// Copies and cache operations whose addresses live in device memory,
// against a real npud: memcpy descriptors, base-address slots with offsets,
// cache maintenance descriptors, and aclrtCheckMemType.

#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr uint32_t kSentinel = 0xDEADBEEF;

class IndirectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (void* p : device_) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }
  void* Malloc(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    device_.push_back(p);
    return p;
  }
  std::vector<uint32_t> Read(const void* device, size_t words) {
    std::vector<uint32_t> host(words);
    EXPECT_EQ(aclrtMemcpy(host.data(), words * 4, device, words * 4, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return host;
  }

  aclrtStream stream_ = nullptr;
  std::vector<void*> device_;
};

TEST_F(IndirectTest, MemcpyDescriptorCopiesWhatItDescribes) {
  size_t size = 0;
  ASSERT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 32u);
  EXPECT_EQ(aclrtGetMemcpyDescSize(ACL_MEMCPY_HOST_TO_DEVICE, &size),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtGetMemcpyDescSize(static_cast<aclrtMemcpyKind>(8), &size),
            ACL_ERROR_INVALID_PARAM);

  constexpr size_t kWords = 1024;
  void* src = Malloc(kWords * 4);
  void* dst = Malloc(kWords * 4);
  void* desc = Malloc(size);
  std::vector<uint32_t> pattern(kWords);
  for (size_t i = 0; i < kWords; ++i) pattern[i] = static_cast<uint32_t>(i * 2654435761u);
  ASSERT_EQ(aclrtMemcpy(src, kWords * 4, pattern.data(), kWords * 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(dst, kWords * 4, 0, kWords * 4), ACL_SUCCESS);

  EXPECT_EQ(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_),
            ACL_ERROR_RT_PARAM_INVALID)
      << "a descriptor never set";
  ASSERT_EQ(
      aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, kWords * 4, nullptr),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(Read(dst, kWords), pattern);

  int config = 0;
  EXPECT_EQ(aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src, dst, 4, &config),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtSetMemcpyDesc(static_cast<char*>(desc) + 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, src,
                               dst, 4, nullptr),
            ACL_ERROR_RT_PARAM_INVALID)
      << "not 64-byte aligned";
  uint32_t host_word = 0;
  EXPECT_EQ(
      aclrtSetMemcpyDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, &host_word, dst, 4, nullptr),
      ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpyAsyncWithDesc(desc, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, nullptr),
            ACL_ERROR_INVALID_PARAM);
}

TEST_F(IndirectTest, OffsetCopiesFollowSlotsWrittenEarlierOnTheStream) {
  constexpr size_t kWords = 16;
  void* source = Malloc(kWords * 4);
  void* result = Malloc(kWords * 4);
  void* src_slot = Malloc(8);
  void* dst_slot = Malloc(8);
  std::vector<uint32_t> values(kWords);
  for (size_t i = 0; i < kWords; ++i) values[i] = 100 + static_cast<uint32_t>(i);
  ASSERT_EQ(aclrtMemcpy(source, kWords * 4, values.data(), kWords * 4, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemsetD32Async(result, kWords * 4, kSentinel, kWords, stream_), ACL_SUCCESS);
  // The slots are written by copies still queued on the stream.
  void* bases = nullptr;
  ASSERT_EQ(aclrtMallocHost(&bases, 16), ACL_SUCCESS);
  static_cast<void**>(bases)[0] = source;
  static_cast<void**>(bases)[1] = result;
  ASSERT_EQ(aclrtMemcpyAsync(src_slot, 8, bases, 8, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(dst_slot, 8, static_cast<void**>(bases) + 1, 8,
                             ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);

  // Words 3..8 of the source into words 5..10 of the result.
  ASSERT_EQ(aclrtMemcpyAsyncWithOffset(reinterpret_cast<void**>(dst_slot), kWords * 4, 20,
                                       const_cast<const void**>(reinterpret_cast<void**>(src_slot)),
                                       24, 12, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<uint32_t> got = Read(result, kWords);
  for (size_t i = 0; i < kWords; ++i) {
    const uint32_t want = (i >= 5 && i < 11) ? values[i - 2] : kSentinel;
    EXPECT_EQ(got[i], want) << "word " << i;
  }
  EXPECT_EQ(aclrtFreeHost(bases), ACL_SUCCESS);

  auto** dst = reinterpret_cast<void**>(dst_slot);
  auto** src = const_cast<const void**>(reinterpret_cast<void**>(src_slot));
  EXPECT_EQ(
      aclrtMemcpyAsyncWithOffset(dst, kWords * 4, 0, src, 0, 0, ACL_MEMCPY_HOST_TO_DEVICE, stream_),
      ACL_SUCCESS)
      << "nothing to copy";
  EXPECT_EQ(aclrtMemcpyAsyncWithOffset(dst, kWords * 4, 0, src, 4, 0, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                       stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpyAsyncWithOffset(dst, kWords * 4, 60, src, 8, 0,
                                       ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, stream_),
            ACL_ERROR_RT_PARAM_INVALID)
      << "past destMax";
}

TEST_F(IndirectTest, CacheDescriptors) {
  size_t size = 0;
  ASSERT_EQ(aclrtCmoGetDescSize(&size), ACL_SUCCESS);
  EXPECT_EQ(size, 32u);
  void* data = Malloc(4096);
  void* desc = Malloc(size);
  EXPECT_EQ(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, stream_, nullptr),
            ACL_ERROR_RT_PARAM_INVALID)
      << "a descriptor never set";
  ASSERT_EQ(aclrtCmoSetDesc(desc, data, 1024), ACL_SUCCESS);
  ASSERT_EQ(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, stream_, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  int reserve = 0;
  EXPECT_EQ(aclrtCmoAsyncWithDesc(desc, ACL_RT_CMO_TYPE_PREFETCH, stream_, &reserve),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCmoAsyncWithDesc(desc, static_cast<aclrtCmoType>(4), stream_, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  uint32_t host_word = 0;
  EXPECT_EQ(aclrtCmoSetDesc(desc, &host_word, 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCmoSetDesc(desc, data, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCmoGetDescSize(nullptr), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(IndirectTest, CheckMemTypeClassifiesEveryAddress) {
  void* a = Malloc(64);
  void* b = Malloc(4096);
  uint32_t host_word = 0;
  void* devices[2] = {a, b};
  uint32_t result = 7;
  ASSERT_EQ(aclrtCheckMemType(devices, 2, ACL_RT_MEM_TYPE_DEV, &result, 0), ACL_SUCCESS);
  EXPECT_EQ(result, 1u);
  void* mixed[2] = {a, &host_word};
  ASSERT_EQ(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV, &result, 0), ACL_SUCCESS);
  EXPECT_EQ(result, 0u);
  ASSERT_EQ(aclrtCheckMemType(devices, 2, ACL_RT_MEM_TYPE_DVPP, &result, 0), ACL_SUCCESS);
  EXPECT_EQ(result, 0u) << "npud has no DVPP memory";

  size_t granularity = 0;
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  ASSERT_EQ(
      aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity),
      ACL_SUCCESS);
  void* va = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&va, granularity, 0, nullptr, 0), ACL_SUCCESS);
  void* reserved[1] = {va};
  ASSERT_EQ(aclrtCheckMemType(reserved, 1, 0x20, &result, 0), ACL_SUCCESS);
  EXPECT_EQ(result, 1u);
  ASSERT_EQ(aclrtCheckMemType(reserved, 1, ACL_RT_MEM_TYPE_DEV, &result, 0), ACL_SUCCESS);
  EXPECT_EQ(result, 0u);
  EXPECT_EQ(aclrtReleaseMemAddress(va), ACL_SUCCESS);

  EXPECT_EQ(aclrtCheckMemType(devices, 2, ACL_RT_MEM_TYPE_DEV, &result, 1),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCheckMemType(devices, 0, ACL_RT_MEM_TYPE_DEV, &result, 0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCheckMemType(devices, 2, 0x1, &result, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtCheckMemType(nullptr, 2, ACL_RT_MEM_TYPE_DEV, &result, 0),
            ACL_ERROR_INVALID_PARAM);
}

}  // namespace
