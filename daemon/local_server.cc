#include "daemon/local_server.h"

#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/byte_stream.h"
#include "common/frame_io.h"
#include "common/status_macros.h"
#include "common/unix_socket.h"
#include "daemon/daemon_core.h"
#include "daemon/frame_guard.h"
#include "daemon/framed_sink.h"
#include "daemon/message_sink.h"
#include "daemon/session_endpoint.h"
#include "npud/v1/npud.pb.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// How long accepting pauses when descriptors or kernel memory run out.
constexpr absl::Duration kAcceptPause = absl::Milliseconds(100);
// How often connections waiting for their hello are checked for expiry.
constexpr absl::Duration kExpiryScan = absl::Milliseconds(100);

// The client's messages: the hello the event thread read, then frames from
// the socket.
class FrameSource final : public ClientMessageSource {
 public:
  // `deadlines` times large frames (FrameGuard).
  FrameSource(int socket, v1::ClientMessage hello, DelayedExecutor* deadlines,
              absl::Duration hello_timeout)
      : reader_(socket),
        guard_(deadlines, hello_timeout, [socket] { shutdown(socket, SHUT_RDWR); }),
        hello_(std::move(hello)) {
    reader_.set_allowance(&guard_);
  }
  absl::Status Next(v1::ClientMessage* message, std::vector<int>* fds) override {
    if (hello_.has_value()) {
      *message = *std::move(hello_);
      hello_.reset();
      return absl::OkStatus();
    }
    const absl::Status read = reader_.Read(&payload_, fds);
    const bool parsed = read.ok() && message->ParseFromString(payload_);
    guard_.FrameDone(&payload_);
    NPUD_RETURN_IF_ERROR(read);
    if (!parsed) return absl::DataLossError("undecodable message");
    return absl::OkStatus();
  }
  void ChargeTo(std::shared_ptr<MemoryQuota> quota) override { guard_.ChargeTo(std::move(quota)); }

 private:
  FrameReader reader_;
  FrameGuard guard_;
  std::optional<v1::ClientMessage> hello_;
  std::string payload_;
};

// Best effort, never blocking: tells a peer why it is dropped.
void SendRefusal(int socket, const absl::Status& why) {
  v1::ServerMessage refused;
  refused.mutable_refused()->set_code(static_cast<int>(why.code()));
  refused.mutable_refused()->set_message(std::string(why.message()));
  std::string frame(kFrameHeaderBytes, '\0');
  refused.AppendToString(&frame);
  SealFrame(&frame);
  (void)send(socket, frame.data(), frame.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
}

uint32_t HeaderLength(const std::string& header) {
  uint32_t length = 0;
  for (int i = 0; i < 4; ++i)
    length |= static_cast<uint32_t>(static_cast<uint8_t>(header[i])) << (8 * i);
  return length;
}

// Logs at most once a second (floods must not flood the log).
bool LogAllowed(absl::Time* last) {
  const absl::Time now = absl::Now();
  if (now - *last < absl::Seconds(1)) return false;
  *last = now;
  return true;
}

}  // namespace

// A connection whose peer has sent its hello, served by its own thread.
class LocalServer::Connection {
 public:
  Connection(UniqueFd socket, v1::ClientMessage hello, PeerCredentials credentials,
             std::unique_ptr<ConnectionLimits::Admission> admission, LocalServer* server)
      : socket_(std::move(socket)),
        server_(server),
        core_(server->core_),
        admission_(std::move(admission)),
        thread_([this, hello = std::move(hello), credentials, server]() mutable {
          Serve(std::move(hello), credentials);
          // The client sees the end at once; the descriptor itself is closed
          // when the connection is reaped.
          shutdown(socket_.get(), SHUT_RDWR);
          done_.store(true);
          server->Wake();
        }) {}
  ~Connection() { thread_.join(); }

  // Unblocks the reader; the session closes as if the client had left.
  void Disconnect() { shutdown(socket_.get(), SHUT_RDWR); }
  bool done() const { return done_.load(); }

