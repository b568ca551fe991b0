// The fixture of the kernel e2e suites: a device, a stream and e2e_kernels
// loaded into a real npud (the transport NPUD_TEST_TRANSPORT names), with
// device buffers freed at the end of each test.

#ifndef NPUD_TESTS_E2E_KERNEL_TEST_H_
#define NPUD_TESTS_E2E_KERNEL_TEST_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"

namespace npud::testing {

class KernelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryLoadFromFile(E2E_KERNELS_PATH, nullptr, &binary_), ACL_SUCCESS);
  }
  void TearDown() override {
    for (void* p : device_) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    if (binary_ != nullptr) {
      EXPECT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS);
  }

  // Launches the `spin` kernel: it sets *flag to 1 after `ms` milliseconds.
  aclError LaunchSpin(int32_t* flag, uint32_t ms, aclrtStream stream) {
    struct {
      int32_t* flag;
      uint32_t ms;
    } args{flag, ms};
    return aclrtLaunchKernelWithHostArgs(Function("spin"), 1, stream, nullptr, &args, sizeof(args),
                                         nullptr, 0);
  }

  aclrtFuncHandle Function(const char* name) {
    aclrtFuncHandle function = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(binary_, name, &function), ACL_SUCCESS) << name;
    return function;
  }
  template <typename T>
  T* Malloc(size_t count) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, count * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    device_.push_back(p);
    return static_cast<T*>(p);
  }
  template <typename T>
  std::vector<T> Read(const T* device, size_t count) {
    std::vector<T> host(count);
    EXPECT_EQ(aclrtMemcpy(host.data(), count * sizeof(T), device, count * sizeof(T),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    return host;
  }

  aclrtStream stream_ = nullptr;
  aclrtBinHandle binary_ = nullptr;
  std::vector<void*> device_;
};

}  // namespace npud::testing

#endif  // NPUD_TESTS_E2E_KERNEL_TEST_H_
