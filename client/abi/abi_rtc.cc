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
#include "absl/strings/str_format.h"
#include "acl/acl_rt_compile.h"
#include "client/core/client_log.h"
#include "client/core/rtc_program.h"
#include "client/core/thread_state.h"

// The header carries no visibility macro (as upstream's); the definitions do.
#define NPUD_RTC_EXPORT __attribute__((visibility("default")))

namespace rtc = npud::client::rtc;

namespace {

aclError Report(const char* function, const rtc::RtcStatus& status) {
  if (status.ok()) return 0;
  npud::client::ThreadState& thread = npud::client::ThisThread();
  thread.last_message = absl::StrCat(function, " failed (", status.code, "): ", status.message);
  npud::client::ClientLog().warn("{}", thread.last_message);
  return status.code;
}

aclError InvalidProgram(const char* function, const void* prog) {
  return Report(function, rtc::RtcFail(rtc::kRtcInvalidProg,
                                       prog == nullptr
                                           ? std::string("the program is null")
                                           : absl::StrFormat("%p is not a live aclrtcProg", prog)));
}

aclError NullArgument(const char* function, const char* what) {
  return Report(function,
                rtc::RtcFail(rtc::kRtcInvalidInput, absl::StrCat(what, " must not be null")));
}

// Runs `body` (returning aclError) for the exported `function`, turning
// exceptions (allocation failures) into RTC codes: nothing may unwind into C
// callers.
template <typename Body>
aclError Guarded(const char* function, Body body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return Report(function, rtc::RtcFail(rtc::kRtcOutOfMemory, "out of memory"));
  } catch (const std::exception& e) {
    return Report(function, rtc::RtcFail(rtc::kRtcFailure, e.what()));
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
#define NPUD_RTC_PROGRAM(handle)                                    \
  std::shared_ptr<rtc::Program> program = rtc::FindProgram(handle); \
  if (program == nullptr) return InvalidProgram(fn, handle)

extern "C" {

NPUD_RTC_EXPORT aclError aclrtcCreateProg(aclrtcProg* prog, const char* src, const char* name,
                                          int numHeaders, const char** headers,
                                          const char** includeNames) {
  if (prog == nullptr) return InvalidProgram(__func__, nullptr);
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    void* handle = nullptr;
    const rtc::RtcStatus status =
        rtc::CreateProgram(src, name, numHeaders, headers, includeNames, &handle);
    if (status.ok()) *prog = handle;
    return Report(fn, status);
  });
}

NPUD_RTC_EXPORT aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char** options) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    if (numOptions < 0) {
      return Report(
          fn, rtc::RtcFail(rtc::kRtcInvalidInput,
                           absl::StrCat("numOptions must not be negative (", numOptions, ")")));
    }
    if (numOptions > 0) NPUD_RTC_REQUIRE(options);
    std::vector<std::string> list;
    for (int i = 0; i < numOptions; ++i) {
      if (options[i] == nullptr) {
        return Report(fn, rtc::RtcFail(rtc::kRtcInvalidInput,
                                       absl::StrCat("options[", i, "] must not be null")));
      }
      list.emplace_back(options[i]);
    }
    return Report(fn, program->Compile(list));
  });
}

NPUD_RTC_EXPORT aclError aclrtcAddNameExpr(aclrtcProg prog, const char* const nameExpression) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(nameExpression);
    if (*nameExpression == '\0') {
      return Report(fn, rtc::RtcFail(rtc::kRtcInvalidInput, "nameExpression must not be empty"));
    }
    return Report(fn, program->AddNameExpression(nameExpression));
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetLoweredName(aclrtcProg prog, const char* nameExpression,
                                              const char** loweredName) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(nameExpression);
    NPUD_RTC_REQUIRE(loweredName);
    return Report(fn, program->LoweredName(nameExpression, loweredName));
  });
}

NPUD_RTC_EXPORT aclError aclrtcDestroyProg(aclrtcProg* prog) {
  if (prog == nullptr) return InvalidProgram(__func__, nullptr);
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    if (!rtc::DestroyProgram(*prog)) return InvalidProgram(fn, *prog);
    *prog = nullptr;
    return 0;
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetBinData(aclrtcProg prog, char* binData) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(binData);
    program->CopyBinary(binData);
    return 0;
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t* binDataSizeRet) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(binDataSizeRet);
    *binDataSizeRet = program->BinarySize();
    return 0;
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t* logSizeRet) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(logSizeRet);
    *logSizeRet = program->LogSize();
    return 0;
  });
}

NPUD_RTC_EXPORT aclError aclrtcGetCompileLog(aclrtcProg prog, char* log) {
  const char* const fn = __func__;
  return Guarded(fn, [&]() -> aclError {
    NPUD_RTC_PROGRAM(prog);
    NPUD_RTC_REQUIRE(log);
    program->CopyLog(log);
    return 0;
  });
}

}  // extern "C"