 private:
  void Serve(v1::ClientMessage hello, PeerCredentials credentials) {
    FrameSource source(socket_.get(), std::move(hello), &server_->frame_deadlines_,
                       server_->options_.hello_timeout);
    // The socket outlives the sink's use of it: Close() below comes before
    // the connection is reaped and closes it.
    auto sink = std::make_shared<FramedSink>(MakeBorrowedSocketStream(socket_.get()));
    const absl::Status served = ServeSession(core_, source, sink, credentials);
    if (!served.ok()) {
      spdlog::warn("local client pid {} uid {} refused: {}", credentials.pid, credentials.uid,
                   served.ToString());
      v1::ServerMessage refused;
      refused.mutable_refused()->set_code(static_cast<int>(served.code()));
      refused.mutable_refused()->set_message(std::string(served.message()));
      sink->Send(std::move(refused));
    }
    sink->Close();
  }

  const UniqueFd socket_;
  LocalServer* const server_;
  DaemonCore* const core_;
  const std::unique_ptr<ConnectionLimits::Admission> admission_;
  std::atomic<bool> done_{false};
  std::thread thread_;  // last: it uses the members above
};

struct LocalServer::Waiting {
  UniqueFd socket;
  PeerCredentials credentials;
  std::unique_ptr<ConnectionLimits::Admission> admission;
  absl::Time deadline;
  std::string frame;  // what arrived so far: header, then payload
};

LocalServer::LocalServer(DaemonCore* core, const Options& options)
    : core_(core),
      options_(options),
      limits_(options.max_connections, options.max_connections_per_peer) {}

absl::StatusOr<std::unique_ptr<LocalServer>> LocalServer::Start(DaemonCore* core,
                                                                const Options& options) {
  std::unique_ptr<LocalServer> server(new LocalServer(core, options));
  server->epoll_ = UniqueFd(epoll_create1(EPOLL_CLOEXEC));
  server->wake_ = UniqueFd(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  server->reserve_ = UniqueFd(open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (!server->epoll_.valid() || !server->wake_.valid() || !server->reserve_.valid()) {
    return absl::InternalError(absl::StrCat("local server set-up: ", std::strerror(errno)));
  }
  epoll_event wake{};
  wake.events = EPOLLIN;
  wake.data.fd = server->wake_.get();
  epoll_ctl(server->epoll_.get(), EPOLL_CTL_ADD, server->wake_.get(), &wake);
  for (const std::string& path : options.paths) {
    NPUD_ASSIGN_OR_RETURN(UniqueFd fd, ListenUnixSocket(path, /*backlog=*/256));
    NPUD_RETURN_IF_ERROR(options.access.ApplyTo(path));
    const int flags = fcntl(fd.get(), F_GETFL);
    fcntl(fd.get(), F_SETFL, flags | O_NONBLOCK);
    epoll_event listen{};
    listen.events = EPOLLIN;
    listen.data.fd = fd.get();
    epoll_ctl(server->epoll_.get(), EPOLL_CTL_ADD, fd.get(), &listen);
    server->listeners_.push_back(std::move(fd));
  }
  server->event_thread_ = std::thread([raw = server.get()] { raw->EventLoop(); });
  return server;
}

LocalServer::~LocalServer() {
  Shutdown();
  for (const std::string& path : options_.paths) unlink(path.c_str());
}

void LocalServer::Wake() {
  const uint64_t one = 1;
  (void)write(wake_.get(), &one, sizeof(one));
}

void LocalServer::EventLoop() {
  absl::Time next_scan = absl::Now() + kExpiryScan;
  absl::Time last_expiry_log = absl::InfinitePast();
  epoll_event events[64];
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      if (shut_down_) break;
    }
    const int n = epoll_wait(epoll_.get(), events, 64, absl::ToInt64Milliseconds(kExpiryScan));
    if (n < 0 && errno != EINTR) {
      spdlog::error("local server: epoll_wait: {}", std::strerror(errno));
      absl::SleepFor(kAcceptPause);
    }
    for (int i = 0; i < n; ++i) {
      const int fd = events[i].data.fd;
      if (fd == wake_.get()) {
        uint64_t count;
        (void)read(wake_.get(), &count, sizeof(count));
        Reap();
        continue;
      }
      bool listener = false;
      for (const UniqueFd& l : listeners_) listener |= l.get() == fd;
      if (listener) {
        AcceptFrom(fd);
        continue;
      }
      auto it = waiting_.find(fd);
      if (it != waiting_.end() && ReadHello(*it->second)) waiting_.erase(it);
    }
    const absl::Time now = absl::Now();
    if (now >= accept_paused_until_ && accept_paused_until_ != absl::InfinitePast()) {
      accept_paused_until_ = absl::InfinitePast();
      for (const UniqueFd& l : listeners_) {
        epoll_event listen{};
        listen.events = EPOLLIN;
        listen.data.fd = l.get();
        epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, l.get(), &listen);
      }
    }
    if (now >= next_scan) {
      next_scan = now + kExpiryScan;
      int expired = 0;
      for (auto it = waiting_.begin(); it != waiting_.end();) {
        auto next = std::next(it);
        if (now >= it->second->deadline) {
          SendRefusal(it->first, absl::DeadlineExceededError("no hello in time"));
          waiting_.erase(it);  // closes the socket, leaves the epoll set
          ++expired;
        }
        it = next;
      }
      if (expired > 0 && LogAllowed(&last_expiry_log)) {
        spdlog::warn("local server: closed {} connection(s) that sent no hello within {}", expired,
                     absl::FormatDuration(options_.hello_timeout));
      }
    }
  }
  waiting_.clear();
}

