// send_budget.h
//
// SendBudget: how much of what npud sent a client the client has not read
// yet, and the waiting that bounds it (MessageSink's contract): the
// session's reader waits for room before each batch, paced producers park
// until there is room, and past the hard limit the connection is given up.
// Shared by the sinks of the gRPC and local servers, which count bytes in
// when they queue a message and out when the socket took it.
//
// Thread-safe. Wakers are always called without the budget's lock held.

#ifndef NPUD_DAEMON_SEND_BUDGET_H_
#define NPUD_DAEMON_SEND_BUDGET_H_

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "daemon/message_sink.h"

namespace npud::daemon {

class SendBudget {
 public:
  SendBudget(size_t soft_limit, size_t hard_limit)
      : soft_limit_(soft_limit), hard_limit_(hard_limit) {}

  // Counts `bytes` in; false (nothing counted) if that would pass the hard
  // limit: the client is not reading and the connection should end.
  bool Add(size_t bytes) ABSL_LOCKS_EXCLUDED(mu_);
  // Counts `bytes` out (the client took them); wakes waiters once below the
  // soft limit.
  void Remove(size_t bytes) ABSL_LOCKS_EXCLUDED(mu_);
  // The connection is over: from now on there is always room (senders find
  // out by themselves that nothing gets through), and every waiter wakes.
  void End() ABSL_LOCKS_EXCLUDED(mu_);

  size_t unread() const ABSL_LOCKS_EXCLUDED(mu_);
  // MessageSink::WaitForRoom and MessageSink::ReadyOrWake.
  bool WaitForRoom(absl::Duration timeout) ABSL_LOCKS_EXCLUDED(mu_);
  bool ReadyOrWake(std::function<void()> wake) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  bool RoomLocked() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return ended_ || unread_ < soft_limit_;
  }
  // Calls and forgets the waiters if there is room.
  void WakeIfRoom() ABSL_LOCKS_EXCLUDED(mu_);

  const size_t soft_limit_;
  const size_t hard_limit_;
  mutable absl::Mutex mu_;
  size_t unread_ ABSL_GUARDED_BY(mu_) = 0;
  bool ended_ ABSL_GUARDED_BY(mu_) = false;
  std::vector<std::function<void()>> waiters_ ABSL_GUARDED_BY(mu_);
};

// A MessageSink whose unread bytes a SendBudget bounds: subclasses count
// bytes into budget_ as they queue them and out as the client takes them,
// and End() it when the connection is over.
class BudgetedSink : public MessageSink {
 public:
  bool WaitForRoom(absl::Duration timeout) override { return budget_.WaitForRoom(timeout); }
  bool ReadyOrWake(std::function<void()> wake) override {
    return budget_.ReadyOrWake(std::move(wake));
  }

 protected:
  SendBudget budget_{kSoftLimitBytes, kHardLimitBytes};
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SEND_BUDGET_H_
