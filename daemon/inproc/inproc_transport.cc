// The in-process transport: the daemon core runs inside the client process
// and calls are handed to its session directly, with no sockets and no
// serialization. It is the embedded mode (NPUD_ADDRESS=inproc:) and the
// baseline that shows what remoting costs.
//
// Built into libnpud_inproc.so, the only library that holds the daemon and
// the simulated devices; libacl_rt.so loads it on demand (inproc_loader.cc)
// through the one entry point below.

#include <memory>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "client/transport/transport.h"
#include "common/status_macros.h"
#include "daemon/daemon_core.h"
#include "daemon/message_sink.h"
#include "daemon/session_endpoint.h"
#include "spdlog/spdlog.h"

namespace npud::client {
namespace {

// The process's daemon core. Created on first use and never destroyed: it
// may be needed until the very end of the process, after static destructors
// have begun.
absl::StatusOr<daemon::DaemonCore*> SharedCore() {
  static absl::Mutex mu(absl::kConstInit);
  static daemon::DaemonCore* core = nullptr;
  absl::MutexLock lock(&mu);
  if (core == nullptr) {
    daemon::DaemonCore::Options options;
    NPUD_ASSIGN_OR_RETURN(std::unique_ptr<daemon::DaemonCore> created,
                          daemon::DaemonCore::Create(options));
    core = created.release();
  }
  return core;
}

// Forwards the session's messages straight to the receiver until closed.
class DirectSink final : public daemon::MessageSink {
 public:
  explicit DirectSink(TransportReceiver* receiver) : receiver_(receiver) {}

  void Send(v1::ServerMessage message) override {
    absl::ReaderMutexLock lock(&mu_);
    if (receiver_ != nullptr) receiver_->OnMessage(std::move(message));
  }
  // Waits for running deliveries, then drops later ones.
  void Close() {
    absl::MutexLock lock(&mu_);
    receiver_ = nullptr;
  }

 private:
  absl::Mutex mu_;
  TransportReceiver* receiver_ ABSL_GUARDED_BY(mu_);
};

class InprocTransport final : public Transport {
 public:
  ~InprocTransport() override { Shutdown(); }

  absl::StatusOr<v1::HelloReply> Connect(const v1::Hello& hello,
                                         TransportReceiver* receiver) override {
    NPUD_ASSIGN_OR_RETURN(daemon::DaemonCore * core, SharedCore());
    sink_ = std::make_shared<DirectSink>(receiver);
    endpoint_ = std::make_unique<daemon::SessionEndpoint>(core, sink_);
    return endpoint_->Open(hello);
  }

  absl::Status Send(v1::ClientMessage message) override {
    if (endpoint_ == nullptr) return absl::FailedPreconditionError("not connected");
    return endpoint_->Handle(message, {});
  }

  void Shutdown() override {
    if (endpoint_ == nullptr) return;
    endpoint_.reset();  // closes the session
    sink_->Close();
  }

  std::string Describe() const override { return "inproc:"; }

 private:
  std::shared_ptr<DirectSink> sink_;
  std::unique_ptr<daemon::SessionEndpoint> endpoint_;
};

}  // namespace

}  // namespace npud::client

// The entry point libacl_rt.so looks up with dlsym. The caller owns the
// transport.
extern "C" __attribute__((visibility("default"))) npud::client::Transport*
npud_inproc_make_transport() {
  return new npud::client::InprocTransport();
}
