#include "client/core/daemon_calls.h"

#include <memory>
#include <utility>
#include <vector>

#include "client/core/call_router.h"
#include "client/core/runtime.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// The sessions a broadcast call goes to, or empty when it goes to one.
absl::StatusOr<std::vector<CallPipeline*>> BroadcastSessions(const v1::Call& call) {
  if (!CallRouter::IsBroadcast(call)) return std::vector<CallPipeline*>{};
  NPUD_ASSIGN_OR_RETURN(std::vector<CallPipeline*> sessions, Runtime::Get().Sessions());
  if (sessions.size() == 1) sessions.clear();
  return sessions;
}

}  // namespace

absl::StatusOr<v1::Reply> CallDaemon(v1::Call call) {
  NPUD_ASSIGN_OR_RETURN(const std::vector<CallPipeline*> all, BroadcastSessions(call));
  if (!all.empty()) return CallEach(all, call);
  NPUD_ASSIGN_OR_RETURN(const Runtime::Target target, Runtime::Get().Route(call));
  NPUD_ASSIGN_OR_RETURN(v1::Reply reply, target.session->Call(std::move(call)));
  Runtime::Get().GlobalizeReply(target.daemon, reply);
  return reply;
}

absl::StatusOr<v1::Reply> CallEach(const std::vector<CallPipeline*>& sessions,
                                   const v1::Call& call) {
  std::vector<std::shared_ptr<CallPipeline::Pending>> pending;
  for (CallPipeline* session : sessions) pending.push_back(session->Begin(call));
  absl::StatusOr<v1::Reply> first = absl::InternalError("no session");
  for (size_t i = 0; i < sessions.size(); ++i) {
    absl::StatusOr<v1::Reply> reply = sessions[i]->Await(*pending[i]);
    if (i == 0 || (first.ok() && !reply.ok())) first = std::move(reply);
  }
  return first;
}

absl::Status PostToDaemon(v1::Call call) {
  NPUD_ASSIGN_OR_RETURN(const std::vector<CallPipeline*> all, BroadcastSessions(call));
  for (CallPipeline* session : all) NPUD_RETURN_IF_ERROR(session->Submit(call));
  if (!all.empty()) return absl::OkStatus();
  NPUD_ASSIGN_OR_RETURN(const Runtime::Target target, Runtime::Get().Route(call));
  return target.session->Submit(std::move(call));
}

}  // namespace npud::client
