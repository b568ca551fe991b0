#include "daemon/session_endpoint.h"

#include <unistd.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "daemon/daemon_core.h"
#include "daemon/session/session.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

void CloseAll(const std::vector<int>& fds) {
  for (int fd : fds) close(fd);
}

}  // namespace

SessionEndpoint::~SessionEndpoint() { Close(); }

absl::StatusOr<v1::HelloReply> SessionEndpoint::Open(const v1::Hello& hello) {
  NPUD_ASSIGN_OR_RETURN(DaemonCore::Opened opened,
                        core_->OpenSession(hello, sink_, credentials_, remote_));
  session_ = std::move(opened.session);
  return std::move(opened.reply);
}

absl::Status SessionEndpoint::Handle(v1::ClientMessage& message, std::vector<int> fds) {
  if (session_ == nullptr) {
    CloseAll(fds);
    return absl::FailedPreconditionError("no session");
  }
  if (!message.has_batch()) {
    CloseAll(fds);
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected message kind ", static_cast<int>(message.kind_case())));
  }
  if (!sink_->WaitForRoom(kUnreadLimit)) {
    CloseAll(fds);
    return absl::ResourceExhaustedError(absl::StrCat("the client has not read its replies for ",
                                                     absl::FormatDuration(kUnreadLimit)));
  }
  session_->Process(message.mutable_batch(), std::move(fds));
  return absl::OkStatus();
}

std::shared_ptr<MemoryQuota> SessionEndpoint::memory_quota() const {
  return session_ == nullptr ? nullptr : session_->memory_quota();
}

void SessionEndpoint::Close() {
  if (session_ == nullptr) return;
  core_->CloseSession(session_->id());
  session_.reset();
}

absl::Status ServeSession(DaemonCore* core, ClientMessageSource& source,
                          const std::shared_ptr<MessageSink>& sink,
                          std::optional<PeerCredentials> credentials, bool remote) {
  v1::ClientMessage first;
  std::vector<int> fds;
  const absl::Status read = source.Next(&first, &fds);
  CloseAll(fds);
  // Clients probe whether a socket answers by connecting and leaving.
  if (absl::IsOutOfRange(read)) return absl::OkStatus();
  if (!read.ok() || !first.has_hello()) {
    return absl::InvalidArgumentError("the first message must be a hello");
  }
  SessionEndpoint endpoint(core, sink, credentials, remote);
  NPUD_ASSIGN_OR_RETURN(v1::HelloReply hello, endpoint.Open(first.hello()));
  const uint64_t session_id = hello.session_id();
  source.ChargeTo(endpoint.memory_quota());
  {
    v1::ServerMessage message;
    *message.mutable_hello() = std::move(hello);
    sink->Send(std::move(message));
  }
  v1::ClientMessage message;
  while (true) {
    fds.clear();
    const absl::Status next = source.Next(&message, &fds);
    if (!next.ok()) {
      if (!absl::IsOutOfRange(next)) {
        spdlog::warn("session {}: {}; closing", session_id, next.ToString());
      }
      CloseAll(fds);
      break;
    }
    if (absl::Status handled = endpoint.Handle(message, std::move(fds)); !handled.ok()) {
      spdlog::warn("session {}: {}; closing", session_id, handled.ToString());
      break;
    }
  }
  // The client is gone (exit, crash or network loss): release everything.
  endpoint.Close();
  return absl::OkStatus();
}

}  // namespace npud::daemon
