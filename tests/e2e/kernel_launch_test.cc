// Kernels end to end: a kernel object built with the CPU AscendC headers is
// loaded through the ACL API into a real npud (unix socket or TCP, as
// NPUD_TEST_TRANSPORT says) and launched every way CANN offers; device
// printf, traps, faults and long kernels behave as on a device.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "gtest/gtest.h"
#include "tests/e2e/daemon_environment.h"
#include "tests/e2e/kernel_test.h"
#include "tests/e2e/kernels/e2e_kernel_args.h"

namespace {

const auto* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new npud::testing::DaemonEnvironment);

// Captures what this process writes to stdout (device printf lands there).
class StdoutCapture {
 public:
  StdoutCapture() {
    std::fflush(stdout);
    saved_ = dup(1);
    char path[] = "/tmp/npud-stdout-XXXXXX";
    fd_ = mkstemp(path);
    path_ = path;
    dup2(fd_, 1);
  }
  std::string Finish() {
    std::fflush(stdout);
    dup2(saved_, 1);
    close(saved_);
    close(fd_);
    std::ifstream in(path_);
    std::stringstream text;
    text << in.rdbuf();
    unlink(path_.c_str());
    return text.str();
  }

 private:
  int saved_ = -1;
  int fd_ = -1;
  std::string path_;
};

using npud::testing::KernelTest;

using npud::testing::AddFloatArgs;

