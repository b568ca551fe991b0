// The built-in tasks end to end: aclrtReduceAsync and aclrtRandomNumAsync
// queued on streams of a real npud, their results read back, and bad
// arguments answered with CANN's codes.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

class BuiltinTaskTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
};

// aclrtReduceAsync: dst = dst op src per element, ordered on its stream;
// bad arguments get CANN's codes.
TEST_F(BuiltinTaskTest, ReduceAsyncCombinesIntoTheDestination) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  constexpr size_t kCount = 1000;
  constexpr size_t kBytes = kCount * sizeof(int32_t);
  void* dst = nullptr;
  void* src = nullptr;
  ASSERT_EQ(aclrtMalloc(&dst, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&src, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<int32_t> a(kCount), b(kCount), out(kCount);
  for (size_t i = 0; i < kCount; ++i) {
    a[i] = static_cast<int32_t>(i);
    b[i] = static_cast<int32_t>(kCount - 2 * i);
  }
  ASSERT_EQ(aclrtMemcpyAsync(dst, kBytes, a.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream), 0);
  ASSERT_EQ(aclrtMemcpyAsync(src, kBytes, b.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream), 0);
  ASSERT_EQ(aclrtReduceAsync(dst, src, kBytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, stream,
                             nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtReduceAsync(dst, src, kBytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX, ACL_INT32, stream,
                             nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(out.data(), kBytes, dst, kBytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (size_t i = 0; i < kCount; ++i) {
    ASSERT_EQ(out[i], std::max(a[i] + b[i], b[i])) << i;
  }

  EXPECT_EQ(aclrtReduceAsync(dst, src, kBytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_UINT8, stream,
                             nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtReduceAsync(dst, src, kBytes, static_cast<aclrtReduceKind>(3), ACL_INT32, stream,
                             nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtReduceAsync(dst, src, kBytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL, ACL_INT32,
                             stream, nullptr),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtReduceAsync(nullptr, src, kBytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32,
                             stream, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtReduceAsync(dst, a.data(), kBytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32,
                             stream, nullptr),
            ACL_ERROR_RT_PARAM_INVALID)
      << "host memory";
  // Past the allocation, or not whole elements: the stream's next
  // synchronize reports it, nothing is written.
  ASSERT_EQ(aclrtReduceAsync(dst, src, 2 * kBytes, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32,
                             stream, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(
      aclrtReduceAsync(dst, src, 6, ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_INT32, stream, nullptr),
      ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  std::vector<int32_t> again(kCount);
  ASSERT_EQ(aclrtMemcpy(again.data(), kBytes, dst, kBytes, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  EXPECT_EQ(again, out);
  EXPECT_EQ(aclrtFree(dst), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(src), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// aclrtRandomNumAsync through the ABI: the task info's fields as CANN
// programs fill them (values inline, sizes set), ordered on the stream.
TEST_F(BuiltinTaskTest, RandomNumAsyncFillsDeviceMemory) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  constexpr uint64_t kCount = 4096;
  void* out = nullptr;
  void* counter = nullptr;
  ASSERT_EQ(aclrtMalloc(&out, kCount * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&counter, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(counter, 16, 0, 16), ACL_SUCCESS);
  aclrtRandomNumTaskInfo info{};
  info.dataType = ACL_INT32;
  info.randomNumFuncParaInfo.funcType = ACL_RT_RANDOM_NUM_FUNC_TYPE_UNIFORM_DIS;
  auto set = [](aclrtRandomParaInfo* param, auto value) {
    std::memcpy(param->valueOrAddr, &value, sizeof(value));
    param->size = sizeof(value);
    param->isAddr = 0;
  };
  set(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.min, int32_t{1});
  set(&info.randomNumFuncParaInfo.paramInfo.uniformDisInfo.max, int32_t{101});
  set(&info.randomSeed, uint64_t{7});
  set(&info.randomNum, kCount);
  info.randomResultAddr = out;
  info.randomCounterAddr = counter;
  ASSERT_EQ(aclrtRandomNumAsync(&info, stream, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  std::vector<int32_t> values(kCount);
  ASSERT_EQ(aclrtMemcpy(values.data(), kCount * 4, out, kCount * 4, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  int distinct = 0;
  std::vector<bool> seen(102);
  for (int32_t v : values) {
    ASSERT_GE(v, 1);
    ASSERT_LE(v, 100);
    distinct += !seen[v];
    seen[v] = true;
  }
  EXPECT_EQ(distinct, 100);
  uint64_t advanced[2] = {};
  ASSERT_EQ(aclrtMemcpy(advanced, 16, counter, 16, ACL_MEMCPY_DEVICE_TO_HOST), 0);
  EXPECT_EQ(advanced[0], kCount * 2 / 4) << "two words per 64-bit draw, four per block";

  EXPECT_EQ(aclrtRandomNumAsync(nullptr, stream, nullptr), ACL_ERROR_INVALID_PARAM);
  aclrtRandomNumTaskInfo bad = info;
  bad.dataType = ACL_INT8;
  EXPECT_EQ(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  bad = info;
  bad.randomNum.isAddr = 1;
  EXPECT_EQ(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  bad = info;
  set(&bad.randomNum, kCount * 2);  // past the result's memory
  ASSERT_EQ(aclrtRandomNumAsync(&bad, stream, nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtFree(out), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(counter), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

}  // namespace
