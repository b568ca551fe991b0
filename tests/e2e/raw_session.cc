#include "tests/e2e/raw_session.h"

#include <unistd.h>

#include <vector>

#include "common/protocol_version.h"

namespace npud::testing {

RawSession::RawSession(int fd, const std::string& auth_token) : fd_(fd), reader_(fd) {
  npud::v1::ClientMessage hello;
  hello.mutable_hello()->set_protocol_version(npud::protocol_version::kCurrent);
  hello.mutable_hello()->set_pid(getpid());
  hello.mutable_hello()->set_auth_token(auth_token);
  std::string payload;
  std::vector<int> fds;
  ok_ = npud::WriteFrame(fd_, hello.SerializeAsString()).ok() && reader_.Read(&payload, &fds).ok();
}

RawSession::~RawSession() { close(fd_); }

npud::v1::Reply RawSession::Call(npud::v1::Call call, int file) {
  call.set_call_id(++next_id_);
  npud::v1::ClientMessage message;
  *message.mutable_batch()->add_calls() = call;
  std::vector<int> files;
  if (file >= 0) files.push_back(file);
  if (!npud::WriteFrame(fd_, message.SerializeAsString(), files).ok()) return {};
  while (true) {
    std::string payload;
    std::vector<int> fds;
    npud::v1::ServerMessage reply;
    if (!reader_.Read(&payload, &fds).ok() || !reply.ParseFromString(payload)) return {};
    for (int received : fds) close(received);
    if (reply.has_reply() && reply.reply().call_id() == next_id_) return reply.reply();
  }
}

}  // namespace npud::testing
