// count_notify.h
//
// CountNotify: a 32-bit device counter that streams update
// (aclrtCntNotifyRecord: set, add, or, and) and wait on until it meets a
// condition (aclrtCntNotifyWaitWithTimeout), optionally clearing it when the
// wait is satisfied. Unlike a Notify, a record is a value, not a flag: many
// waiters can each wait for their own threshold.
//
// Thread-safe.

#ifndef NPUD_SIMDEVICE_COUNT_NOTIFY_H_
#define NPUD_SIMDEVICE_COUNT_NOTIFY_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "simdevice/task.h"

namespace npud::sim {

class CountNotify {
 public:
  // aclrtCntNotifyRecordMode.
  enum class RecordMode : uint32_t { kSet = 0, kAdd = 1, kOr = 2, kAnd = 4 };
  // aclrtCntNotifyWaitMode: wait until count <, ==, >, >= value, or until
  // every bit of value is set in count.
  enum class WaitMode : uint32_t {
    kLess = 0,
    kEqual = 1,
    kGreater = 2,
    kGreaterOrEqual = 3,
    kAllBits = 4
  };

  CountNotify(int device_id, uint64_t id) : device_id_(device_id), id_(id) {}
  CountNotify(const CountNotify&) = delete;
  CountNotify& operator=(const CountNotify&) = delete;

  int device_id() const { return device_id_; }
  uint64_t id() const { return id_; }

  void Record(RecordMode mode, uint32_t value) ABSL_LOCKS_EXCLUDED(mu_);
  void Reset() ABSL_LOCKS_EXCLUDED(mu_);
  uint32_t count() const ABSL_LOCKS_EXCLUDED(mu_);
  // True if the count meets the condition (and then clears it if `clear`);
  // otherwise `wake` is called at the next change.
  bool CheckOrNotify(WaitMode mode, uint32_t value, bool clear, Waker wake)
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  void Changed() ABSL_LOCKS_EXCLUDED(mu_);

  const int device_id_;
  const uint64_t id_;
  mutable absl::Mutex mu_;
  uint32_t count_ ABSL_GUARDED_BY(mu_) = 0;
  std::vector<Waker> waiters_ ABSL_GUARDED_BY(mu_);
};

std::unique_ptr<Task> MakeCountRecordTask(std::shared_ptr<CountNotify> notify,
                                          CountNotify::RecordMode mode, uint32_t value);
std::unique_ptr<Task> MakeCountResetTask(std::shared_ptr<CountNotify> notify);
// Waits for the condition; with a nonzero `timeout` the stream fails with
// kRtWaitTimeout when it has not been met by then (`wake_at` arms the
// check).
std::unique_ptr<Task> MakeCountWaitTask(std::shared_ptr<CountNotify> notify,
                                        CountNotify::WaitMode mode, uint32_t value, bool clear,
                                        absl::Duration timeout, WakeAt wake_at);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_COUNT_NOTIFY_H_
