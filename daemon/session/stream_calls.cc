// Stream and event calls: creation with client-minted ids, ordering between
// streams, queries and synchronizes.

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/session/calls.h"
#include "daemon/session/sync_waiter.h"
#include "simdevice/event_tasks.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

v1::Reply CompletionReply(bool complete) {
  v1::Reply reply;
  reply.mutable_status()->set_status(complete ? v1::COMPLETION_DONE : v1::COMPLETION_PENDING);
  return reply;
}

}  // namespace

// --- Streams ---------------------------------------------------------------

Outcome CreateStream(SessionState& s, const v1::CreateStream& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  NPUD_RETURN_IF_ERROR(
      CheckCount(s.streams.size(), s.services.limits.streams, kRtNoStreamResource, "streams"));
  return Done(s.streams.Add(op.stream_id(),
                            std::make_shared<sim::Stream>(op.device_id(), op.stream_id(),
                                                          &s.devices().scheduler(), s.timeline)));
}

void DestroyStream(SessionState& s, uint64_t call_id, const v1::DestroyStream& op) {
  auto stream = s.streams.Take(op.stream_id());
  if (!stream.ok()) return s.Finish(call_id, 0, stream.status());
  s.models.Abandon(op.stream_id());
  // Work already given to the stream completes (launched kernels print and
  // write their results, as on a device); a force destroy only drops what
  // waits on other streams or processes, which might never come.
  if (op.force()) (*stream)->CancelWaits(absl::CancelledError("stream force-destroyed"));
  auto waiter = std::make_shared<SyncWaiter>(s.sink(), call_id, kRtTimeout);
  (*stream)->NotifyWhenDrained(
      [waiter, keep = *stream](const absl::Status&) { waiter->Complete(absl::OkStatus()); },
      /*take_error=*/false);
}

void SynchronizeStream(SessionState& s, uint64_t call_id, const v1::SynchronizeStream& op) {
  auto stream = s.streams.Find(op.stream_id());
  if (!stream.ok()) return s.Finish(call_id, 0, stream.status());
  auto waiter = std::make_shared<SyncWaiter>(s.sink(), call_id, kRtStreamSyncTimeout);
  waiter->ArmTimeout(s.services.timers, op.timeout_ms());
  std::weak_ptr<sim::Stream> weak = *stream;
  (*stream)->NotifyWhenDrained([waiter, weak](const absl::Status& status) {
    // Too late (timed out): keep the error for the next synchronize.
    if (!waiter->Complete(status) && !status.ok()) {
      if (auto stream = weak.lock()) stream->RecordError(status);
    }
  });
}

Outcome QueryStream(SessionState& s, const v1::QueryStream& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Stream> stream, s.streams.Find(op.stream_id()));
  v1::Reply reply = CompletionReply(stream->Idle());
  reply.mutable_status()->set_last_task_id(stream->last_task_id());
  return reply;
}

Outcome AbortStream(SessionState& s, const v1::AbortStream& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Stream> stream, s.streams.Find(op.stream_id()));
  if (s.models.Records(op.stream_id())) {
    return AclError(kRtFeatureNotSupport,
                    absl::StrFormat("stream %d records into a model: it has no tasks to abort",
                                    op.stream_id()));
  }
  spdlog::info("session {}: stream {} aborted", s.id, op.stream_id());
  stream->Discard(AclError(kRtStreamAbort, absl::StrFormat("stream %d aborted", op.stream_id())));
  return v1::Reply();
}

void AbortDevice(SessionState& s, uint64_t call_id, const v1::AbortDevice& op) {
  if (absl::Status device = s.devices().Get(op.device_id()).status(); !device.ok()) {
    return s.Finish(call_id, 0, device);
  }
  std::vector<std::shared_ptr<sim::Stream>> streams;
  for (auto& stream : s.streams.All()) {
    if (stream->device_id() == op.device_id()) streams.push_back(std::move(stream));
  }
  spdlog::info("session {}: the tasks of its {} streams on device {} aborted", s.id, streams.size(),
               op.device_id());
  const absl::Status why =
      AclError(kRtDeviceTaskAbort, absl::StrFormat("device %d's tasks aborted", op.device_id()));
  for (const auto& stream : streams) stream->Discard(why);
  // Answered once the tasks that were running have finished too.
  auto waiter = std::make_shared<SyncWaiter>(s.sink(), call_id, kRtTimeout);
  waiter->ArmTimeout(s.services.timers, static_cast<int32_t>(op.timeout_ms()));
  auto left = std::make_shared<std::atomic<size_t>>(streams.size() + 1);
  auto arrive = [waiter, left](const absl::Status&) {
    if (--*left == 0) waiter->Complete(absl::OkStatus());
  };
  for (const auto& stream : streams) stream->NotifyWhenDrained(arrive, /*take_error=*/false);
  arrive(absl::OkStatus());
}

