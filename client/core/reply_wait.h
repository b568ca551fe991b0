// reply_wait.h
//
// ReplyWait: how a thread waits for its daemon's reply. A synchronous call
// that the daemon answers at once comes back in about one socket round trip;
// sleeping on it adds a wake-up of the waiting thread to every such call
// (the session's reader thread reads the reply and must then wake the
// caller), which is a third of a round trip on a small VM. So the caller
// first polls for the reply for a short window, and sleeps only if it has
// not come by then.
//
// Polling burns a CPU that the session's other threads (the bulk channel's
// sender, the reader) or other processes may need, so a thread stops polling
// once its replies keep coming too late for the window (long copies, kernels
// that run): after kMissesBeforeBackoff misses in a row it polls only every
// kProbeInterval-th wait, and polls again as usual once one of those comes
// within the window.
//
// The window is NPUD_REPLY_SPIN_US (default 100 µs; 0 turns polling off),
// and 0 on a machine with a single CPU, where the poller would only keep the
// reader from running.

#ifndef NPUD_CLIENT_CORE_REPLY_WAIT_H_
#define NPUD_CLIENT_CORE_REPLY_WAIT_H_

#include <cstdint>

#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

namespace npud::client {

class ReplyWait {
 public:
  static constexpr int kMissesBeforeBackoff = 3;
  static constexpr uint32_t kProbeInterval = 16;

  explicit ReplyWait(absl::Duration window) : window_(window) {}

  // The process's window (read once from the environment).
  static absl::Duration DefaultWindow();
  // This thread's policy with the default window.
  static ReplyWait& ForThisThread();

  // Returns once `done` has been notified, polling for it first when the
  // policy says so.
  void Wait(const absl::Notification& done);

  // The policy alone (Wait uses these): whether the next wait polls, and
  // what it saw (`in_time`: the reply came within the window).
  bool ShouldPoll();
  void Record(bool in_time);

 private:
  const absl::Duration window_;
  int misses_ = 0;
  uint32_t waits_since_backoff_ = 0;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_REPLY_WAIT_H_
