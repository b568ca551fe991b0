// libacl_rt.so when memory runs out: std::bad_alloc thrown inside an
// implementation comes back from the C entry point as an error result, never
// as an exception (or std::terminate) in the caller.
//
// The test replaces the global operator new for the whole process, the
// library included (it calls operator new through the dynamic linker, which
// finds the executable's definition first), so that allocations of the
// calling thread can be made to fail. The functions called fail before they
// would reach a daemon; none is started.

#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"
#include "gtest/gtest.h"

namespace {

// What operator new does on this thread.
enum class Allocations { kSucceed, kFailNext, kFailAll };
thread_local Allocations allocations = Allocations::kSucceed;
thread_local int failed_allocations = 0;

// Runs `call` with allocations behaving as `mode`, then restores them.
template <typename Call>
auto With(Allocations mode, Call call) {
  failed_allocations = 0;
  allocations = mode;
  auto result = call();
  allocations = Allocations::kSucceed;
  return result;
}

}  // namespace

void* operator new(std::size_t size) {
  if (allocations != Allocations::kSucceed) {
    if (allocations == Allocations::kFailNext) allocations = Allocations::kSucceed;
    ++failed_allocations;
    throw std::bad_alloc();
  }
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  throw std::bad_alloc();
}

void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }

namespace {

// Long enough that copying it allocates (no small-string buffer).
constexpr char kSource[] = "extern \"C\" void a_kernel_with_a_long_name() {}\n";

class AbiBadAllocTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The logger and this thread's error state exist before allocations fail.
    EXPECT_EQ(aclrtIpcMemSetImportPid(nullptr, nullptr, 0), ACL_ERROR_INVALID_PARAM);
  }
  void SetUp() override { aclrtGetLastError(ACL_RT_THREAD_LEVEL); }

  static std::string Message() {
    const char* message = aclGetRecentErrMsg();
    return message == nullptr ? "" : message;
  }

  int32_t pids_[2] = {1, 2};
};

TEST_F(AbiBadAllocTest, AclFunctionReturnsBadAllocAndRecordsIt) {
  const aclError result =
      With(Allocations::kFailNext, [&] { return aclrtIpcMemSetImportPid("key", pids_, 2); });
  EXPECT_EQ(failed_allocations, 1) << "the implementation must have allocated";
  EXPECT_EQ(result, ACL_ERROR_BAD_ALLOC);
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_ERROR_BAD_ALLOC);
  EXPECT_EQ(Message(), "aclrtIpcMemSetImportPid failed (200000): out of memory");
}

TEST_F(AbiBadAllocTest, RtcFunctionReturnsItsOutOfMemoryCode) {
  aclrtcProg prog = nullptr;
  const aclError result = With(Allocations::kFailNext, [&] {
    return aclrtcCreateProg(&prog, kSource, "oom.cpp", 0, nullptr, nullptr);
  });
  EXPECT_EQ(failed_allocations, 1);
  EXPECT_EQ(result, 276001);
  EXPECT_EQ(prog, nullptr);
  EXPECT_EQ(Message(), "aclrtcCreateProg failed (276001): out of memory");
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS) << "RTC codes are not recorded";
}

TEST_F(AbiBadAllocTest, PointerFunctionReturnsNull) {
  aclDataBuffer* buffer =
      With(Allocations::kFailNext, [] { return aclCreateDataBuffer(nullptr, 16); });
  EXPECT_EQ(failed_allocations, 1);
  EXPECT_EQ(buffer, nullptr);
  EXPECT_EQ(Message(), "aclCreateDataBuffer failed (200000): out of memory");
}

// Not even the report can be made: the codes come back all the same.
TEST_F(AbiBadAllocTest, EveryAllocationFailing) {
  EXPECT_EQ(With(Allocations::kFailAll, [&] { return aclrtIpcMemSetImportPid("key", pids_, 2); }),
            ACL_ERROR_BAD_ALLOC);
  aclrtcProg prog = nullptr;
  EXPECT_EQ(With(Allocations::kFailAll,
                 [&] { return aclrtcCreateProg(&prog, kSource, "oom.cpp", 0, nullptr, nullptr); }),
            276001);
  EXPECT_EQ(With(Allocations::kFailAll, [] { return aclCreateDataBuffer(nullptr, 16); }), nullptr);
  // A stub's first call is reported, which allocates; the answer stays the same.
  EXPECT_EQ(With(Allocations::kFailAll, [] { return aclrtSetGroup(1); }),
            ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  EXPECT_GT(failed_allocations, 0) << "the stub's report must have allocated";
}

TEST_F(AbiBadAllocTest, CallsSucceedOnceMemoryIsBack) {
  aclDataBuffer* buffer = aclCreateDataBuffer(nullptr, 16);
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 16u);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
}

}  // namespace
