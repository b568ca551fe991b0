#include "daemon/session/session.h"

#include <unistd.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/session/bulk_link.h"
#include "daemon/session/calls.h"

namespace npud::daemon {

Session::Session(uint64_t id, PeerInfo peer, SessionServices services,
                 std::shared_ptr<MessageSink> sink, std::shared_ptr<BulkLink> bulk)
    : state_(id, std::move(peer), std::move(services), std::move(sink), std::move(bulk)) {
  absl::MutexLock lock(&gate_->mu);
  gate_->host = this;
}

Session::~Session() {
  absl::MutexLock lock(&gate_->mu);
  gate_->host = nullptr;
}

void Session::Process(v1::CallBatch* batch, std::vector<int> fds) {
  absl::MutexLock lock(&gate_->mu);
  size_t next_fd = 0;
  for (v1::Call& call : *batch->mutable_calls()) {
    int fd = -1;
    if (call.has_register_host_memory() && next_fd < fds.size()) fd = fds[next_fd++];
    Dispatch(call, fd);
  }
  for (; next_fd < fds.size(); ++next_fd) close(fds[next_fd]);
}

void Session::Dispatch(v1::Call& call, int fd) {
  SessionState& s = state_;
  const uint64_t id = call.call_id();
  // Work for a capturing stream is recorded into its model, not run.
  if (s.models.Record(call)) {
    if (id != 0) s.Finish(id, 0, v1::Reply());
    return;
  }
  switch (call.op_case()) {
    case v1::Call::kPing:
      return s.Finish(id, 0, v1::Reply());
    case v1::Call::kOpenDevice:
      return s.Finish(id, 0, OpenDevice(s, call.open_device()));
    case v1::Call::kCloseDevice:
      return s.Finish(id, 0, CloseDevice(s, call.close_device()));
    case v1::Call::kSynchronizeDevice:
      return SynchronizeDevice(s, id, call.synchronize_device());
    case v1::Call::kGetMemInfo:
      return s.Finish(id, 0, GetMemInfo(s, call.get_mem_info()));
    case v1::Call::kGetUtilization:
      return s.Finish(id, 0, GetUtilization(s, call.get_utilization()));
    case v1::Call::kSnapshot:
      return Snapshot(s, id, call.snapshot());

    case v1::Call::kCreateStream:
      return s.Finish(id, 0, CreateStream(s, call.create_stream()));
    case v1::Call::kDestroyStream:
      return DestroyStream(s, id, call.destroy_stream());
    case v1::Call::kSynchronizeStream:
      return SynchronizeStream(s, id, call.synchronize_stream());
    case v1::Call::kQueryStream:
      return s.Finish(id, 0, QueryStream(s, call.query_stream()));
    case v1::Call::kAbortStream:
      return s.Finish(id, 0, AbortStream(s, call.abort_stream()));
    case v1::Call::kAbortDevice:
      return AbortDevice(s, id, call.abort_device());
    case v1::Call::kSetStreamFailureMode:
      return s.Finish(id, call.set_stream_failure_mode().stream_id(),
                      SetStreamFailureMode(s, call.set_stream_failure_mode()));
    case v1::Call::kStreamWaitEvent:
      return s.Finish(id, call.stream_wait_event().stream_id(),
                      StreamWaitEvent(s, call.stream_wait_event()));

    case v1::Call::kCreateEvent:
      return s.Finish(id, 0, CreateEvent(s, call.create_event()));
    case v1::Call::kDestroyEvent:
      return s.Finish(id, 0, DestroyEvent(s, call.destroy_event()));
    case v1::Call::kRecordEvent:
      return s.Finish(id, call.record_event().stream_id(), RecordEvent(s, call.record_event()));
    case v1::Call::kResetEvent:
      return s.Finish(id, call.reset_event().stream_id(), ResetEvent(s, call.reset_event()));
    case v1::Call::kQueryEvent:
      return s.Finish(id, 0, QueryEvent(s, call.query_event()));
    case v1::Call::kSynchronizeEvent:
      return SynchronizeEvent(s, id, call.synchronize_event());
    case v1::Call::kEventElapsedTime:
      return s.Finish(id, 0, EventElapsedTime(s, call.event_elapsed_time()));

    case v1::Call::kMalloc:
      return s.Finish(id, 0, Malloc(s, call.malloc()));
    case v1::Call::kFree:
      return s.Finish(id, 0, Free(s, call.free()));
    case v1::Call::kMemset:
      return RunData(s, id, call.memset().stream_id(), MemsetTask(s, call.memset()));
    case v1::Call::kWriteDevice: {
      const uint64_t bulk = call.write_device().bulk_transfer_id();
      if (bulk == 0) {
        return RunData(s, id, call.write_device().stream_id(),
                       WriteTask(s, *call.mutable_write_device()));
      }
      auto task = BulkWriteTask(s, call.write_device());
      // The client holds the bytes until they are pulled or cancelled.
      if (!task.ok() && s.bulk != nullptr) s.bulk->Cancel(bulk);
      return RunData(s, id, call.write_device().stream_id(), std::move(task));
    }
    case v1::Call::kReadDevice: {
      auto task = call.read_device().bulk() ? BulkReadTask(s, call.read_device())
                                            : ReadTask(s, call.read_device());
      // An asynchronous read's client also waits for the end of its transfer.
      if (!task.ok() && id == 0) {
        EndFailedTransfer(s, call.read_device().transfer_id(), task.status());
      }
      return RunData(s, id, call.read_device().stream_id(), std::move(task));
    }
    case v1::Call::kCopyDevice:
      return RunData(s, id, call.copy_device().stream_id(), CopyTask(s, call.copy_device()));
    case v1::Call::kRandomNumbers:
      return RunData(s, id, call.random_numbers().stream_id(),
                     RandomTask(s, call.random_numbers()));
    case v1::Call::kReduceDevice:
      return RunData(s, id, call.reduce_device().stream_id(), ReduceTask(s, call.reduce_device()));

    case v1::Call::kLoadBinary:
      return s.Finish(id, 0, LoadBinary(s, call.load_binary()));
    case v1::Call::kUnloadBinary:
      return s.Finish(id, 0, UnloadBinary(s, call.unload_binary()));
    case v1::Call::kBinaryImage:
      return s.Finish(id, 0, BinaryImage(s, call.binary_image()));
    case v1::Call::kLaunchKernel:
      return s.Finish(id, call.launch_kernel().stream_id(), LaunchKernel(s, call.launch_kernel()));

    case v1::Call::kSetExecuteTimeout:
      return s.Finish(id, 0, SetExecuteTimeout(s, call.set_execute_timeout()));
    case v1::Call::kCompileProgram:
      return CompileProgram(s, id, call.compile_program());

    case v1::Call::kIpcExportMemory:
      return s.Finish(id, 0, IpcExportMemory(s, call.ipc_export_memory()));
    case v1::Call::kIpcSetImportPids:
      return s.Finish(id, 0, IpcSetImportPids(s, call.ipc_set_import_pids()));
    case v1::Call::kIpcImportMemory:
      return s.Finish(id, 0, IpcImportMemory(s, call.ipc_import_memory()));
    case v1::Call::kIpcClose:
      return s.Finish(id, 0, IpcClose(s, call.ipc_close()));
    case v1::Call::kIpcExportEvent:
      return s.Finish(id, 0, IpcExportEvent(s, call.ipc_export_event()));
    case v1::Call::kIpcOpenEvent:
      return s.Finish(id, 0, IpcOpenEvent(s, call.ipc_open_event()));

    case v1::Call::kValueWrite:
      return s.Finish(id, call.value_write().stream_id(), ValueWrite(s, call.value_write()));
    case v1::Call::kValueWait:
      return s.Finish(id, call.value_wait().stream_id(), ValueWait(s, call.value_wait()));
    case v1::Call::kCreateNotify:
      return s.Finish(id, 0, CreateNotify(s, call.create_notify()));
    case v1::Call::kDestroyNotify:
      return s.Finish(id, 0, DestroyNotify(s, call.destroy_notify()));
    case v1::Call::kRecordNotify:
      return s.Finish(id, call.record_notify().stream_id(), RecordNotify(s, call.record_notify()));
    case v1::Call::kWaitNotify:
      return s.Finish(id, call.wait_notify().stream_id(), WaitNotify(s, call.wait_notify()));
    case v1::Call::kIpcExportNotify:
      return s.Finish(id, 0, IpcExportNotify(s, call.ipc_export_notify()));
    case v1::Call::kIpcSetNotifyPids:
      return s.Finish(id, 0, IpcSetNotifyPids(s, call.ipc_set_notify_pids()));
    case v1::Call::kIpcImportNotify:
      return s.Finish(id, 0, IpcImportNotify(s, call.ipc_import_notify()));

    case v1::Call::kMallocPhysical:
      return s.Finish(id, 0, MallocPhysical(s, call.malloc_physical()));
    case v1::Call::kFreePhysical:
      return s.Finish(id, 0, FreePhysical(s, call.free_physical()));
    case v1::Call::kReserveAddress:
      return s.Finish(id, 0, ReserveAddress(s, call.reserve_address()));
    case v1::Call::kReleaseAddress:
      return s.Finish(id, 0, ReleaseAddress(s, call.release_address()));
    case v1::Call::kMapMemory:
      return s.Finish(id, 0, MapMemory(s, call.map_memory()));
    case v1::Call::kUnmapMemory:
      return s.Finish(id, 0, UnmapMemory(s, call.unmap_memory()));
    case v1::Call::kSetMemoryAccess:
      return s.Finish(id, 0, SetMemoryAccess(s, call.set_memory_access()));
    case v1::Call::kGetMemoryAccess:
      return s.Finish(id, 0, GetMemoryAccess(s, call.get_memory_access()));
    case v1::Call::kExportPhysical:
      return s.Finish(id, 0, ExportPhysical(s, call.export_physical()));
    case v1::Call::kSetPhysicalPids:
      return s.Finish(id, 0, SetPhysicalPids(s, call.set_physical_pids()));
    case v1::Call::kImportPhysical:
      return ImportPhysical(s, id, call.import_physical());
    case v1::Call::kRetainPhysical:
      return s.Finish(id, 0, RetainPhysical(s, call.retain_physical()));

    case v1::Call::kCreateCountNotify:
      return s.Finish(id, 0, CreateCountNotify(s, call.create_count_notify()));
    case v1::Call::kDestroyCountNotify:
      return s.Finish(id, 0, DestroyCountNotify(s, call.destroy_count_notify()));
    case v1::Call::kRecordCountNotify:
      return s.Finish(id, call.record_count_notify().stream_id(),
                      RecordCountNotify(s, call.record_count_notify()));
    case v1::Call::kWaitCountNotify:
      return s.Finish(id, call.wait_count_notify().stream_id(),
                      WaitCountNotify(s, call.wait_count_notify()));
    case v1::Call::kResetCountNotify:
      return s.Finish(id, call.reset_count_notify().stream_id(),
                      ResetCountNotify(s, call.reset_count_notify()));

    case v1::Call::kRegisterHostMemory:
      return s.Finish(id, 0, RegisterHostMemory(s, call.register_host_memory(), fd));
    case v1::Call::kReleaseHostMemory:
      return s.Finish(id, 0, ReleaseHostMemory(s, call.release_host_memory()));
    case v1::Call::kMapHostWindow:
      return s.Finish(id, 0, MapHostWindow(s, call.map_host_window()));
    case v1::Call::kUnmapHostWindow:
      return s.Finish(id, 0, UnmapHostWindow(s, call.unmap_host_window()));
    case v1::Call::kHostCopy:
      return RunData(s, id, call.host_copy().stream_id(), HostCopyTask(s, call.host_copy()));

    case v1::Call::kStartTrace:
      return s.Finish(id, 0, StartTrace(s, call.start_trace()));
    case v1::Call::kStopTrace:
      return s.Finish(id, 0, StopTrace(s, call.stop_trace()));

    case v1::Call::kLaunchHostCallback: {
      const uint64_t stream_id = call.launch_host_callback().stream_id();
      return s.Finish(id, stream_id, LaunchHostCallback(s, call.launch_host_callback()));
    }
    case v1::Call::kHostCallbackDone:
      return s.Finish(id, 0, HostCallbackDone(s, call.host_callback_done()));

    case v1::Call::kCaptureBegin: {
      const v1::CaptureBegin& op = call.capture_begin();
      absl::Status begun = s.streams.Find(op.stream_id()).status();
      if (begun.ok()) begun = s.models.Begin(op.stream_id(), op.model_id(), op.into_existing());
      return s.Finish(id, op.stream_id(), Done(begun));
    }
    case v1::Call::kCaptureEnd:
      return s.Finish(id, 0, Done(s.models.End(call.capture_end().stream_id())));
    case v1::Call::kModelExecute:
      return s.Finish(id, call.model_execute().stream_id(),
                      Done(ExecuteModel(call.model_execute())));
    case v1::Call::kModelDestroy:
      return s.Finish(id, 0, Done(s.models.Destroy(call.model_destroy().model_id())));
    case v1::Call::kModelDescribe:
      return s.Finish(id, 0, DescribeModel(s, call.model_describe()));
    case v1::Call::kModelEditTasks:
      return s.Finish(id, 0, EditModelTasks(s, call.model_edit_tasks()));
    case v1::Call::kCacheTaskInfo:
      return s.Finish(id, 0, CacheTaskInfo(s, call.cache_task_info()));
    case v1::Call::kModelCreate:
      return s.Finish(id, 0, Done(s.models.Create(call.model_create().model_id())));
    case v1::Call::kModelBindStream:
      return s.Finish(id, 0, BindModelStream(s, call.model_bind_stream()));
    case v1::Call::kModelUnbindStream: {
      const v1::ModelUnbindStream& op = call.model_unbind_stream();
      return s.Finish(id, 0, Done(s.models.Unbind(op.model_id(), op.stream_id())));
    }
    case v1::Call::kModelBuildEnd:
      return s.Finish(id, 0, Done(s.models.BuildEnd(call.model_build_end().model_id())));
    case v1::Call::kModelCleanStream:
      return s.Finish(id, 0, Done(s.models.CleanStream(call.model_clean_stream().stream_id())));
    case v1::Call::kModelAddCondition:
      return s.Finish(id, 0, AddModelCondition(s, call.model_add_condition()));
    case v1::Call::kModelAbort:
      return s.Finish(id, 0, Done(AbortModel(call.model_abort().model_id())));
    case v1::Call::kTaskUpdateBegin: {
      const v1::TaskUpdateBegin& op = call.task_update_begin();
      absl::Status begun = s.streams.Find(op.stream_id()).status();
      if (begun.ok()) begun = s.models.UpdateBegin(op.stream_id(), op.group_id());
      return s.Finish(id, 0, Done(begun));
    }
    case v1::Call::kTaskUpdateEnd:
      return s.Finish(id, 0, Done(EndTaskUpdate(call.task_update_end())));
    case v1::Call::kModelEndTask:
    case v1::Call::kSetLabel:
    case v1::Call::kSwitchLabel:
    case v1::Call::kActivateStream:
    case v1::Call::kSwitchStream:
    case v1::Call::kCondTask:
    case v1::Call::kTaskGroupMark:
      // Recorded when their stream records into a model; not otherwise.
      return s.Finish(id, StreamOfWork(call), NotInModel(s, call));

    case v1::Call::kTdtCreateQueue:
      return s.Finish(id, 0, TdtCreateQueue(s, call.tdt_create_queue()));
    case v1::Call::kTdtDestroyQueue:
      return s.Finish(id, 0, TdtDestroyQueue(s, call.tdt_destroy_queue()));
    case v1::Call::kTdtEnqueue:
      return s.Finish(id, 0, TdtEnqueue(s, *call.mutable_tdt_enqueue()));
    case v1::Call::kTdtDequeue:
      return s.Finish(id, 0, TdtDequeue(s, call.tdt_dequeue()));
    case v1::Call::kTdtQueryQueue:
      return s.Finish(id, 0, TdtQueryQueue(s, call.tdt_query_queue()));
    case v1::Call::kTdtResetQueue:
      return s.Finish(id, 0, TdtResetQueue(s, call.tdt_reset_queue()));
    case v1::Call::kTdtBindRoutes:
      return s.Finish(id, 0, TdtBindRoutes(s, call.tdt_bind_routes()));
    case v1::Call::kTdtQueryRoutes:
      return s.Finish(id, 0, TdtQueryRoutes(s, call.tdt_query_routes()));

    case v1::Call::kFloatOverflowStatus:
      return s.Finish(id, 0, FloatOverflowStatus(s, call.float_overflow_status()));
    case v1::Call::kQueryAllocation:
      return s.Finish(id, 0, QueryAllocation(s, call.query_allocation()));
    case v1::Call::kResetNotify:
      return s.Finish(id, 0, ResetNotify(s, call.reset_notify()));

    case v1::Call::OP_NOT_SET:
      break;
  }
  // An op this daemon does not know (newer client) or an empty call.
  s.Finish(
      id, 0,
      AclError(kRtFeatureNotSupport, absl::StrFormat("call type %d is not supported by this npud",
                                                     static_cast<int>(call.op_case()))));
}

void Session::DispatchRecorded(v1::Call& call, int depth) {
  const int caller_depth = std::exchange(run_depth_, depth);
  Dispatch(call, -1);
  run_depth_ = caller_depth;
}

absl::Status Session::ExecuteModel(const v1::ModelExecute& op) {
  SessionState& s = state_;
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Stream> stream, s.streams.Find(op.stream_id()));
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<const CapturedModel> model, s.models.Find(op.model_id()));
  if (run_depth_ >= kMaxModelNesting) {
    return AclError(kRtModelExecute,
                    absl::StrFormat("models run models more than %d deep", kMaxModelNesting));
  }
  ReapRuns();
  auto run = std::make_shared<ModelRun>(op.model_id(), std::move(model), stream->device_id(),
                                        run_depth_ + 1, gate_);
  runs_.push_back(run);
  run->Launch(*this);
  stream->Submit(run->MakeGateTask());
  return absl::OkStatus();
}

