// poller.h
//
// Poller: wakes parked tasks that wait for something nothing announces —
// a value in device memory written by a kernel or another process
// (aclrtValueWait). A registered waker is called once, about a tenth of a
// millisecond later, on the poller's thread; the task then checks again.
//
// Thread-safe.

#ifndef NPUD_SIMDEVICE_POLLER_H_
#define NPUD_SIMDEVICE_POLLER_H_

#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/task.h"

namespace npud::sim {

class Poller {
 public:
  Poller();
  ~Poller();
  Poller(const Poller&) = delete;
  Poller& operator=(const Poller&) = delete;

  void WakeSoon(Waker wake) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Loop() ABSL_LOCKS_EXCLUDED(mu_);

  absl::Mutex mu_;
  std::vector<Waker> waiting_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_POLLER_H_
