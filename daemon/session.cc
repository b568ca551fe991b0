#include "daemon/session.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/wire_constants.h"
#include "simdevice/event_tasks.h"
#include "simdevice/kernel_launch.h"
#include "simdevice/memory_tasks.h"
#include "simdevice/value_tasks.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// Highest aclrtMemAttr value (ACL_MEM_P2P_HUGE1G).
constexpr uint32_t kMaxMemAttr = 17;

// ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION.
constexpr uint64_t kIpcDisablePidCheck = 1;
// ACL_EVENT_IPC.
constexpr uint32_t kEventIpcFlag = 0x40;
// ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION.
constexpr uint64_t kNotifyDisablePidCheck = 2;

// CANN's largest block dimension.
constexpr uint32_t kMaxBlockDim = 65535;

v1::Reply Ok() { return v1::Reply(); }

v1::Reply StatusReply(bool complete) {
  v1::Reply reply;
  reply.mutable_status()->set_status(complete ? v1::COMPLETION_DONE : v1::COMPLETION_PENDING);
  return reply;
}

// Sends `data` as DataChunks of `transfer_id`, the last one marked.
void SendData(MessageSink& sink, uint64_t transfer_id, absl::Span<const uint8_t> data) {
  size_t offset = 0;
  do {
    const size_t n = std::min(kDataChunkBytes, data.size() - offset);
    v1::ServerMessage message;
    v1::DataChunk* chunk = message.mutable_data();
    chunk->set_transfer_id(transfer_id);
    chunk->set_offset(offset);
    chunk->set_data(data.data() + offset, n);
    offset += n;
    chunk->set_last(offset == data.size());
    sink.Send(std::move(message));
  } while (offset < data.size());
}

// Ends a transfer that will carry no data.
void SendDataError(MessageSink& sink, uint64_t transfer_id, const absl::Status& error) {
  v1::ServerMessage message;
  v1::DataChunk* chunk = message.mutable_data();
  chunk->set_transfer_id(transfer_id);
  chunk->set_last(true);
  chunk->set_acl_error(ToAclCode(error));
  sink.Send(std::move(message));
}

// Answers a synchronous call with just a status.
void SendStatusReply(MessageSink& sink, uint64_t call_id, const absl::Status& status) {
  v1::ServerMessage message;
  v1::Reply* reply = message.mutable_reply();
  reply->set_call_id(call_id);
  reply->set_acl_error(ToAclCode(status));
  reply->set_error_message(std::string(status.message()));
  sink.Send(std::move(message));
}

// One synchronize waiting for a stream, an event or a whole device, possibly
// with a timeout: whichever of completion and timeout comes first answers.
class SyncWaiter : public std::enable_shared_from_this<SyncWaiter> {
 public:
  SyncWaiter(std::shared_ptr<MessageSink> sink, uint64_t call_id, AclCode timeout_code)
      : sink_(std::move(sink)), call_id_(call_id), timeout_code_(timeout_code) {}

  // Answers with `status` unless the waiter already answered. Returns false
  // if the answer came too late (the caller then keeps `status` for later).
  bool Complete(const absl::Status& status) {
    if (answered_.exchange(true)) return false;
    if (call_id_ != 0) SendStatusReply(*sink_, call_id_, status);  // 0: nobody waits.
    return true;
  }

  void ArmTimeout(DelayedExecutor* timers, int32_t timeout_ms) {
    if (timeout_ms <= 0) return;
    std::weak_ptr<SyncWaiter> weak = weak_from_this();
    timers->RunAfter(absl::Milliseconds(timeout_ms), [weak, timeout_ms] {
      if (auto self = weak.lock()) {
        self->Complete(
            AclError(self->timeout_code_, absl::StrFormat("not complete after %d ms", timeout_ms)));
      }
    });
  }

 private:
  const std::shared_ptr<MessageSink> sink_;
  const uint64_t call_id_;
  const AclCode timeout_code_;
  std::atomic<bool> answered_{false};
};

}  // namespace

Session::Session(uint64_t id, PeerInfo peer, sim::DeviceSet* devices, DelayedExecutor* timers,
                 IpcRegistry* ipc, std::shared_ptr<KernelCompiler> compiler,
                 std::shared_ptr<MessageSink> sink)
    : id_(id),
      peer_(std::move(peer)),
      devices_(devices),
      timers_(timers),
      ipc_(ipc),
      compiler_(std::move(compiler)),
      sink_(std::move(sink)) {}

Session::~Session() {
  // Teardown order: stop the work first (streams), then withdraw what others
  // imported from us, drop what we imported, and free our memory last.
  ReleaseStreamsAndEvents(-1);
  ipc_->RevokeAll(id_);
  {
    absl::MutexLock lock(&mu_);
    imports_.clear();
  }
  ReleaseVirtualMemory();
  absl::flat_hash_map<uint64_t, OwnedAllocation> allocations;
  {
    absl::MutexLock lock(&mu_);
    allocations.swap(allocations_);
  }
  uint64_t bytes = 0;
  for (const auto& [address, allocation] : allocations) {
    auto device = devices_->Get(allocation.device_id);
    if (device.ok()) (*device)->memory().Free(address).IgnoreError();
    bytes += allocation.size;
  }
  spdlog::info("session {} (pid {} {}) closed: released {} allocations ({} bytes)", id_, peer_.pid,
               peer_.program, allocations.size(), bytes);
}

Session::Outcome Session::Done(const absl::Status& status) {
  if (!status.ok()) return status;
  return Ok();
}

void Session::Process(v1::CallBatch* batch, std::vector<int> fds) {
  size_t next_fd = 0;
  for (v1::Call& call : *batch->mutable_calls()) {
    int fd = -1;
    if (call.has_register_host_memory() && next_fd < fds.size()) fd = fds[next_fd++];
    Dispatch(call, fd);
  }
  for (; next_fd < fds.size(); ++next_fd) close(fds[next_fd]);
}