void LocalServer::AcceptFrom(int listener) {
  static absl::Time last_log = absl::InfinitePast();
  // A bounded number per wake-up, so that hellos and reaping keep their turn.
  for (int i = 0; i < 64; ++i) {
    UniqueFd socket(accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!socket.valid()) {
      const int error = errno;
      if (error == EAGAIN || error == EWOULDBLOCK) return;
      if (error == EINTR || error == ECONNABORTED) continue;
      if ((error == EMFILE || error == ENFILE) && reserve_.valid()) {
        // Out of descriptors: shed the newest connection rather than leave
        // it in the backlog, where it would make the listener spin.
        reserve_.reset();
        UniqueFd shed(accept4(listener, nullptr, nullptr, SOCK_CLOEXEC));
        shed.reset();
        reserve_ = UniqueFd(open("/dev/null", O_RDONLY | O_CLOEXEC));
        if (LogAllowed(&last_log)) {
          spdlog::error("local server: out of descriptors ({}), refusing new connections",
                        std::strerror(error));
        }
        if (reserve_.valid()) continue;
      } else if (LogAllowed(&last_log)) {
        spdlog::error("local server: accept: {}; pausing for {}", std::strerror(error),
                      absl::FormatDuration(kAcceptPause));
      }
      // Stop watching the listeners for a moment instead of spinning.
      for (const UniqueFd& l : listeners_) epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, l.get(), nullptr);
      accept_paused_until_ = absl::Now() + kAcceptPause;
      return;
    }
    ucred peer{};
    socklen_t peer_size = sizeof(peer);
    if (getsockopt(socket.get(), SOL_SOCKET, SO_PEERCRED, &peer, &peer_size) != 0) continue;
    if (absl::Status admitted = options_.access.Admit(peer.uid); !admitted.ok()) {
      if (LogAllowed(&last_log)) {
        spdlog::warn("local server: refusing pid {} uid {}: {}", peer.pid, peer.uid,
                     std::string(admitted.message()));
      }
      SendRefusal(socket.get(), admitted);
      continue;
    }
    absl::StatusOr<std::unique_ptr<ConnectionLimits::Admission>> admission =
        limits_.Admit(absl::StrCat("uid ", peer.uid));
    if (!admission.ok()) {
      if (LogAllowed(&last_log)) {
        spdlog::warn("local server: refusing pid {} uid {}: {}", peer.pid, peer.uid,
                     std::string(admission.status().message()));
      }
      SendRefusal(socket.get(), admission.status());
      continue;
    }
    auto waiting = std::make_unique<Waiting>();
    waiting->credentials = PeerCredentials{peer.pid, peer.uid};
    waiting->admission = *std::move(admission);
    waiting->deadline = absl::Now() + options_.hello_timeout;
    epoll_event in{};
    in.events = EPOLLIN | EPOLLRDHUP;
    in.data.fd = socket.get();
    if (epoll_ctl(epoll_.get(), EPOLL_CTL_ADD, socket.get(), &in) != 0) continue;
    const int fd = socket.get();
    waiting->socket = std::move(socket);
    waiting_[fd] = std::move(waiting);
  }
}

