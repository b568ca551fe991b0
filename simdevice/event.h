// event.h
//
// Event: a device event that streams record, wait on and reset.
//
// Every record is numbered (a ticket) when it is submitted, in call order. A
// wait submitted later targets the newest ticket at that moment and is
// satisfied once a record with that ticket (or a newer one) has executed:
// records that happen after the wait was issued do not matter, as in CANN.
// After a reset has been submitted, waits target the next record instead,
// which is how samples reuse one event as a notification. A wait on an event
// that was never recorded does not wait.
//
// Events made with ACL_EVENT_EXTERNAL (for updates of captured models) are
// flags instead: a wait, when it runs, passes if the event is recorded and
// not reset since, and otherwise waits for the next record. A model that
// waits for such an event and resets it thus waits again on its next run.
//
// Thread-safe.

#ifndef NPUD_SIMDEVICE_EVENT_H_
#define NPUD_SIMDEVICE_EVENT_H_

#include <cstdint>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "simdevice/task.h"

namespace npud::sim {

class Event {
 public:
  Event(int device_id, uint64_t id, uint32_t flags)
      : device_id_(device_id), id_(id), flags_(flags) {}
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  int device_id() const { return device_id_; }
  uint64_t id() const { return id_; }
  uint32_t flags() const { return flags_; }

  // Submission side, called in call order.
  // A record was submitted; returns its ticket.
  uint64_t SubmitRecord() ABSL_LOCKS_EXCLUDED(mu_);
  // A reset was submitted.
  void SubmitReset() ABSL_LOCKS_EXCLUDED(mu_);
  // ACL_EVENT_EXTERNAL.
  static constexpr uint32_t kFlagEvent = 0x20;
  // The target of waits on flag events: the event is set when the wait runs.
  static constexpr uint64_t kUntilSet = ~uint64_t{0};

  // The ticket a wait submitted now must see executed (or kUntilSet); 0
  // means no wait.
  uint64_t WaitTarget() const ABSL_LOCKS_EXCLUDED(mu_);
  // The ticket a host synchronize issued now waits for; 0 means no wait.
  uint64_t SyncTarget() const ABSL_LOCKS_EXCLUDED(mu_);

  // Execution side, called by stream tasks.
  void CompleteRecord(uint64_t ticket) ABSL_LOCKS_EXCLUDED(mu_);
  void CompleteReset() ABSL_LOCKS_EXCLUDED(mu_);

  // True if `target` has executed; otherwise `wake` is called once it has.
  bool ReachedOrNotify(uint64_t target, Waker wake) ABSL_LOCKS_EXCLUDED(mu_);

  // aclrtQueryEventStatus: recorded, executed and not reset since.
  bool Complete() const ABSL_LOCKS_EXCLUDED(mu_);
  // A record was ever submitted.
  bool Recorded() const ABSL_LOCKS_EXCLUDED(mu_);
  // Every submitted record has executed (its timestamp is final).
  bool RecordsExecuted() const ABSL_LOCKS_EXCLUDED(mu_);
  // Monotonic time of the newest executed record in microseconds, or 0.
  uint64_t timestamp_us() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  const int device_id_;
  const uint64_t id_;
  const uint32_t flags_;

  mutable absl::Mutex mu_;
  uint64_t submitted_ ABSL_GUARDED_BY(mu_) = 0;
  uint64_t executed_ ABSL_GUARDED_BY(mu_) = 0;
  // A reset was submitted after the newest record.
  bool reset_pending_ ABSL_GUARDED_BY(mu_) = false;
  // A reset executed after the newest executed record.
  bool reset_done_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t timestamp_us_ ABSL_GUARDED_BY(mu_) = 0;
  struct Waiter {
    uint64_t target;
    Waker wake;
  };
  std::vector<Waiter> waiters_ ABSL_GUARDED_BY(mu_);
};

// Microseconds of the monotonic clock, the time base of event timestamps.
uint64_t MonotonicMicros();

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_EVENT_H_