void Session::Dispatch(v1::Call& call, int fd) {
  const uint64_t id = call.call_id();
  switch (call.op_case()) {
    case v1::Call::kPing:
      return Finish(id, 0, Ok());
    case v1::Call::kOpenDevice:
      return Finish(id, 0, OpenDevice(call.open_device()));
    case v1::Call::kCloseDevice:
      return Finish(id, 0, CloseDevice(call.close_device()));
    case v1::Call::kSynchronizeDevice:
      return SynchronizeDevice(id, call.synchronize_device());
    case v1::Call::kGetMemInfo:
      return Finish(id, 0, GetMemInfo(call.get_mem_info()));

    case v1::Call::kCreateStream:
      return Finish(id, 0, CreateStream(call.create_stream()));
    case v1::Call::kDestroyStream:
      return DestroyStream(id, call.destroy_stream());
    case v1::Call::kSynchronizeStream:
      return SynchronizeStream(id, call.synchronize_stream());
    case v1::Call::kQueryStream:
      return Finish(id, 0, QueryStream(call.query_stream()));
    case v1::Call::kSetStreamFailureMode:
      return Finish(id, call.set_stream_failure_mode().stream_id(),
                    SetStreamFailureMode(call.set_stream_failure_mode()));
    case v1::Call::kStreamWaitEvent:
      return Finish(id, call.stream_wait_event().stream_id(),
                    StreamWaitEvent(call.stream_wait_event()));

    case v1::Call::kCreateEvent:
      return Finish(id, 0, CreateEvent(call.create_event()));
    case v1::Call::kDestroyEvent:
      return Finish(id, 0, DestroyEvent(call.destroy_event()));
    case v1::Call::kRecordEvent:
      return Finish(id, call.record_event().stream_id(), RecordEvent(call.record_event()));
    case v1::Call::kResetEvent:
      return Finish(id, call.reset_event().stream_id(), ResetEvent(call.reset_event()));
    case v1::Call::kQueryEvent:
      return Finish(id, 0, QueryEvent(call.query_event()));
    case v1::Call::kSynchronizeEvent:
      return SynchronizeEvent(id, call.synchronize_event());
    case v1::Call::kEventElapsedTime:
      return Finish(id, 0, EventElapsedTime(call.event_elapsed_time()));

    case v1::Call::kMalloc:
      return Finish(id, 0, Malloc(call.malloc()));
    case v1::Call::kFree:
      return Finish(id, 0, Free(call.free()));
    case v1::Call::kMemset:
      return RunData(id, call.memset().stream_id(), MemsetTask(call.memset()));
    case v1::Call::kWriteDevice:
      return RunData(id, call.write_device().stream_id(), WriteTask(*call.mutable_write_device()));
    case v1::Call::kReadDevice: {
      auto task = ReadTask(call.read_device());
      // An asynchronous read's client also waits for the end of its transfer.
      if (!task.ok() && id == 0) {
        SendDataError(*sink_, call.read_device().transfer_id(), task.status());
      }
      return RunData(id, call.read_device().stream_id(), std::move(task));
    }
    case v1::Call::kCopyDevice:
      return RunData(id, call.copy_device().stream_id(), CopyTask(call.copy_device()));

    case v1::Call::kLoadBinary:
      return Finish(id, 0, LoadBinary(call.load_binary()));
    case v1::Call::kUnloadBinary:
      return Finish(id, 0, UnloadBinary(call.unload_binary()));
    case v1::Call::kLaunchKernel:
      return Finish(id, call.launch_kernel().stream_id(), LaunchKernel(call.launch_kernel()));

    case v1::Call::kCompileProgram:
      return CompileProgram(id, call.compile_program());

    case v1::Call::kIpcExportMemory:
      return Finish(id, 0, IpcExportMemory(call.ipc_export_memory()));
    case v1::Call::kIpcSetImportPids:
      return Finish(id, 0, IpcSetImportPids(call.ipc_set_import_pids()));
    case v1::Call::kIpcImportMemory:
      return Finish(id, 0, IpcImportMemory(call.ipc_import_memory()));
    case v1::Call::kIpcClose:
      return Finish(id, 0, IpcClose(call.ipc_close()));
    case v1::Call::kIpcExportEvent:
      return Finish(id, 0, IpcExportEvent(call.ipc_export_event()));
    case v1::Call::kIpcOpenEvent:
      return Finish(id, 0, IpcOpenEvent(call.ipc_open_event()));

    case v1::Call::kValueWrite:
      return Finish(id, call.value_write().stream_id(), ValueWrite(call.value_write()));
    case v1::Call::kValueWait:
      return Finish(id, call.value_wait().stream_id(), ValueWait(call.value_wait()));
    case v1::Call::kCreateNotify:
      return Finish(id, 0, CreateNotify(call.create_notify()));
    case v1::Call::kDestroyNotify:
      return Finish(id, 0, DestroyNotify(call.destroy_notify()));
    case v1::Call::kRecordNotify:
      return Finish(id, call.record_notify().stream_id(), RecordNotify(call.record_notify()));
    case v1::Call::kWaitNotify:
      return Finish(id, call.wait_notify().stream_id(), WaitNotify(call.wait_notify()));
    case v1::Call::kIpcExportNotify:
      return Finish(id, 0, IpcExportNotify(call.ipc_export_notify()));
    case v1::Call::kIpcSetNotifyPids:
      return Finish(id, 0, IpcSetNotifyPids(call.ipc_set_notify_pids()));
    case v1::Call::kIpcImportNotify:
      return Finish(id, 0, IpcImportNotify(call.ipc_import_notify()));

    case v1::Call::kMallocPhysical:
      return Finish(id, 0, MallocPhysical(call.malloc_physical()));
    case v1::Call::kFreePhysical:
      return Finish(id, 0, FreePhysical(call.free_physical()));
    case v1::Call::kReserveAddress:
      return Finish(id, 0, ReserveAddress(call.reserve_address()));
    case v1::Call::kReleaseAddress:
      return Finish(id, 0, ReleaseAddress(call.release_address()));
    case v1::Call::kMapMemory:
      return Finish(id, 0, MapMemory(call.map_memory()));
    case v1::Call::kUnmapMemory:
      return Finish(id, 0, UnmapMemory(call.unmap_memory()));
    case v1::Call::kSetMemoryAccess:
      return Finish(id, 0, SetMemoryAccess(call.set_memory_access()));
    case v1::Call::kGetMemoryAccess:
      return Finish(id, 0, GetMemoryAccess(call.get_memory_access()));
    case v1::Call::kExportPhysical:
      return Finish(id, 0, ExportPhysical(call.export_physical()));
    case v1::Call::kSetPhysicalPids:
      return Finish(id, 0, SetPhysicalPids(call.set_physical_pids()));
    case v1::Call::kImportPhysical:
      return Finish(id, 0, ImportPhysical(call.import_physical()));
    case v1::Call::kRetainPhysical:
      return Finish(id, 0, RetainPhysical(call.retain_physical()));

    case v1::Call::kCreateCountNotify:
      return Finish(id, 0, CreateCountNotify(call.create_count_notify()));
    case v1::Call::kDestroyCountNotify:
      return Finish(id, 0, DestroyCountNotify(call.destroy_count_notify()));
    case v1::Call::kRecordCountNotify:
      return Finish(id, call.record_count_notify().stream_id(),
                    RecordCountNotify(call.record_count_notify()));
    case v1::Call::kWaitCountNotify:
      return Finish(id, call.wait_count_notify().stream_id(),
                    WaitCountNotify(call.wait_count_notify()));
    case v1::Call::kResetCountNotify:
      return Finish(id, call.reset_count_notify().stream_id(),
                    ResetCountNotify(call.reset_count_notify()));

    case v1::Call::kRegisterHostMemory:
      return Finish(id, 0, RegisterHostMemory(call.register_host_memory(), fd));
    case v1::Call::kReleaseHostMemory:
      return Finish(id, 0, ReleaseHostMemory(call.release_host_memory()));
    case v1::Call::kMapHostWindow:
      return Finish(id, 0, MapHostWindow(call.map_host_window()));
    case v1::Call::kUnmapHostWindow:
      return Finish(id, 0, UnmapHostWindow(call.unmap_host_window()));
    case v1::Call::kHostCopy:
      return RunData(id, call.host_copy().stream_id(), HostCopyTask(call.host_copy()));

    case v1::Call::OP_NOT_SET:
      break;
  }
  // An op this daemon does not know (newer client) or an empty call.
  Finish(
      id, 0,
      AclError(kRtFeatureNotSupport, absl::StrFormat("call type %d is not supported by this npud",
                                                     static_cast<int>(call.op_case()))));
}