bool LocalServer::ReadHello(Waiting& waiting) {
  const int fd = waiting.socket.get();
  auto drop = [&](const absl::Status& why) {
    spdlog::warn("local client pid {} uid {} dropped before its hello: {}", waiting.credentials.pid,
                 waiting.credentials.uid, std::string(why.message()));
    SendRefusal(fd, why);
    return true;
  };
  while (true) {
    size_t want = kFrameHeaderBytes;
    if (waiting.frame.size() >= kFrameHeaderBytes) want += HeaderLength(waiting.frame);
    const size_t have = waiting.frame.size();
    if (have == want) break;
    // Grows with what arrives, never by what the header announces.
    waiting.frame.resize(std::min(want, have + 4096));
    std::vector<int> received;
    bool descriptors = false;
    const ssize_t n =
        ReceiveWithDescriptors(fd, waiting.frame.data() + have, waiting.frame.size() - have,
                               MSG_DONTWAIT, &received, &descriptors);
    for (int stray : received) close(stray);
    descriptors = descriptors || !received.empty();
    if (descriptors) return drop(absl::InvalidArgumentError("descriptors before the hello"));
    if (n < 0) {
      waiting.frame.resize(have);
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return false;
      return true;  // a broken connection: just close it
    }
    if (n == 0) {
      // A probe (connect, then leave) or a peer that gave up mid-frame.
      if (have > 0) {
        spdlog::debug("local client pid {} left inside its hello", waiting.credentials.pid);
      }
      return true;
    }
    waiting.frame.resize(have + n);
    if (have < kFrameHeaderBytes && waiting.frame.size() >= kFrameHeaderBytes) {
      const uint32_t length = HeaderLength(waiting.frame);
      if (length > kMaxHelloBytes || waiting.frame[4] != 0 || waiting.frame[5] != 0 ||
          waiting.frame[6] != 0 || waiting.frame[7] != 0) {
        return drop(absl::InvalidArgumentError(
            absl::StrCat("the first frame (", length, " bytes) is not a hello")));
      }
    }
  }
  v1::ClientMessage hello;
  if (!hello.ParseFromArray(waiting.frame.data() + kFrameHeaderBytes,
                            static_cast<int>(waiting.frame.size() - kFrameHeaderBytes)) ||
      !hello.has_hello()) {
    return drop(absl::InvalidArgumentError("the first message must be a hello"));
  }
  epoll_ctl(epoll_.get(), EPOLL_CTL_DEL, fd, nullptr);
  const int flags = fcntl(fd, F_GETFL);
  fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);  // the connection thread blocks on it
  absl::MutexLock lock(&mu_);
  if (shut_down_) return true;
  connections_.push_back(std::make_unique<Connection>(std::move(waiting.socket), std::move(hello),
                                                      waiting.credentials,
                                                      std::move(waiting.admission), this));
  return true;
}

void LocalServer::Reap() {
  std::vector<std::unique_ptr<Connection>> finished;
  {
    absl::MutexLock lock(&mu_);
    for (auto it = connections_.begin(); it != connections_.end();) {
      if ((*it)->done()) {
        finished.push_back(std::move(*it));
        it = connections_.erase(it);
      } else {
        ++it;
      }
    }
  }
  // Joins threads that have returned, outside the lock.
}

void LocalServer::Shutdown() {
  std::vector<std::unique_ptr<Connection>> connections;
  {
    absl::MutexLock lock(&mu_);
    if (shut_down_) return;
    shut_down_ = true;
  }
  Wake();
  if (event_thread_.joinable()) event_thread_.join();
  {
    absl::MutexLock lock(&mu_);
    connections.swap(connections_);
  }
  for (auto& connection : connections) connection->Disconnect();
  connections.clear();  // Joins each connection thread.
}

}  // namespace npud::daemon
