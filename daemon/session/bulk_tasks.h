// bulk_tasks.h
//
// Copy tasks whose host-side bytes travel over the session's bulk channel
// (bulk_link.h): they start their transfer when their stream reaches them
// and park it until the bytes have moved.

#ifndef NPUD_DAEMON_SESSION_BULK_TASKS_H_
#define NPUD_DAEMON_SESSION_BULK_TASKS_H_

#include <cstdint>
#include <memory>

#include "daemon/message_sink.h"
#include "daemon/session/bulk_link.h"
#include "simdevice/device_range.h"
#include "simdevice/task.h"

namespace npud::daemon {

// Host-to-device: pulls the client's bytes of `transfer` into `dst`.
std::unique_ptr<sim::Task> MakeBulkReceiveTask(std::shared_ptr<BulkLink> link, uint64_t transfer,
                                               sim::DeviceRange dst);

// Device-to-host: sends the bytes of `src`, then ends the transfer on the
// session stream (a DataChunk with `bulk` and `last`, through `sink`), so
// the client has the bytes before any later reply.
std::unique_ptr<sim::Task> MakeBulkSendTask(std::shared_ptr<BulkLink> link, uint64_t transfer,
                                            sim::DeviceRange src,
                                            std::shared_ptr<MessageSink> sink);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_BULK_TASKS_H_