void Session::Finish(uint64_t call_id, uint64_t stream_id, Outcome outcome) {
  if (call_id == 0) {
    if (outcome.ok()) return;
    spdlog::warn("session {}: asynchronous call failed: {}", id_, outcome.status().ToString());
    if (stream_id != 0) {
      if (auto stream = FindStream(stream_id); stream.ok()) {
        (*stream)->RecordError(outcome.status());
      }
    }
    return;
  }
  if (!outcome.ok()) {
    spdlog::debug("session {}: call {} failed: {}", id_, call_id, outcome.status().ToString());
    v1::Reply reply;
    reply.set_acl_error(ToAclCode(outcome.status()));
    reply.set_error_message(std::string(outcome.status().message()));
    return SendReply(call_id, std::move(reply));
  }
  SendReply(call_id, *std::move(outcome));
}

void Session::SendReply(uint64_t call_id, v1::Reply reply) {
  v1::ServerMessage message;
  reply.set_call_id(call_id);
  *message.mutable_reply() = std::move(reply);
  sink_->Send(std::move(message));
}

// --- Devices ---------------------------------------------------------------

Session::Outcome Session::OpenDevice(const v1::OpenDevice& op) {
  auto device = devices_->Get(op.device_id());
  if (!device.ok()) return device.status();
  absl::MutexLock lock(&mu_);
  ++open_devices_[op.device_id()];
  return Ok();
}

Session::Outcome Session::CloseDevice(const v1::CloseDevice& op) {
  auto device = devices_->Get(op.device_id());
  if (!device.ok()) return device.status();
  {
    absl::MutexLock lock(&mu_);
    auto it = open_devices_.find(op.device_id());
    if (it == open_devices_.end()) {
      return AclError(kRtInvalidDeviceId,
                      absl::StrFormat("device %d was not set by this process", op.device_id()));
    }
    if (!op.force() && --it->second > 0) return Ok();
    open_devices_.erase(it);
  }
  ReleaseStreamsAndEvents(op.device_id());
  return Ok();
}

void Session::SynchronizeDevice(uint64_t call_id, const v1::SynchronizeDevice& op) {
  if (auto device = devices_->Get(op.device_id()); !device.ok()) {
    return Finish(call_id, 0, device.status());
  }
  std::vector<std::shared_ptr<sim::Stream>> streams;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, stream] : streams_) {
      if (stream->device_id() == op.device_id()) streams.push_back(stream);
    }
  }
  auto waiter = std::make_shared<SyncWaiter>(sink_, call_id, kRtStreamSyncTimeout);
  waiter->ArmTimeout(timers_, op.timeout_ms());
  // Counts down the streams; the first error any of them reports wins.
  struct Countdown {
    absl::Mutex mu;
    size_t left;
    absl::Status first_error;
  };
  auto countdown = std::make_shared<Countdown>();
  countdown->left = streams.size() + 1;
  auto arrive = [waiter, countdown](const absl::Status& status) {
    bool done = false;
    absl::Status result;
    {
      absl::MutexLock lock(&countdown->mu);
      if (!status.ok() && countdown->first_error.ok()) countdown->first_error = status;
      done = --countdown->left == 0;
      result = countdown->first_error;
    }
    if (done) waiter->Complete(result);
  };
  for (auto& stream : streams) stream->NotifyWhenDrained(arrive);
  arrive(absl::OkStatus());
}

