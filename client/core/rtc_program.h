// rtc_program.h
//
// Run-time compilation (aclrtc*) on the client side: a program is a client
// object holding the source, its name, headers, name expressions and the
// result of its last compilation. Compiling sends one synchronous
// CompileProgram call to the daemon, which runs the compiler (see
// daemon/kernel_compiler.h; the option rules both sides check are
// common/rtc_options.h); nothing else talks to the daemon.
//
// Program handles are ids tagged like the other ACL handles (handles.h),
// looked up in a process-wide registry, never dereferenced: a destroyed,
// foreign or garbage handle is ACL_ERROR_RTC_INVALID_PROG, not a crash.
// The registry keeps a program alive while a call uses it, so destroying a
// program while another thread compiles it is safe.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_RTC_PROGRAM_H_
#define NPUD_CLIENT_CORE_RTC_PROGRAM_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace npud::client::rtc {

// The RTC error codes (CANN's values; no public header declares them).
enum RtcCode : int {
  kRtcSuccess = 0,
  kRtcInvalidProg = 176000,
  kRtcInvalidInput = 176001,
  kRtcInvalidOption = 176002,
  kRtcCompilation = 176003,
  kRtcLinking = 176004,
  kRtcNoNameExprAfterCompilation = 176005,
  kRtcNoLoweredNamesBeforeCompilation = 176006,
  kRtcNameExprNotValid = 176007,
  kRtcProgCreationFailure = 276000,
  kRtcOutOfMemory = 276001,
  kRtcFailure = 576000,
};

// An RTC error as an absl::Status: `code` (not kRtcSuccess) rides as a
// payload next to the closest canonical code, as AclError() carries runtime
// codes (common/acl_status.h), but under its own key: RTC codes are not
// runtime codes, and ToAclCode() never mistakes one for the other.
absl::Status RtcError(RtcCode code, absl::string_view message);

// The RTC code a status stands for: kRtcSuccess if it is OK, the code given
// to RtcError(), or kRtcFailure for a status made elsewhere.
int RtcCodeOf(const absl::Status& status);

class Program {
 public:
  // `headers`: {include name, content}. The name "" becomes "default_program".
  Program(std::string source, std::string name,
          std::vector<std::pair<std::string, std::string>> headers);

  // Compiles with `options` in the daemon. kRtcInvalidOption for options the
  // daemon would refuse (checked here, no round trip), kRtcCompilation when
  // the compiler failed (the log says why), kRtcFailure when the daemon could
  // not be asked (the log says why too).
  absl::Status Compile(const std::vector<std::string>& options) ABSL_LOCKS_EXCLUDED(mu_);

  // Name expressions: only before the first compilation
  // (kRtcNoNameExprAfterCompilation after it).
  absl::Status AddNameExpression(const std::string& expression) ABSL_LOCKS_EXCLUDED(mu_);
  // The lowered name of an added expression: kRtcNoLoweredNamesBeforeCompilation
  // before a successful compilation; kRtcNameExprNotValid unless the expression
  // was added and names one of the program's extern "C" kernels (whose
  // lowered name is its own name). The string lives as long as the program.
  absl::StatusOr<const char*> LoweredName(const std::string& expression) ABSL_LOCKS_EXCLUDED(mu_);

  // The binary of the last successful compilation (empty before one).
  size_t BinarySize() const ABSL_LOCKS_EXCLUDED(mu_);
  void CopyBinary(char* out) const ABSL_LOCKS_EXCLUDED(mu_);
  // The log of the last compilation, plus its terminating NUL.
  size_t LogSize() const ABSL_LOCKS_EXCLUDED(mu_);
  void CopyLog(char* out) const ABSL_LOCKS_EXCLUDED(mu_);
  // The kernels of the last successful compilation.
  std::vector<std::string> Kernels() const ABSL_LOCKS_EXCLUDED(mu_);

  const std::string& name() const { return name_; }

 private:
  const std::string source_;
  const std::string name_;
  const std::vector<std::pair<std::string, std::string>> headers_;

  mutable absl::Mutex mu_;
  std::vector<std::string> name_expressions_ ABSL_GUARDED_BY(mu_);
  // Handed out by LoweredName; entries are never removed, so the strings stay.
  std::map<std::string, std::string> lowered_ ABSL_GUARDED_BY(mu_);
  bool compiled_ ABSL_GUARDED_BY(mu_) = false;  // a compilation was attempted
  bool success_ ABSL_GUARDED_BY(mu_) = false;   // ... and the last one succeeded
  std::string binary_ ABSL_GUARDED_BY(mu_);
  std::string log_ ABSL_GUARDED_BY(mu_);
  std::vector<std::string> kernels_ ABSL_GUARDED_BY(mu_);
};

// Checks the arguments of aclrtcCreateProg (kRtcInvalidInput) and registers a
// program; returns its handle.
absl::StatusOr<void*> CreateProgram(const char* source, const char* name, int header_count,
                                    const char* const* headers, const char* const* include_names);
// kRtcInvalidProg for `handle`, which names no live program.
absl::Status InvalidProgram(const void* handle);
// The program behind `handle`; InvalidProgram(handle) if it is not a live
// program handle.
absl::StatusOr<std::shared_ptr<Program>> FindProgram(const void* handle);
// Forgets the program; InvalidProgram(handle) if `handle` is not a live
// program handle.
absl::Status DestroyProgram(const void* handle);

}  // namespace npud::client::rtc

#endif  // NPUD_CLIENT_CORE_RTC_PROGRAM_H_
