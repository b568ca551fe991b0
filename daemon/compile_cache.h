// compile_cache.h
//
// CompileCache: what the run-time compiler remembers, so that a program is not
// compiled twice. Compiling takes seconds, and clients compile the same program
// again and again (every process of a job, every run of a test), so:
//   * the last `capacity` results are kept, least recently used dropped first;
//   * a request identical to one being compiled right now waits for that
//     compilation instead of starting its own, and gets the same result.
// Keys are whole requests (KernelCompiler makes them); a result is kept only when
// its computation says it may be, e.g. not after a timeout, which another try
// might not hit.
//
// Thread-safe. Computations run without the lock held.

#ifndef NPUD_DAEMON_COMPILE_CACHE_H_
#define NPUD_DAEMON_COMPILE_CACHE_H_

#include <cstddef>
#include <list>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "daemon/compile_request.h"

namespace npud::daemon {

class CompileCache {
 public:
  // 0: nothing is kept; identical requests in flight are still shared.
  explicit CompileCache(size_t capacity);
  CompileCache(const CompileCache&) = delete;
  CompileCache& operator=(const CompileCache&) = delete;

  // The result for `key`: a kept one, or the one of an identical computation in
  // flight, with from_cache set; else what `compute` returns, kept if it sets
  // *cacheable. A result that is not cacheable (a compiler killed with the
  // session that asked, or out of time) is its caller's alone: whoever waited
  // for it computes again. `compute` must not throw.
  CompileOutput GetOrCompute(const std::string& key,
                             absl::FunctionRef<CompileOutput(bool* cacheable)> compute)
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Entry {
    std::string key;
    CompileOutput output;
  };
  // A computation in flight; `done` and `output` are guarded by mu_.
  struct InFlight {
    bool done = false;
    bool cacheable = false;
    CompileOutput output;
  };

  void Keep(const std::string& key, const CompileOutput& output) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const size_t capacity_;
  absl::Mutex mu_;
  // Most recently used first; index_ keys are views of the entries' own keys.
  std::list<Entry> lru_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<absl::string_view, std::list<Entry>::iterator> index_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<std::string, std::shared_ptr<InFlight>> in_flight_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_COMPILE_CACHE_H_