Outcome SetStreamFailureMode(SessionState& s, const v1::SetStreamFailureMode& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Stream> stream, s.streams.Find(op.stream_id()));
  if (op.mode() != v1::FAILURE_MODE_CONTINUE && op.mode() != v1::FAILURE_MODE_STOP) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid failure mode %d", op.mode()));
  }
  stream->SetFailureMode(op.mode() == v1::FAILURE_MODE_STOP ? sim::FailureMode::kStop
                                                            : sim::FailureMode::kContinue);
  return v1::Reply();
}

Outcome StreamWaitEvent(SessionState& s, const v1::StreamWaitEvent& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Event> event, s.events.Find(op.event_id()));
  return Done(s.Submit(op.stream_id(),
                       sim::MakeWaitEventTask(std::move(event), absl::Milliseconds(op.timeout_ms()),
                                              s.WakeAtTimer())));
}

// --- Events ----------------------------------------------------------------

Outcome CreateEvent(SessionState& s, const v1::CreateEvent& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  NPUD_RETURN_IF_ERROR(
      CheckCount(s.events.size(), s.services.limits.events, kRtNoEventResource, "events"));
  return Done(s.events.Add(
      op.event_id(), std::make_shared<sim::Event>(op.device_id(), op.event_id(), op.flags())));
}

Outcome DestroyEvent(SessionState& s, const v1::DestroyEvent& op) {
  // Tasks still holding the event keep it alive until they have run.
  return Done(s.events.Take(op.event_id()).status());
}

Outcome RecordEvent(SessionState& s, const v1::RecordEvent& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Event> event, s.events.Find(op.event_id()));
  if (op.stream_id() == 0) return AclError(kRtParamInvalid, "record needs a stream");
  return Done(s.Submit(op.stream_id(), sim::MakeRecordEventTask(std::move(event))));
}

Outcome ResetEvent(SessionState& s, const v1::ResetEvent& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Event> event, s.events.Find(op.event_id()));
  if (op.stream_id() == 0) return AclError(kRtParamInvalid, "reset needs a stream");
  return Done(s.Submit(op.stream_id(), sim::MakeResetEventTask(std::move(event))));
}

Outcome QueryEvent(SessionState& s, const v1::QueryEvent& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Event> event, s.events.Find(op.event_id()));
  if (!event->Recorded()) {
    v1::Reply reply;
    reply.mutable_status()->set_status(v1::COMPLETION_NEVER_RECORDED);
    return reply;
  }
  return CompletionReply(event->Complete());
}

void SynchronizeEvent(SessionState& s, uint64_t call_id, const v1::SynchronizeEvent& op) {
  auto event = s.events.Find(op.event_id());
  if (!event.ok()) return s.Finish(call_id, 0, event.status());
  const uint64_t target = (*event)->SyncTarget();
  auto waiter = std::make_shared<SyncWaiter>(s.sink(), call_id, kRtEventSyncTimeout);
  if (target == 0 ||
      (*event)->ReachedOrNotify(target, [waiter] { waiter->Complete(absl::OkStatus()); })) {
    waiter->Complete(absl::OkStatus());
    return;
  }
  waiter->ArmTimeout(s.services.timers, op.timeout_ms());
}

Outcome EventElapsedTime(SessionState& s, const v1::EventElapsedTime& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Event> start, s.events.Find(op.start_event_id()));
  std::shared_ptr<sim::Event> end;
  if (op.end_event_id() != 0) {
    NPUD_ASSIGN_OR_RETURN(end, s.events.Find(op.end_event_id()));
  }
  // CANN's answers: never recorded is an internal error, recorded but not
  // yet executed has no valid timestamp.
  for (const sim::Event* event : {start.get(), end.get()}) {
    if (event == nullptr) continue;
    if (!event->Recorded()) {
      return AclError(kRtInternalError,
                      absl::StrFormat("event %d has never been recorded", event->id()));
    }
    if (!event->RecordsExecuted()) {
      return AclError(kRtEventTimestampInvalid,
                      absl::StrFormat("event %d has not completed its record", event->id()));
    }
  }
  v1::Reply reply;
  reply.mutable_event_time()->set_timestamp_us(start->timestamp_us());
  if (end != nullptr) {
    const double delta_us =
        static_cast<double>(end->timestamp_us()) - static_cast<double>(start->timestamp_us());
    reply.mutable_event_time()->set_elapsed_ms(static_cast<float>(delta_us / 1000.0));
  }
  return reply;
}

}  // namespace npud::daemon
