// Stream-ordered synchronization without events: 64-bit value writes and
// waits on device memory, notifies (record / wait-and-reset, shareable
// between processes) and count notifies (counters streams set, add to or
// mask and wait on until they reach a value).

#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/session/calls.h"
#include "simdevice/count_notify.h"
#include "simdevice/notify.h"
#include "simdevice/value_tasks.h"

namespace npud::daemon {
namespace {

// ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION.
constexpr uint64_t kNotifyDisablePidCheck = 2;

using RecordMode = sim::CountNotify::RecordMode;
using WaitMode = sim::CountNotify::WaitMode;

absl::StatusOr<RecordMode> ToRecordMode(uint32_t mode) {
  switch (mode) {
    case static_cast<uint32_t>(RecordMode::kSet):
    case static_cast<uint32_t>(RecordMode::kAdd):
    case static_cast<uint32_t>(RecordMode::kOr):
    case static_cast<uint32_t>(RecordMode::kAnd):
      return static_cast<RecordMode>(mode);
    default:
      return AclError(kRtParamInvalid,
                      absl::StrFormat("%u is not an aclrtCntNotifyRecordMode", mode));
  }
}

absl::StatusOr<WaitMode> ToWaitMode(uint32_t mode) {
  if (mode > static_cast<uint32_t>(WaitMode::kAllBits)) {
    return AclError(kRtParamInvalid, absl::StrFormat("%u is not an aclrtCntNotifyWaitMode", mode));
  }
  return static_cast<WaitMode>(mode);
}

}  // namespace

// --- Values ----------------------------------------------------------------

Outcome ValueWrite(SessionState& s, const v1::ValueWrite& op) {
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange at, s.memory.Access(op.address(), sizeof(uint64_t)));
  return Done(s.Submit(op.stream_id(), sim::MakeValueWriteTask(std::move(at), op.value())));
}

Outcome ValueWait(SessionState& s, const v1::ValueWait& op) {
  if (op.flag() > static_cast<uint32_t>(sim::ValueCondition::kNor)) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid wait condition %d", op.flag()));
  }
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange at, s.memory.Access(op.address(), sizeof(uint64_t)));
  return Done(s.Submit(
      op.stream_id(),
      sim::MakeValueWaitTask(std::move(at), op.value(), static_cast<sim::ValueCondition>(op.flag()),
                             &s.devices().poller())));
}

// --- Notifies --------------------------------------------------------------

Outcome CreateNotify(SessionState& s, const v1::CreateNotify& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  return Done(s.notifies.Add(op.notify_id(),
                             std::make_shared<sim::Notify>(op.device_id(), op.notify_id())));
}

Outcome DestroyNotify(SessionState& s, const v1::DestroyNotify& op) {
  return Done(s.notifies.Take(op.notify_id()).status());
}

Outcome RecordNotify(SessionState& s, const v1::RecordNotify& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Notify> notify, s.notifies.Find(op.notify_id()));
  return Done(s.Submit(op.stream_id(), sim::MakeRecordNotifyTask(std::move(notify))));
}

Outcome WaitNotify(SessionState& s, const v1::WaitNotify& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Notify> notify, s.notifies.Find(op.notify_id()));
  return Done(s.Submit(op.stream_id(), sim::MakeWaitNotifyTask(std::move(notify))));
}

Outcome ResetNotify(SessionState& s, const v1::ResetNotify& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Notify> notify, s.notifies.Find(op.notify_id()));
  notify->Reset();
  return v1::Reply();
}

Outcome IpcExportNotify(SessionState& s, const v1::IpcExportNotify& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Notify> notify, s.notifies.Find(op.notify_id()));
  v1::Reply reply;
  reply.mutable_ipc()->set_key(s.services.ipc->ExportNotify(
      s.id, std::move(notify), (op.flags() & kNotifyDisablePidCheck) == 0));
  return reply;
}

Outcome IpcSetNotifyPids(SessionState& s, const v1::IpcSetNotifyPids& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Notify> notify, s.notifies.Find(op.notify_id()));
  std::vector<int64_t> pids(op.pids().begin(), op.pids().end());
  return Done(s.services.ipc->SetNotifyPids(s.id, notify, pids, s.peer.PidSpace()));
}

Outcome IpcImportNotify(SessionState& s, const v1::IpcImportNotify& op) {
  if (op.notify_id() == 0) return AclError(kRtParamInvalid, "notify id 0 is reserved");
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Notify> notify,
                        s.services.ipc->ImportNotify(op.key(), s.peer.ipc_pid()));
  v1::Reply reply;
  reply.mutable_ipc()->set_device_id(notify->device_id());
  s.notifies.Put(op.notify_id(), std::move(notify));
  return reply;
}

// --- Count notifies ----------------------------------------------------------

Outcome CreateCountNotify(SessionState& s, const v1::CreateCountNotify& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  return Done(s.count_notifies.Add(
      op.notify_id(), std::make_shared<sim::CountNotify>(op.device_id(), op.notify_id())));
}

Outcome DestroyCountNotify(SessionState& s, const v1::DestroyCountNotify& op) {
  return Done(s.count_notifies.Take(op.notify_id()).status());
}

Outcome RecordCountNotify(SessionState& s, const v1::RecordCountNotify& op) {
  NPUD_ASSIGN_OR_RETURN(const RecordMode mode, ToRecordMode(op.mode()));
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::CountNotify> notify,
                        s.count_notifies.Find(op.notify_id()));
  return Done(
      s.Submit(op.stream_id(), sim::MakeCountRecordTask(std::move(notify), mode, op.value())));
}

Outcome WaitCountNotify(SessionState& s, const v1::WaitCountNotify& op) {
  NPUD_ASSIGN_OR_RETURN(const WaitMode mode, ToWaitMode(op.mode()));
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::CountNotify> notify,
                        s.count_notifies.Find(op.notify_id()));
  return Done(s.Submit(op.stream_id(), sim::MakeCountWaitTask(
                                           std::move(notify), mode, op.value(), op.clear(),
                                           absl::Milliseconds(op.timeout_ms()), s.WakeAtTimer())));
}

Outcome ResetCountNotify(SessionState& s, const v1::ResetCountNotify& op) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::CountNotify> notify,
                        s.count_notifies.Find(op.notify_id()));
  return Done(s.Submit(op.stream_id(), sim::MakeCountResetTask(std::move(notify))));
}

}  // namespace npud::daemon
