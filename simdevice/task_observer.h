// task_observer.h
//
// TaskObserver: told about every task a stream finishes, with the time it
// took on the device's clock — what timelines (trace_recorder.h) and the
// per-kernel metrics are made from. A stream without an observer reads no
// clock.

#ifndef NPUD_SIMDEVICE_TASK_OBSERVER_H_
#define NPUD_SIMDEVICE_TASK_OBSERVER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "simdevice/task.h"

namespace npud::sim {

class TaskObserver {
 public:
  virtual ~TaskObserver() = default;

  // `task` ran from `start_ns` (its first Run) to `end_ns` (done) on stream
  // `stream_id` of `device_id` (0 and -1 for a synchronous copy, which runs
  // outside streams) and ended with `status`. Called on the thread that ran
  // it, before the task retires, with no lock held; must not block.
  virtual void Finished(int device_id, uint64_t stream_id, const Task& task, int64_t start_ns,
                        int64_t end_ns, const absl::Status& status) = 0;
};

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_TASK_OBSERVER_H_
