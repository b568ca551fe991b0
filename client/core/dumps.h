// dumps.h
//
// Dumps: the process's dump state and what it writes (acl_dump.h,
// aclmdlInitDump/SetDump/FinalizeDump, the "dump" object of aclInit's
// configuration):
//
//  * operator data dumps: after an operator of npud's operator library ran
//    (DumpOperator), its tensors as a dump file under
//    "<dump_path>/<YYYYmmddHHMMSS>/<device>/" (DumpData header + bytes, see
//    acl/acl_dump.h), or handed to the registered sink instead of a file;
//  * operator argument records (aclopStartDumpArgs): a JSON description
//    per operator shape;
//  * the exception dump directory and tensors the program saves there.
//
// A dump makes its operator synchronous: DumpOperator waits for the stream
// and copies the tensors back before it writes, so everything is written
// when the operator's call returns.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_DUMPS_H_
#define NPUD_CLIENT_CORE_DUMPS_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "client/core/dump_config.h"

namespace npud::client {

// A tensor in device memory, as a dump describes it.
struct DumpTensor {
  enum class Role { kInput, kOutput, kWorkspace };
  Role role = Role::kOutput;
  int32_t data_type = 0;  // aclDataType
  int32_t format = 2;     // aclFormat (ND)
  std::vector<int64_t> shape;
  const void* address = nullptr;
  uint64_t bytes = 0;
};

class Dumps {
 public:
  // Where dump files go instead of the disk: (file name, the bytes of one
  // piece, whether it is the last).
  using Sink = std::function<void(const std::string& file, const std::string& bytes, bool last)>;

  static Dumps& Get();

  // aclInit's configuration text (empty: none): applies its "dump" object.
  absl::Status ApplyInitConfig(const std::string& json) ABSL_LOCKS_EXCLUDED(mu_);
  // aclmdlInitDump / aclmdlSetDump / aclmdlFinalizeDump, with CANN's order
  // checks (ACL_ERROR_UNINITIALIZE, _REPEAT_INITIALIZE, _DUMP_NOT_RUN).
  absl::Status InitModelDump() ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status SetModelDump(const char* config_path) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status FinalizeModelDump() ABSL_LOCKS_EXCLUDED(mu_);

  // acldumpGetPath (an acldumpType): null when there is none.
  const char* Path(int32_t type) ABSL_LOCKS_EXCLUDED(mu_);

  // The first sink stays until ClearSink (as CANN keeps its first callback).
  void SetSink(Sink sink) ABSL_LOCKS_EXCLUDED(mu_);
  void ClearSink() ABSL_LOCKS_EXCLUDED(mu_);

  // aclopStartDumpArgs / aclopStopDumpArgs (ACL_ERROR_FAILURE as in CANN).
  absl::Status StartArgs(uint32_t type, const char* path) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status StopArgs(uint32_t type) ABSL_LOCKS_EXCLUDED(mu_);

  // acldumpGetExceptionInfoPath: the current device's exception directory,
  // created; ACL_ERROR_FAILURE unless an exception scene is configured.
  absl::StatusOr<std::string> ExceptionInfoPath() ABSL_LOCKS_EXCLUDED(mu_);
  // acldumpSaveExceptionInfo, its arguments checked by the caller.
  absl::Status SaveExceptionInfo(const std::string& file_name, const std::string& user_tag,
                                 const std::vector<DumpTensor>& tensors) ABSL_LOCKS_EXCLUDED(mu_);

  // After operator `op_type` (`op_name`) was launched on `stream`: its data
  // dump and argument record, if either is on. Cheap when both are off.
  absl::Status DumpOperator(const std::string& op_type, const std::string& op_name,
                            const std::vector<DumpTensor>& tensors, const std::string& attrs_json,
                            void* stream) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // Sets the state from `config`.
  void Apply(const DumpConfig& config) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::string ExceptionRoot() const ABSL_SHARED_LOCKS_REQUIRED(mu_);
  absl::Status WriteDataDump(const std::string& op_type, const std::string& op_name,
                             const std::vector<DumpTensor>& tensors, void* stream)
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status WriteArgs(const std::string& op_type, const std::string& op_name,
                         const std::vector<DumpTensor>& tensors, const std::string& attrs_json)
      ABSL_LOCKS_EXCLUDED(mu_);

  mutable absl::Mutex mu_;
  // Data dumps: on, what, and where ("<dump_path>/<time>/"; kept when
  // turned off, as acldumpGetPath answers it).
  bool data_on_ ABSL_GUARDED_BY(mu_) = false;
  DumpConfig data_ ABSL_GUARDED_BY(mu_);
  std::optional<std::string> data_path_ ABSL_GUARDED_BY(mu_);
  // Exception scene and its root directory.
  std::optional<DumpConfig> exception_ ABSL_GUARDED_BY(mu_);
  std::string extra_path_ ABSL_GUARDED_BY(mu_);  // what Path() handed out last
  bool model_dump_ ABSL_GUARDED_BY(mu_) = false;
  Sink sink_ ABSL_GUARDED_BY(mu_);
  std::optional<std::string> args_path_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_set<std::string> args_written_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_DUMPS_H_
