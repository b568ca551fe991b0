// runtime.h
//
// Runtime: the state behind the ACL API — the aclInit reference count, the
// sessions with the daemons (a CallPipeline over a Transport each; usually
// one, several when NPUD_ADDRESS lists several, then a CallRouter picks the
// daemon of each call), the device inventory the daemons announced, and the
// tables of this process's objects:
// handles (ObjectRegistry), kernels (KernelRegistry), host memory
// (HostMemory) and core limits (CoreLimits). One object owns them all.
//
// As in CANN, runtime calls do not need aclInit: the session is opened on
// first use and lives until the process ends (the daemon then releases
// whatever the process still held). aclInit/aclFinalize only keep their
// reference count and validate the configuration file.
//
// Thread-safe. The process's instance (Get()) is never destroyed: ACL calls
// may come from static destructors of the application. Tests build their
// own Runtime on a fake transport and install it with ScopedRuntime.

#ifndef NPUD_CLIENT_CORE_RUNTIME_H_
#define NPUD_CLIENT_CORE_RUNTIME_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "client/core/call_pipeline.h"
#include "client/core/call_router.h"
#include "client/core/copy_planner.h"
#include "client/core/host_memory.h"
#include "client/core/kernel_registry.h"
#include "client/core/managed_memory.h"
#include "client/core/object_registry.h"
#include "client/core/resource_limits.h"
#include "client/core/session_trace.h"
#include "client/transport/transport.h"
#include "common/acl_status.h"
#include "npud/v1/npud.pb.h"

namespace npud::client {

class Runtime {
 public:
  // Opens the transports of the sessions on first use, one per daemon.
  using TransportFactory = std::function<absl::StatusOr<std::vector<std::unique_ptr<Transport>>>()>;

  // The runtime ACL calls use: the process's own, which finds its daemons
  // with LocateDaemons(), unless a test installed another.
  static Runtime& Get();

  explicit Runtime(TransportFactory connect);
  // Ends the session (never runs for the process's own instance).
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // aclInit: `config_path` may be null or empty; otherwise it must name a
  // readable JSON file. A second aclInit fails with ACL_ERROR_REPEAT_
  // INITIALIZE but still counts.
  absl::Status Init(const char* config_path) ABSL_LOCKS_EXCLUDED(mu_);
  // aclFinalize: ends every aclInit at once; ACL_ERROR_REPEAT_FINALIZE the
  // second time.
  absl::Status Finalize() ABSL_LOCKS_EXCLUDED(mu_);
  // Whether aclInit has been called (and not finalized).
  bool initialized() const ABSL_LOCKS_EXCLUDED(mu_);
  // aclFinalizeReference: drops one aclInit; returns the count left.
  absl::StatusOr<uint64_t> FinalizeReference() ABSL_LOCKS_EXCLUDED(mu_);

  // The session with the first daemon, opened on first use (ACL_ERROR_RT_
  // DEV_SETUP_ERROR when a daemon cannot be reached). Sessions stay valid for
  // the process's life. For what only one daemon can do: host memory shared
  // with the daemon (only with a single daemon), the NPUD_TRACE timeline.
  absl::StatusOr<CallPipeline*> Session() ABSL_LOCKS_EXCLUDED(mu_);

  // Where `call` goes: the session of the daemon that serves it, with the
  // call's device ids rewritten to that daemon's numbering (CallRouter). A
  // call that names no device, object or address goes to the daemon of the
  // calling thread's current device.
  struct Target {
    CallPipeline* session;
    size_t daemon;
  };
  absl::StatusOr<Target> Route(v1::Call& call) ABSL_LOCKS_EXCLUDED(mu_);
  // How a copy on stream `stream_id` (0: none) that touches device address
  // `address` goes: the copy planner of its daemon's session.
  absl::StatusOr<CopyPlanner*> CopiesFor(uint64_t stream_id, uint64_t address)
      ABSL_LOCKS_EXCLUDED(mu_);
  // Every daemon's session, for calls each must see (CallRouter::IsBroadcast).
  absl::StatusOr<std::vector<CallPipeline*>> Sessions() ABSL_LOCKS_EXCLUDED(mu_);
  // Rewrites a reply of daemon `daemon` to the program's device numbering.
  void GlobalizeReply(size_t daemon, v1::Reply& reply) const ABSL_LOCKS_EXCLUDED(mu_);
  // How many daemons serve the program (1 before the first connection).
  size_t daemon_count() const ABSL_LOCKS_EXCLUDED(mu_);
  // Whether two device addresses belong to the same daemon.
  bool SameDaemon(uint64_t a, uint64_t b) const ABSL_LOCKS_EXCLUDED(mu_);

