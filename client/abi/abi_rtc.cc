// RTC entry points (acl/acl_rt_compile.h): run-time compilation of AscendC
// kernels in the daemon. Exported by libacl_rt.so (libacl_rtc.so is the same
// library). The results are CANN's RTC codes; failures are not recorded as the
// runtime's last error (RTC is a library of its own in CANN) but their message
// is kept for aclGetRecentErrMsg and logged.

#include <exception>
#include <new>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/acl_rt_compile.h"
#include "client/abi/abi_status.h"
#include "client/core/rtc_program.h"

// The header carries no visibility macro (as upstream's); the definitions do.
#define NPUD_RTC_EXPORT __attribute__((visibility("default")))

namespace rtc = npud::client::rtc;
using npud::client::RtcResult;

namespace {

aclError InvalidInput(const char* function, const std::string& message) {
  return RtcResult(rtc::RtcError(rtc::kRtcInvalidInput, message), function);
}

aclError NullArgument(const char* function, const char* what) {
  return InvalidInput(function, absl::StrCat(what, " must not be null"));
}

// Runs `body` (returning aclError) for the exported `function`, turning
// exceptions (allocation failures) into RTC codes: nothing may unwind into C
// callers.
template <typename Body>
aclError Guarded(const char* function, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return RtcResult(rtc::RtcError(rtc::kRtcOutOfMemory, "out of memory"), function);
  } catch (const std::exception& e) {
    return RtcResult(rtc::RtcError(rtc::kRtcFailure, e.what()), function);
  }
}

}  // namespace

// In the bodies below `fn` is the exported function's name (inside a lambda
// __func__ would be "operator()").

// Reports `arg` as invalid input and returns if it is null.
#define NPUD_RTC_REQUIRE(arg)                            \
  do {                                                   \
    if ((arg) == nullptr) return NullArgument(fn, #arg); \
  } while (false)

// Looks the program up (a local shared_ptr named `program`), or returns 176000.
#define NPUD_RTC_PROGRAM(handle)                                                  \
  absl::StatusOr<std::shared_ptr<rtc::Program>> found = rtc::FindProgram(handle); \
  if (!found.ok()) return RtcResult(found.status(), fn);                          \
  const std::shared_ptr<rtc::Program> program = *std::move(found)

extern "C" {

NPUD_RTC_EXPORT aclError aclrtcCreateProg(aclrtcProg* prog, const char* src, const char* name,
                                          int numHeaders, const char** headers,
                                          const char** includeNames) {
  if (prog == nullptr) return RtcResult(rtc::InvalidProgram(nullptr), __func__);
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    absl::StatusOr<void*> handle = rtc::CreateProgram(src, name, numHeaders, headers, includeNames);
    if (handle.ok()) *prog = *handle;
    return RtcResult(handle.status(), fn);
  });
}

NPUD_RTC_EXPORT aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char** options) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    if (numOptions < 0) {
      return InvalidInput(fn, absl::StrCat("numOptions must not be negative (", numOptions, ")"));
    }
    if (numOptions > 0) NPUD_RTC_REQUIRE(options);
    std::vector<std::string> list;
    for (int i = 0; i < numOptions; ++i) {
      if (options[i] == nullptr) {
        return InvalidInput(fn, absl::StrCat("options[", i, "] must not be null"));
      }
      list.emplace_back(options[i]);
    }
    return RtcResult(program->Compile(list), fn);
  });
}

NPUD_RTC_EXPORT aclError aclrtcAddNameExpr(aclrtcProg prog, const char* const nameExpression) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(nameExpression);
    if (*nameExpression == '\0') return InvalidInput(fn, "nameExpression must not be empty");
    return RtcResult(program->AddNameExpression(nameExpression), fn);
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetLoweredName(aclrtcProg prog, const char* nameExpression,
                                              const char** loweredName) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(nameExpression);
    NPUD_RTC_REQUIRE(loweredName);
    absl::StatusOr<const char*> lowered = program->LoweredName(nameExpression);
    if (lowered.ok()) *loweredName = *lowered;
    return RtcResult(lowered.status(), fn);
  });
}

NPUD_RTC_EXPORT aclError aclrtcDestroyProg(aclrtcProg* prog) {
  if (prog == nullptr) return RtcResult(rtc::InvalidProgram(nullptr), __func__);
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    const absl::Status destroyed = rtc::DestroyProgram(*prog);
    if (destroyed.ok()) *prog = nullptr;
    return RtcResult(destroyed, fn);
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetBinData(aclrtcProg prog, char* binData) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(binData);
    program->CopyBinary(binData);
    return ACL_SUCCESS;
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t* binDataSizeRet) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(binDataSizeRet);
    *binDataSizeRet = program->BinarySize();
    return ACL_SUCCESS;
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t* logSizeRet) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(logSizeRet);
    *logSizeRet = program->LogSize();
    return ACL_SUCCESS;
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetCompileLog(aclrtcProg prog, char* log) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(log);
    program->CopyLog(log);
    return ACL_SUCCESS;
  });
}

}  // extern "C"
