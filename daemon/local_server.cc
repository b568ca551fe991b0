#include "daemon/local_server.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/frame_io.h"
#include "common/status_macros.h"
#include "common/unix_socket.h"
#include "daemon/daemon_core.h"
#include "daemon/message_sink.h"
#include "daemon/send_budget.h"
#include "daemon/session_endpoint.h"
#include "npud/v1/npud.pb.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// Writes a connection's server messages. A message is written at once by
// the thread that sends it, without blocking; only when the socket is full
// does the rest wait in `pending_` for the writer thread, and later messages
// queue behind it, so order is kept and no scheduler worker ever blocks on a
// slow client. What the client has not taken yet is bounded (MessageSink).
class LocalSink final : public BudgetedSink {
 public:
  explicit LocalSink(int socket) : socket_(socket), writer_([this] { WriterLoop(); }) {}
  ~LocalSink() override { Close(); }

  void Send(v1::ServerMessage message) override {
    // Serialized straight behind the header: bulk data is copied once.
    std::string frame(kFrameHeaderBytes, '\0');
    message.AppendToString(&frame);
    SealFrame(&frame);
    {
      absl::MutexLock lock(&mu_);
      if (closed_ || broken_) return;
      const size_t sent = writing_ || !pending_.empty() ? 0 : WriteNow(frame);
      if (broken_) {
        // Fall through to End(): parked producers must not wait for a
        // socket that is gone.
      } else if (sent == frame.size()) {
        return;
      } else if (budget_.Add(frame.size() - sent)) {
        pending_.append(frame, sent);  // the writer thread sends it
        return;
      } else {
        Overflow();
      }
    }
    budget_.End();
  }

  // Stops writing; later messages are dropped.
  void Close() {
    {
      absl::MutexLock lock(&mu_);
      if (closed_) return;
      closed_ = true;
    }
    budget_.End();
    writer_.join();
  }

 private:
  // Writes what the socket takes without blocking; returns the bytes sent.
  size_t WriteNow(const std::string& frame) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    size_t sent = 0;
    while (sent < frame.size()) {
      const ssize_t n =
          send(socket_, frame.data() + sent, frame.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n > 0) {
        sent += n;
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else {
        if (!(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))) broken_ = true;
        break;
      }
    }
    return sent;
  }

  // The client stopped reading: drop what waits and end the connection
  // (its reader then sees the end and the session closes).
  void Overflow() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    spdlog::error("local client does not read its replies ({} MiB unread); disconnecting",
                  budget_.unread() >> 20);
    broken_ = true;
    pending_.clear();
    pending_.shrink_to_fit();
    shutdown(socket_, SHUT_RDWR);
  }

  void WriterLoop() {
    absl::MutexLock lock(&mu_);
    while (true) {
      auto ready = [this]()
                       ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return closed_ || !pending_.empty(); };
      mu_.Await(absl::Condition(&ready));
      if (closed_) return;
      std::string batch;
      batch.swap(pending_);
      writing_ = true;
      mu_.Unlock();
      // Blocking write: the socket is full, nothing better to do.
      size_t sent = 0;
      bool ok = true;
      while (ok && sent < batch.size()) {
        const ssize_t n = send(socket_, batch.data() + sent, batch.size() - sent, MSG_NOSIGNAL);
        if (n > 0) {
          sent += n;
        } else if (!(n < 0 && errno == EINTR)) {
          ok = false;
        }
      }
      // Wakes parked reads; never under our lock.
      if (ok) {
        budget_.Remove(batch.size());
      } else {
        budget_.End();
      }
      mu_.Lock();
      writing_ = false;
      if (!ok) broken_ = true;
    }
  }

  const int socket_;
  absl::Mutex mu_;
  // Bytes the socket did not take yet (counted in budget_ with those of the
  // batch the writer thread is sending).
  std::string pending_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool broken_ ABSL_GUARDED_BY(mu_) = false;
  std::thread writer_;
};

