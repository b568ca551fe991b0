// frame_guard.h
//
// FrameGuard: what a session's partial frames may cost (local protocol and
// framed sessions; gRPC bounds its messages with its own resource quota).
// A frame header may announce up to kMaxFrameBytes, and the reader's buffer
// grows as the bytes arrive, so a client that announces large frames and
// sends them slowly would hold that memory for as long as it likes. Hence,
// once the session is open:
//  * a frame's bytes past kFrameFirstStep are charged to the session's
//    memory quota while it is being read. The charge may pass the limit by
//    kOverdraft, more than any frame the client library builds, so that a
//    session at its limit still gets its calls answered (with 207001 where
//    they need memory); a frame past that ends the connection, with the
//    quota's message in npud's log;
//  * such a frame must be whole within a deadline from its first growth —
//    the hello timeout plus one second per MiB announced, i.e. the client
//    must sustain about 1 MiB/s — or the connection is cut.
// Smaller frames are not timed: 64 KiB per connection is what an idle
// session costs anyway.
//
// One guard per connection, used by its reader thread; the deadline runs on
// a shared DelayedExecutor.

#ifndef NPUD_DAEMON_FRAME_GUARD_H_
#define NPUD_DAEMON_FRAME_GUARD_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/frame_io.h"
#include "daemon/delayed_executor.h"
#include "daemon/session/session_limits.h"

namespace npud::daemon {

class FrameGuard final : public FrameAllowance {
 public:
  // The client library's frames hold at most a 16 MiB copy piece (copies
  // without a bulk channel) and a batch's 4 MiB of small calls.
  static constexpr uint64_t kOverdraft = 32 << 20;

  // `cut` ends the connection (its reader then fails); it is never called
  // after the guard is destroyed. `timers` must outlive the guard.
  FrameGuard(DelayedExecutor* timers, absl::Duration base_deadline, std::function<void()> cut);
  // Gives back what is charged.
  ~FrameGuard() override;
  FrameGuard(const FrameGuard&) = delete;
  FrameGuard& operator=(const FrameGuard&) = delete;

  // From now on frames are charged to `quota` (the session's).
  void ChargeTo(std::shared_ptr<MemoryQuota> quota);

  absl::Status Grow(size_t bytes, uint32_t length) override;

  // The frame in `buffer` was handed over (or the read failed): its charge
  // goes back, its deadline no longer applies, and a buffer that grew past
  // kFrameFirstStep is freed with it.
  void FrameDone(std::string* buffer);

  // Whether the current frame grew past kFrameFirstStep (charged and timed).
  bool large() const { return timing_; }

 private:
  struct Watch;  // shared with the deadline timers

  // Gives back the current frame's charge and ends its deadline.
  void Uncharge();

  DelayedExecutor* const timers_;
  const absl::Duration base_deadline_;
  const std::shared_ptr<Watch> watch_;
  std::shared_ptr<MemoryQuota> quota_;
  bool timing_ = false;   // the current frame grew: charged and timed
  uint64_t charged_ = 0;  // bytes of the current frame counted in quota_
  uint64_t frames_ = 0;   // frames timed so far; names the current one
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_FRAME_GUARD_H_
