// Managed memory end to end: aclrtMemAllocManaged gives one pointer that
// host code, copies and kernels share (over the local protocol; elsewhere
// it answers ACL_ERROR_RT_FEATURE_NOT_SUPPORT, which CANN's samples treat
// as "no UVM here"), and the advice, prefetch and attribute calls keep and
// report what was asked, with CANN's checks.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"
#include "tests/e2e/kernels/e2e_kernel_args.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

constexpr size_t kMiB = 1 << 20;

using npud::testing::LocalProtocol;

using npud::testing::AddFloatArgs;

class ManagedMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(aclrtDestroyStreamForce(stream_), ACL_SUCCESS); }

  // Allocates managed memory, or says why the test cannot go on.
  void* Allocate(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMemAllocManaged(&p, size, ACL_RT_MEM_ATTACH_GLOBAL), ACL_SUCCESS) << size;
    return p;
  }
  int32_t IntAttribute(aclrtMemManagedRangeAttribute attribute, const void* p, size_t size) {
    int32_t value = 12345;
    EXPECT_EQ(aclrtMemManagedGetAttr(attribute, p, size, &value, sizeof(value)), ACL_SUCCESS)
        << attribute;
    return value;
  }

  aclrtStream stream_ = nullptr;
};

TEST_F(ManagedMemoryTest, ElsewhereThanTheLocalProtocolItIsNotSupported) {
  if (LocalProtocol()) GTEST_SKIP() << "the local protocol supports managed memory";
  void* p = nullptr;
  EXPECT_EQ(aclrtMemAllocManaged(&p, kMiB, ACL_RT_MEM_ATTACH_GLOBAL),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_EQ(p, nullptr);
}

TEST_F(ManagedMemoryTest, HostCopiesAndKernelsShareOnePointer) {
  if (!LocalProtocol()) GTEST_SKIP() << "managed memory needs the local protocol";
  aclrtBinHandle binary = nullptr;
  ASSERT_EQ(aclrtBinaryLoadFromFile(E2E_KERNELS_PATH, nullptr, &binary), ACL_SUCCESS);
  aclrtFuncHandle add = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunction(binary, "add_float", &add), ACL_SUCCESS);

  const uint32_t n = 600000;  // Not a whole granule: the size is rounded up.
  auto* x = static_cast<float*>(Allocate(n * sizeof(float)));
  auto* y = static_cast<float*>(Allocate(n * sizeof(float)));
  auto* z = static_cast<float*>(Allocate(n * sizeof(float)));
  ASSERT_NE(x, nullptr);
  ASSERT_NE(y, nullptr);
  ASSERT_NE(z, nullptr);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);  // Plain host stores, no copy.
    z[i] = -1.0f;
  }
  // A copy into managed memory lands where host code reads it.
  std::vector<float> quarter(n, 0.25f);
  ASSERT_EQ(aclrtMemcpy(y, n * sizeof(float), quarter.data(), n * sizeof(float),
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(y[n - 1], 0.25f);

  AddFloatArgs args{x, y, z, n};
  ASSERT_EQ(
      aclrtLaunchKernelWithHostArgs(add, 4, stream_, nullptr, &args, sizeof(args), nullptr, 0),
      ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + 0.25f) << i;
  // And the kernel's result reads back as device memory too.
  std::vector<float> back(n);
  ASSERT_EQ(
      aclrtMemcpy(back.data(), n * sizeof(float), z, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(back.data(), z, n * sizeof(float)), 0);

  aclrtPtrAttributes attributes{};
  ASSERT_EQ(aclrtPointerGetAttributes(z + 100, &attributes), ACL_SUCCESS);
  EXPECT_EQ(attributes.location.type, ACL_MEM_LOCATION_TYPE_MANAGED);
  void* base = nullptr;
  size_t size = 0;
  ASSERT_EQ(aclrtMemGetAddressRange(z + 100, &base, &size), ACL_SUCCESS);
  EXPECT_EQ(base, z);
  EXPECT_EQ(size, 4 * kMiB) << "rounded up to whole 2 MiB granules";

  EXPECT_EQ(aclrtFreeHost(z), ACL_ERROR_RT_PARAM_INVALID) << "managed memory goes to aclrtFree";
  EXPECT_EQ(aclrtHostUnregister(z), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtFree(x), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(y), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(z), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(binary), ACL_SUCCESS);
}

TEST_F(ManagedMemoryTest, AllocationArgumentsAreChecked) {
  void* p = nullptr;
  EXPECT_EQ(aclrtMemAllocManaged(nullptr, kMiB, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemAllocManaged(&p, 0, ACL_RT_MEM_ATTACH_GLOBAL), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemAllocManaged(&p, kMiB, 0), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemAllocManaged(&p, kMiB, 2), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemAllocManaged(&p, (4ull << 40), ACL_RT_MEM_ATTACH_GLOBAL),
            ACL_ERROR_RT_MEMORY_ALLOCATION)
      << "a process holds at most 3 TiB";
}

TEST_F(ManagedMemoryTest, AdviceIsKeptPerGranuleAndReported) {
  if (!LocalProtocol()) GTEST_SKIP() << "managed memory needs the local protocol";
  char* p = static_cast<char*>(Allocate(6 * kMiB));  // Three granules.
  ASSERT_NE(p, nullptr);
  const aclrtMemManagedLocation device0{ACL_MEM_LOCATIONTYPE_DEVICE, 0};
  const aclrtMemManagedLocation host{ACL_MEM_LOCATIONTYPE_HOST, 77};

  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 6 * kMiB), 0);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, 6 * kMiB), -2);
  ASSERT_EQ(aclrtMemManagedAdvise(p, 4 * kMiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0),
            ACL_SUCCESS);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 4 * kMiB), 1);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 6 * kMiB), 0)
      << "the third granule is not read-mostly";

  // Preferred location: one device on all granules, or -2 when they differ.
  ASSERT_EQ(aclrtMemManagedAdvise(p, 6 * kMiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, device0),
            ACL_SUCCESS);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, 6 * kMiB), 0);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p, 6 * kMiB),
            ACL_MEM_LOCATIONTYPE_DEVICE);
  ASSERT_EQ(
      aclrtMemManagedAdvise(p + 4 * kMiB, 2 * kMiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, host),
      ACL_SUCCESS);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p + 4 * kMiB, 2 * kMiB), -1);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p + 4 * kMiB, 2 * kMiB),
            ACL_MEM_LOCATIONTYPE_HOST);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, 6 * kMiB), -2);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, p, 6 * kMiB),
            ACL_MEM_LOCATIONTYPE_INVALID);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID, p, 2 * kMiB), 0);
  ASSERT_EQ(aclrtMemManagedAdvise(p, 6 * kMiB, ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, host),
            ACL_SUCCESS);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, p, 2 * kMiB), -2);

  // Accessed-by: who was named for the whole range; the rest of the array
  // says -2.
  ASSERT_EQ(aclrtMemManagedAdvise(p, 6 * kMiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, host), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemManagedAdvise(p, 2 * kMiB, ACL_MEM_ADVISE_SET_ACCESSED_BY, device0),
            ACL_SUCCESS);
  int32_t ids[3] = {7, 7, 7};
  ASSERT_EQ(
      aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 2 * kMiB, ids, sizeof(ids)),
      ACL_SUCCESS);
  EXPECT_EQ(ids[0], -1);
  EXPECT_EQ(ids[1], 0);
  EXPECT_EQ(ids[2], -2);
  ASSERT_EQ(
      aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 6 * kMiB, ids, sizeof(ids)),
      ACL_SUCCESS);
  EXPECT_EQ(ids[0], -1);
  EXPECT_EQ(ids[1], -2) << "device 0 was named for the first granule only";
  ASSERT_EQ(aclrtMemManagedAdvise(p, 6 * kMiB, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, host),
            ACL_SUCCESS);
  ASSERT_EQ(
      aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, p, 2 * kMiB, ids, sizeof(ids)),
      ACL_SUCCESS);
  EXPECT_EQ(ids[0], 0);
  EXPECT_EQ(ids[1], -2);

  // Several attributes at once.
  aclrtMemManagedRangeAttribute which[2] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                            ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE};
  int32_t mostly = -1;
  aclrtMemManagedLocationType type = ACL_MEM_LOCATIONTYPE_HOST;
  void* data[2] = {&mostly, &type};
  size_t sizes[2] = {sizeof(mostly), sizeof(type)};
  ASSERT_EQ(aclrtMemManagedGetAttrs(which, 2, p, 2 * kMiB, data, sizes), ACL_SUCCESS);
  EXPECT_EQ(mostly, 1);
  EXPECT_EQ(type, ACL_MEM_LOCATIONTYPE_INVALID);

  // CANN's checks.
  int32_t value = 0;
  EXPECT_EQ(aclrtMemManagedAdvise(p, kMiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0),
            ACL_ERROR_RT_PARAM_INVALID)
      << "sizes are whole 2 MiB granules";
  EXPECT_EQ(aclrtMemManagedAdvise(p, 8 * kMiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0),
            ACL_ERROR_RT_PARAM_INVALID)
      << "past the allocation";
  EXPECT_EQ(aclrtMemManagedAdvise(p, 2 * kMiB, static_cast<aclrtMemManagedAdviseType>(6), device0),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedAdvise(p, 2 * kMiB, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                  aclrtMemManagedLocation{ACL_MEM_LOCATIONTYPE_DEVICE, 999}),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedAdvise(p, 2 * kMiB, ACL_MEM_ADVISE_SET_ACCESSED_BY,
                                  aclrtMemManagedLocation{ACL_MEM_LOCATIONTYPE_INVALID, 0}),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 2 * kMiB, &value, 8),
            ACL_ERROR_RT_PARAM_INVALID)
      << "an integer attribute takes 4 bytes";
  EXPECT_EQ(aclrtMemManagedGetAttr(static_cast<aclrtMemManagedRangeAttribute>(99), p, 2 * kMiB,
                                   &value, 4),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 2 * kMiB, nullptr, 4),
            ACL_ERROR_INVALID_PARAM);
  std::vector<char> plain(4 * kMiB);
  EXPECT_EQ(aclrtMemManagedAdvise(plain.data(), 2 * kMiB, ACL_MEM_ADVISE_SET_READ_MOSTLY, device0),
            ACL_ERROR_RT_PARAM_INVALID)
      << "not managed memory";
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, p, 2 * kMiB, &value, 4),
            ACL_ERROR_RT_PARAM_INVALID)
      << "freed";
}

