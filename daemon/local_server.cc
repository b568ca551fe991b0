#include "daemon/local_server.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/frame_io.h"
#include "common/unix_socket.h"
#include "daemon/daemon_core.h"
#include "daemon/message_sink.h"
#include "daemon/session/session.h"
#include "npud/v1/npud.pb.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// Writes a connection's server messages. A message is written at once by
// the thread that sends it, without blocking; only when the socket is full
// does the rest wait in `pending_` for the writer thread, and later messages
// queue behind it, so order is kept and no scheduler worker ever blocks on a
// slow client.
class LocalSink final : public MessageSink {
 public:
  explicit LocalSink(int socket) : socket_(socket), writer_([this] { WriterLoop(); }) {}
  ~LocalSink() override { Close(); }

  void Send(v1::ServerMessage message) override {
    // Serialized straight behind the header: bulk data is copied once.
    std::string frame(kFrameHeaderBytes, '\0');
    message.AppendToString(&frame);
    SealFrame(&frame);
    absl::MutexLock lock(&mu_);
    if (closed_ || broken_) return;
    if (writing_ || !pending_.empty()) {
      pending_.append(frame);
      return;
    }
    size_t sent = 0;
    while (sent < frame.size()) {
      const ssize_t n =
          send(socket_, frame.data() + sent, frame.size() - sent, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n > 0) {
        sent += n;
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        pending_.append(frame, sent);  // The writer thread finishes it.
        return;
      } else {
        broken_ = true;
        return;
      }
    }
  }

  // Stops writing; later messages are dropped.
  void Close() {
    {
      absl::MutexLock lock(&mu_);
      if (closed_) return;
      closed_ = true;
    }
    writer_.join();
  }

 private:
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
      mu_.Lock();
      writing_ = false;
      if (!ok) broken_ = true;
    }
  }

  const int socket_;
  absl::Mutex mu_;
  std::string pending_ ABSL_GUARDED_BY(mu_);
  bool writing_ ABSL_GUARDED_BY(mu_) = false;
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
  bool broken_ ABSL_GUARDED_BY(mu_) = false;
  std::thread writer_;
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
    FrameReader reader(socket_);
    std::string payload;
    std::vector<int> fds;
    v1::ClientMessage first;
    const absl::Status read = reader.Read(&payload, &fds);
    // Clients probe whether the socket answers by connecting and leaving.
    if (absl::IsOutOfRange(read)) return;
    if (!read.ok() || !first.ParseFromString(payload) || !first.has_hello()) {
      spdlog::warn("local client did not start with a hello; closing");
      CloseAll(fds);
      return;
    }
    auto sink = std::make_shared<LocalSink>(socket_);
    auto opened = core_->OpenSession(first.hello(), sink);
    if (!opened.ok()) {
      v1::ServerMessage refused;
      refused.mutable_refused()->set_code(static_cast<int>(opened.status().code()));
      refused.mutable_refused()->set_message(std::string(opened.status().message()));
      sink->Send(std::move(refused));
      sink->Close();
      return;
    }
    std::shared_ptr<Session> session = std::move(opened->session);
    {
      v1::ServerMessage hello;
      *hello.mutable_hello() = std::move(opened->reply);
      sink->Send(std::move(hello));
    }
    v1::ClientMessage message;
    while (true) {
      const absl::Status read = reader.Read(&payload, &fds);
      if (!read.ok()) {
        if (!absl::IsOutOfRange(read)) {
          spdlog::warn("session {}: {}; closing", session->id(), read.ToString());
        }
        break;
      }
      if (!message.ParseFromString(payload) || !message.has_batch()) {
        spdlog::warn("session {}: undecodable or unexpected local message; closing", session->id());
        CloseAll(fds);
        break;
      }
      session->Process(message.mutable_batch(), std::move(fds));
      fds.clear();
    }
    core_->CloseSession(session->id());
    session.reset();
    sink->Close();
  }

  static void CloseAll(const std::vector<int>& fds) {
    for (int fd : fds) close(fd);
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
    auto fd = ListenUnixSocket(path, /*backlog=*/64);
    if (!fd.ok()) return fd.status();
    server->paths_.push_back(path);
    server->listeners_.push_back(fd->release());
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
