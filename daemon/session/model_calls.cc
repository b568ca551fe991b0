// What a captured model holds, for aclmdlRIDebugPrint / DebugJsonPrint.
// Capturing and running models is Session's (session.cc): a run dispatches
// the recorded calls again.

#include <memory>

#include "common/status_macros.h"
#include "daemon/session/calls.h"
#include "google/protobuf/descriptor.h"

namespace npud::daemon {

Outcome DescribeModel(SessionState& s, const v1::ModelDescribe& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<const CapturedModel> model, s.models.Find(op.model_id()));
  v1::Reply reply;
  v1::ModelResult* result = reply.mutable_model();
  result->set_stream_id(model->stream_id);
  const google::protobuf::OneofDescriptor* ops = v1::Call::descriptor()->FindOneofByName("op");
  for (const v1::Call& call : model->calls) {
    const google::protobuf::FieldDescriptor* field =
        call.GetReflection()->GetOneofFieldDescriptor(call, ops);
    result->add_tasks(field != nullptr ? field->name() : "unknown");
  }
  return reply;
}

}  // namespace npud::daemon
