// prof_subscriptions.h
//
// Model subscriptions (aclprofModelSubscribe / UnSubscribe): which model
// ids exist for profiling (MsprofSetDeviceIdByGeModelIdx, as model loading
// registers them in CANN), which are subscribed and to which file
// descriptor. The last unsubscription of a descriptor closes it and writes
// -1 into the program's int, as CANN does: a reader of the other end of a
// pipe sees its end.
//
// Thread-safe.

#ifndef NPUD_CLIENT_CORE_PROF_SUBSCRIPTIONS_H_
#define NPUD_CLIENT_CORE_PROF_SUBSCRIPTIONS_H_

#include <cstdint>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

// The opaque subscription configuration of acl_prof.h.
struct aclprofSubscribeConfig {
  bool time_info = false;
  int32_t metrics = 0;  // aclprofAicoreMetrics
  int* fd = nullptr;    // the program's
};

namespace npud::client {

class ProfSubscriptions {
 public:
  static ProfSubscriptions& Get();

  void RegisterModel(uint32_t model, uint32_t device) ABSL_LOCKS_EXCLUDED(mu_);
  void UnregisterModel(uint32_t model) ABSL_LOCKS_EXCLUDED(mu_);

  absl::Status Subscribe(uint32_t model, const aclprofSubscribeConfig* config)
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status Unsubscribe(uint32_t model) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Subscription {
    aclprofSubscribeConfig config;
    uint32_t device = 0;
  };

  absl::Mutex mu_;
  absl::flat_hash_map<uint32_t, uint32_t> devices_ ABSL_GUARDED_BY(mu_);  // model -> device
  absl::flat_hash_map<uint32_t, Subscription> subscribed_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_PROF_SUBSCRIPTIONS_H_
