// launch_observer.h
//
// LaunchObserver: what a kernel launch asks of, and tells, whoever made it —
// whether to time its blocks, its device printf output, its float overflow.
// One observer serves every launch of a session: a launch holds a reference
// to it instead of closures of its own (a launch is made a few hundred
// thousand times a second, and closures cost allocations each).

#ifndef NPUD_SIMDEVICE_LAUNCH_OBSERVER_H_
#define NPUD_SIMDEVICE_LAUNCH_OBSERVER_H_

#include <cstdint>
#include <string>

namespace npud::sim {

// Called from the threads that run and finish launches; must not block.
class LaunchObserver {
 public:
  virtual ~LaunchObserver() = default;

  // Asked when a launch starts to run: whether its spans include one per
  // block (a trace asked for blocks).
  virtual bool TimeBlocks() const = 0;
  // A launch on `stream_id` has finished and its blocks printed `text`.
  virtual void Print(uint64_t stream_id, std::string text) const = 0;
  // A launch on `device_id` has finished and one of its blocks raised the AI
  // core's float overflow status (kernel_blocks.h).
  virtual void FloatOverflow(int device_id) const = 0;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_LAUNCH_OBSERVER_H_
