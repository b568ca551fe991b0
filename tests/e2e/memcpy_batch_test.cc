// aclrtMemcpyBatch and its variants against a real npud: round trips of
// several buffers in one call, each variant, and the checks that name the
// bad copy in failIndex before anything moves.

#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr size_t kCopies = 3;
constexpr size_t kWords[kCopies] = {4, 7, 11};

aclrtMemcpyBatchAttr Attr(aclrtMemLocationType dst, aclrtMemLocationType src) {
  aclrtMemcpyBatchAttr attr{};
  attr.dstLoc = {0, dst};
  attr.srcLoc = {0, src};
  return attr;
}

class MemcpyBatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    for (size_t i = 0; i < kCopies; ++i) {
      sizes_[i] = kWords[i] * sizeof(uint32_t);
      ASSERT_EQ(aclrtMallocHost(&host_[i], sizes_[i]), ACL_SUCCESS);
      ASSERT_EQ(aclrtMalloc(&device_[i], sizes_[i], ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
  }
  void TearDown() override {
    for (size_t i = 0; i < kCopies; ++i) {
      EXPECT_EQ(aclrtFreeHost(host_[i]), ACL_SUCCESS);
      EXPECT_EQ(aclrtFree(device_[i]), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }

  void Fill(uint32_t seed) {
    for (size_t i = 0; i < kCopies; ++i) {
      auto* words = static_cast<uint32_t*>(host_[i]);
      for (size_t w = 0; w < kWords[i]; ++w) words[w] = seed * 1000 + i * 100 + w;
    }
  }
  void ExpectFilled(uint32_t seed) {
    for (size_t i = 0; i < kCopies; ++i) {
      const auto* words = static_cast<const uint32_t*>(host_[i]);
      for (size_t w = 0; w < kWords[i]; ++w) {
        ASSERT_EQ(words[w], seed * 1000 + i * 100 + w) << "copy " << i << " word " << w;
      }
    }
  }
  void Clear() {
    for (size_t i = 0; i < kCopies; ++i) std::memset(host_[i], 0, sizes_[i]);
  }

  aclrtStream stream_ = nullptr;
  void* host_[kCopies] = {};
  void* device_[kCopies] = {};
  size_t sizes_[kCopies] = {};
};

TEST_F(MemcpyBatchTest, EveryVariantRoundTrips) {
  aclrtMemcpyBatchAttr to_device = Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST);
  aclrtMemcpyBatchAttr to_host = Attr(ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_LOCATION_TYPE_DEVICE);
  size_t index = 0;
  for (int variant = 0; variant < 4; ++variant) {
    Fill(variant + 1);
    size_t fail = 0;
    aclError up = ACL_SUCCESS, down = ACL_SUCCESS;
    switch (variant) {
      case 0:
        up =
            aclrtMemcpyBatch(device_, sizes_, host_, sizes_, kCopies, &to_device, &index, 1, &fail);
        EXPECT_EQ(fail, SIZE_MAX);
        Clear();
        down =
            aclrtMemcpyBatch(host_, sizes_, device_, sizes_, kCopies, &to_host, &index, 1, &fail);
        break;
      case 1:
        up = aclrtMemcpyBatchV2(device_, sizes_, host_, sizes_, kCopies, &to_device, &index, 1);
        Clear();
        down = aclrtMemcpyBatchV2(host_, sizes_, device_, sizes_, kCopies, &to_host, &index, 1);
        break;
      case 2:
        up = aclrtMemcpyBatchAsync(device_, sizes_, host_, sizes_, kCopies, &to_device, &index, 1,
                                   &fail, stream_);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
        Clear();
        down = aclrtMemcpyBatchAsync(host_, sizes_, device_, sizes_, kCopies, &to_host, &index, 1,
                                     &fail, stream_);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
        EXPECT_EQ(fail, SIZE_MAX);
        break;
      default:
        up = aclrtMemcpyBatchAsyncV2(device_, sizes_, host_, sizes_, kCopies, &to_device, &index, 1,
                                     stream_);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
        Clear();
        down = aclrtMemcpyBatchAsyncV2(host_, sizes_, device_, sizes_, kCopies, &to_host, &index, 1,
                                       stream_);
        ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
        break;
    }
    ASSERT_EQ(up, ACL_SUCCESS) << "variant " << variant;
    ASSERT_EQ(down, ACL_SUCCESS) << "variant " << variant;
    ExpectFilled(variant + 1);
  }
}

TEST_F(MemcpyBatchTest, AttributesCoverRangesOfCopies) {
  // Copies 0 and 1 go up, copy 2 comes down: two attributes.
  Fill(7);
  ASSERT_EQ(aclrtMemcpy(device_[2], sizes_[2], host_[2], sizes_[2], ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  std::vector<uint32_t> back(kWords[2]);
  void* dsts[kCopies] = {device_[0], device_[1], back.data()};
  void* srcs[kCopies] = {host_[0], host_[1], device_[2]};
  aclrtMemcpyBatchAttr attrs[2] = {Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST),
                                   Attr(ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_LOCATION_TYPE_DEVICE)};
  size_t indexes[2] = {0, 2};
  size_t fail = 0;
  ASSERT_EQ(aclrtMemcpyBatch(dsts, sizes_, srcs, sizes_, kCopies, attrs, indexes, 2, &fail),
            ACL_SUCCESS);
  EXPECT_EQ(fail, SIZE_MAX);
  EXPECT_EQ(std::memcmp(back.data(), host_[2], sizes_[2]), 0);
  std::vector<uint32_t> first(kWords[1]);
  ASSERT_EQ(aclrtMemcpy(first.data(), sizes_[1], device_[1], sizes_[1], ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(first.data(), host_[1], sizes_[1]), 0);
}

TEST_F(MemcpyBatchTest, BadCopiesAreNamedAndNothingMoves) {
  Fill(3);
  ASSERT_EQ(aclrtMemset(device_[0], sizes_[0], 0, sizes_[0]), ACL_SUCCESS);
  aclrtMemcpyBatchAttr to_device = Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST);
  size_t index = 0;
  size_t fail = 0;

  // Copy 1's source is device memory, not host memory as the attribute says.
  void* srcs[kCopies] = {host_[0], device_[1], host_[2]};
  EXPECT_EQ(aclrtMemcpyBatch(device_, sizes_, srcs, sizes_, kCopies, &to_device, &index, 1, &fail),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(fail, 1u);
  uint32_t word = 1;
  ASSERT_EQ(aclrtMemcpy(&word, 4, device_[0], 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(word, 0u) << "copy 0 ran although copy 1 was bad";

  // Device to device does not batch.
  aclrtMemcpyBatchAttr d2d = Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_DEVICE);
  void* dsts[1] = {device_[1]};
  void* dev_srcs[1] = {device_[0]};
  EXPECT_EQ(aclrtMemcpyBatch(dsts, sizes_, dev_srcs, sizes_, 1, &d2d, &index, 1, &fail),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(fail, 0u);

  // The device id of a location counts.
  aclrtMemcpyBatchAttr other_device = to_device;
  other_device.dstLoc.id = 1;
  EXPECT_EQ(
      aclrtMemcpyBatch(device_, sizes_, host_, sizes_, kCopies, &other_device, &index, 1, &fail),
      ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(fail, 0u);

  // The ACL layer's checks.
  EXPECT_EQ(
      aclrtMemcpyBatch(device_, sizes_, host_, sizes_, kCopies, &to_device, &index, 1, nullptr),
      ACL_ERROR_INVALID_PARAM);
  size_t small[kCopies] = {sizes_[0], sizes_[1] - 4, sizes_[2]};
  EXPECT_EQ(aclrtMemcpyBatch(device_, small, host_, sizes_, kCopies, &to_device, &index, 1, &fail),
            ACL_ERROR_INVALID_PARAM);
  aclrtMemcpyBatchAttr reserved = to_device;
  reserved.rsv[3] = 1;
  EXPECT_EQ(aclrtMemcpyBatch(device_, sizes_, host_, sizes_, kCopies, &reserved, &index, 1, &fail),
            ACL_ERROR_INVALID_PARAM);
  size_t zeros[kCopies] = {0, 0, 0};
  fail = 0;
  EXPECT_EQ(aclrtMemcpyBatch(nullptr, zeros, nullptr, zeros, kCopies, nullptr, nullptr, 0, &fail),
            ACL_SUCCESS)
      << "nothing to copy: CANN checks nothing else";
  EXPECT_EQ(fail, SIZE_MAX);
  size_t indexes[2] = {0, 0};
  aclrtMemcpyBatchAttr two[2] = {to_device, to_device};
  EXPECT_EQ(aclrtMemcpyBatch(device_, sizes_, host_, sizes_, kCopies, two, indexes, 2, &fail),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemcpyBatch(device_, sizes_, host_, sizes_, kCopies, two, indexes, 0, &fail),
            ACL_ERROR_RT_PARAM_INVALID);
}

}  // namespace
