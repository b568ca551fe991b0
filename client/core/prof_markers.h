// prof_markers.h
//
// The markers a program sets for its timeline, as CANN's two APIs for them
// behave:
//
//  * msproftx (acl_prof.h): stamps from a pool of 100 that exists from a
//    collection started with ACL_PROF_MSPROFTX to aclprofFinalize; marks,
//    a process-wide push/pop stack, ranges by stamp. Their own failures
//    answer -1 (kAclProfTxFailed), null arguments 100000 where CANN checks
//    them first.
//  * mstx (mstx/ms_tools_ext.h, through InitInjectionMstx): marks and
//    ranges, globally or in named domains; ids from one counter; calls
//    while nothing records are no-ops and ranges get id 0.
//
// Both record into MarkerLog (host_trace.h), which NPUD_TRACE and
// profiling collections read.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_PROF_MARKERS_H_
#define NPUD_CLIENT_CORE_PROF_MARKERS_H_

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace npud::client {

class ProfMarkers {
 public:
  static constexpr size_t kStamps = 100;
  static constexpr size_t kMaxStampMessage = 128;

  // What aclprofCreateStamp hands out.
  struct Stamp {
    uint32_t index = 0;
    std::string message;
    bool in_use = false;
    // RangeStart's: a range is open.
    bool range_open = false;
    int64_t range_start_ns = 0;
    int range_thread = 0;
  };

  static ProfMarkers& Get();

  // msproftx.
  Stamp* CreateStamp() ABSL_LOCKS_EXCLUDED(mu_);
  void DestroyStamp(Stamp* stamp) ABSL_LOCKS_EXCLUDED(mu_);
  // The pool comes with a collection started with ACL_PROF_MSPROFTX (kept
  // if it exists) and goes at aclprofFinalize: stamps the program still
  // holds die then.
  void CreatePool() ABSL_LOCKS_EXCLUDED(mu_);
  void DestroyPool() ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status SetMessage(Stamp* stamp, const char* message, uint32_t length)
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Mark(Stamp* stamp) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status MarkEx(const char* message, size_t length, void* stream) ABSL_LOCKS_EXCLUDED(mu_);
  // aclrtProfTrace: `length` (1 to 18) bytes of CANN's packed trace record
  // {u64 id, u64 model id, u16 tag}, zero-filled past them, marked now.
  absl::Status ProfTrace(const void* userdata, int32_t length, void* stream)
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Push(Stamp* stamp) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status PushNamed(uint64_t name_id) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Pop() ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status RangeStart(Stamp* stamp, uint32_t* range_id) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status RangeStop(uint32_t range_id) ABSL_LOCKS_EXCLUDED(mu_);
  // aclprofGetStepTimestamp: step `index` starts or ends now.
  void Step(uint64_t index, bool start) ABSL_LOCKS_EXCLUDED(mu_);
  // aclprofStr2Id: a stable id for `message`, which PushNamed then shows.
  uint64_t StringId(const char* message) ABSL_LOCKS_EXCLUDED(mu_);

  // mstx. A domain is a handle (never "default", which is the global one;
  // one handle per name).
  void* CreateDomain(const char* name) ABSL_LOCKS_EXCLUDED(mu_);
  void DestroyDomain(void* domain) ABSL_LOCKS_EXCLUDED(mu_);
  void MstxMark(void* domain, const char* message) ABSL_LOCKS_EXCLUDED(mu_);
  uint64_t MstxRangeStart(void* domain, const char* message) ABSL_LOCKS_EXCLUDED(mu_);
  void MstxRangeEnd(void* domain, uint64_t id) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Open {
    std::string message;
    std::string domain;
    int64_t start_ns = 0;
    int thread = 0;
  };
  struct Domain {
    std::string name;
  };

  // msproftx's calls need a pool (kAclProfTxFailed without).
  absl::Status NeedPool() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void RecordRange(const Open& open, uint64_t id) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  std::string DomainName(void* domain) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  absl::Mutex mu_;
  std::unique_ptr<std::array<Stamp, kStamps>> pool_ ABSL_GUARDED_BY(mu_);
  std::vector<Open> stack_ ABSL_GUARDED_BY(mu_);  // Push/Pop, process-wide as in CANN
  absl::flat_hash_map<uint64_t, std::string> strings_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::unique_ptr<Domain>> domains_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, Open> mstx_ranges_ ABSL_GUARDED_BY(mu_);
  uint64_t next_mstx_id_ ABSL_GUARDED_BY(mu_) = 1;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_PROF_MARKERS_H_