Session::Outcome Session::GetMemInfo(const v1::GetMemInfo& op) {
  auto device = devices_->Get(op.device_id());
  if (!device.ok()) return device.status();
  if (op.attr() > kMaxMemAttr) {
    return AclError(kRtInvalidMemoryType,
                    absl::StrFormat("invalid memory attribute %d", op.attr()));
  }
  const sim::DeviceMemory& memory = (*device)->memory();
  v1::Reply reply;
  reply.mutable_mem_info()->set_total_bytes(memory.capacity());
  reply.mutable_mem_info()->set_free_bytes(memory.capacity() - memory.used_bytes());
  return reply;
}

// --- Streams ---------------------------------------------------------------

Session::Outcome Session::CreateStream(const v1::CreateStream& op) {
  auto device = devices_->Get(op.device_id());
  if (!device.ok()) return device.status();
  if (op.stream_id() == 0) return AclError(kRtParamInvalid, "stream id 0 is reserved");
  absl::MutexLock lock(&mu_);
  auto [it, inserted] = streams_.try_emplace(op.stream_id());
  if (!inserted) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("stream id %d already exists", op.stream_id()));
  }
  it->second =
      std::make_shared<sim::Stream>(op.device_id(), op.stream_id(), &devices_->scheduler());
  return Ok();
}

void Session::DestroyStream(uint64_t call_id, const v1::DestroyStream& op) {
  std::shared_ptr<sim::Stream> stream;
  {
    absl::MutexLock lock(&mu_);
    auto it = streams_.find(op.stream_id());
    if (it != streams_.end()) {
      stream = std::move(it->second);
      streams_.erase(it);
    }
  }
  if (stream == nullptr) {
    return Finish(
        call_id, 0,
        AclError(kRtInvalidHandle, absl::StrFormat("stream %d does not exist", op.stream_id())));
  }
  // Work already given to the stream completes (launched kernels print and
  // write their results, as on a device); a force destroy only drops what
  // waits on other streams or processes, which might never come.
  if (op.force()) stream->CancelWaits(absl::CancelledError("stream force-destroyed"));
  auto waiter = std::make_shared<SyncWaiter>(sink_, call_id, kRtTimeout);
  stream->NotifyWhenDrained(
      [waiter, stream](const absl::Status&) mutable { waiter->Complete(absl::OkStatus()); },
      /*take_error=*/false);
}

void Session::SynchronizeStream(uint64_t call_id, const v1::SynchronizeStream& op) {
  auto stream = FindStream(op.stream_id());
  if (!stream.ok()) return Finish(call_id, 0, stream.status());
  auto waiter = std::make_shared<SyncWaiter>(sink_, call_id, kRtStreamSyncTimeout);
  waiter->ArmTimeout(timers_, op.timeout_ms());
  std::weak_ptr<sim::Stream> weak = *stream;
  (*stream)->NotifyWhenDrained([waiter, weak](const absl::Status& status) {
    // Too late (timed out): keep the error for the next synchronize.
    if (!waiter->Complete(status) && !status.ok()) {
      if (auto stream = weak.lock()) stream->RecordError(status);
    }
  });
}

Session::Outcome Session::QueryStream(const v1::QueryStream& op) {
  auto stream = FindStream(op.stream_id());
  if (!stream.ok()) return stream.status();
  return StatusReply((*stream)->Idle());
}

Session::Outcome Session::SetStreamFailureMode(const v1::SetStreamFailureMode& op) {
  auto stream = FindStream(op.stream_id());
  if (!stream.ok()) return stream.status();
  if (op.mode() != v1::FAILURE_MODE_CONTINUE && op.mode() != v1::FAILURE_MODE_STOP) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid failure mode %d", op.mode()));
  }
  (*stream)->SetFailureMode(op.mode() == v1::FAILURE_MODE_STOP ? sim::FailureMode::kStop
                                                               : sim::FailureMode::kContinue);
  return Ok();
}

Session::Outcome Session::StreamWaitEvent(const v1::StreamWaitEvent& op) {
  auto event = FindEvent(op.event_id());
  if (!event.ok()) return event.status();
  return Done(Submit(op.stream_id(), sim::MakeWaitEventTask(*std::move(event))));
}

// --- Events ----------------------------------------------------------------

Session::Outcome Session::CreateEvent(const v1::CreateEvent& op) {
  auto device = devices_->Get(op.device_id());
  if (!device.ok()) return device.status();
  if (op.event_id() == 0) return AclError(kRtParamInvalid, "event id 0 is reserved");
  absl::MutexLock lock(&mu_);
  auto [it, inserted] = events_.try_emplace(op.event_id());
  if (!inserted) {
    return AclError(kRtParamInvalid, absl::StrFormat("event id %d already exists", op.event_id()));
  }
  it->second = std::make_shared<sim::Event>(op.device_id(), op.event_id(), op.flags());
  return Ok();
}

Session::Outcome Session::DestroyEvent(const v1::DestroyEvent& op) {
  absl::MutexLock lock(&mu_);
  // Tasks still holding the event keep it alive until they have run.
  if (events_.erase(op.event_id()) == 0) {
    return AclError(kRtInvalidHandle, absl::StrFormat("event %d does not exist", op.event_id()));
  }
  return Ok();
}

Session::Outcome Session::RecordEvent(const v1::RecordEvent& op) {
  auto event = FindEvent(op.event_id());
  if (!event.ok()) return event.status();
  if (op.stream_id() == 0) return AclError(kRtParamInvalid, "record needs a stream");
  return Done(Submit(op.stream_id(), sim::MakeRecordEventTask(*std::move(event))));
}

Session::Outcome Session::ResetEvent(const v1::ResetEvent& op) {
  auto event = FindEvent(op.event_id());
  if (!event.ok()) return event.status();
  if (op.stream_id() == 0) return AclError(kRtParamInvalid, "reset needs a stream");
  return Done(Submit(op.stream_id(), sim::MakeResetEventTask(*std::move(event))));
}

