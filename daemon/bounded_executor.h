// bounded_executor.h
//
// BoundedExecutor: a fixed set of worker threads with a bounded queue, for
// daemon work that must not run on a session's own thread (compilations,
// the second half of large copies). Nothing grows without limit: when every
// worker is busy and the queue is full, Schedule() says so and the caller
// decides (answer "busy", or do the work itself).
//
// Jobs carry the id of the session they serve; when a session ends,
// Cancel() drops its jobs that have not started. Sessions share the queue
// fairly: waiting jobs start in turns, one per session with jobs waiting
// (not in arrival order), and one session may hold at most half of the
// queue's places, so a session that keeps it full cannot make another's
// single job wait behind all of its own, nor be refused outright.
//
// Thread-safe. The destructor drops queued jobs and joins the workers
// (waiting for running jobs).

#ifndef NPUD_DAEMON_BOUNDED_EXECUTOR_H_
#define NPUD_DAEMON_BOUNDED_EXECUTOR_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"

namespace npud::daemon {

class BoundedExecutor {
 public:
  // `name` for logs; `max_queued` jobs may wait besides the running ones
  // (0: a job is accepted only by an idle worker).
  BoundedExecutor(std::string name, int workers, size_t max_queued);
  ~BoundedExecutor();
  BoundedExecutor(const BoundedExecutor&) = delete;
  BoundedExecutor& operator=(const BoundedExecutor&) = delete;

  // Queues `job` for session `owner`; ResourceExhausted when full.
  absl::Status Schedule(uint64_t owner, std::function<void()> job) ABSL_LOCKS_EXCLUDED(mu_);
  // Drops the jobs of `owner` that have not started.
  void Cancel(uint64_t owner) ABSL_LOCKS_EXCLUDED(mu_);

  // Jobs running or queued now.
  size_t load() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Job {
    uint64_t owner;
    std::function<void()> run;
  };
  void WorkerLoop() ABSL_LOCKS_EXCLUDED(mu_);

  const std::string name_;
  const size_t max_queued_;
  mutable absl::Mutex mu_;
  // The waiting jobs of each session, and the sessions with jobs waiting
  // in the order their turns come (each appears once).
  absl::flat_hash_map<uint64_t, std::deque<Job>> waiting_ ABSL_GUARDED_BY(mu_);
  std::deque<uint64_t> turns_ ABSL_GUARDED_BY(mu_);
  size_t queued_ ABSL_GUARDED_BY(mu_) = 0;
  int idle_ ABSL_GUARDED_BY(mu_) = 0;
  int running_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::thread> workers_;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_BOUNDED_EXECUTOR_H_
