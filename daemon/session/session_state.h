// session_state.h
//
// SessionState: what one client process owns in npud and the services its
// calls use. The call handlers (the *_calls.cc files, declared in calls.h)
// work on it; Session (session.h) owns it and dispatches calls.
//
// Everything the client names lives in a table here: streams, events,
// notifies, count notifies, kernel binaries, physical memory handles and
// host windows by the id the client minted (HandleTable), device memory by
// address (AllocationLedger). Nothing of other sessions is reachable from
// it, which is what keeps clients apart.
//
// Thread-safe: calls arrive on the session's reader thread in order;
// replies and stream completions come from scheduler workers and timers.

#ifndef NPUD_DAEMON_SESSION_SESSION_STATE_H_
#define NPUD_DAEMON_SESSION_SESSION_STATE_H_

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "daemon/bounded_executor.h"
#include "daemon/delayed_executor.h"
#include "daemon/host_window.h"
#include "daemon/ipc_registry.h"
#include "daemon/kernel_compiler.h"
#include "daemon/kernel_stats.h"
#include "daemon/message_sink.h"
#include "daemon/session/allocation_ledger.h"
#include "daemon/session/handle_table.h"
#include "daemon/session/memory_snapshot.h"
#include "daemon/session/model_captures.h"
#include "daemon/session/overflow_flags.h"
#include "daemon/session/session_kernels.h"
#include "daemon/session/session_limits.h"
#include "daemon/session/session_timeline.h"
#include "daemon/tdt_queues.h"
#include "npud/v1/calls.pb.h"
#include "npud/v1/npud.pb.h"
#include "simdevice/count_notify.h"
#include "simdevice/device_set.h"
#include "simdevice/event.h"
#include "simdevice/host_callback_task.h"
#include "simdevice/kernel_module.h"
#include "simdevice/launch_observer.h"
#include "simdevice/notify.h"
#include "simdevice/physical_memory.h"
#include "simdevice/stream.h"
#include "simdevice/task.h"

namespace npud::daemon {

class BulkLink;

// Who is on the other end.
struct PeerInfo {
  int64_t pid = 0;
  uint32_t uid = 0;
  std::string host;
  std::string program;
  // The name of the token it presented (empty: none or unnamed).
  std::string tenant = std::string();
  // True when pid and uid are the kernel's (SO_PEERCRED, local protocol);
  // false when only the hello claims them (gRPC, TCP).
  bool verified = false;

  // The pid namespace of `pid` for IPC allow-lists (see IpcPid).
  std::string PidSpace() const { return verified ? std::string() : "claimed:" + host; }
  IpcPid ipc_pid() const { return IpcPid(pid, PidSpace()); }
};

// Bytes copied between host and device, by the path they took. Tests use
// a session's to see that a copy took the fast path it should have; the
// daemon's totals are its metrics.
struct CopyCounters {
  std::atomic<uint64_t> inline_bytes{0};
  std::atomic<uint64_t> window_bytes{0};
  std::atomic<uint64_t> staging_bytes{0};
  std::atomic<uint64_t> bulk_bytes{0};
};
using CopyPath = std::atomic<uint64_t> CopyCounters::*;

// The daemon-wide services a session uses; all outlive every session.
struct SessionServices {
  sim::DeviceSet* devices = nullptr;
  DelayedExecutor* timers = nullptr;
  IpcRegistry* ipc = nullptr;
  TdtQueues* tdt_queues = nullptr;
  // Shared with compilations still running when a session ends.
  std::shared_ptr<KernelCompiler> compiler;
  BoundedExecutor* compilations = nullptr;
  // Takes half of a large host-window copy when a worker is idle.
  BoundedExecutor* copy_helpers = nullptr;
  // Where kernels run (a kernel host per session, or this process).
  KernelHostOptions kernel_host;
  SessionLimits limits;
  // The daemon's totals, which every session's copies and launches add to.
  CopyCounters* daemon_copied = nullptr;
  KernelStats* kernel_stats = nullptr;
};

// Physical memory (aclrtDrvMemHandle) as a session holds it.
struct PhysicalHandle {
  std::shared_ptr<sim::PhysicalMemory> memory;
  // Imported from another session's shareable handle.
  bool imported = false;
  // The memory counted against the session's limit while it holds the
  // handle.
  std::shared_ptr<QuotaCharge> charge;
};

// Host memory the client shared (local protocol), and what for.
struct SharedWindow {
  std::shared_ptr<HostWindow> window;
  v1::HostWindowUse use = v1::HOST_WINDOW_PINNED;
};

// A call's outcome: an error, or a reply (result filled in) to send.
using Outcome = absl::StatusOr<v1::Reply>;
// The empty reply when `status` is OK (a StatusOr must never hold an OK
// status).
Outcome Done(const absl::Status& status);
// A task for a stream, or why there is none.
using TaskOrError = absl::StatusOr<std::unique_ptr<sim::Task>>;

class SessionState {
 public:
  // `bulk`: the session's bulk channel (remote sessions), or null.
  SessionState(uint64_t id, PeerInfo peer, SessionServices services,
               std::shared_ptr<MessageSink> sink, std::shared_ptr<BulkLink> bulk = nullptr);
  // Releases everything the session owns; nothing of other sessions
  // changes.
  ~SessionState();
  SessionState(const SessionState&) = delete;
  SessionState& operator=(const SessionState&) = delete;

