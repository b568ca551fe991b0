// calls.h
//
// The handlers of a session's calls, one per call kind, grouped by the file
// that holds them. Session::Dispatch (session.cc) routes each call here.
//
// Shapes:
//   Outcome X(SessionState&, const v1::X&)                  answered at once
//   void X(SessionState&, uint64_t call_id, const v1::X&)   answers later
//                                                           (synchronizes,
//                                                           compilations)
//   TaskOrError XTask(SessionState&, const v1::X&)          a copy or memset,
//                                                           run by RunData
// A handler only touches objects the session owns (SessionState's tables).

#ifndef NPUD_DAEMON_SESSION_CALLS_H_
#define NPUD_DAEMON_SESSION_CALLS_H_

#include <cstdint>

#include "daemon/session/session_state.h"
#include "npud/v1/calls.pb.h"

namespace npud::daemon {

// device_calls.cc
Outcome OpenDevice(SessionState& s, const v1::OpenDevice& op);
Outcome CloseDevice(SessionState& s, const v1::CloseDevice& op);
void SynchronizeDevice(SessionState& s, uint64_t call_id, const v1::SynchronizeDevice& op);
Outcome GetMemInfo(SessionState& s, const v1::GetMemInfo& op);
Outcome GetUtilization(SessionState& s, const v1::GetUtilization& op);
Outcome FloatOverflowStatus(SessionState& s, const v1::FloatOverflowStatus& op);

// snapshot_calls.cc: backs up (once the session's streams have drained),
// restores or drops the contents of the session's allocations.
void Snapshot(SessionState& s, uint64_t call_id, const v1::Snapshot& op);

// stream_calls.cc: streams and events.
Outcome CreateStream(SessionState& s, const v1::CreateStream& op);
void DestroyStream(SessionState& s, uint64_t call_id, const v1::DestroyStream& op);
void SynchronizeStream(SessionState& s, uint64_t call_id, const v1::SynchronizeStream& op);
Outcome QueryStream(SessionState& s, const v1::QueryStream& op);
Outcome AbortStream(SessionState& s, const v1::AbortStream& op);
void AbortDevice(SessionState& s, uint64_t call_id, const v1::AbortDevice& op);
Outcome SetStreamFailureMode(SessionState& s, const v1::SetStreamFailureMode& op);
Outcome StreamWaitEvent(SessionState& s, const v1::StreamWaitEvent& op);
Outcome CreateEvent(SessionState& s, const v1::CreateEvent& op);
Outcome DestroyEvent(SessionState& s, const v1::DestroyEvent& op);
Outcome RecordEvent(SessionState& s, const v1::RecordEvent& op);
Outcome ResetEvent(SessionState& s, const v1::ResetEvent& op);
Outcome QueryEvent(SessionState& s, const v1::QueryEvent& op);
void SynchronizeEvent(SessionState& s, uint64_t call_id, const v1::SynchronizeEvent& op);
Outcome EventElapsedTime(SessionState& s, const v1::EventElapsedTime& op);

// memory_calls.cc: device memory, copies and memsets.
Outcome Malloc(SessionState& s, const v1::Malloc& op);
Outcome Free(SessionState& s, const v1::Free& op);
Outcome QueryAllocation(SessionState& s, const v1::QueryAllocation& op);
TaskOrError MemsetTask(SessionState& s, const v1::Memset& op);
// Moves the bytes out of `op`.
TaskOrError WriteTask(SessionState& s, v1::WriteDevice& op);
TaskOrError ReadTask(SessionState& s, const v1::ReadDevice& op);
// The same two with the host-side bytes on the bulk channel
// (WriteDevice.bulk_transfer_id, ReadDevice.bulk).
TaskOrError BulkWriteTask(SessionState& s, const v1::WriteDevice& op);
TaskOrError BulkReadTask(SessionState& s, const v1::ReadDevice& op);
TaskOrError CopyTask(SessionState& s, const v1::CopyDevice& op);
TaskOrError ReduceTask(SessionState& s, const v1::ReduceDevice& op);
TaskOrError RandomTask(SessionState& s, const v1::RandomNumbers& op);
// Runs a copy or memset on stream `stream_id`, or (stream 0) synchronously
// after the work the session queued before it.
void RunData(SessionState& s, uint64_t call_id, uint64_t stream_id, TaskOrError task);
// An asynchronous read that failed at once still ends its transfer, which
// the client waits for.
void EndFailedTransfer(SessionState& s, uint64_t transfer_id, const absl::Status& error);

// kernel_calls.cc: kernel binaries, launches, run-time compilation.
Outcome LoadBinary(SessionState& s, const v1::LoadBinary& op);
Outcome UnloadBinary(SessionState& s, const v1::UnloadBinary& op);
Outcome BinaryImage(SessionState& s, const v1::BinaryImage& op);
Outcome LaunchKernel(SessionState& s, const v1::LaunchKernel& op);
Outcome SetExecuteTimeout(SessionState& s, const v1::SetExecuteTimeout& op);
void CompileProgram(SessionState& s, uint64_t call_id, const v1::CompileProgram& op);

// tdt_calls.cc: TDT queues (channels and queues of acl_tdt*.h).
Outcome TdtCreateQueue(SessionState& s, const v1::TdtCreateQueue& op);
Outcome TdtDestroyQueue(SessionState& s, const v1::TdtDestroyQueue& op);
Outcome TdtEnqueue(SessionState& s, v1::TdtEnqueue& op);
Outcome TdtDequeue(SessionState& s, const v1::TdtDequeue& op);
Outcome TdtQueryQueue(SessionState& s, const v1::TdtQueryQueue& op);
Outcome TdtResetQueue(SessionState& s, const v1::TdtResetQueue& op);
Outcome TdtBindRoutes(SessionState& s, const v1::TdtBindRoutes& op);
Outcome TdtQueryRoutes(SessionState& s, const v1::TdtQueryRoutes& op);

// ipc_calls.cc: device memory and events shared between processes.
Outcome IpcExportMemory(SessionState& s, const v1::IpcExportMemory& op);
Outcome IpcSetImportPids(SessionState& s, const v1::IpcSetImportPids& op);
Outcome IpcImportMemory(SessionState& s, const v1::IpcImportMemory& op);
Outcome IpcClose(SessionState& s, const v1::IpcClose& op);
Outcome IpcExportEvent(SessionState& s, const v1::IpcExportEvent& op);
Outcome IpcOpenEvent(SessionState& s, const v1::IpcOpenEvent& op);

// notify_calls.cc: stream-ordered values, notifies and count notifies.
Outcome ValueWrite(SessionState& s, const v1::ValueWrite& op);
Outcome ValueWait(SessionState& s, const v1::ValueWait& op);
Outcome CreateNotify(SessionState& s, const v1::CreateNotify& op);
Outcome DestroyNotify(SessionState& s, const v1::DestroyNotify& op);
Outcome RecordNotify(SessionState& s, const v1::RecordNotify& op);
Outcome WaitNotify(SessionState& s, const v1::WaitNotify& op);
Outcome ResetNotify(SessionState& s, const v1::ResetNotify& op);
Outcome IpcExportNotify(SessionState& s, const v1::IpcExportNotify& op);
Outcome IpcSetNotifyPids(SessionState& s, const v1::IpcSetNotifyPids& op);
Outcome IpcImportNotify(SessionState& s, const v1::IpcImportNotify& op);
Outcome CreateCountNotify(SessionState& s, const v1::CreateCountNotify& op);
Outcome DestroyCountNotify(SessionState& s, const v1::DestroyCountNotify& op);
Outcome RecordCountNotify(SessionState& s, const v1::RecordCountNotify& op);
Outcome WaitCountNotify(SessionState& s, const v1::WaitCountNotify& op);
Outcome ResetCountNotify(SessionState& s, const v1::ResetCountNotify& op);

// host_memory_calls.cc: host memory shared over the local protocol.
// `fd` is the memory file that came with the call (-1 if none).
Outcome RegisterHostMemory(SessionState& s, const v1::RegisterHostMemory& op, int fd);
Outcome ReleaseHostMemory(SessionState& s, const v1::ReleaseHostMemory& op);
Outcome MapHostWindow(SessionState& s, const v1::MapHostWindow& op);
Outcome UnmapHostWindow(SessionState& s, const v1::UnmapHostWindow& op);
TaskOrError HostCopyTask(SessionState& s, const v1::HostCopy& op);

// vmm_calls.cc: physical memory and device virtual addresses.
Outcome MallocPhysical(SessionState& s, const v1::MallocPhysical& op);
Outcome FreePhysical(SessionState& s, const v1::FreePhysical& op);
Outcome ReserveAddress(SessionState& s, const v1::ReserveAddress& op);
Outcome ReleaseAddress(SessionState& s, const v1::ReleaseAddress& op);
Outcome MapMemory(SessionState& s, const v1::MapMemory& op);
Outcome UnmapMemory(SessionState& s, const v1::UnmapMemory& op);
Outcome SetMemoryAccess(SessionState& s, const v1::SetMemoryAccess& op);
Outcome GetMemoryAccess(SessionState& s, const v1::GetMemoryAccess& op);
Outcome ExportPhysical(SessionState& s, const v1::ExportPhysical& op);
Outcome SetPhysicalPids(SessionState& s, const v1::SetPhysicalPids& op);
// Answers once the exporter's work queued before the export is done.
void ImportPhysical(SessionState& s, uint64_t call_id, const v1::ImportPhysical& op);
Outcome RetainPhysical(SessionState& s, const v1::RetainPhysical& op);

// host_callback_calls.cc: callbacks that run in the client process.
Outcome LaunchHostCallback(SessionState& s, const v1::LaunchHostCallback& op);
Outcome HostCallbackDone(SessionState& s, const v1::HostCallbackDone& op);

// model_calls.cc: models and their streams (running them is Session's).
Outcome DescribeModel(SessionState& s, const v1::ModelDescribe& op);
Outcome BindModelStream(SessionState& s, const v1::ModelBindStream& op);
Outcome EditModelTasks(SessionState& s, const v1::ModelEditTasks& op);
Outcome CacheTaskInfo(SessionState& s, const v1::CacheTaskInfo& op);
Outcome AddModelCondition(SessionState& s, const v1::ModelAddCondition& op);
// A control task (label, stream switch, condition, ...) on a stream that
// does not record into a model.
Outcome NotInModel(SessionState& s, const v1::Call& call);

// trace_calls.cc: the client's trace of its session (NPUD_TRACE).
Outcome StartTrace(SessionState& s, const v1::StartTrace& op);
Outcome StopTrace(SessionState& s, const v1::StopTrace& op);

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_SESSION_CALLS_H_
