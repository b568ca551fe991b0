// hello_reply.h
//
// What the first frame a framed transport (local protocol, framed TCP)
// reads back means: npud's HelloReply, its refusal as a status, or why
// there is neither.

#ifndef NPUD_CLIENT_TRANSPORT_HELLO_REPLY_H_
#define NPUD_CLIENT_TRANSPORT_HELLO_REPLY_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "npud/v1/npud.pb.h"

namespace npud::client {

// `payload` is the frame read after the hello; `sent` is how writing the
// hello went. A refusal counts even when the write failed (npud may say
// why and close before the hello is out), so it comes before `sent`.
absl::StatusOr<v1::HelloReply> DecodeHelloReply(const std::string& payload,
                                                const absl::Status& sent);

}  // namespace npud::client

#endif  // NPUD_CLIENT_TRANSPORT_HELLO_REPLY_H_
