// aclrtApiInjectionSetFunc / GetFunc against a real npud: a hook replaces
// the exported function, may call the original, and goes again when the
// original is set back.

#include <atomic>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

using GetDeviceFn = aclError (*)(int32_t*);

std::atomic<int> hook_calls{0};
GetDeviceFn original_get_device = nullptr;

aclError CountingGetDevice(int32_t* device) {
  ++hook_calls;
  return original_get_device(device);
}

TEST(ApiHooksTest, HookWrapsTheOriginalUntilRemoved) {
  ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
  aclrtApiFunc origin = nullptr, current = nullptr;
  ASSERT_EQ(aclrtApiInjectionGetFunc("aclrtGetDevice", &origin, &current), ACL_SUCCESS);
  ASSERT_NE(origin, nullptr);
  EXPECT_EQ(origin, current);
  original_get_device = reinterpret_cast<GetDeviceFn>(origin);

  ASSERT_EQ(aclrtApiInjectionSetFunc("aclrtGetDevice",
                                     reinterpret_cast<aclrtApiFunc>(&CountingGetDevice)),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtApiInjectionGetFunc("aclrtGetDevice", &origin, &current), ACL_SUCCESS);
  EXPECT_EQ(current, reinterpret_cast<aclrtApiFunc>(&CountingGetDevice));
  EXPECT_EQ(origin, reinterpret_cast<aclrtApiFunc>(original_get_device));
  int32_t device = -1;
  ASSERT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(device, 1);
  EXPECT_EQ(hook_calls.load(), 1);
  // Other functions are untouched.
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(hook_calls.load(), 1);

  ASSERT_EQ(aclrtApiInjectionSetFunc("aclrtGetDevice", origin), ACL_SUCCESS);
  ASSERT_EQ(aclrtApiInjectionGetFunc("aclrtGetDevice", &origin, &current), ACL_SUCCESS);
  EXPECT_EQ(origin, current);
  ASSERT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
  EXPECT_EQ(hook_calls.load(), 1) << "the hook was removed";
  EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
}

TEST(ApiHooksTest, OnlyImplementedRuntimeFunctionsAreHookable) {
  aclrtApiFunc origin = nullptr, current = nullptr;
  EXPECT_EQ(aclrtApiInjectionGetFunc("aclmdlRIExecuteAsync", &origin, &current), ACL_SUCCESS);
  EXPECT_EQ(aclrtApiInjectionGetFunc("aclrtNoSuchFunction", &origin, &current),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtApiInjectionGetFunc("aclrtApiInjectionSetFunc", &origin, &current),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtApiInjectionGetFunc("aclInit", &origin, &current), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtApiInjectionSetFunc("aclrtGetDevice", nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtApiInjectionSetFunc(nullptr, reinterpret_cast<aclrtApiFunc>(&CountingGetDevice)),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtApiInjectionGetFunc("aclrtGetDevice", nullptr, &current), ACL_ERROR_INVALID_PARAM);
}

}  // namespace
