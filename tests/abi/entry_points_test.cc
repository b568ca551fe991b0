// The entry points tools/gen_abi.py generates, for a small table
// (entry_points_test_api.tsv) with one function of each kind of result:
// arguments and results pass through, and whatever an implementation throws
// comes back as the error result of its kind (client/abi/abi_exceptions.h),
// never as an exception in the caller. The implementations below throw on
// request; the generated definitions are the only extern "C" ones here.

#include <cstdarg>
#include <cstdio>
#include <new>
#include <stdexcept>
#include <string>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"
#include "client/core/thread_state.h"
#include "gtest/gtest.h"
#include "tests/abi/generated/entry_points_test_impl.h"

namespace {

// What the next implementation called throws.
enum class Throw { kNothing, kBadAlloc, kRuntimeError, kInt };
Throw next_throw = Throw::kNothing;

void MaybeThrow() {
  const Throw what = next_throw;
  next_throw = Throw::kNothing;
  switch (what) {
    case Throw::kNothing:
      return;
    case Throw::kBadAlloc:
      throw std::bad_alloc();
    case Throw::kRuntimeError:
      throw std::runtime_error("the implementation failed");
    case Throw::kInt:
      throw 42;
  }
}

std::string logged;  // what the last aclAppLog call formatted

}  // namespace

namespace npud::abi_impl {

aclError aclrtSetDevice(int32_t deviceId) {
  MaybeThrow();
  return deviceId == 0 ? ACL_SUCCESS : ACL_ERROR_RT_INVALID_DEVICEID;
}

aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char** options) {
  MaybeThrow();
  return prog != nullptr && numOptions == 1 && options[0] != nullptr ? ACL_SUCCESS : 176001;
}

const char* aclrtGetSocName(void) {
  MaybeThrow();
  return "Ascend910B1";
}

float aclFloat16ToFloat(aclFloat16 value) {
  MaybeThrow();
  return static_cast<float>(value);
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  MaybeThrow();
  return dataBuffer == nullptr ? 7 : 8;
}

void aclAppLog(aclLogLevel logLevel, const char* func, const char* file, uint32_t line,
               const char* fmt, va_list args) {
  MaybeThrow();
  char text[128];
  std::vsnprintf(text, sizeof(text), fmt, args);
  logged =
      std::to_string(logLevel) + " " + func + " " + file + ":" + std::to_string(line) + " " + text;
}

}  // namespace npud::abi_impl

namespace {

class EntryPointsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    thread().last_error = ACL_SUCCESS;
    thread().last_message.clear();
  }

  static npud::client::ThreadState& thread() { return npud::client::ThisThread(); }
  // The message kept for aclGetRecentErrMsg.
  static const std::string& message() { return thread().last_message; }
};

TEST_F(EntryPointsTest, ArgumentsAndResultsPassThrough) {
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetDevice(5), ACL_ERROR_RT_INVALID_DEVICEID);
  int prog = 0;
  const char* options[] = {"-O2"};
  EXPECT_EQ(aclrtcCompileProg(&prog, 1, options), ACL_SUCCESS);
  EXPECT_EQ(aclrtcCompileProg(&prog, 0, options), 176001);
  EXPECT_STREQ(aclrtGetSocName(), "Ascend910B1");
  EXPECT_EQ(aclFloat16ToFloat(3), 3.0f);
  EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 7u);
  aclAppLog(ACL_WARNING, "caller", "file.cc", 12, "%d-%s-%.1f", 7, "seven", 7.5);
  EXPECT_EQ(logged, "2 caller file.cc:12 7-seven-7.5");
  EXPECT_EQ(thread().last_error, ACL_SUCCESS);
  EXPECT_EQ(message(), "");
}

TEST_F(EntryPointsTest, BadAllocIsRecordedAsAclBadAlloc) {
  next_throw = Throw::kBadAlloc;
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_BAD_ALLOC);
  EXPECT_EQ(thread().last_error, ACL_ERROR_BAD_ALLOC);
  EXPECT_EQ(message(), "aclrtSetDevice failed (200000): out of memory");
}

TEST_F(EntryPointsTest, OtherExceptionsAreInternalErrors) {
  next_throw = Throw::kRuntimeError;
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_INTERNAL_ERROR);
  EXPECT_EQ(thread().last_error, ACL_ERROR_INTERNAL_ERROR);
  EXPECT_EQ(message(), "aclrtSetDevice failed (500000): C++ exception: the implementation failed");

  next_throw = Throw::kInt;
  EXPECT_EQ(aclrtSetDevice(0), ACL_ERROR_INTERNAL_ERROR);
  EXPECT_NE(message().find("no std::exception"), std::string::npos) << message();
  // The guard leaves nothing behind: the next call runs normally.
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

TEST_F(EntryPointsTest, RtcFunctionsAnswerWithRtcCodesAndRecordNothing) {
  int prog = 0;
  const char* options[] = {"-O2"};
  next_throw = Throw::kBadAlloc;
  EXPECT_EQ(aclrtcCompileProg(&prog, 1, options), 276001);
  EXPECT_EQ(message(), "aclrtcCompileProg failed (276001): out of memory");
  next_throw = Throw::kRuntimeError;
  EXPECT_EQ(aclrtcCompileProg(&prog, 1, options), 576000);
  EXPECT_EQ(message(),
            "aclrtcCompileProg failed (576000): C++ exception: the implementation failed");
  EXPECT_EQ(thread().last_error, ACL_SUCCESS) << "RTC codes are not runtime errors";
}

TEST_F(EntryPointsTest, FunctionsWithoutErrorResultsReturnNullOrZero) {
  next_throw = Throw::kBadAlloc;
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  EXPECT_EQ(message(), "aclrtGetSocName failed (200000): out of memory");
  next_throw = Throw::kRuntimeError;
  EXPECT_EQ(aclFloat16ToFloat(3), 0.0f);
  EXPECT_NE(message().find("aclFloat16ToFloat failed"), std::string::npos) << message();
  next_throw = Throw::kInt;
  EXPECT_EQ(aclGetDataBufferSizeV2(nullptr), 0u);
  EXPECT_NE(message().find("aclGetDataBufferSizeV2 failed"), std::string::npos) << message();
  EXPECT_EQ(thread().last_error, ACL_SUCCESS) << "only functions returning aclError record";
}

TEST_F(EntryPointsTest, VariadicFunctionsAreGuardedToo) {
  logged = "untouched";
  next_throw = Throw::kRuntimeError;
  aclAppLog(ACL_ERROR, "caller", "file.cc", 1, "%s", "text");
  EXPECT_EQ(logged, "untouched");
  EXPECT_NE(message().find("aclAppLog failed"), std::string::npos) << message();
}

}  // namespace