Session::Outcome Session::QueryEvent(const v1::QueryEvent& op) {
  auto event = FindEvent(op.event_id());
  if (!event.ok()) return event.status();
  if (!(*event)->Recorded()) {
    v1::Reply reply;
    reply.mutable_status()->set_status(v1::COMPLETION_NEVER_RECORDED);
    return reply;
  }
  return StatusReply((*event)->Complete());
}

void Session::SynchronizeEvent(uint64_t call_id, const v1::SynchronizeEvent& op) {
  auto event = FindEvent(op.event_id());
  if (!event.ok()) return Finish(call_id, 0, event.status());
  const uint64_t target = (*event)->SyncTarget();
  auto waiter = std::make_shared<SyncWaiter>(sink_, call_id, kRtEventSyncTimeout);
  if (target == 0 ||
      (*event)->ReachedOrNotify(target, [waiter] { waiter->Complete(absl::OkStatus()); })) {
    waiter->Complete(absl::OkStatus());
    return;
  }
  waiter->ArmTimeout(timers_, op.timeout_ms());
}

Session::Outcome Session::EventElapsedTime(const v1::EventElapsedTime& op) {
  auto start = FindEvent(op.start_event_id());
  if (!start.ok()) return start.status();
  std::shared_ptr<sim::Event> end;
  if (op.end_event_id() != 0) {
    auto found = FindEvent(op.end_event_id());
    if (!found.ok()) return found.status();
    end = *std::move(found);
  }
  // CANN's answers: never recorded is an internal error, recorded but not
  // yet executed has no valid timestamp.
  for (const sim::Event* event : {start->get(), end.get()}) {
    if (event == nullptr) continue;
    if (!event->Recorded()) {
      return AclError(kRtInternalError,
                      absl::StrFormat("event %d has never been recorded", event->id()));
    }
    if (!event->RecordsExecuted()) {
      return AclError(kRtEventTimestampInvalid,
                      absl::StrFormat("event %d has not completed its record", event->id()));
    }
  }
  v1::Reply reply;
  reply.mutable_event_time()->set_timestamp_us((*start)->timestamp_us());
  if (end != nullptr) {
    const double delta_us =
        static_cast<double>(end->timestamp_us()) - static_cast<double>((*start)->timestamp_us());
    reply.mutable_event_time()->set_elapsed_ms(static_cast<float>(delta_us / 1000.0));
  }
  return reply;
}

// --- Memory ----------------------------------------------------------------

Session::Outcome Session::Malloc(const v1::Malloc& op) {
  auto device = devices_->Get(op.device_id());
  if (!device.ok()) return device.status();
  auto address = (*device)->memory().Allocate(op.size());
  if (!address.ok()) return address.status();
  {
    absl::MutexLock lock(&mu_);
    allocations_[*address] = OwnedAllocation{op.device_id(), op.size()};
  }
  spdlog::debug("session {}: malloc {} bytes on device {} -> {:#x}", id_, op.size(), op.device_id(),
                *address);
  v1::Reply reply;
  reply.mutable_malloc()->set_address(*address);
  return reply;
}

Session::Outcome Session::Free(const v1::Free& op) {
  OwnedAllocation allocation;
  {
    absl::MutexLock lock(&mu_);
    auto it = allocations_.find(op.address());
    if (it == allocations_.end()) {
      if (devices_->Resolve(op.address(), 1).ok()) {
        spdlog::warn("session {} (pid {}) tried to free {:#x}, which it does not own", id_,
                     peer_.pid, op.address());
      }
      return AclError(
          kRtParamInvalid,
          absl::StrFormat("%#x is not a device allocation of this process", op.address()));
    }
    allocation = it->second;
    allocations_.erase(it);
  }
  auto device = devices_->Get(allocation.device_id);
  if (!device.ok()) return device.status();
  return Done((*device)->memory().Free(op.address()));
}

Session::TaskOrError Session::MemsetTask(const v1::Memset& op) {
  auto range = Access(op.address(), op.count());
  if (!range.ok()) return range.status();
  return sim::MakeMemsetTask(*std::move(range), static_cast<uint8_t>(op.value()));
}

Session::TaskOrError Session::WriteTask(v1::WriteDevice& op) {
  auto range = Access(op.address(), op.data().size());
  if (!range.ok()) return range.status();
  return sim::MakeWriteTask(*std::move(range), std::move(*op.mutable_data()));
}

Session::TaskOrError Session::ReadTask(const v1::ReadDevice& op) {
  auto range = Access(op.address(), op.size());
  if (!range.ok()) return range.status();
  auto sink = sink_;
  const uint64_t transfer_id = op.transfer_id();
  return sim::MakeReadTask(*std::move(range), [sink, transfer_id](absl::Span<const uint8_t> bytes) {
    SendData(*sink, transfer_id, bytes);
  });
}

Session::TaskOrError Session::CopyTask(const v1::CopyDevice& op) {
  auto dst = Access(op.dst(), op.size());
  if (!dst.ok()) return dst.status();
  auto src = Access(op.src(), op.size());
  if (!src.ok()) return src.status();
  return sim::MakeCopyTask(*std::move(dst), *std::move(src));
}

void Session::RunData(uint64_t call_id, uint64_t stream_id, TaskOrError task) {
  if (!task.ok()) return Finish(call_id, stream_id, task.status());
  if (stream_id != 0) return Finish(call_id, stream_id, Done(Submit(stream_id, *std::move(task))));
  // A synchronous copy or memset runs after the work this process queued
  // before it, as CANN's synchronous calls see the results of earlier
  // launches. It never waits on a worker: the last stream to drain runs it.
  std::shared_ptr<sim::Task> shared(std::move(*task));
  auto sink = sink_;
  WhenStreamsDrained([shared, sink, call_id] {
    absl::Status status;
    shared->Run([] {}, &status);  // Copies and memsets never park.
    if (call_id != 0) SendStatusReply(*sink, call_id, status);
  });
}

