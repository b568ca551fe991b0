// daemon_core.h
//
// DaemonCore: the part of npud that is not gRPC — the simulated devices, the
// live sessions and the hello handshake. The gRPC service and the client's
// in-process transport both drive it.
//
// Thread-safe.

#ifndef NPUD_DAEMON_DAEMON_CORE_H_
#define NPUD_DAEMON_DAEMON_CORE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "daemon/auth_tokens.h"
#include "daemon/bounded_executor.h"
#include "daemon/delayed_executor.h"
#include "daemon/ipc_registry.h"
#include "daemon/kernel_compiler.h"
#include "daemon/kernel_stats.h"
#include "daemon/message_sink.h"
#include "daemon/peer_credentials.h"
#include "daemon/session/session.h"
#include "daemon/tdt_queues.h"
#include "npud/v1/npud.pb.h"
#include "simdevice/device_set.h"

namespace npud::daemon {

class DaemonCore {
 public:
  struct Options {
    sim::DeviceSet::Options devices;
    // When not empty, hellos must carry one of these tokens, and its limits
    // replace session_limits where it sets them.
    std::vector<AuthToken> auth_tokens;
    // The CPU AscendC headers runtime compilation builds against; empty:
    // <install prefix>/tikcpp/ascendc_kernel_cmake/include next to this
    // binary, else the source tree's.
    std::string kernel_include_dir;
    // Where sessions' kernels run: npud gives every session a sandboxed
    // kernel host; with no binary set (the in-process transport) they run
    // in this process.
    KernelHostOptions kernel_host;
    // What each session may hold at most.
    SessionLimits session_limits;
    // npud-sandbox-run for run-time compilation (empty: unsandboxed), and
    // how many compilations run at once (more wait in a bounded queue).
    std::string compile_sandbox;
    int compile_jobs = 2;
  };

  static absl::StatusOr<std::unique_ptr<DaemonCore>> Create(const Options& options);
  ~DaemonCore();

  struct Opened {
    v1::HelloReply reply;
    std::shared_ptr<Session> session;
  };
  // Checks a hello (protocol version, token) and starts a session whose
  // messages go to `sink`. With `credentials` (local protocol) the session's
  // pid and uid are the kernel's, otherwise what the hello claims. The
  // caller owns the session; CloseSession() must be called when the client
  // goes away. A `remote` session (gRPC over TCP) is offered the bulk
  // channel, if npud has one (set_bulk_port).
  absl::StatusOr<Opened> OpenSession(const v1::Hello& hello, std::shared_ptr<MessageSink> sink,
                                     std::optional<PeerCredentials> credentials = std::nullopt,
                                     bool remote = false) ABSL_LOCKS_EXCLUDED(mu_);
  void CloseSession(uint64_t session_id) ABSL_LOCKS_EXCLUDED(mu_);

  // Where TcpServer listens (0: npud offers no bulk channel). Set before
  // sessions open.
  void set_bulk_port(int port) { bulk_port_ = port; }
  // The bulk channel end of live session `session_id`; NotFound if there is
  // no such session or it was not offered one.
  absl::StatusOr<std::shared_ptr<BulkLink>> FindBulkLink(uint64_t session_id) const
      ABSL_LOCKS_EXCLUDED(mu_);

  v1::ListDevicesReply ListDevices() const ABSL_LOCKS_EXCLUDED(mu_);
  v1::ListSessionsReply ListSessions() const ABSL_LOCKS_EXCLUDED(mu_);
  // Ends session `session_id` from npud's side (its connection is closed;
  // the transport then closes the session, releasing everything), for
  // `who` (logged). NotFound if there is no such session.
  absl::Status KillSession(uint64_t session_id, const std::string& who) ABSL_LOCKS_EXCLUDED(mu_);
  // Records session `session_id`'s timeline for `duration` (at most ten
  // minutes), or until the session ends or `cancelled()` turns true, and
  // returns it (with kernel block spans if `blocks`). NotFound if there is
  // no such session.
  absl::StatusOr<v1::TraceResult> TraceSession(uint64_t session_id, absl::Duration duration,
                                               bool blocks, const std::function<bool()>& cancelled)
      ABSL_LOCKS_EXCLUDED(mu_);
  size_t session_count() const ABSL_LOCKS_EXCLUDED(mu_);

  uint64_t instance_id() const { return instance_id_; }
  sim::DeviceSet& devices() { return *devices_; }
  // Bytes all sessions copied between host and device, by path, and their
  // kernel launches by kernel name, since start; run-time compilations.
  const CopyCounters& copied() const { return copied_; }
  const KernelStats& kernel_stats() const { return kernel_stats_; }
  const KernelCompiler& compiler() const { return *compiler_; }

 private:
  DaemonCore(const Options& options, std::unique_ptr<sim::DeviceSet> devices);

  // Constant after construction. Timers go before devices (declared after):
  // a pending timeout may reference a session's sink, never a device.
  const std::vector<AuthToken> auth_tokens_;
  const uint64_t instance_id_;
  const KernelHostOptions kernel_host_;
  const SessionLimits session_limits_;
  // Shared with compilations still running when a session ends.
  const std::shared_ptr<KernelCompiler> compiler_;
  // Before the sessions, which add to them to their end.
  CopyCounters copied_;
  KernelStats kernel_stats_;
  std::unique_ptr<sim::DeviceSet> devices_;
  // After the devices: shared memory pins allocations, so it goes first.
  IpcRegistry ipc_;
  TdtQueues tdt_queues_;
  DelayedExecutor timers_;
  // Run-time compilations: a few at a time (each is a g++), a bounded queue
  // behind them.
  BoundedExecutor compilations_;
  // Take half of a large host-window copy when idle.
  BoundedExecutor copy_helpers_{"copy helpers", 2, 0};

  std::atomic<int> bulk_port_{0};
  std::atomic<uint64_t> next_session_id_{1};
  mutable absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, std::shared_ptr<Session>> sessions_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_DAEMON_CORE_H_
