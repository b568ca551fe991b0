#include "client/transport/hello_reply.h"

namespace npud::client {

absl::StatusOr<v1::HelloReply> DecodeHelloReply(const std::string& payload,
                                                const absl::Status& sent) {
  v1::ServerMessage reply;
  if (!reply.ParseFromString(payload)) return absl::InternalError("undecodable hello reply");
  if (reply.has_refused()) {
    return absl::Status(static_cast<absl::StatusCode>(reply.refused().code()),
                        reply.refused().message());
  }
  if (!sent.ok()) return sent;
  if (!reply.has_hello()) return absl::InternalError("npud did not answer the hello with a hello");
  return std::move(*reply.mutable_hello());
}

}  // namespace npud::client
