// Models and their streams: what a model holds (aclmdlRIDebugPrint /
// DebugJsonPrint), binding streams, conditions. Capturing and running
// models is Session's (session.cc, model_run.h).

#include <memory>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/session/calls.h"

namespace npud::daemon {

Outcome DescribeModel(SessionState& s, const v1::ModelDescribe& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<const CapturedModel> model, s.models.Find(op.model_id()));
  v1::Reply reply;
  v1::ModelResult* result = reply.mutable_model();
  for (const ModelStream& stream : model->streams) {
    v1::ModelStreamTasks* tasks = result->add_streams();
    tasks->set_stream_id(stream.stream_id);
    tasks->set_head(stream.head);
    for (const v1::Call& call : stream.calls) tasks->add_tasks(CallKind(call));
    if (!op.with_calls()) continue;
    *tasks->mutable_calls() = {stream.calls.begin(), stream.calls.end()};
    for (const auto& [index, info] : stream.infos) {
      v1::TaskInfo* out = tasks->add_infos();
      out->set_call_index(index);
      out->set_op_info(info.op_info);
      out->set_extend_info(info.extend_info);
    }
  }
  if (result->streams_size() > 0) {
    result->set_stream_id(result->streams(0).stream_id());
    *result->mutable_tasks() = result->streams(0).tasks();
  }
  return reply;
}

Outcome EditModelTasks(SessionState& s, const v1::ModelEditTasks& op) {
  return Done(s.models.Edit(op.model_id(), op));
}

Outcome CacheTaskInfo(SessionState& s, const v1::CacheTaskInfo& op) {
  constexpr size_t kMaxInfo = 64 << 10;
  if (op.info().empty() || op.info().size() > kMaxInfo) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("cached task information must be 1 to 64K bytes, not %d",
                                    op.info().size()));
  }
  return Done(s.models.CacheInfo(op.stream_id(), op.info(), op.extend()));
}

Outcome BindModelStream(SessionState& s, const v1::ModelBindStream& op) {
  NPUD_RETURN_IF_ERROR(s.streams.Find(op.stream_id()).status());
  return Done(s.models.Bind(op.model_id(), op.stream_id(), op.head()));
}

Outcome AddModelCondition(SessionState& s, const v1::ModelAddCondition& op) {
  NPUD_RETURN_IF_ERROR(s.memory.Access(op.address(), sizeof(uint64_t)).status());
  return Done(s.models.AddCondition(op.model_id(), op.address(), op.value()));
}

Outcome NotInModel(SessionState&, const v1::Call& call) {
  return AclError(kRtStreamModel,
                  absl::StrFormat("%s needs a stream that captures or is bound to a model (stream "
                                  "%d does not)",
                                  CallKind(call), StreamOfWork(call)));
}

}  // namespace npud::daemon