absl::Status Session::AbortModel(uint64_t model_id) {
  NPUD_RETURN_IF_ERROR(state_.models.Find(model_id).status());
  for (const std::shared_ptr<ModelRun>& run : runs_) {
    if (run->model_id() == model_id) {
      run->Abort(AclError(kRtModelAbortNormal, absl::StrFormat("model %d aborted", model_id)));
    }
  }
  return absl::OkStatus();
}

absl::Status Session::EndTaskUpdate(const v1::TaskUpdateEnd& op) {
  SessionState& s = state_;
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Stream> stream, s.streams.Find(op.stream_id()));
  NPUD_ASSIGN_OR_RETURN(ModelCaptures::Update update, s.models.UpdateEnd(op.stream_id()));
  stream->Submit(std::make_unique<sim::FunctionTask>("task_update", [update] {
    update.group->set_calls(update.calls);
    return absl::OkStatus();
  }));
  return absl::OkStatus();
}

void Session::ReapRuns() {
  auto finished = std::remove_if(runs_.begin(), runs_.end(), [this](const auto& run) {
    if (!run->Done()) return false;
    for (uint64_t id : run->LaneStreamIds()) state_.streams.Take(id).IgnoreError();
    return true;
  });
  runs_.erase(finished, runs_.end());
}

}  // namespace npud::daemon