// The client's messages, framed on the socket.
class FrameSource final : public ClientMessageSource {
 public:
  explicit FrameSource(int socket) : reader_(socket) {}
  absl::Status Next(v1::ClientMessage* message, std::vector<int>* fds) override {
    NPUD_RETURN_IF_ERROR(reader_.Read(&payload_, fds));
    if (!message->ParseFromString(payload_)) return absl::DataLossError("undecodable message");
    return absl::OkStatus();
  }

 private:
  FrameReader reader_;
  std::string payload_;
};

}  // namespace

// One client connection: reads its hello, then its batches, in order.
class LocalServer::Connection {
 public:
  Connection(int socket, DaemonCore* core)
      : socket_(socket), core_(core), thread_([this] { Run(); }) {}
  ~Connection() {
    thread_.join();
    close(socket_);
  }

  // Unblocks the reader; the session closes as if the client had left.
  void Disconnect() { shutdown(socket_, SHUT_RDWR); }
  bool done() const { return done_.load(); }

 private:
  void Run() {
    Serve();
    // The client sees the end at once; the descriptor itself is closed
    // when the connection is reaped.
    shutdown(socket_, SHUT_RDWR);
    done_.store(true);
  }

  void Serve() {
    FrameSource source(socket_);
    auto sink = std::make_shared<LocalSink>(socket_);
    const absl::Status served = ServeSession(core_, source, sink);
    if (!served.ok()) {
      spdlog::warn("local client refused: {}", served.ToString());
      v1::ServerMessage refused;
      refused.mutable_refused()->set_code(static_cast<int>(served.code()));
      refused.mutable_refused()->set_message(std::string(served.message()));
      sink->Send(std::move(refused));
    }
    sink->Close();
  }

  const int socket_;
  DaemonCore* const core_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

absl::StatusOr<std::unique_ptr<LocalServer>> LocalServer::Start(
    DaemonCore* core, const std::vector<std::string>& paths) {
  std::unique_ptr<LocalServer> server(new LocalServer(core));
  for (const std::string& path : paths) {
    NPUD_ASSIGN_OR_RETURN(UniqueFd fd, ListenUnixSocket(path, /*backlog=*/64));
    server->paths_.push_back(path);
    server->listeners_.push_back(fd.release());
  }
  for (int fd : server->listeners_) {
    server->acceptors_.emplace_back([raw = server.get(), fd] { raw->AcceptLoop(fd); });
  }
  return server;
}

LocalServer::~LocalServer() {
  Shutdown();
  for (const std::string& path : paths_) unlink(path.c_str());
}

void LocalServer::AcceptLoop(int listener) {
  while (true) {
    const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EINTR || errno == ECONNABORTED) continue;
      return;  // Shut down (or out of descriptors: stop rather than spin).
    }
    std::vector<std::shared_ptr<Connection>> finished;
    absl::MutexLock lock(&mu_);
    if (shut_down_) {
      close(fd);
      return;
    }
    for (auto it = connections_.begin(); it != connections_.end();) {
      if ((*it)->done()) {
        finished.push_back(std::move(*it));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
    connections_.push_back(std::make_shared<Connection>(fd, core_));
    // `finished` joins its threads (already returned) after the lock.
  }
}

void LocalServer::Shutdown() {
  std::vector<std::shared_ptr<Connection>> connections;
  {
    absl::MutexLock lock(&mu_);
    if (shut_down_) return;
    shut_down_ = true;
    connections.swap(connections_);
  }
  // shutdown() wakes a thread blocked in accept() on Linux.
  for (int fd : listeners_) shutdown(fd, SHUT_RDWR);
  for (std::thread& t : acceptors_) t.join();
  for (int fd : listeners_) close(fd);
  for (auto& connection : connections) connection->Disconnect();
  connections.clear();  // Joins each connection thread.
}

}  // namespace npud::daemon
