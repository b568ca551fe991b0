// The float overflow status and saturation mode against a real npud:
// kernels whose arithmetic or half conversions overflow raise the status,
// reading it is ordered on the stream, resetting clears it; the mode and the
// per-stream switch and their checks. Also two device-state queries that
// came with it: aclrtMemGetAddressRange and aclrtNotifyBatchReset.

#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr size_t kStatusBytes = 64;

class OverflowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryLoadFromFile(E2E_KERNELS_PATH, nullptr, &binary_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryGetFunction(binary_, "add_float", &add_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryGetFunction(binary_, "to_half", &to_half_), ACL_SUCCESS);
    for (void** buffer : {&x_, &y_, &z_, &status_}) {
      ASSERT_EQ(aclrtMalloc(buffer, kBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    }
    ASSERT_EQ(aclrtResetOverflowStatus(stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (void* buffer : {x_, y_, z_, status_}) EXPECT_EQ(aclrtFree(buffer), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
  }

  void Fill(void* device, float value) {
    std::vector<float> host(kCount, value);
    ASSERT_EQ(aclrtMemcpy(device, kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
  }
  // z = x + y over kCount floats on 4 blocks.
  void Add(float x, float y) {
    Fill(x_, x);
    Fill(y_, y);
    struct {
      void* x;
      void* y;
      void* z;
      uint32_t n;
    } args{x_, y_, z_, kCount};
    ASSERT_EQ(
        aclrtLaunchKernelWithHostArgs(add_, 4, stream_, nullptr, &args, sizeof(args), nullptr, 0),
        ACL_SUCCESS);
  }
  void ToHalf(float x) {
    Fill(x_, x);
    struct {
      void* x;
      void* out;
      uint32_t n;
    } args{x_, z_, kCount};
    ASSERT_EQ(aclrtLaunchKernelWithHostArgs(to_half_, 1, stream_, nullptr, &args, sizeof(args),
                                            nullptr, 0),
              ACL_SUCCESS);
  }
  // The status word aclrtGetOverflowStatus writes, read back.
  uint32_t Status() {
    EXPECT_EQ(aclrtGetOverflowStatus(status_, kStatusBytes, stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    uint32_t words[kStatusBytes / 4] = {};
    EXPECT_EQ(aclrtMemcpy(words, sizeof(words), status_, kStatusBytes, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    for (size_t i = 1; i < kStatusBytes / 4; ++i) EXPECT_EQ(words[i], 0u) << i;
    return words[0];
  }

  static constexpr uint32_t kCount = 1024;
  static constexpr size_t kBytes = kCount * sizeof(float);
  aclrtStream stream_ = nullptr;
  aclrtBinHandle binary_ = nullptr;
  aclrtFuncHandle add_ = nullptr;
  aclrtFuncHandle to_half_ = nullptr;
  void* x_ = nullptr;
  void* y_ = nullptr;
  void* z_ = nullptr;
  void* status_ = nullptr;
};

TEST_F(OverflowTest, ArithmeticThatOverflowsRaisesTheStatusUntilReset) {
  Add(1.5f, 2.5f);
  EXPECT_EQ(Status(), 0u) << "finite sums";
  Add(3e38f, 3e38f);
  EXPECT_EQ(Status(), 1u) << "3e38 + 3e38 overflows float";
  EXPECT_EQ(Status(), 1u) << "reading does not clear it";
  ASSERT_EQ(aclrtResetOverflowStatus(stream_), ACL_SUCCESS);
  EXPECT_EQ(Status(), 0u);
  Add(1.0f, 1.0f);
  EXPECT_EQ(Status(), 0u);
}

TEST_F(OverflowTest, AHalfConversionThatOverflowsRaisesIt) {
  ToHalf(65504.0f);
  EXPECT_EQ(Status(), 0u) << "the largest half";
  ToHalf(70000.0f);
  EXPECT_EQ(Status(), 1u);
  ASSERT_EQ(aclrtResetFloatOverflowStatus(stream_), ACL_SUCCESS);
  uint32_t words[kStatusBytes / 4] = {7};
  ASSERT_EQ(aclrtGetFloatOverflowStatus(status_, kStatusBytes, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(words, sizeof(words), status_, kStatusBytes, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(words[0], 0u);
}

TEST_F(OverflowTest, TheStatusIsReadInStreamOrder) {
  // Both queued before anything runs: the read must see the launch's status.
  Add(3e38f, 3e38f);
  ASSERT_EQ(aclrtNpuGetFloatOverFlowStatus(status_, kStatusBytes, 0, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  uint32_t flag = 0;
  ASSERT_EQ(aclrtMemcpy(&flag, 4, status_, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(flag, 1u);
  ASSERT_EQ(aclrtNpuClearFloatOverFlowStatus(0, stream_), ACL_SUCCESS);
  EXPECT_EQ(Status(), 0u);
}

TEST_F(OverflowTest, BadArgumentsAreRefused) {
  EXPECT_EQ(aclrtGetOverflowStatus(nullptr, kStatusBytes, stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetFloatOverflowStatus(nullptr, kStatusBytes, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetOverflowStatus(status_, 32, stream_), ACL_ERROR_RT_PARAM_INVALID);
  int not_a_stream = 0;
  EXPECT_EQ(aclrtGetOverflowStatus(status_, kStatusBytes, &not_a_stream),
            ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtResetOverflowStatus(&not_a_stream), ACL_ERROR_RT_INVALID_HANDLE);
  EXPECT_EQ(aclrtCtxGetFloatOverflowAddr(nullptr), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(OverflowTest, ModeAndSwitchesAreKeptAndChecked) {
  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  ASSERT_EQ(aclrtGetDeviceSatMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_RT_OVERFLOW_MODE_INFNAN);
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtGetDeviceSatMode(nullptr), ACL_ERROR_INVALID_PARAM);

  uint32_t flag = 9;
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(stream_, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, 0u);
  ASSERT_EQ(aclrtSetStreamOverflowSwitch(stream_, 1), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamOverflowSwitch(stream_, &flag), ACL_SUCCESS);
  EXPECT_EQ(flag, 1u);
  aclrtStreamAttrValue value{};
  ASSERT_EQ(aclrtGetStreamAttribute(stream_, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &value),
            ACL_SUCCESS);
  EXPECT_EQ(value.reserve[0], 1u) << "the attribute is the same switch";
  EXPECT_EQ(aclrtSetStreamOverflowSwitch(stream_, 2), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetStreamOverflowSwitch(stream_, nullptr), ACL_ERROR_INVALID_PARAM);

  void* buffer = nullptr;
  void* again = nullptr;
  ASSERT_EQ(aclrtCtxGetFloatOverflowAddr(&buffer), ACL_SUCCESS);
  ASSERT_EQ(aclrtCtxGetFloatOverflowAddr(&again), ACL_SUCCESS);
  EXPECT_EQ(buffer, again) << "one buffer per context";
  uint8_t bytes[512] = {1};
  ASSERT_EQ(aclrtMemcpy(bytes, sizeof(bytes), buffer, 512, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  for (uint8_t byte : bytes) EXPECT_EQ(byte, 0u) << "zeroed at creation";
}

TEST(AddressRangeTest, AnInteriorPointerGivesItsAllocation) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 3000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  void* base = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtMemGetAddressRange(static_cast<char*>(device) + 1234, &base, &size), ACL_SUCCESS);
  EXPECT_EQ(base, device);
  EXPECT_EQ(size, 3000u);
  size = 0;
  ASSERT_EQ(aclrtMemGetAddressRange(device, nullptr, &size), ACL_SUCCESS);
  EXPECT_EQ(size, 3000u);

  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 100), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemGetAddressRange(static_cast<char*>(host) + 99, &base, nullptr), ACL_SUCCESS);
  EXPECT_EQ(base, host);

  int stack = 0;
  EXPECT_EQ(aclrtMemGetAddressRange(&stack, &base, &size), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemGetAddressRange(device, nullptr, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemGetAddressRange(nullptr, &base, &size), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemGetAddressRange(device, &base, &size), ACL_ERROR_RT_PARAM_INVALID) << "freed";
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

TEST(NotifyBatchResetTest, AResetNotifyHoldsItsWaiterUntilRecordedAgain) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream recorder = nullptr, waiter = nullptr;
  ASSERT_EQ(aclrtCreateStream(&recorder), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&waiter), ACL_SUCCESS);
  aclrtNotify notifies[2] = {};
  for (aclrtNotify& notify : notifies) ASSERT_EQ(aclrtCreateNotify(&notify, 0), ACL_SUCCESS);
  for (aclrtNotify notify : notifies) ASSERT_EQ(aclrtRecordNotify(notify, recorder), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(recorder), ACL_SUCCESS);

  ASSERT_EQ(aclrtNotifyBatchReset(notifies, 2), ACL_SUCCESS);
  ASSERT_EQ(aclrtWaitAndResetNotify(notifies[1], waiter, 0), ACL_SUCCESS);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
  ASSERT_EQ(aclrtStreamQuery(waiter, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_STREAM_STATUS_NOT_READY) << "the record it saw was reset";
  ASSERT_EQ(aclrtRecordNotify(notifies[1], recorder), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(waiter), ACL_SUCCESS);

  EXPECT_EQ(aclrtNotifyBatchReset(nullptr, 2), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtNotifyBatchReset(notifies, 0), ACL_ERROR_RT_PARAM_INVALID);
  int bogus = 0;
  aclrtNotify mixed[2] = {notifies[0], &bogus};
  EXPECT_EQ(aclrtNotifyBatchReset(mixed, 2), ACL_ERROR_RT_INVALID_HANDLE);
  for (aclrtNotify notify : notifies) EXPECT_EQ(aclrtDestroyNotify(notify), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(recorder), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(waiter), ACL_SUCCESS);
}

}  // namespace