TEST_F(KernelTest, BinaryListsItsFunctions) {
  uint32_t count = 0;
  ASSERT_EQ(aclrtBinaryGetFunctionCount(binary_, &count), ACL_SUCCESS);
  ASSERT_EQ(count, 10u);
  std::vector<aclrtFuncHandle> functions(count);
  ASSERT_EQ(aclrtBinaryEnumerateFunctions(binary_, functions.data(), count), ACL_SUCCESS);
  std::vector<std::string> names;
  for (aclrtFuncHandle function : functions) {
    char name[64] = {};
    ASSERT_EQ(aclrtGetFunctionName(function, sizeof(name), name), ACL_SUCCESS);
    names.push_back(name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"add_float", "add_tiled", "hello", "trapping", "poke",
                                             "spin", "burn", "count_up", "ub_hog", "to_half"}));
  aclrtFuncHandle by_entry = nullptr;
  ASSERT_EQ(aclrtBinaryGetFunctionByEntry(binary_, 2, &by_entry), ACL_SUCCESS);
  EXPECT_EQ(by_entry, functions[2]);
  char tiny[4];
  EXPECT_EQ(aclrtGetFunctionName(functions[0], sizeof(tiny), tiny), ACL_ERROR_RT_PARAM_INVALID);
  aclrtFuncHandle missing = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(binary_, "no_such_kernel", &missing),
            ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(KernelTest, HostArgsLaunchSplitsWorkOverBlocks) {
  const uint32_t n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f * static_cast<float>(i % 1000);
  }
  AddFloatArgs args{Malloc<float>(n), Malloc<float>(n), Malloc<float>(n), n};
  ASSERT_EQ(aclrtMemcpy(args.x, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  ASSERT_EQ(aclrtMemcpy(args.y, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("add_float"), 8, stream_, nullptr, &args,
                                          sizeof(args), nullptr, 0),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<float> z = Read(args.z, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
}

TEST_F(KernelTest, KernelsUseMappedPhysicalMemoryLikeAnyAllocation) {
  aclrtPhysicalMemProp prop = {};
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.memAttr = ACL_HBM_MEM_NORMAL;
  size_t granularity = 0;
  ASSERT_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
                                             &granularity),
            ACL_SUCCESS);
  // x, y and z side by side in one physical allocation, which is mapped
  // twice: the kernel reads through one mapping and writes through the other.
  const uint32_t n = static_cast<uint32_t>(granularity / sizeof(float));
  aclrtDrvMemHandle physical = nullptr;
  ASSERT_EQ(aclrtMallocPhysical(&physical, 3 * granularity, &prop, 0), ACL_SUCCESS);
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_EQ(aclrtReserveMemAddress(&a, 3 * granularity, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtReserveMemAddress(&b, 3 * granularity, 0, nullptr, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(a, 3 * granularity, 0, physical, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtMapMem(b, 3 * granularity, 0, physical, 0), ACL_SUCCESS);
  auto* xa = static_cast<float*>(a);
  auto* xb = static_cast<float*>(b);
  std::vector<float> x(n), y(n);
  for (uint32_t i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 3.0f;
  }
  ASSERT_EQ(aclrtMemcpy(xa, n * 4, x.data(), n * 4, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpy(xa + n, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  AddFloatArgs args{xa, xa + n, xb + 2 * n, n};
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("add_float"), 4, stream_, nullptr, &args,
                                          sizeof(args), nullptr, 0),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<float> z = Read(xa + 2 * n, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + 3.0f) << i;

  // Unmapped addresses are no longer device memory the process may use.
  ASSERT_EQ(aclrtUnmapMem(b), ACL_SUCCESS);
  std::vector<float> out(4);
  EXPECT_EQ(aclrtMemcpy(out.data(), 16, b, 16, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtReleaseMemAddress(a), ACL_ERROR_RT_PARAM_INVALID) << "still mapped";
  ASSERT_EQ(aclrtUnmapMem(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtReleaseMemAddress(a), ACL_SUCCESS);
  ASSERT_EQ(aclrtReleaseMemAddress(b), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreePhysical(physical), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreePhysical(physical), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(KernelTest, CopiesOnAnotherStreamRaceAKernelCorrectly) {
  const uint32_t n = 8 << 20;
  std::vector<float> x(n, 1.25f), y(n, 2.0f);
  AddFloatArgs args{Malloc<float>(n), Malloc<float>(n), Malloc<float>(n), n};
  ASSERT_EQ(aclrtMemcpy(args.x, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  ASSERT_EQ(aclrtMemcpy(args.y, n * 4, y.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  aclrtStream copies = nullptr;
  ASSERT_EQ(aclrtCreateStream(&copies), ACL_SUCCESS);
  const size_t bytes = (6 << 20) + 11;
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, bytes), ACL_SUCCESS);
  std::vector<uint8_t> pageable(bytes), back(bytes);
  uint8_t* scratch = Malloc<uint8_t>(bytes);
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("add_float"), 2, stream_, nullptr, &args,
                                          sizeof(args), nullptr, 0),
            ACL_SUCCESS);
  for (int round = 0; round < 4; ++round) {
    for (size_t i = 0; i < bytes; ++i) pageable[i] = static_cast<uint8_t>(i * 31 + round);
    ASSERT_EQ(
        aclrtMemcpyAsync(scratch, bytes, pageable.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, copies),
        ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(pinned, bytes, scratch, bytes, ACL_MEMCPY_DEVICE_TO_HOST, copies),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(copies), ACL_SUCCESS);
    ASSERT_EQ(std::memcmp(pinned, pageable.data(), bytes), 0) << "round " << round;
  }
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<float> z = Read(args.z, n);
  for (uint32_t i = 0; i < n; i += 4099) ASSERT_EQ(z[i], 3.25f) << i;
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(copies), ACL_SUCCESS);
}

using npud::testing::LocalProtocol;

// Plain host memory on pages of its own (registrations must not share a
// page, see HostMemory::Register).
struct PageAlignedFloats {
  explicit PageAlignedFloats(size_t n, float value)
      : bytes((n * sizeof(float) + 4095) / 4096 * 4096),
        p(static_cast<float*>(std::aligned_alloc(4096, bytes))) {
    std::fill(p, p + n, value);
  }
  ~PageAlignedFloats() { std::free(p); }
  float* data() const { return p; }
  float& operator[](size_t i) const { return p[i]; }
  const size_t bytes;
  float* const p;
};

TEST_F(KernelTest, KernelsWorkOnRegisteredHostMemory) {
  const uint32_t n = 300000;
  std::vector<float> x(n);
  PageAlignedFloats y(n, 0.25f), z(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) x[i] = static_cast<float>(i);
  void* pinned = nullptr;
  ASSERT_EQ(aclrtMallocHost(&pinned, n * sizeof(float)), ACL_SUCCESS);
  std::memcpy(pinned, x.data(), n * sizeof(float));
  if (!LocalProtocol()) {
    EXPECT_EQ(aclrtHostRegisterV2(pinned, n * sizeof(float), ACL_HOST_REG_MAPPED),
              ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
    return;
  }
  // aclrtMallocHost memory and plain vectors alike.
  ASSERT_EQ(aclrtHostRegisterV2(pinned, n * sizeof(float), ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  void* dx = nullptr;
  ASSERT_EQ(aclrtHostGetDevicePointer(pinned, &dx, 0), ACL_SUCCESS);
  void* dy = nullptr;
  ASSERT_EQ(aclrtHostRegister(y.data(), n * sizeof(float), ACL_HOST_REGISTER_MAPPED, &dy),
            ACL_SUCCESS);
  void* dz = nullptr;
  ASSERT_EQ(aclrtHostRegisterV2(z.data(), n * sizeof(float), ACL_HOST_REG_MAPPED), ACL_SUCCESS);
  ASSERT_EQ(aclrtHostGetDevicePointer(z.data(), &dz, 0), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostRegisterV2(z.data(), 16, ACL_HOST_REG_MAPPED), ACL_ERROR_RT_PARAM_INVALID)
      << "already registered";
  y[7] = 100.0f;  // Written through the host pointer after registering.
  AddFloatArgs args{static_cast<float*>(dx), static_cast<float*>(dy), static_cast<float*>(dz), n};
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("add_float"), 4, stream_, nullptr, &args,
                                          sizeof(args), nullptr, 0),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  // The kernel wrote straight into the vector.
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + (i == 7 ? 100.0f : 0.25f)) << i;
  // Device addresses of registered memory are device memory for copies too.
  std::vector<float> back(n);
  ASSERT_EQ(
      aclrtMemcpy(back.data(), n * sizeof(float), dz, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(back.data(), z.data(), n * sizeof(float)), 0);

  ASSERT_EQ(aclrtHostUnregister(z.data()), ACL_SUCCESS);
  ASSERT_EQ(aclrtHostUnregister(y.data()), ACL_SUCCESS);
  ASSERT_EQ(aclrtHostUnregister(pinned), ACL_SUCCESS);
  EXPECT_EQ(aclrtHostUnregister(pinned), ACL_ERROR_RT_PARAM_INVALID);
  void* none = nullptr;
  EXPECT_EQ(aclrtHostGetDevicePointer(z.data(), &none, 0), ACL_ERROR_RT_PARAM_INVALID);
  // Unregistered memory keeps its contents and is ordinary memory again.
  EXPECT_EQ(z[7], 107.0f);
  std::fill(z.data(), z.data() + n, 1.0f);
  EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(KernelTest, ArgsArrayLaunchUsesTheParameterLayout) {
  aclrtFuncHandle add = Function("add_float");
  size_t count = 0;
  ASSERT_EQ(aclrtFunctionGetParamCount(add, &count), ACL_SUCCESS);
  ASSERT_EQ(count, 4u);
  size_t offset = 0, size = 0;
  ASSERT_EQ(aclrtFunctionGetParamInfo(add, 3, &offset, &size), ACL_SUCCESS);
  EXPECT_EQ(offset, 24u);
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(aclrtFunctionGetParamInfo(add, 4, &offset, &size), ACL_ERROR_RT_PARAM_INVALID);

  const uint32_t n = 3000;
  std::vector<float> host(n, 1.25f);
  float* x = Malloc<float>(n);
  float* y = Malloc<float>(n);
  float* z = Malloc<float>(n);
  ASSERT_EQ(aclrtMemcpy(x, n * 4, host.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  ASSERT_EQ(aclrtMemcpy(y, n * 4, host.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  uint32_t elements = n;
  void* params[] = {&x, &y, &z, &elements};
  ASSERT_EQ(aclrtLaunchKernelWithArgsArray(add, 3, stream_, nullptr, params), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (float v : Read(z, n)) ASSERT_EQ(v, 2.5f);
}

TEST_F(KernelTest, KernelArgsWithPlaceholderCarryTiling) {
  const uint32_t n = 5000;
  std::vector<float> ones(n, 1.0f), twos(n, 2.0f);
  float* x = Malloc<float>(n);
  float* y = Malloc<float>(n);
  float* z = Malloc<float>(n);
  ASSERT_EQ(aclrtMemcpy(x, n * 4, ones.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  ASSERT_EQ(aclrtMemcpy(y, n * 4, twos.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  ASSERT_EQ(aclrtMemset(z, n * 4, 0, n * 4), 0);
  aclrtFuncHandle function = Function("add_tiled");
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(function, &args), ACL_SUCCESS);
  aclrtParamHandle params[4] = {};
  ASSERT_EQ(aclrtKernelArgsAppend(args, &x, sizeof(x), &params[0]), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(args, &y, sizeof(y), &params[1]), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(args, &z, sizeof(z), &params[2]), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppendPlaceHolder(args, &params[3]), ACL_SUCCESS);
  uint32_t* tiling = nullptr;
  ASSERT_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, params[3], sizeof(uint32_t),
                                                reinterpret_cast<void**>(&tiling)),
            ACL_SUCCESS);
  *tiling = n / 2;  // Only the first half.
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithConfig(function, 4, stream_, nullptr, args, nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  const std::vector<float> result = Read(z, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(result[i], i < n / 2 ? 3.0f : 0.0f) << i;
}

TEST_F(KernelTest, DeviceArgsLaunch) {
  const uint32_t n = 1000;
  std::vector<float> host(n, 4.0f);
  AddFloatArgs args{Malloc<float>(n), Malloc<float>(n), Malloc<float>(n), n};
  ASSERT_EQ(aclrtMemcpy(args.x, n * 4, host.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  ASSERT_EQ(aclrtMemcpy(args.y, n * 4, host.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), 0);
  AddFloatArgs* device_args = Malloc<AddFloatArgs>(1);
  ASSERT_EQ(aclrtMemcpy(device_args, sizeof(args), &args, sizeof(args), ACL_MEMCPY_HOST_TO_DEVICE),
            0);
  ASSERT_EQ(aclrtLaunchKernel(Function("add_float"), 2, device_args, sizeof(args), stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  for (float v : Read(args.z, n)) ASSERT_EQ(v, 8.0f);
}

TEST_F(KernelTest, PrintfFromManyBlocksReachesStdoutBeforeSynchronizeReturns) {
  StdoutCapture capture;
  const aclError launched = aclrtLaunchKernelWithHostArgs(Function("hello"), 16, stream_, nullptr,
                                                          nullptr, 0, nullptr, 0);
  const aclError synced = aclrtSynchronizeStream(stream_);
  const std::string out = capture.Finish();
  ASSERT_EQ(launched, ACL_SUCCESS);
  ASSERT_EQ(synced, ACL_SUCCESS);
  std::string expected;
  for (int i = 0; i < 16; ++i) expected += "Hello from block " + std::to_string(i) + " of 16\n";
  EXPECT_EQ(out, expected);
}

TEST_F(KernelTest, TrapBecomesAnExceptionAtSynchronize) {
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("trapping"), 4, stream_, nullptr, nullptr, 0,
                                          nullptr, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  // Reported once; the stream goes on working.
  int32_t* flag = Malloc<int32_t>(1);
  ASSERT_EQ(LaunchSpin(flag, 1, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(Read(flag, 1)[0], 1);
}

TEST_F(KernelTest, FaultsAreReportedNotFatal) {
  float* small = Malloc<float>(1024);  // One page.
  struct {
    float* p;
    uint64_t offset;
  } args{small, 1024};  // The guard page right after the allocation.
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("poke"), 1, stream_, nullptr, &args,
                                          sizeof(args), nullptr, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  args = {nullptr, 0};
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("poke"), 2, stream_, nullptr, &args,
                                          sizeof(args), nullptr, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  // In bounds it works.
  args = {small, 1023};
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("poke"), 1, stream_, nullptr, &args,
                                          sizeof(args), nullptr, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(Read(small, 1024)[1023], 1.0f);
}

TEST_F(KernelTest, UnifiedBufferOverflowIsAnError) {
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("ub_hog"), 1, stream_, nullptr, nullptr, 0,
                                          nullptr, 0),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_NE(std::string(message).find("unified buffer"), std::string::npos) << message;
}

TEST_F(KernelTest, StopOnFailureSkipsLaterTasks) {
  ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  int32_t* flag = Malloc<int32_t>(1);
  ASSERT_EQ(aclrtMemset(flag, 4, 0, 4), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("trapping"), 2, stream_, nullptr, nullptr, 0,
                                          nullptr, 0),
            ACL_SUCCESS);
  ASSERT_EQ(LaunchSpin(flag, 1, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(Read(flag, 1)[0], 0);  // The launch after the trap never ran.
}

// Launches queued behind a running kernel (which npud sends to the kernel
// host in batches) all run, in order, and a failure among them follows the
// stream's failure mode.
class QueuedLaunchesTest : public KernelTest, public ::testing::WithParamInterface<bool> {
 protected:
  aclError CountUp(uint32_t* counter, uint32_t expect) {
    struct {
      uint32_t* counter;
      uint32_t expect;
    } args{counter, expect};
    return aclrtLaunchKernelWithHostArgs(Function("count_up"), 1, stream_, nullptr, &args,
                                         sizeof(args), nullptr, 0);
  }
};

TEST_P(QueuedLaunchesTest, RunInOrderAndFollowTheFailureMode) {
  const bool stop = GetParam();
  if (stop) {
    ASSERT_EQ(aclrtSetStreamFailureMode(stream_, ACL_STOP_ON_FAILURE), ACL_SUCCESS);
  }
  int32_t* flag = Malloc<int32_t>(1);
  uint32_t* counter = Malloc<uint32_t>(1);
  ASSERT_EQ(aclrtMemset(counter, 4, 0, 4), ACL_SUCCESS);
  ASSERT_EQ(LaunchSpin(flag, 200, stream_), ACL_SUCCESS);
  constexpr uint32_t kBefore = 600;  // more than one batch
  for (uint32_t i = 0; i < kBefore; ++i) ASSERT_EQ(CountUp(counter, i), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(Function("trapping"), 2, stream_, nullptr, nullptr, 0,
                                          nullptr, 0),
            ACL_SUCCESS);
  for (uint32_t i = kBefore; i < kBefore + 10; ++i) ASSERT_EQ(CountUp(counter, i), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
  EXPECT_EQ(Read(counter, 1)[0], stop ? kBefore : kBefore + 10);
}

INSTANTIATE_TEST_SUITE_P(FailureModes, QueuedLaunchesTest, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? "StopOnFailure" : "ContinueOnFailure";
                         });

TEST_F(KernelTest, LongKernelLeavesOtherStreamsRunning) {
  int32_t* flag = Malloc<int32_t>(1);
  ASSERT_EQ(aclrtMemset(flag, 4, 0, 4), ACL_SUCCESS);
  aclrtEvent done = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&done), ACL_SUCCESS);
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(LaunchSpin(flag, 2000, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(done, stream_), ACL_SUCCESS);

  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  float* buffer = Malloc<float>(1 << 20);
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(aclrtMemsetAsync(buffer, 4 << 20, i, 4 << 20, other), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
  }
  // The other stream finished its work while the kernel still runs.
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  ASSERT_EQ(aclrtQueryEventStatus(done, &status), ACL_SUCCESS);
  EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_NOT_READY);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  ASSERT_EQ(aclrtSynchronizeEvent(done), ACL_SUCCESS);
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(2000));
  EXPECT_EQ(Read(flag, 1)[0], 1);
  EXPECT_EQ(aclrtDestroyEvent(done), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(KernelTest, UnloadingABinaryInUseWaitsForItsLaunches) {
  int32_t* flag = Malloc<int32_t>(1);
  ASSERT_EQ(aclrtMemset(flag, 4, 0, 4), ACL_SUCCESS);
  ASSERT_EQ(LaunchSpin(flag, 300, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryUnLoad(binary_), ACL_SUCCESS);
  aclrtBinHandle gone = binary_;
  binary_ = nullptr;
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(Read(flag, 1)[0], 1);
  aclrtFuncHandle function = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(gone, "spin", &function), ACL_ERROR_RT_INVALID_HANDLE);
}

TEST_F(KernelTest, SynchronousCopiesSeeEarlierLaunches) {
  // As the CANN memory samples rely on: no synchronize between the launch
  // and the synchronous copy that reads its result.
  int32_t* flag = Malloc<int32_t>(1);
  ASSERT_EQ(aclrtMemset(flag, 4, 0, 4), ACL_SUCCESS);
  ASSERT_EQ(LaunchSpin(flag, 200, stream_), ACL_SUCCESS);
  int32_t value = 0;
  ASSERT_EQ(aclrtMemcpy(&value, 4, flag, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(value, 1);
}

TEST_F(KernelTest, ForceDestroyCompletesLaunchedKernels) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  StdoutCapture capture;
  const aclError launched =
      aclrtLaunchKernelWithHostArgs(Function("hello"), 2, stream, nullptr, nullptr, 0, nullptr, 0);
  const aclError destroyed = aclrtDestroyStreamForce(stream);
  const std::string out = capture.Finish();
  ASSERT_EQ(launched, ACL_SUCCESS);
  ASSERT_EQ(destroyed, ACL_SUCCESS);
  EXPECT_EQ(out, "Hello from block 0 of 2\nHello from block 1 of 2\n");
}

TEST_F(KernelTest, ForceDestroyDropsWaitsThatNeverEnd) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclrtEvent never = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&never), ACL_SUCCESS);
  // Recorded then reset: a wait now needs a record that never comes.
  ASSERT_EQ(aclrtRecordEvent(never, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetEvent(never, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(stream, never), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_EQ(aclrtDestroyStreamForce(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(never), ACL_SUCCESS);
}

TEST_F(KernelTest, BadLaunchesAreRejected) {
  aclrtFuncHandle add = Function("add_float");
  AddFloatArgs args{};
  // Too few argument bytes: reported by the stream's next synchronize.
  ASSERT_EQ(aclrtLaunchKernelWithHostArgs(add, 1, stream_, nullptr, &args, 8, nullptr, 0), 0);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(
      aclrtLaunchKernelWithHostArgs(add, 0, stream_, nullptr, &args, sizeof(args), nullptr, 0),
      ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(
      aclrtLaunchKernelWithHostArgs(nullptr, 1, stream_, nullptr, &args, sizeof(args), nullptr, 0),
      ACL_ERROR_INVALID_PARAM);
  int bogus = 0;
  EXPECT_EQ(
      aclrtLaunchKernelWithHostArgs(&bogus, 1, stream_, nullptr, &args, sizeof(args), nullptr, 0),
      ACL_ERROR_RT_INVALID_HANDLE);
  aclrtBinHandle junk = nullptr;
  const char text[] = "this is not an ELF object, not even close to one, and it is long enough";
  EXPECT_EQ(aclrtBinaryLoadFromData(text, sizeof(text), nullptr, &junk),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryLoadFromFile("/nonexistent/kernel.o", nullptr, &junk),
            ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(KernelTest, ResourceLimits) {
  uint32_t value = 0;
  ASSERT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 24u);
  ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 8u);
  EXPECT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 49), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtSetStreamResLimit(stream_, ACL_RT_DEV_RES_CUBE_CORE, 4), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamResLimit(stream_, ACL_RT_DEV_RES_CUBE_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 4u);
  ASSERT_EQ(aclrtResetStreamResLimit(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetStreamResLimit(stream_, ACL_RT_DEV_RES_CUBE_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 8u);
  ASSERT_EQ(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 24u);
}

// The thread's limits: its stream's while it uses one (the last one set
// wins), else its device's, else the core count.
TEST_F(KernelTest, ThreadLimitsFollowTheStreamInUse) {
  uint32_t value = 0;
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 48u);
  ASSERT_EQ(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, 16), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 16u);
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamResLimit(stream_, ACL_RT_DEV_RES_VECTOR_CORE, 4), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetStreamResLimit(other, ACL_RT_DEV_RES_VECTOR_CORE, 2), ACL_SUCCESS);
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtUseStreamResInCurrentThread(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 4u);
  // Another thread is not affected.
  uint32_t elsewhere = 0;
  std::thread([&elsewhere] {
    aclrtSetDevice(0);
    aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &elsewhere);
  }).join();
  EXPECT_EQ(elsewhere, 16u);
  // Giving up another stream keeps this one; giving up this one goes back
  // to the device's limit.
  ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(other), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 4u);
  ASSERT_EQ(aclrtUnuseStreamResInCurrentThread(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &value), ACL_SUCCESS);
  EXPECT_EQ(value, 16u);
  EXPECT_EQ(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtGetResInCurrentThread(static_cast<aclrtDevResLimitType>(7), &value),
            ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtResetStreamResLimit(stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

}  // namespace
