// Device variables end to end: a kernel object's variables live in device
// memory of the session (aclrtBinaryGetGlobal), shared by its kernels and by
// host copies, kept across kernel host restarts, one set per loaded binary;
// and the binary's own bytes on the device (aclrtBinaryGetDevAddress) with
// its kernels' entries (aclrtGetFunctionAddr/Size).

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr uint32_t kBlocks = 4;

class DeviceVariablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryLoadFromFile(VARIABLE_KERNELS_PATH, nullptr, &binary_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&out_, kBlocks * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtFree(out_), ACL_SUCCESS);
    EXPECT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
  }

  // Runs read_bias of `binary` and returns what it wrote.
  std::vector<float> ReadBias(aclrtBinHandle binary) {
    aclrtFuncHandle func = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(binary, "read_bias", &func), ACL_SUCCESS);
    EXPECT_EQ(aclrtLaunchKernelWithHostArgs(func, kBlocks, stream_, nullptr, &out_, sizeof(out_),
                                            nullptr, 0),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    std::vector<float> out(kBlocks);
    EXPECT_EQ(aclrtMemcpy(out.data(), kBlocks * sizeof(float), out_, kBlocks * sizeof(float),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return out;
  }

  uint32_t Read(void* address) {
    uint32_t value = 0;
    EXPECT_EQ(aclrtMemcpy(&value, sizeof(value), address, sizeof(value), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return value;
  }

  aclrtStream stream_ = nullptr;
  aclrtBinHandle binary_ = nullptr;
  void* out_ = nullptr;
};

TEST_F(DeviceVariablesTest, KernelsAndHostShareTheVariables) {
  void* launches = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtBinaryGetGlobal(binary_, "launches", &launches, &size), ACL_SUCCESS);
  EXPECT_EQ(size, sizeof(uint32_t));
  void* bias = nullptr;
  ASSERT_EQ(aclrtBinaryGetGlobal(binary_, "bias", &bias, nullptr), ACL_SUCCESS);
  EXPECT_EQ(Read(launches), 5u);  // the initial value came with the binary

  EXPECT_EQ(ReadBias(binary_), (std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f}));
  EXPECT_EQ(Read(launches), 6u);
  const float new_bias[kBlocks] = {-1, -2, -3, -4};
  ASSERT_EQ(
      aclrtMemcpy(bias, sizeof(new_bias), new_bias, sizeof(new_bias), ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
  const uint32_t reset = 100;
  ASSERT_EQ(aclrtMemcpyAsync(launches, sizeof(reset), &reset, sizeof(reset),
                             ACL_MEMCPY_HOST_TO_DEVICE, stream_),
            ACL_SUCCESS);
  EXPECT_EQ(ReadBias(binary_), (std::vector<float>{-1, -2, -3, -4}));
  EXPECT_EQ(Read(launches), 101u);

  EXPECT_EQ(aclrtBinaryGetGlobal(binary_, "missing", &launches, &size),
            ACL_ERROR_RT_INVALID_SYMBOL);
  EXPECT_EQ(aclrtBinaryGetGlobal(binary_, "launches", nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtBinaryGetGlobal(binary_, nullptr, &launches, &size), ACL_ERROR_INVALID_PARAM);
}

// Loading another binary starts a new kernel host: the first binary's values
// stay, and the second binary has variables of its own.
TEST_F(DeviceVariablesTest, EachBinaryHasItsOwnVariablesThatOutliveHostRestarts) {
  void* first = nullptr;
  ASSERT_EQ(aclrtBinaryGetGlobal(binary_, "launches", &first, nullptr), ACL_SUCCESS);
  EXPECT_EQ(ReadBias(binary_).size(), kBlocks);
  EXPECT_EQ(Read(first), 6u);

  aclrtBinHandle second = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(VARIABLE_KERNELS_PATH, nullptr, &second), ACL_SUCCESS);
  void* second_launches = nullptr;
  ASSERT_EQ(aclrtBinaryGetGlobal(second, "launches", &second_launches, nullptr), ACL_SUCCESS);
  EXPECT_NE(second_launches, first);
  EXPECT_EQ(Read(second_launches), 5u);
  EXPECT_EQ(ReadBias(second).size(), kBlocks);
  EXPECT_EQ(ReadBias(binary_).size(), kBlocks);
  EXPECT_EQ(Read(second_launches), 6u);
  EXPECT_EQ(Read(first), 7u);
  EXPECT_EQ(aclrtBinaryUnLoad(second), ACL_SUCCESS);
  EXPECT_EQ(ReadBias(binary_).size(), kBlocks);
  EXPECT_EQ(Read(first), 8u);
}

TEST_F(DeviceVariablesTest, TheBinaryIsCopiedToTheDeviceOnce) {
  std::ifstream file(VARIABLE_KERNELS_PATH, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  void* image = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtBinaryGetDevAddress(binary_, &image, &size), ACL_SUCCESS);
  ASSERT_EQ(size, bytes.size());
  std::string copy(size, '\0');
  ASSERT_EQ(aclrtMemcpy(copy.data(), size, image, size, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_TRUE(copy == bytes);
  void* again = nullptr;
  ASSERT_EQ(aclrtBinaryGetDevAddress(binary_, &again, &size), ACL_SUCCESS);
  EXPECT_EQ(again, image);
  EXPECT_EQ(aclrtBinaryGetDevAddress(binary_, nullptr, &size), ACL_ERROR_INVALID_PARAM);

  // A vector kernel's entry lies in that copy, on the vector core only.
  aclrtFuncHandle func = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(binary_, "read_bias", &func), ACL_SUCCESS);
  void* aic = &size;
  void* aiv = nullptr;
  ASSERT_EQ(aclrtGetFunctionAddr(func, &aic, &aiv), ACL_SUCCESS);
  EXPECT_EQ(aic, nullptr);
  const auto* begin = static_cast<const char*>(image);
  const auto* entry = static_cast<const char*>(aiv);
  ASSERT_TRUE(entry > begin && entry < begin + bytes.size());
  size_t aic_size = 1;
  size_t aiv_size = 0;
  ASSERT_EQ(aclrtGetFunctionSize(func, &aic_size, &aiv_size), ACL_SUCCESS);
  EXPECT_EQ(aic_size, 0u);
  EXPECT_GT(aiv_size, 0u);
  EXPECT_LE(static_cast<size_t>(entry - begin) + aiv_size, bytes.size());
  EXPECT_EQ(aclrtGetFunctionAddr(func, nullptr, &aiv), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetFunctionSize(func, &aic_size, nullptr), ACL_ERROR_INVALID_PARAM);
  int not_a_binary = 0;
  EXPECT_NE(aclrtBinaryGetDevAddress(&not_a_binary, &again, &size), ACL_SUCCESS);
}

// Symbols the runtime does not know.
TEST_F(DeviceVariablesTest, UnknownSymbolsGetCannCodes) {
  int host_variable = 0;
  void* address = nullptr;
  size_t size = 0;
  EXPECT_EQ(aclrtGetSymbolAddress(&host_variable, &address), ACL_ERROR_RT_INVALID_SYMBOL);
  EXPECT_EQ(aclrtGetSymbolSize(&host_variable, &size), ACL_ERROR_RT_INVALID_SYMBOL);
  aclrtFuncHandle func = nullptr;
  EXPECT_EQ(aclrtGetFuncBySymbol(&host_variable, &func), ACL_ERROR_RT_INVALID_DEVICE_FUNCTION);
  const uint32_t value = 1;
  EXPECT_EQ(
      aclrtMemcpyToSymbol(&host_variable, &value, sizeof(value), 0, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_ERROR_RT_INVALID_SYMBOL);
  EXPECT_EQ(aclrtMemcpyToSymbol(&host_variable, &value, 0, 0, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);  // nothing to copy
  EXPECT_EQ(aclrtMemcpyFromSymbol(&address, sizeof(address), &host_variable, sizeof(address), 0,
                                  ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_INVALID_PARAM);
}

}  // namespace
