// host_callbacks.h
//
// HostCallbacks: functions of the application that run when a stream
// reaches them — aclrtLaunchCallback (in a thread the application
// subscribed with aclrtSubscribeReport and that calls aclrtProcessReport)
// and aclrtLaunchHostFunc (in a thread subscribed with
// aclrtSubscribeHostFunc that calls aclrtProcessHostFunc, or else in a
// thread of the runtime).
//
// The function never leaves this process. The stream carries a
// LaunchHostCallback task; when npud's stream reaches it, npud announces it
// (HostCallbackDue) and this class hands it to its thread. Once it has run,
// the client answers HostCallbackDone, which lets a blocking callback's
// stream go on. A callback the stream drops (stop on failure, forced
// destruction) is announced as dropped and never runs. One whose thread
// unsubscribed before it was due goes to the stream's new thread, or is
// dropped with a warning (and answered, so its stream goes on). The
// session's receiving thread only queues: it never sends, and never runs
// callbacks.
//
// Threads are named by their pthread_t, as CANN's samples pass
// std::thread::id. The subscription rules and codes are CANN's: one report
// thread per stream (ACL_ERROR_RT_STREAM_SUBSCRIBE for a second), a thread
// serves one device (ACL_ERROR_RT_THREAD_SUBSCRIBE), aclrtLaunchCallback
// needs a subscribed stream (ACL_ERROR_RT_STREAM_NO_CB_REG), and a stream's
// report subscription and the runtime's host function thread exclude each
// other (ACL_ERROR_RT_STREAM_SUBSCRIBE).
//
// Thread-safe. Callbacks run with no lock held.

#ifndef NPUD_CLIENT_CORE_HOST_CALLBACKS_H_
#define NPUD_CLIENT_CORE_HOST_CALLBACKS_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "npud/v1/npud.pb.h"

namespace npud::client {

class HostCallbacks {
 public:
  // The two families: aclrt*Report with aclrtLaunchCallback, and
  // aclrt*HostFunc with aclrtLaunchHostFunc.
  enum class Kind { kReport, kHostFunc };

  // The process's instance; never destroyed (streams may run callbacks
  // while static destructors run).
  static HostCallbacks& Get();

  // aclrtSubscribeReport / aclrtSubscribeHostFunc.
  absl::Status Subscribe(Kind kind, uint64_t thread_id, uint64_t stream_id, int32_t device)
      ABSL_LOCKS_EXCLUDED(mu_);
  // aclrtUnSubscribeReport / aclrtUnSubscribeHostFunc.
  absl::Status Unsubscribe(Kind kind, uint64_t thread_id, uint64_t stream_id)
      ABSL_LOCKS_EXCLUDED(mu_);

  // aclrtLaunchCallback / aclrtLaunchHostFunc: queues `fn` for stream
  // `stream_id` on npud (a LaunchHostCallback call) and runs it when npud
  // says the stream is there.
  absl::Status Launch(Kind kind, uint64_t stream_id, std::function<void()> fn, bool blocking)
      ABSL_LOCKS_EXCLUDED(mu_);

  // aclrtProcessReport / aclrtProcessHostFunc in the calling thread: waits
  // up to `timeout_ms` (-1: forever) for callbacks of its streams and runs
  // all that are due. ACL_ERROR_RT_THREAD_SUBSCRIBE if the thread serves
  // no stream, ACL_ERROR_RT_REPORT_TIMEOUT if none came.
  absl::Status Process(Kind kind, int32_t timeout_ms) ABSL_LOCKS_EXCLUDED(mu_);

  // From the session's receiving thread: npud reached (or dropped) a
  // callback.
  void OnDue(const v1::HostCallbackDue& due) ABSL_LOCKS_EXCLUDED(mu_);

  // The stream is being destroyed: its subscriptions end.
  void ForgetStream(uint64_t stream_id) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  // Who runs a stream's callbacks.
  struct Subscription {
    int32_t device = 0;
    std::optional<uint64_t> report_thread;
    std::optional<uint64_t> host_func_thread;
    // aclrtLaunchHostFunc on a stream nobody subscribed: the runtime's
    // thread serves it from then on.
    bool runtime_thread = false;
  };
  // A launched callback until it has run or was dropped.
  struct Pending {
    std::function<void()> fn;
    // The queue it goes to when due.
    std::pair<Kind, uint64_t> runner;
    bool due = false;
  };
  // The queue of the runtime's own thread.
  static constexpr uint64_t kRuntimeThread = 0;

  HostCallbacks() = default;

  // True if `thread_id` serves some stream for `kind` (the runtime's thread
  // always does).
  bool ServesLocked(Kind kind, uint64_t thread_id) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // True if `runner` still runs stream `stream_id`'s callbacks.
  bool ServesStreamLocked(std::pair<Kind, uint64_t> runner, uint64_t stream_id) const
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Waits for due callbacks of `runner` until `deadline` and takes them.
  std::deque<uint64_t> TakeDueLocked(std::pair<Kind, uint64_t> runner, absl::Time deadline)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  // Runs the callbacks `ids` and tells npud they are done.
  void RunAndAnswer(const std::deque<uint64_t>& ids) ABSL_LOCKS_EXCLUDED(mu_);
  void RuntimeThreadLoop() ABSL_LOCKS_EXCLUDED(mu_);

  absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, Subscription> streams_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, Pending> pending_ ABSL_GUARDED_BY(mu_);
  // Due callbacks by the thread that runs them, in the order npud
  // announced them.
  absl::flat_hash_map<std::pair<Kind, uint64_t>, std::deque<uint64_t>> due_ ABSL_GUARDED_BY(mu_);
  uint64_t next_id_ ABSL_GUARDED_BY(mu_) = 1;
  // Started with the first host function it serves; runs until exit.
  std::optional<std::thread> runtime_thread_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_HOST_CALLBACKS_H_