TEST_F(ManagedMemoryTest, PrefetchesRecordWhereTheyWereAskedFor) {
  if (!LocalProtocol()) GTEST_SKIP() << "managed memory needs the local protocol";
  char* p = static_cast<char*>(Allocate(8 * kMiB));
  ASSERT_NE(p, nullptr);
  const aclrtMemManagedLocation device0{ACL_MEM_LOCATIONTYPE_DEVICE, 0};
  const aclrtMemManagedLocation host{ACL_MEM_LOCATIONTYPE_HOST, 0};
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 8 * kMiB), -2);
  ASSERT_EQ(aclrtMemManagedPrefetchAsync(p, 8 * kMiB, device0, 0, stream_), ACL_SUCCESS);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 8 * kMiB), 0);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, p, 8 * kMiB),
            ACL_MEM_LOCATIONTYPE_DEVICE);

  // Batch: the first two ranges to the host, the third to device 0.
  const void* ptrs[3] = {p, p + 2 * kMiB, p + 6 * kMiB};
  size_t sizes[3] = {2 * kMiB, 2 * kMiB, 2 * kMiB};
  aclrtMemManagedLocation where[2] = {host, device0};
  size_t first[2] = {0, 2};
  ASSERT_EQ(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, where, first, 2, 0, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 4 * kMiB), -1);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p + 4 * kMiB, 4 * kMiB),
            0);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID, p + 6 * kMiB, 2 * kMiB),
            0);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 8 * kMiB), -2);

  // Bad batches and prefetches change nothing.
  size_t unordered[2] = {0, 0};
  EXPECT_EQ(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, where, unordered, 2, 0, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  size_t late[2] = {1, 2};
  EXPECT_EQ(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, where, late, 2, 0, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 3, where, first, 2, 1, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(p, kMiB, device0, 0, stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtMemManagedPrefetchAsync(p, 2 * kMiB, device0, 1, stream_),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 4 * kMiB), -1);

  // aclrtMemP2PMap: CANN's synchronous prefetch to a device, any size.
  ASSERT_EQ(aclrtMemP2PMap(p + 100, 10, 0, 0), ACL_SUCCESS);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 2 * kMiB), 0);
  EXPECT_EQ(IntAttribute(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 4 * kMiB), -2)
      << "only the granule it touched";
  EXPECT_EQ(aclrtMemP2PMap(p, 0, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemP2PMap(p, 16, 0, 1), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtMemP2PMap(p, 16, 999, 0), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_EQ(aclrtMemP2PMap(p + 8 * kMiB, 16, 0, 0), ACL_ERROR_RT_PARAM_INVALID)
      << "past the allocation";
  EXPECT_EQ(aclrtMemP2PMap(nullptr, 16, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
}

}  // namespace
