// event_tasks.h
//
// Stream tasks that record, wait on and reset an Event. Create them in call
// order: the constructors take the event's submission-side ticket.

#ifndef NPUD_SIMDEVICE_EVENT_TASKS_H_
#define NPUD_SIMDEVICE_EVENT_TASKS_H_

#include <memory>

#include "simdevice/event.h"
#include "simdevice/task.h"

namespace npud::sim {

std::unique_ptr<Task> MakeRecordEventTask(std::shared_ptr<Event> event);
// Waits for the event's latest record; with a nonzero `timeout` the stream
// fails with kRtWaitTimeout when it has not completed by then (`wake_at`
// arms the check).
std::unique_ptr<Task> MakeWaitEventTask(std::shared_ptr<Event> event,
                                        absl::Duration timeout = absl::ZeroDuration(),
                                        WakeAt wake_at = nullptr);
std::unique_ptr<Task> MakeResetEventTask(std::shared_ptr<Event> event);

}  // namespace npud::sim

#endif  // NPUD_SIMDEVICE_EVENT_TASKS_H_
