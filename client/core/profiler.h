// profiler.h
//
// Profiler: the process's profiling collections (acl_prof.h's aclprofInit,
// SetConfig, Start, Stop, Finalize), with CANN's state machine: off, or
// controlled by those calls ("API" mode), or by model subscriptions
// (prof_subscriptions.h), never both (ACL_ERROR_PROF_API_CONFLICT).
//
// A collection, from Start to Stop, records the session's timeline in npud
// (a DaemonTrace of the profiling tracer) and in this process the ACL calls
// (ACL_PROF_ACL_API / RUNTIME_API) and markers (ACL_PROF_MSPROFTX). Stop
// writes them under the result directory as
//   PROF_<n>_<YYYYMMDDhhmmssmmm>_<pid><tag>/
//     host/{start_info,end_info,sample.json}, device_<id>/{start_info.<id>,end_info.<id>}
//     mindstudio_profiler_output/msprof_<time>.json     Chrome trace
//     mindstudio_profiler_output/op_summary_<time>.csv  one row per kernel
//     mindstudio_profiler_output/task_time_<time>.csv   one row per task
//     mindstudio_profiler_output/msprof_tx_<time>.csv   the markers
// CANN's raw binary data slices are not written.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_PROFILER_H_
#define NPUD_CLIENT_CORE_PROFILER_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "client/core/session_trace.h"

// The opaque configuration of acl_prof.h.
struct aclprofConfig {
  std::vector<uint32_t> devices;
  int32_t metrics = 0;  // aclprofAicoreMetrics
  uint64_t data_types = 0;
};

namespace npud::client {

class Profiler {
 public:
  static constexpr uint64_t kMsproftx = 0x80;  // ACL_PROF_MSPROFTX

  static Profiler& Get();

  // The checks of aclprofCreateConfig (a null configuration in CANN): the
  // reason a configuration is refused.
  static absl::Status CheckConfig(const uint32_t* devices, uint32_t count, bool has_events,
                                  uint64_t data_types);

  absl::Status Init(const char* path, size_t length) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status SetConfig(int32_t type, const char* value, size_t length) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Start(const aclprofConfig* config) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Stop(const aclprofConfig* config) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Finalize() ABSL_LOCKS_EXCLUDED(mu_);

  // Model subscriptions switch the mode (ACL_ERROR_PROF_API_CONFLICT while
  // API mode is on).
  absl::Status EnterSubscribeMode() ABSL_LOCKS_EXCLUDED(mu_);
  void LeaveSubscribeMode() ABSL_LOCKS_EXCLUDED(mu_);

 private:
  enum class Mode { kOff, kApi, kSubscribe };
  struct Collection {
    aclprofConfig config;
    std::string dir;  // PROF_... (absolute)
    DaemonTrace daemon;
    std::optional<uint64_t> calls;    // host call log cursor
    std::optional<uint64_t> markers;  // marker log cursor
  };

  absl::Status StartLocked(const aclprofConfig& config) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status StopLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  mutable absl::Mutex mu_;
  Mode mode_ ABSL_GUARDED_BY(mu_) = Mode::kOff;
  std::string root_ ABSL_GUARDED_BY(mu_);
  std::map<int32_t, std::string> settings_ ABSL_GUARDED_BY(mu_);  // SetConfig's
  std::optional<Collection> running_ ABSL_GUARDED_BY(mu_);
  uint32_t collections_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_PROFILER_H_
