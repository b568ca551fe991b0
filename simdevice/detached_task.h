// detached_task.h
//
// RunDetached: runs a task outside any stream, to its end — for synchronous
// copies, which run behind a session's queued work without taking a stream
// but may still park (a read whose consumer is full). The task runs first
// on the calling thread, then on whichever thread calls its Waker, never on
// two at once.

#ifndef NPUD_SIMDEVICE_DETACHED_TASK_H_
#define NPUD_SIMDEVICE_DETACHED_TASK_H_

#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "simdevice/task.h"

namespace npud::sim {

// `done` gets the task's outcome once it is done.
void RunDetached(std::shared_ptr<Task> task, std::function<void(const absl::Status&)> done);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_DETACHED_TASK_H_