void Session::WhenStreamsDrained(std::function<void()> fn) {
  std::vector<std::shared_ptr<sim::Stream>> streams;
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [id, stream] : streams_) streams.push_back(stream);
  }
  auto left = std::make_shared<std::atomic<size_t>>(streams.size() + 1);
  auto shared_fn = std::make_shared<std::function<void()>>(std::move(fn));
  auto arrive = [left, shared_fn](const absl::Status&) {
    if (--*left == 0) (*shared_fn)();
  };
  // Errors stay on their streams for the next synchronize.
  for (auto& stream : streams) stream->NotifyWhenDrained(arrive, /*take_error=*/false);
  arrive(absl::OkStatus());
}

// --- Kernels ---------------------------------------------------------------

Session::Outcome Session::LoadBinary(const v1::LoadBinary& op) {
  if (op.binary_id() == 0) return AclError(kRtParamInvalid, "binary id 0 is reserved");
  std::string bytes;
  {
    absl::MutexLock lock(&mu_);
    if (binaries_.contains(op.binary_id())) {
      return AclError(kRtParamInvalid,
                      absl::StrFormat("binary id %d already exists", op.binary_id()));
    }
    std::string& partial = partial_binaries_[op.binary_id()];
    partial += op.data();
    if (!op.last()) return Ok();
    bytes = std::move(partial);
    partial_binaries_.erase(op.binary_id());
  }
  auto module = sim::KernelModule::Load(bytes, op.label());
  if (!module.ok()) return module.status();
  v1::Reply reply;
  for (const sim::KernelInfo& kernel : (*module)->kernels()) {
    v1::KernelDescription* description = reply.mutable_binary()->add_kernels();
    description->set_name(kernel.name);
    description->set_args_size(kernel.args_size);
    description->set_kernel_type(static_cast<v1::KernelType>(kernel.kernel_type));
    for (const auto& [offset, size] : kernel.params) {
      description->add_param_offsets(offset);
      description->add_param_sizes(size);
    }
  }
  spdlog::info("session {}: loaded kernel binary '{}' ({} bytes, {} kernels)", id_, op.label(),
               bytes.size(), (*module)->kernels().size());
  absl::MutexLock lock(&mu_);
  binaries_[op.binary_id()] = *std::move(module);
  return reply;
}

Session::Outcome Session::UnloadBinary(const v1::UnloadBinary& op) {
  absl::MutexLock lock(&mu_);
  // Queued launches hold their own reference: the code stays until they ran.
  if (binaries_.erase(op.binary_id()) == 0) {
    return AclError(kRtInvalidHandle, absl::StrFormat("binary %d is not loaded", op.binary_id()));
  }
  return Ok();
}

Session::Outcome Session::LaunchKernel(const v1::LaunchKernel& op) {
  auto stream = FindStream(op.stream_id());
  if (!stream.ok()) return stream.status();
  std::shared_ptr<const sim::KernelModule> module;
  {
    absl::MutexLock lock(&mu_);
    auto it = binaries_.find(op.binary_id());
    if (it == binaries_.end()) {
      return AclError(kRtInvalidHandle, absl::StrFormat("binary %d is not loaded", op.binary_id()));
    }
    module = it->second;
  }
  if (op.kernel_index() >= module->kernels().size()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("binary %d has no kernel %d", op.binary_id(),
                                                      op.kernel_index()));
  }
  const sim::KernelInfo& kernel = module->kernels()[op.kernel_index()];
  if (op.block_dim() == 0 || op.block_dim() > kMaxBlockDim) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("block dim %d is outside 1..%d", op.block_dim(), kMaxBlockDim));
  }
  sim::LaunchSpec spec;
  const uint64_t args_size = op.args_address() != 0 ? op.args_size() : op.args().size();
  if (args_size < kernel.args_size) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("kernel '%s' takes %d bytes of arguments, got %d", kernel.name,
                                    kernel.args_size, args_size));
  }
  if (op.args_address() != 0) {
    auto source = Access(op.args_address(), op.args_size());
    if (!source.ok()) return source.status();
    spec.args_source = *std::move(source);
  }
  for (const v1::Placeholder& placeholder : op.placeholders()) {
    if (uint64_t{placeholder.addr_offset()} + sizeof(uint64_t) > op.args().size() ||
        placeholder.data_offset() >= op.args().size()) {
      return AclError(kRtParamInvalid, "placeholder offsets outside the arguments");
    }
    spec.placeholders.emplace_back(placeholder.addr_offset(), placeholder.data_offset());
  }
  auto device = devices_->Get((*stream)->device_id());
  if (!device.ok()) return device.status();
  spec.module = std::move(module);
  spec.kernel = static_cast<int>(op.kernel_index());
  spec.block_dim = op.block_dim();
  spec.args = op.args();
  spec.ub_bytes = (*device)->config().ub_bytes;
  spec.device_id = (*stream)->device_id();
  spec.stream_id = op.stream_id();
  // Device printf goes to the launching client, ahead of whatever reply
  // (a synchronize) follows the launch.
  spec.print = [sink = sink_, stream_id = op.stream_id()](std::string text) {
    v1::ServerMessage message;
    v1::DevicePrint* print = message.mutable_notification()->mutable_print();
    print->set_stream_id(stream_id);
    print->set_text(std::move(text));
    sink->Send(std::move(message));
  };
  (*stream)->Submit(sim::MakeKernelLaunchTask(std::move(spec), &devices_->cores()));
  return Ok();
}