  const uint64_t id;
  const PeerInfo peer;
  const SessionServices services;
  sim::DeviceSet& devices() const { return *services.devices; }
  const std::shared_ptr<MessageSink>& sink() const { return sink_; }
  const std::shared_ptr<BulkLink> bulk;
  // Watches the tasks of the session's streams: kernel metrics, traces.
  const std::shared_ptr<SessionTimeline> timeline;
  // The float overflow status its kernels raised, per device.
  const std::shared_ptr<OverflowFlags> float_overflow = std::make_shared<OverflowFlags>();
  // Shared by every kernel launch of the session (session_launch_observer.h).
  const std::shared_ptr<const sim::LaunchObserver> launch_observer;
  // Turns true when the session ends: its running compilations are killed.
  const std::shared_ptr<std::atomic<bool>> ended = std::make_shared<std::atomic<bool>>(false);

  // --- Answers -------------------------------------------------------------
  // Sends the reply of a synchronous call. For an asynchronous call
  // (call_id 0) that failed, the error goes to stream `stream_id` (reported
  // by its next synchronize), or only to the log if `stream_id` is 0.
  void Finish(uint64_t call_id, uint64_t stream_id, Outcome outcome);

  // --- What the session owns -----------------------------------------------
  HandleTable<sim::Stream> streams{"stream"};
  HandleTable<sim::Event> events{"event"};
  HandleTable<sim::Notify> notifies{"notify"};
  HandleTable<sim::CountNotify> count_notifies{"count notify"};
  HandleTable<const LoadedBinary> binaries{"binary"};
  HandleTable<PhysicalHandle> physical{"physical memory handle"};
  HandleTable<SharedWindow> windows{"host window", kRtParamInvalid};
  // Blocking host callbacks a stream has queued, until the client says it
  // ran them (HostCallbackDone) or the stream drops them. Shared with the
  // tasks, which may outlive the session's other tables.
  const std::shared_ptr<HandleTable<sim::HostCallbackGate>> host_callbacks =
      std::make_shared<HandleTable<sim::HostCallbackGate>>("host callback", kRtParamInvalid);
  // Device addresses of windows mapped for aclrtHostRegister, by window id.
  HandleTable<uint64_t> mapped_windows{"mapped host window", kRtParamInvalid};
  // Streams being captured and the models captured (aclmdlRI).
  ModelCaptures models;
  AllocationLedger memory;
  // The contents of `memory` saved by the last process snapshot backup;
  // shared with the backup that waits for the streams to drain.
  const std::shared_ptr<MemorySnapshot> snapshot = std::make_shared<MemorySnapshot>();
  // After `memory`: its kernel host goes before the memory does.
  SessionKernels kernels;
  CopyCounters copied;
  // Counts `bytes` copied by `path` in `copied` and the daemon's totals.
  void CountCopy(CopyPath path, uint64_t bytes) {
    copied.*path += bytes;
    if (services.daemon_copied != nullptr) services.daemon_copied->*path += bytes;
  }

  // Binaries whose chunks are still arriving: appends `data`; returns the
  // whole binary once `last`. What is buffered counts toward the session's
  // memory quota and is bounded (kMaxPartialBinaryBytes in all): past either,
  // the upload fails with 207001 and its bytes are dropped.
  static constexpr uint64_t kMaxPartialBinaryBytes = 1ull << 30;
  absl::StatusOr<std::string> AddBinaryChunk(uint64_t binary_id, const std::string& data, bool last)
      ABSL_LOCKS_EXCLUDED(mu_);

  // The devices the session uses (the client counts aclrtSetDevice and
  // closes a device when its last one is reset). CloseDevice fails with
  // kRtInvalidDeviceId for a device not open.
  void OpenDevice(int device_id) ABSL_LOCKS_EXCLUDED(mu_);
  absl::Status CloseDevice(int device_id) ABSL_LOCKS_EXCLUDED(mu_);

  // --- Helpers of several call kinds ---------------------------------------
  // Queues `task` on stream `stream_id`.
  absl::Status Submit(uint64_t stream_id, std::unique_ptr<sim::Task> task);
  // Runs `fn` once every task queued so far on the session's streams has
  // finished (at once if none is pending), on whichever thread gets there.
  void WhenStreamsDrained(std::function<void()> fn);
  // Arms a waiting task's timeout on the daemon's timers.
  sim::WakeAt WakeAtTimer() const;
  // Drops the streams, events and notifies on `device_id` (all devices if
  // -1), cancelling their pending tasks.
  void ReleaseStreamsAndEvents(int device_id);

  // For the admin service.
  v1::SessionStatus Status() const;

 private:
  // A failed launch's arguments, copied into new device memory of the
  // session for aclrtGetArgsFromExceptionInfo; returns the address (0 if
  // none could be had). The newest kKeptFaultArgs copies are kept.
  uint64_t KeepFaultArgs(int device_id, const std::string& args) ABSL_LOCKS_EXCLUDED(mu_);
  static constexpr size_t kKeptFaultArgs = 16;

  const std::shared_ptr<MessageSink> sink_;
  mutable absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, std::string> partial_binaries_ ABSL_GUARDED_BY(mu_);
  // Their bytes together, charged to the memory quota.
  uint64_t partial_binary_bytes_ ABSL_GUARDED_BY(mu_) = 0;
  absl::flat_hash_set<int> open_devices_ ABSL_GUARDED_BY(mu_);
  std::deque<uint64_t> fault_args_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_SESSION_STATE_H_