  // The devices the daemons announced, numbered in NPUD_ADDRESS order.
  absl::StatusOr<std::vector<v1::DeviceDescription>> Devices() ABSL_LOCKS_EXCLUDED(mu_);
  // `invalid_code` (ACL_ERROR_RT_INVALID_DEVICEID by default) unless
  // 0 <= device < count.
  absl::Status CheckDevice(int32_t device, AclCode invalid_code = kRtInvalidDeviceId)
      ABSL_LOCKS_EXCLUDED(mu_);
  // True if `pointer` lies in some device's address range or among the
  // reserved device virtual addresses.
  bool IsDevicePointer(const void* pointer) const ABSL_LOCKS_EXCLUDED(mu_);
  // True if `pointer` lies among the reserved device virtual addresses
  // (aclrtReserveMemAddress).
  bool IsReservedAddress(const void* pointer) const ABSL_LOCKS_EXCLUDED(mu_);
  // Where device `device` (the program's id) lives: the daemon's position in
  // NPUD_ADDRESS, that daemon's instance id (random per start) and the
  // device's id on it.
  struct DevicePlace {
    size_t daemon = 0;
    uint64_t instance_id = 0;
    int32_t local_device = 0;
  };
  absl::StatusOr<DevicePlace> PlaceOf(int32_t device) ABSL_LOCKS_EXCLUDED(mu_);
  // The SoC name of the devices, or the default name if no daemon answers.
  std::string SocName() ABSL_LOCKS_EXCLUDED(mu_);

  // The stream and event limits the first npud announced for this session
  // (0: none).
  struct Limits {
    uint32_t streams = 0;
    uint32_t events = 0;
  };
  Limits limits() const ABSL_LOCKS_EXCLUDED(mu_);
  // The pid npud knows this process by (connects if needed): the host's pid
  // when the process runs in a pid namespace of its own.
  absl::StatusOr<int64_t> PeerPid() ABSL_LOCKS_EXCLUDED(mu_);

  // Sends whatever asynchronous calls are still queued, and writes the
  // NPUD_TRACE file unless aclFinalize did (at exit).
  void FlushSession() ABSL_LOCKS_EXCLUDED(mu_);

  ObjectRegistry& objects() { return objects_; }
  KernelRegistry& kernels() { return kernels_; }
  HostMemory& host_memory() { return host_memory_; }
  ManagedMemory& managed_memory() { return managed_memory_; }
  CoreLimits& core_limits() { return core_limits_; }
  // aclrtSetOpExecuteTimeOut*: the kernel execute timeout in force, in
  // microseconds (see kernel_ops.h).
  std::atomic<uint64_t>& execute_timeout_us() { return execute_timeout_us_; }

 private:
  friend class ScopedRuntime;
  // Get() returns this one while set (tests).
  static std::atomic<Runtime*> installed_;

  // One daemon NPUD_ADDRESS names.
  struct Daemon {
    std::unique_ptr<CallPipeline> session;
    std::unique_ptr<CopyPlanner> copies;  // uses `session`
    v1::HelloReply hello;
  };

  // Opens a session with every daemon NPUD_ADDRESS names (all or none).
  absl::Status ConnectLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status EnsureConnectedLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return daemons_.empty() ? ConnectLocked() : absl::OkStatus();
  }
  // Writes the NPUD_TRACE file, if a trace runs.
  void FinishTraceLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const TransportFactory connect_;
  mutable absl::Mutex mu_;
  uint64_t init_count_ ABSL_GUARDED_BY(mu_) = 0;
  bool finalized_ ABSL_GUARDED_BY(mu_) = false;
  // Filled once by ConnectLocked and never changed after; [0] is the first.
  std::vector<Daemon> daemons_ ABSL_GUARDED_BY(mu_);
  // Set when there are several daemons.
  std::unique_ptr<CallRouter> router_ ABSL_GUARDED_BY(mu_);
  // NPUD_TRACE: running from the session's start until aclFinalize or exit.
  std::unique_ptr<SessionTrace> trace_ ABSL_GUARDED_BY(mu_);
  ObjectRegistry objects_;
  KernelRegistry kernels_;
  HostMemory host_memory_;
  ManagedMemory managed_memory_{host_memory_};
  CoreLimits core_limits_;
  std::atomic<uint64_t> execute_timeout_us_{60'000'000};
};

// Makes `runtime` the one ACL calls use for the scope's lifetime (tests of
// the client core against a fake transport). Not nestable.
class ScopedRuntime {
 public:
  explicit ScopedRuntime(Runtime* runtime) { Runtime::installed_.store(runtime); }
  ~ScopedRuntime() { Runtime::installed_.store(nullptr); }
  ScopedRuntime(const ScopedRuntime&) = delete;
  ScopedRuntime& operator=(const ScopedRuntime&) = delete;
};

}  // namespace npud::client

#endif  // NPUD_CLIENT_CORE_RUNTIME_H_
