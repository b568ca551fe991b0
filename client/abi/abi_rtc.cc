// RTC entry points (acl/acl_rt_compile.h): run-time compilation of AscendC
// kernels in the daemon. Exported by libacl_rt.so (libacl_rtc.so is the same
// library). The results are CANN's RTC codes; failures are not recorded as the
// runtime's last error (RTC is a library of its own in CANN) but their message
// is kept for aclGetRecentErrMsg and logged (RtcResult).

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "acl/acl_rt_compile.h"
#include "client/abi/abi_status.h"
#include "client/core/rtc_program.h"
#include "client/generated/acl_impl.h"

namespace rtc = npud::client::rtc;
using npud::client::RtcResult;

namespace {

aclError InvalidInput(const char* function, const std::string& message) {
  return RtcResult(rtc::RtcError(rtc::kRtcInvalidInput, message), function);
}

}  // namespace

// Returns 176001 from the calling RTC function if `arg` is null.
#define NPUD_RTC_REQUIRE_NOT_NULL(arg)                                             \
  do {                                                                             \
    if ((arg) == nullptr) return InvalidInput(__func__, #arg " must not be null"); \
  } while (false)

// Declares `program`, the live program behind `handle`, or returns 176000
// from the calling RTC function.
#define NPUD_RTC_FIND_PROGRAM(program, handle)                                    \
  absl::StatusOr<std::shared_ptr<rtc::Program>> found = rtc::FindProgram(handle); \
  if (!found.ok()) return RtcResult(found.status(), __func__);                    \
  const std::shared_ptr<rtc::Program> program = *std::move(found)

namespace npud::abi_impl {

aclError aclrtcCreateProg(aclrtcProg* prog, const char* src, const char* name, int numHeaders,
                          const char** headers, const char** includeNames) {
  if (prog == nullptr) return RtcResult(rtc::InvalidProgram(nullptr), __func__);
  absl::StatusOr<void*> handle = rtc::CreateProgram(src, name, numHeaders, headers, includeNames);
  if (handle.ok()) *prog = *handle;
  return RtcResult(handle.status(), __func__);
}

aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char** options) {
  NPUD_RTC_FIND_PROGRAM(program, prog);
  if (numOptions < 0) {
    return InvalidInput(__func__,
                        absl::StrCat("numOptions must not be negative (", numOptions, ")"));
  }
  if (numOptions > 0) NPUD_RTC_REQUIRE_NOT_NULL(options);
  std::vector<std::string> list;
  for (int i = 0; i < numOptions; ++i) {
    if (options[i] == nullptr) {
      return InvalidInput(__func__, absl::StrCat("options[", i, "] must not be null"));
    }
    list.emplace_back(options[i]);
  }
  return RtcResult(program->Compile(list), __func__);
}

aclError aclrtcAddNameExpr(aclrtcProg prog, const char* const nameExpression) {
  NPUD_RTC_FIND_PROGRAM(program, prog);
  NPUD_RTC_REQUIRE_NOT_NULL(nameExpression);
  if (*nameExpression == '\0') return InvalidInput(__func__, "nameExpression must not be empty");
  return RtcResult(program->AddNameExpression(nameExpression), __func__);
}

aclError aclrtcGetLoweredName(aclrtcProg prog, const char* nameExpression,
                              const char** loweredName) {
  NPUD_RTC_FIND_PROGRAM(program, prog);
  NPUD_RTC_REQUIRE_NOT_NULL(nameExpression);
  NPUD_RTC_REQUIRE_NOT_NULL(loweredName);
  absl::StatusOr<const char*> lowered = program->LoweredName(nameExpression);
  if (lowered.ok()) *loweredName = *lowered;
  return RtcResult(lowered.status(), __func__);
}

aclError aclrtcDestroyProg(aclrtcProg* prog) {
  if (prog == nullptr) return RtcResult(rtc::InvalidProgram(nullptr), __func__);
  const absl::Status destroyed = rtc::DestroyProgram(*prog);
  if (destroyed.ok()) *prog = nullptr;
  return RtcResult(destroyed, __func__);
}

aclError aclrtcGetBinData(aclrtcProg prog, char* binData) {
  NPUD_RTC_FIND_PROGRAM(program, prog);
  NPUD_RTC_REQUIRE_NOT_NULL(binData);
  program->CopyBinary(binData);
  return ACL_SUCCESS;
}

aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t* binDataSizeRet) {
  NPUD_RTC_FIND_PROGRAM(program, prog);
  NPUD_RTC_REQUIRE_NOT_NULL(binDataSizeRet);
  *binDataSizeRet = program->BinarySize();
  return ACL_SUCCESS;
}

aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t* logSizeRet) {
  NPUD_RTC_FIND_PROGRAM(program, prog);
  NPUD_RTC_REQUIRE_NOT_NULL(logSizeRet);
  *logSizeRet = program->LogSize();
  return ACL_SUCCESS;
}

aclError aclrtcGetCompileLog(aclrtcProg prog, char* log) {
  NPUD_RTC_FIND_PROGRAM(program, prog);
  NPUD_RTC_REQUIRE_NOT_NULL(log);
  program->CopyLog(log);
  return ACL_SUCCESS;
}

}  // namespace npud::abi_impl