void Session::CompileProgram(uint64_t call_id, const v1::CompileProgram& op) {
  CompileRequest request;
  request.source = op.source();
  request.name = op.name();
  for (const v1::SourceHeader& header : op.headers()) {
    request.headers.emplace_back(header.name(), header.content());
  }
  request.options.assign(op.options().begin(), op.options().end());
  // Seconds of g++ must not hold up the session's other calls. The thread
  // owns what it uses; a reply after the client left is dropped by the sink.
  std::thread([compiler = compiler_, sink = sink_, call_id, session = id_,
               request = std::move(request)] {
    const CompileOutput output = compiler->Compile(request);
    spdlog::info("session {}: compiled program '{}': {}{} ({} kernels, {} bytes)", session,
                 request.name, output.success ? "ok" : "failed",
                 output.from_cache ? ", from cache" : "", output.kernels.size(),
                 output.binary.size());
    v1::ServerMessage message;
    v1::Reply* reply = message.mutable_reply();
    reply->set_call_id(call_id);
    v1::CompileResult* result = reply->mutable_compile();
    result->set_success(output.success);
    result->set_binary(output.binary);
    result->set_log(output.log);
    for (const std::string& kernel : output.kernels) result->add_kernels(kernel);
    sink->Send(std::move(message));
  }).detach();
}

// --- Sharing between processes ---------------------------------------------

Session::Outcome Session::IpcExportMemory(const v1::IpcExportMemory& op) {
  if (op.size() == 0) return AclError(kRtParamInvalid, "cannot share 0 bytes");
  auto range = OwnedRange(op.address(), op.size());
  if (!range.ok()) return range.status();
  const bool check_pid = (op.flags() & kIpcDisablePidCheck) == 0;
  v1::Reply reply;
  reply.mutable_ipc()->set_key(ipc_->ExportMemory(id_, *std::move(range), check_pid));
  spdlog::info("session {} (pid {}) shares {:#x}+{} as {}{}", id_, peer_.pid, op.address(),
               op.size(), reply.ipc().key(), check_pid ? "" : " (any process)");
  return reply;
}

Session::Outcome Session::IpcSetImportPids(const v1::IpcSetImportPids& op) {
  std::vector<int64_t> pids(op.pids().begin(), op.pids().end());
  return Done(ipc_->SetImportPids(id_, op.key(), pids));
}

Session::Outcome Session::IpcImportMemory(const v1::IpcImportMemory& op) {
  auto memory = ipc_->ImportMemory(op.key(), peer_.pid);
  if (!memory.ok()) return memory.status();
  v1::Reply reply;
  reply.mutable_ipc()->set_address((*memory)->address());
  reply.mutable_ipc()->set_size((*memory)->size());
  reply.mutable_ipc()->set_device_id((*memory)->device_id());
  spdlog::info("session {} (pid {}) imported {} ({:#x}+{}) of session {}", id_, peer_.pid, op.key(),
               (*memory)->address(), (*memory)->size(), (*memory)->owner());
  absl::MutexLock lock(&mu_);
  imports_[op.key()] = *std::move(memory);
  return reply;
}

Session::Outcome Session::IpcClose(const v1::IpcClose& op) {
  {
    absl::MutexLock lock(&mu_);
    if (imports_.erase(op.key()) > 0) return Ok();
  }
  if (ipc_->Unexport(id_, op.key()).ok()) return Ok();
  return AclError(kRtParamInvalid,
                  absl::StrFormat("'%s' is not a key this process imported or exports", op.key()));
}

Session::Outcome Session::IpcExportEvent(const v1::IpcExportEvent& op) {
  auto event = FindEvent(op.event_id());
  if (!event.ok()) return event.status();
  if (((*event)->flags() & kEventIpcFlag) == 0) {
    return AclError(kRtParamInvalid, "only events created with ACL_EVENT_IPC can be shared");
  }
  v1::Reply reply;
  reply.mutable_ipc()->set_key(ipc_->ExportEvent(id_, *std::move(event)));
  return reply;
}

Session::Outcome Session::IpcOpenEvent(const v1::IpcOpenEvent& op) {
  if (op.event_id() == 0) return AclError(kRtParamInvalid, "event id 0 is reserved");
  auto event = ipc_->OpenEvent(op.key());
  if (!event.ok()) return event.status();
  v1::Reply reply;
  reply.mutable_ipc()->set_event_flags((*event)->flags());
  reply.mutable_ipc()->set_device_id((*event)->device_id());
  absl::MutexLock lock(&mu_);
  events_[op.event_id()] = *std::move(event);
  return reply;
}

// --- Values and notifies ----------------------------------------------------

Session::Outcome Session::ValueWrite(const v1::ValueWrite& op) {
  auto at = Access(op.address(), sizeof(uint64_t));
  if (!at.ok()) return at.status();
  return Done(Submit(op.stream_id(), sim::MakeValueWriteTask(*std::move(at), op.value())));
}

Session::Outcome Session::ValueWait(const v1::ValueWait& op) {
  if (op.flag() > static_cast<uint32_t>(sim::ValueCondition::kNor)) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid wait condition %d", op.flag()));
  }
  auto at = Access(op.address(), sizeof(uint64_t));
  if (!at.ok()) return at.status();
  return Done(Submit(
      op.stream_id(),
      sim::MakeValueWaitTask(*std::move(at), op.value(),
                             static_cast<sim::ValueCondition>(op.flag()), &devices_->poller())));
}

Session::Outcome Session::CreateNotify(const v1::CreateNotify& op) {
  auto device = devices_->Get(op.device_id());
  if (!device.ok()) return device.status();
  if (op.notify_id() == 0) return AclError(kRtParamInvalid, "notify id 0 is reserved");
  absl::MutexLock lock(&mu_);
  auto [it, inserted] = notifies_.try_emplace(op.notify_id());
  if (!inserted) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("notify id %d already exists", op.notify_id()));
  }
  it->second = std::make_shared<sim::Notify>(op.device_id(), op.notify_id());
  return Ok();
}

Session::Outcome Session::DestroyNotify(const v1::DestroyNotify& op) {
  absl::MutexLock lock(&mu_);
  if (notifies_.erase(op.notify_id()) == 0) {
    return AclError(kRtInvalidHandle, absl::StrFormat("notify %d does not exist", op.notify_id()));
  }
  return Ok();
}

Session::Outcome Session::RecordNotify(const v1::RecordNotify& op) {
  auto notify = FindNotify(op.notify_id());
  if (!notify.ok()) return notify.status();
  return Done(Submit(op.stream_id(), sim::MakeRecordNotifyTask(*std::move(notify))));
}

