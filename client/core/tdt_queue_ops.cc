#include "client/core/tdt_queue_ops.h"

#include <algorithm>
#include <utility>

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "client/core/daemon_calls.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "npud/v1/calls.pb.h"

namespace npud::client {
namespace {

// Calls `attempt` until it succeeds, fails with something other than
// `busy`, or `timeout_ms` (CANN's meaning) has passed.
template <typename Attempt>
auto Retry(int32_t timeout_ms, AclCode busy, Attempt attempt) -> decltype(attempt()) {
  const absl::Time deadline =
      timeout_ms < 0 ? absl::InfiniteFuture() : absl::Now() + absl::Milliseconds(timeout_ms);
  absl::Duration pause = absl::Microseconds(50);
  while (true) {
    auto result = attempt();
    if (result.ok() || ToAclCode(result.status()) != busy) return result;
    const absl::Time now = absl::Now();
    if (now >= deadline) return result;
    absl::SleepFor(std::min(pause, deadline - now));
    pause = std::min(pause * 2, absl::Milliseconds(2));
  }
}

absl::StatusOr<v1::TdtResult> TdtCall(v1::Call call) {
  NPUD_ASSIGN_OR_RETURN(v1::Reply reply, CallDaemon(std::move(call)));
  return std::move(*reply.mutable_tdt());
}

}  // namespace

absl::StatusOr<uint32_t> CreateTdtQueue(int32_t device, const std::string& name, uint32_t depth) {
  v1::Call call;
  v1::TdtCreateQueue* op = call.mutable_tdt_create_queue();
  op->set_device_id(device);
  op->set_name(name);
  op->set_depth(depth);
  NPUD_ASSIGN_OR_RETURN(v1::TdtResult result, TdtCall(std::move(call)));
  return result.queue_id();
}

absl::Status DestroyTdtQueue(int32_t device, uint32_t queue_id) {
  v1::Call call;
  call.mutable_tdt_destroy_queue()->set_device_id(device);
  call.mutable_tdt_destroy_queue()->set_queue_id(queue_id);
  return TdtCall(std::move(call)).status();
}

absl::Status EnqueueTdt(int32_t device, uint32_t queue_id, std::string data, std::string user_data,
                        int32_t timeout_ms) {
  v1::Call call;
  v1::TdtEnqueue* op = call.mutable_tdt_enqueue();
  op->set_device_id(device);
  op->set_queue_id(queue_id);
  op->set_data(std::move(data));
  op->set_user_data(std::move(user_data));
  // Each attempt sends a copy: the daemon keeps the bytes of the one that
  // got in.
  return Retry(timeout_ms, kRtQueueFull, [&] { return TdtCall(call); }).status();
}

absl::StatusOr<TdtMessage> DequeueTdt(int32_t device, uint32_t queue_id, uint64_t max_bytes,
                                      int32_t timeout_ms) {
  v1::Call call;
  v1::TdtDequeue* op = call.mutable_tdt_dequeue();
  op->set_device_id(device);
  op->set_queue_id(queue_id);
  op->set_max_bytes(max_bytes);
  NPUD_ASSIGN_OR_RETURN(v1::TdtResult result,
                        Retry(timeout_ms, kRtQueueEmpty, [&] { return TdtCall(call); }));
  TdtMessage message;
  message.size = result.size();
  message.too_large = result.too_large();
  message.data = std::move(*result.mutable_data());
  message.user_data = std::move(*result.mutable_user_data());
  return message;
}

absl::StatusOr<uint64_t> TdtQueueSize(int32_t device, uint32_t queue_id) {
  v1::Call call;
  call.mutable_tdt_query_queue()->set_device_id(device);
  call.mutable_tdt_query_queue()->set_queue_id(queue_id);
  NPUD_ASSIGN_OR_RETURN(v1::TdtResult result, TdtCall(std::move(call)));
  return result.size();
}

absl::Status ResetTdtQueue(int32_t device, uint32_t queue_id) {
  v1::Call call;
  call.mutable_tdt_reset_queue()->set_device_id(device);
  call.mutable_tdt_reset_queue()->set_queue_id(queue_id);
  return TdtCall(std::move(call)).status();
}

absl::Status BindTdtRoutes(int32_t device, std::vector<TdtRoute>* routes, bool unbind) {
  v1::Call call;
  v1::TdtBindRoutes* op = call.mutable_tdt_bind_routes();
  op->set_device_id(device);
  op->set_unbind(unbind);
  for (const TdtRoute& route : *routes) {
    v1::TdtRoute* out = op->add_routes();
    out->set_src(route.src);
    out->set_dst(route.dst);
  }
  NPUD_ASSIGN_OR_RETURN(v1::TdtResult result, TdtCall(std::move(call)));
  for (int i = 0; i < result.routes_size() && i < static_cast<int>(routes->size()); ++i) {
    (*routes)[i].status = result.routes(i).status();
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<TdtRoute>> QueryTdtRoutes(int32_t device, int32_t mode, uint32_t src,
                                                     uint32_t dst) {
  v1::Call call;
  v1::TdtQueryRoutes* op = call.mutable_tdt_query_routes();
  op->set_device_id(device);
  op->set_mode(mode);
  op->set_src(src);
  op->set_dst(dst);
  NPUD_ASSIGN_OR_RETURN(v1::TdtResult result, TdtCall(std::move(call)));
  std::vector<TdtRoute> routes;
  for (const v1::TdtRoute& route : result.routes()) {
    routes.push_back({route.src(), route.dst(), route.status()});
  }
  return routes;
}

}  // namespace npud::client
