// session.h
//
// Session: everything one client process owns in npud, and the translation
// of its calls into simdevice operations.
//
// A session names streams and events by the ids the client minted and
// device memory by address. It only lets the client touch objects it owns:
// an address inside another session's allocation is answered as if it were
// no allocation at all. Destroying the session (client exit, crash or network
// loss) drops every pending task of its streams and frees its memory;
// nothing of other sessions changes.
//
// Threading: Process() is called by one thread at a time (the session's
// reader), in the order the client sent its calls. Replies may be sent from
// other threads (see MessageSink). Status() may be called from any thread.

#ifndef NPUD_DAEMON_SESSION_H_
#define NPUD_DAEMON_SESSION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "daemon/delayed_executor.h"
#include "daemon/host_window.h"
#include "daemon/ipc_registry.h"
#include "daemon/kernel_compiler.h"
#include "daemon/message_sink.h"
#include "npud/v1/calls.pb.h"
#include "npud/v1/npud.pb.h"
#include "simdevice/count_notify.h"
#include "simdevice/device_set.h"
#include "simdevice/event.h"
#include "simdevice/kernel_module.h"
#include "simdevice/notify.h"
#include "simdevice/physical_memory.h"
#include "simdevice/stream.h"

namespace npud::daemon {

// Who is on the other end, from the hello.
struct PeerInfo {
  int64_t pid = 0;
  uint32_t uid = 0;
  std::string host;
  std::string program;
};

class Session {
 public:
  // `devices`, `timers` and `ipc` must outlive the session.
  Session(uint64_t id, PeerInfo peer, sim::DeviceSet* devices, DelayedExecutor* timers,
          IpcRegistry* ipc, std::shared_ptr<KernelCompiler> compiler,
          std::shared_ptr<MessageSink> sink);
  // Releases everything the session owns.
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  uint64_t id() const { return id_; }
  const PeerInfo& peer() const { return peer_; }

  // Runs the calls of one batch in order; bulk bytes may be moved out of
  // `*batch`. `fds` (local protocol only) are the shared memory files of the
  // batch's RegisterHostMemory calls, in order; the session owns them.
  void Process(v1::CallBatch* batch, std::vector<int> fds = {}) ABSL_LOCKS_EXCLUDED(mu_);

  // For the admin service.
  v1::SessionStatus Status() const ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct OwnedAllocation {
    int device_id;
    uint64_t size;
  };
  // A call's outcome: an error, or a reply (result filled in) to send.
  using Outcome = absl::StatusOr<v1::Reply>;
  // An outcome without a result: the empty reply when `status` is OK. (A
  // StatusOr must never be built from an OK status.)
  static Outcome Done(const absl::Status& status);

  // `fd` is the file of a RegisterHostMemory call (-1 if none came).
  void Dispatch(v1::Call& call, int fd) ABSL_LOCKS_EXCLUDED(mu_);

  // Sends the reply of a synchronous call. For an asynchronous call
  // (call_id 0) that failed, the error goes to stream `stream_id` (reported
  // by its next synchronize), or only to the log if `stream_id` is 0.
  void Finish(uint64_t call_id, uint64_t stream_id, Outcome outcome) ABSL_LOCKS_EXCLUDED(mu_);
  void SendReply(uint64_t call_id, v1::Reply reply);

