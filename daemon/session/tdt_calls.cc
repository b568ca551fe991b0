// TDT queues: each call checks its device and hands over to the daemon's
// TdtQueues, which keeps the queues and knows whose they are.

#include <utility>
#include <vector>

#include "common/status_macros.h"
#include "daemon/session/calls.h"

namespace npud::daemon {
namespace {

v1::Reply TdtReply(v1::TdtResult result) {
  v1::Reply reply;
  *reply.mutable_tdt() = std::move(result);
  return reply;
}

std::vector<TdtQueues::Route> RoutesOf(const google::protobuf::RepeatedPtrField<v1::TdtRoute>& in) {
  std::vector<TdtQueues::Route> routes;
  routes.reserve(in.size());
  for (const v1::TdtRoute& route : in) routes.push_back({route.src(), route.dst(), route.status()});
  return routes;
}

v1::Reply RoutesReply(const std::vector<TdtQueues::Route>& routes) {
  v1::TdtResult result;
  for (const TdtQueues::Route& route : routes) {
    v1::TdtRoute* out = result.add_routes();
    out->set_src(route.src);
    out->set_dst(route.dst);
    out->set_status(route.status);
  }
  return TdtReply(std::move(result));
}

}  // namespace

Outcome TdtCreateQueue(SessionState& s, const v1::TdtCreateQueue& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  NPUD_ASSIGN_OR_RETURN(const uint32_t id,
                        s.services.tdt_queues->Create(s.id, op.device_id(), op.name(), op.depth()));
  v1::TdtResult result;
  result.set_queue_id(id);
  return TdtReply(std::move(result));
}

Outcome TdtDestroyQueue(SessionState& s, const v1::TdtDestroyQueue& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  return Done(s.services.tdt_queues->Destroy(s.id, op.device_id(), op.queue_id()));
}

Outcome TdtEnqueue(SessionState& s, v1::TdtEnqueue& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  TdtQueues::Message message{std::move(*op.mutable_data()), std::move(*op.mutable_user_data())};
  return Done(
      s.services.tdt_queues->Enqueue(s.id, op.device_id(), op.queue_id(), std::move(message)));
}

Outcome TdtDequeue(SessionState& s, const v1::TdtDequeue& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  uint64_t too_large = 0;
  auto message = s.services.tdt_queues->Dequeue(s.id, op.device_id(), op.queue_id(), op.max_bytes(),
                                                &too_large);
  v1::TdtResult result;
  if (!message.ok()) {
    if (too_large == 0) return message.status();
    // Not an error here: the client needs the length to say how much room
    // the message wants.
    result.set_too_large(true);
    result.set_size(too_large);
    return TdtReply(std::move(result));
  }
  result.set_size(message->data.size());
  result.set_data(std::move(message->data));
  result.set_user_data(std::move(message->user_data));
  return TdtReply(std::move(result));
}

Outcome TdtQueryQueue(SessionState& s, const v1::TdtQueryQueue& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  NPUD_ASSIGN_OR_RETURN(const uint64_t size,
                        s.services.tdt_queues->Size(s.id, op.device_id(), op.queue_id()));
  v1::TdtResult result;
  result.set_size(size);
  return TdtReply(std::move(result));
}

Outcome TdtResetQueue(SessionState& s, const v1::TdtResetQueue& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  return Done(s.services.tdt_queues->Reset(s.id, op.device_id(), op.queue_id()));
}

Outcome TdtBindRoutes(SessionState& s, const v1::TdtBindRoutes& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  NPUD_ASSIGN_OR_RETURN(
      std::vector<TdtQueues::Route> routes,
      s.services.tdt_queues->Bind(s.id, op.device_id(), RoutesOf(op.routes()), op.unbind()));
  return RoutesReply(routes);
}

Outcome TdtQueryRoutes(SessionState& s, const v1::TdtQueryRoutes& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  NPUD_ASSIGN_OR_RETURN(
      std::vector<TdtQueues::Route> routes,
      s.services.tdt_queues->Query(s.id, op.device_id(), op.mode(), op.src(), op.dst()));
  return RoutesReply(routes);
}

}  // namespace npud::daemon