Session::Outcome Session::WaitNotify(const v1::WaitNotify& op) {
  auto notify = FindNotify(op.notify_id());
  if (!notify.ok()) return notify.status();
  return Done(Submit(op.stream_id(), sim::MakeWaitNotifyTask(*std::move(notify))));
}

Session::Outcome Session::IpcExportNotify(const v1::IpcExportNotify& op) {
  auto notify = FindNotify(op.notify_id());
  if (!notify.ok()) return notify.status();
  v1::Reply reply;
  reply.mutable_ipc()->set_key(
      ipc_->ExportNotify(id_, *std::move(notify), (op.flags() & kNotifyDisablePidCheck) == 0));
  return reply;
}

Session::Outcome Session::IpcSetNotifyPids(const v1::IpcSetNotifyPids& op) {
  auto notify = FindNotify(op.notify_id());
  if (!notify.ok()) return notify.status();
  std::vector<int64_t> pids(op.pids().begin(), op.pids().end());
  return Done(ipc_->SetNotifyPids(id_, *notify, pids));
}

Session::Outcome Session::IpcImportNotify(const v1::IpcImportNotify& op) {
  if (op.notify_id() == 0) return AclError(kRtParamInvalid, "notify id 0 is reserved");
  auto notify = ipc_->ImportNotify(op.key(), peer_.pid);
  if (!notify.ok()) return notify.status();
  v1::Reply reply;
  reply.mutable_ipc()->set_device_id((*notify)->device_id());
  absl::MutexLock lock(&mu_);
  notifies_[op.notify_id()] = *std::move(notify);
  return reply;
}

absl::StatusOr<std::shared_ptr<sim::Notify>> Session::FindNotify(uint64_t notify_id) const {
  absl::MutexLock lock(&mu_);
  auto it = notifies_.find(notify_id);
  if (it == notifies_.end()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("notify %d does not exist", notify_id));
  }
  return it->second;
}

// --- Helpers ---------------------------------------------------------------

absl::Status Session::Submit(uint64_t stream_id, std::unique_ptr<sim::Task> task) {
  auto stream = FindStream(stream_id);
  if (!stream.ok()) return stream.status();
  (*stream)->Submit(std::move(task));
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<sim::Stream>> Session::FindStream(uint64_t stream_id) const {
  absl::MutexLock lock(&mu_);
  auto it = streams_.find(stream_id);
  if (it == streams_.end()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("stream %d does not exist", stream_id));
  }
  return it->second;
}

absl::StatusOr<std::shared_ptr<sim::Event>> Session::FindEvent(uint64_t event_id) const {
  absl::MutexLock lock(&mu_);
  auto it = events_.find(event_id);
  if (it == events_.end()) {
    return AclError(kRtInvalidHandle, absl::StrFormat("event %d does not exist", event_id));
  }
  return it->second;
}

absl::StatusOr<sim::DeviceRange> Session::Access(uint64_t address, uint64_t size) const {
  {
    absl::MutexLock lock(&mu_);
    for (const auto& [key, memory] : imports_) {
      if (memory->Contains(address, size)) return memory->Range(address, size);
    }
  }
  return OwnedRange(address, size);
}

absl::StatusOr<sim::DeviceRange> Session::OwnedRange(uint64_t address, uint64_t size) const {
  if (devices_->vmm().InRange(address)) return devices_->vmm().Find(id_, address, size);
  auto range = devices_->Resolve(address, size);
  if (!range.ok()) return range.status();
  absl::MutexLock lock(&mu_);
  if (!allocations_.contains(range->base)) {
    spdlog::warn("session {} (pid {}) tried to use {:#x}, memory it does not own", id_, peer_.pid,
                 address);
    return AclError(
        kRtParamInvalid,
        absl::StrFormat("%#x is not inside a device allocation of this process", address));
  }
  return range;
}

void Session::ReleaseStreamsAndEvents(int device_id) {
  std::vector<std::shared_ptr<sim::Stream>> streams;
  {
    absl::MutexLock lock(&mu_);
    for (auto it = streams_.begin(); it != streams_.end();) {
      if (device_id < 0 || it->second->device_id() == device_id) {
        streams.push_back(std::move(it->second));
        streams_.erase(it++);
      } else {
        ++it;
      }
    }
    absl::erase_if(events_, [device_id](const auto& kv) {
      return device_id < 0 || kv.second->device_id() == device_id;
    });
    absl::erase_if(notifies_, [device_id](const auto& kv) {
      return device_id < 0 || kv.second->device_id() == device_id;
    });
    absl::erase_if(count_notifies_, [device_id](const auto& kv) {
      return device_id < 0 || kv.second->device_id() == device_id;
    });
  }
  // Outside the lock: cancelling runs the tasks' Cancel() hooks.
  for (auto& stream : streams) stream->Discard(absl::CancelledError("device reset"));
}

v1::SessionStatus Session::Status() const {
  v1::SessionStatus status;
  status.set_session_id(id_);
  status.set_pid(peer_.pid);
  status.set_uid(peer_.uid);
  status.set_host(peer_.host);
  status.set_program(peer_.program);
  const sim::VirtualAddressSpace::Usage usage = devices_->vmm().UsageOf(id_);
  status.set_reserved_address_bytes(usage.reserved_bytes);
  status.set_mapped_bytes(usage.mapped_bytes);
  status.set_exports(ipc_->exports_of(id_));
  absl::MutexLock lock(&mu_);
  for (const auto& [address, allocation] : allocations_) {
    (*status.mutable_memory_bytes())[allocation.device_id] += allocation.size;
  }
  uint32_t imports = imports_.size();
  for (const auto& [id, handle] : physical_) {
    (*status.mutable_physical_bytes())[handle.memory->device_id()] += handle.memory->size();
    imports += handle.imported;
  }
  status.set_streams(streams_.size());
  status.set_events(events_.size());
  status.set_allocations(allocations_.size());
  status.set_imports(imports);
  return status;
}

}  // namespace npud::daemon