  // Handlers, one per call. Those returning void reply later (or never).
  Outcome OpenDevice(const v1::OpenDevice& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome CloseDevice(const v1::CloseDevice& op) ABSL_LOCKS_EXCLUDED(mu_);
  void SynchronizeDevice(uint64_t call_id, const v1::SynchronizeDevice& op)
      ABSL_LOCKS_EXCLUDED(mu_);
  Outcome GetMemInfo(const v1::GetMemInfo& op);

  Outcome CreateStream(const v1::CreateStream& op) ABSL_LOCKS_EXCLUDED(mu_);
  void DestroyStream(uint64_t call_id, const v1::DestroyStream& op) ABSL_LOCKS_EXCLUDED(mu_);
  void SynchronizeStream(uint64_t call_id, const v1::SynchronizeStream& op)
      ABSL_LOCKS_EXCLUDED(mu_);
  Outcome QueryStream(const v1::QueryStream& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome SetStreamFailureMode(const v1::SetStreamFailureMode& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome StreamWaitEvent(const v1::StreamWaitEvent& op) ABSL_LOCKS_EXCLUDED(mu_);

  Outcome CreateEvent(const v1::CreateEvent& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome DestroyEvent(const v1::DestroyEvent& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome RecordEvent(const v1::RecordEvent& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome ResetEvent(const v1::ResetEvent& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome QueryEvent(const v1::QueryEvent& op) ABSL_LOCKS_EXCLUDED(mu_);
  void SynchronizeEvent(uint64_t call_id, const v1::SynchronizeEvent& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome EventElapsedTime(const v1::EventElapsedTime& op) ABSL_LOCKS_EXCLUDED(mu_);

  Outcome Malloc(const v1::Malloc& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome Free(const v1::Free& op) ABSL_LOCKS_EXCLUDED(mu_);
  // Copies and memsets: validated into a task, then run on their stream, or
  // (stream 0) synchronously after the process's queued work.
  using TaskOrError = absl::StatusOr<std::unique_ptr<sim::Task>>;
  TaskOrError MemsetTask(const v1::Memset& op) ABSL_LOCKS_EXCLUDED(mu_);
  // Moves the bytes out of `op`.
  TaskOrError WriteTask(v1::WriteDevice& op) ABSL_LOCKS_EXCLUDED(mu_);
  TaskOrError ReadTask(const v1::ReadDevice& op) ABSL_LOCKS_EXCLUDED(mu_);
  TaskOrError CopyTask(const v1::CopyDevice& op) ABSL_LOCKS_EXCLUDED(mu_);
  void RunData(uint64_t call_id, uint64_t stream_id, TaskOrError task) ABSL_LOCKS_EXCLUDED(mu_);
  // Runs `fn` once every task queued so far on the session's streams has
  // finished (at once if none is pending), on whichever thread gets there.
  void WhenStreamsDrained(std::function<void()> fn) ABSL_LOCKS_EXCLUDED(mu_);

  Outcome LoadBinary(const v1::LoadBinary& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome UnloadBinary(const v1::UnloadBinary& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome LaunchKernel(const v1::LaunchKernel& op) ABSL_LOCKS_EXCLUDED(mu_);
  // Compiles on a thread of its own and answers when done.
  void CompileProgram(uint64_t call_id, const v1::CompileProgram& op);

  Outcome IpcExportMemory(const v1::IpcExportMemory& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome IpcSetImportPids(const v1::IpcSetImportPids& op);
  Outcome IpcImportMemory(const v1::IpcImportMemory& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome IpcClose(const v1::IpcClose& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome IpcExportEvent(const v1::IpcExportEvent& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome IpcOpenEvent(const v1::IpcOpenEvent& op) ABSL_LOCKS_EXCLUDED(mu_);

  Outcome ValueWrite(const v1::ValueWrite& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome ValueWait(const v1::ValueWait& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome CreateNotify(const v1::CreateNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome DestroyNotify(const v1::DestroyNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome RecordNotify(const v1::RecordNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome WaitNotify(const v1::WaitNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome IpcExportNotify(const v1::IpcExportNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome IpcSetNotifyPids(const v1::IpcSetNotifyPids& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome IpcImportNotify(const v1::IpcImportNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<std::shared_ptr<sim::Notify>> FindNotify(uint64_t notify_id) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Host memory shared with the daemon (session_host_memory.cc).
  Outcome RegisterHostMemory(const v1::RegisterHostMemory& op, int fd) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome ReleaseHostMemory(const v1::ReleaseHostMemory& op) ABSL_LOCKS_EXCLUDED(mu_);
  TaskOrError HostCopyTask(const v1::HostCopy& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome MapHostWindow(const v1::MapHostWindow& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome UnmapHostWindow(const v1::UnmapHostWindow& op) ABSL_LOCKS_EXCLUDED(mu_);

  // Count notifies (session_count_notify.cc).
  Outcome CreateCountNotify(const v1::CreateCountNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome DestroyCountNotify(const v1::DestroyCountNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome RecordCountNotify(const v1::RecordCountNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome WaitCountNotify(const v1::WaitCountNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome ResetCountNotify(const v1::ResetCountNotify& op) ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<std::shared_ptr<sim::CountNotify>> FindCountNotify(uint64_t notify_id) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Physical memory and device virtual addresses (session_vmm.cc).
  Outcome MallocPhysical(const v1::MallocPhysical& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome FreePhysical(const v1::FreePhysical& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome ReserveAddress(const v1::ReserveAddress& op);
  Outcome ReleaseAddress(const v1::ReleaseAddress& op);
  Outcome MapMemory(const v1::MapMemory& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome UnmapMemory(const v1::UnmapMemory& op);
  Outcome SetMemoryAccess(const v1::SetMemoryAccess& op);
  Outcome GetMemoryAccess(const v1::GetMemoryAccess& op);
  Outcome ExportPhysical(const v1::ExportPhysical& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome SetPhysicalPids(const v1::SetPhysicalPids& op);
  Outcome ImportPhysical(const v1::ImportPhysical& op) ABSL_LOCKS_EXCLUDED(mu_);
  Outcome RetainPhysical(const v1::RetainPhysical& op) ABSL_LOCKS_EXCLUDED(mu_);
  // Adds `memory` as `handle_id` and describes it in the reply.
  Outcome AddPhysicalHandle(uint64_t handle_id, std::shared_ptr<sim::PhysicalMemory> memory,
                            bool imported) ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<std::shared_ptr<sim::PhysicalMemory>> FindPhysical(uint64_t handle_id) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // Releases the session's reservations, mappings and physical memory.
  void ReleaseVirtualMemory() ABSL_LOCKS_EXCLUDED(mu_);

  // Queues `task` on stream `stream_id`.
  absl::Status Submit(uint64_t stream_id, std::unique_ptr<sim::Task> task) ABSL_LOCKS_EXCLUDED(mu_);

  absl::StatusOr<std::shared_ptr<sim::Stream>> FindStream(uint64_t stream_id) const
      ABSL_LOCKS_EXCLUDED(mu_);
  absl::StatusOr<std::shared_ptr<sim::Event>> FindEvent(uint64_t event_id) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // Pins [address, address + size) if it lies in memory this session owns
  // or imported.
  absl::StatusOr<sim::DeviceRange> Access(uint64_t address, uint64_t size) const
      ABSL_LOCKS_EXCLUDED(mu_);
  // Like Access, but only memory the session allocated or mapped itself.
  absl::StatusOr<sim::DeviceRange> OwnedRange(uint64_t address, uint64_t size) const
      ABSL_LOCKS_EXCLUDED(mu_);

  // Drops the session's streams and events on `device_id` (all devices if
  // -1), cancelling their pending tasks.
  void ReleaseStreamsAndEvents(int device_id) ABSL_LOCKS_EXCLUDED(mu_);

  // Constant after construction.
  const uint64_t id_;
  const PeerInfo peer_;
  sim::DeviceSet* const devices_;
  DelayedExecutor* const timers_;
  IpcRegistry* const ipc_;
  const std::shared_ptr<KernelCompiler> compiler_;
  const std::shared_ptr<MessageSink> sink_;

  mutable absl::Mutex mu_;
  absl::flat_hash_map<uint64_t, std::shared_ptr<sim::Stream>> streams_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, std::shared_ptr<sim::Event>> events_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, std::shared_ptr<sim::Notify>> notifies_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, std::shared_ptr<sim::CountNotify>> count_notifies_
      ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, OwnedAllocation> allocations_ ABSL_GUARDED_BY(mu_);
  absl::flat_hash_map<uint64_t, std::shared_ptr<const sim::KernelModule>> binaries_
      ABSL_GUARDED_BY(mu_);
  // Binaries whose chunks are still arriving.
  absl::flat_hash_map<uint64_t, std::string> partial_binaries_ ABSL_GUARDED_BY(mu_);
  // Memory other sessions shared and this one imported, by key.
  absl::flat_hash_map<std::string, std::shared_ptr<SharedMemory>> imports_ ABSL_GUARDED_BY(mu_);
  // Physical memory by client-minted handle id (aclrtDrvMemHandle).
  struct PhysicalHandle {
    std::shared_ptr<sim::PhysicalMemory> memory;
    // Imported from another session's shareable handle.
    bool imported;
  };
  absl::flat_hash_map<uint64_t, PhysicalHandle> physical_ ABSL_GUARDED_BY(mu_);
  // Host memory the client shared, by window id.
  absl::flat_hash_map<uint64_t, std::shared_ptr<HostWindow>> windows_ ABSL_GUARDED_BY(mu_);
  // Device addresses of windows mapped for aclrtHostRegister, by window id.
  absl::flat_hash_map<uint64_t, uint64_t> mapped_windows_ ABSL_GUARDED_BY(mu_);
  // aclrtSetDevice count per device id.
  absl::flat_hash_map<int, int> open_devices_ ABSL_GUARDED_BY(mu_);
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_H_
