#include "daemon/session/session_state.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/acl_status.h"
#include "common/status_macros.h"
#include "daemon/session/bulk_link.h"
#include "daemon/session/session_launch_observer.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {

Outcome Done(const absl::Status& status) {
  if (!status.ok()) return status;
  return v1::Reply();
}

SessionState::SessionState(uint64_t id, PeerInfo peer, SessionServices services,
                           std::shared_ptr<MessageSink> sink, std::shared_ptr<BulkLink> bulk)
    : id(id),
      peer(std::move(peer)),
      services(std::move(services)),
      bulk(std::move(bulk)),
      timeline(std::make_shared<SessionTimeline>(id, this->services.kernel_stats,
                                                 this->services.devices, sink)),
      launch_observer(MakeSessionLaunchObserver(sink, timeline, float_overflow)),
      memory(id, this->peer.pid, this->services.devices, this->services.limits.memory_bytes),
      kernels(id, this->services.kernel_host, this->services.devices, &memory),
      sink_(std::move(sink)) {
  timeline->SetArgsKeeper(
      [this](int device_id, const std::string& args) { return KeepFaultArgs(device_id, args); });
}

uint64_t SessionState::KeepFaultArgs(int device_id, const std::string& args) {
  absl::StatusOr<uint64_t> address = memory.Allocate(device_id, std::max<size_t>(args.size(), 1));
  if (!address.ok()) return 0;
  if (auto range = memory.Access(*address, args.size()); range.ok() && !args.empty()) {
    std::memcpy(range->data(), args.data(), args.size());
  }
  uint64_t oldest = 0;
  {
    absl::MutexLock lock(&mu_);
    fault_args_.push_back(*address);
    if (fault_args_.size() > kKeptFaultArgs) {
      oldest = fault_args_.front();
      fault_args_.pop_front();
    }
  }
  // The application may have freed it already.
  if (oldest != 0) memory.Free(oldest).IgnoreError();
  return *address;
}

SessionState::~SessionState() {
  // Tasks may still fail after the session: they report without arguments.
  timeline->SetArgsKeeper(nullptr);
  // Teardown order: stop the work first (streams and queued compilations),
  // withdraw what others imported from us, then let go of mappings and
  // physical memory, and free our device memory last.
  ended->store(true);
  // No bytes move into or out of device memory from here on.
  if (bulk != nullptr) bulk->Close();
  services.compilations->Cancel(id);
  ReleaseStreamsAndEvents(-1);
  services.ipc->RevokeAll(id);
  services.tdt_queues->ReleaseSession(id);
  devices().vmm().ReleaseAll(id);
  const size_t physical_handles =
      physical.TakeIf([](const PhysicalHandle&) { return true; }).size();
  const AllocationLedger::Usage usage = memory.usage();
  const uint64_t bytes = memory.ReleaseAll();
  spdlog::info(
      "session {} (pid {} {}) closed: released {} allocations ({} bytes), {} physical memory "
      "handle(s)",
      id, peer.pid, peer.program, usage.allocations, bytes, physical_handles);
}

void SessionState::Finish(uint64_t call_id, uint64_t stream_id, Outcome outcome) {
  if (call_id == 0) {
    if (outcome.ok()) return;
    spdlog::warn("session {}: asynchronous call failed: {}", id, outcome.status().ToString());
    if (stream_id != 0) {
      if (auto stream = streams.Find(stream_id); stream.ok()) {
        (*stream)->RecordError(outcome.status());
      }
    }
    return;
  }
  v1::ServerMessage message;
  v1::Reply* reply = message.mutable_reply();
  if (outcome.ok()) {
    *reply = *std::move(outcome);
  } else {
    spdlog::debug("session {}: call {} failed: {}", id, call_id, outcome.status().ToString());
    reply->set_acl_error(ToAclCode(outcome.status()));
    reply->set_error_message(std::string(outcome.status().message()));
  }
  reply->set_call_id(call_id);
  sink_->Send(std::move(message));
}

absl::StatusOr<std::string> SessionState::AddBinaryChunk(uint64_t binary_id,
                                                         const std::string& data, bool last) {
  if (binary_id == 0) return AclError(kRtParamInvalid, "binary id 0 is reserved");
  if (binaries.Contains(binary_id)) {
    return AclError(kRtParamInvalid, absl::StrFormat("binary id %d is already in use", binary_id));
  }
  absl::MutexLock lock(&mu_);
  std::string& partial = partial_binaries_[binary_id];
  absl::Status charged =
      partial_binary_bytes_ + data.size() > kMaxPartialBinaryBytes
          ? AclError(kRtMemoryAllocation,
                     absl::StrFormat("kernel binaries being uploaded would pass %u bytes",
                                     kMaxPartialBinaryBytes))
          : memory.quota()->Charge(data.size());
  if (!charged.ok()) {
    // The whole upload goes: a client that ran out midway starts again.
    memory.quota()->Uncharge(partial.size());
    partial_binary_bytes_ -= partial.size();
    partial_binaries_.erase(binary_id);
    return charged;
  }
  partial_binary_bytes_ += data.size();
  partial += data;
  if (!last) return std::string();
  std::string whole = std::move(partial);
  partial_binaries_.erase(binary_id);
  memory.quota()->Uncharge(whole.size());
  partial_binary_bytes_ -= whole.size();
  return whole;
}

void SessionState::OpenDevice(int device_id) {
  absl::MutexLock lock(&mu_);
  open_devices_.insert(device_id);
}

absl::Status SessionState::CloseDevice(int device_id) {
  absl::MutexLock lock(&mu_);
  if (open_devices_.erase(device_id) == 0) {
    return AclError(kRtInvalidDeviceId,
                    absl::StrFormat("device %d was not set by this process", device_id));
  }
  return absl::OkStatus();
}

absl::Status SessionState::Submit(uint64_t stream_id, std::unique_ptr<sim::Task> task) {
  NPUD_ASSIGN_OR_RETURN(std::shared_ptr<sim::Stream> stream, streams.Find(stream_id));
  stream->Submit(std::move(task));
  return absl::OkStatus();
}

sim::WakeAt SessionState::WakeAtTimer() const {
  DelayedExecutor* timers = services.timers;
  return [timers](absl::Time when, sim::Waker wake) {
    timers->RunAfter(when - absl::Now(), std::move(wake));
  };
}

void SessionState::WhenStreamsDrained(std::function<void()> fn) {
  std::vector<std::shared_ptr<sim::Stream>> all = streams.All();
  auto left = std::make_shared<std::atomic<size_t>>(all.size() + 1);
  auto shared_fn = std::make_shared<std::function<void()>>(std::move(fn));
  auto arrive = [left, shared_fn](const absl::Status&) {
    if (--*left == 0) (*shared_fn)();
  };
  // Errors stay on their streams for the next synchronize.
  for (auto& stream : all) stream->NotifyWhenDrained(arrive, /*take_error=*/false);
  arrive(absl::OkStatus());
}

void SessionState::ReleaseStreamsAndEvents(int device_id) {
  auto on_device = [device_id](const auto& object) {
    return device_id < 0 || object.device_id() == device_id;
  };
  std::vector<std::shared_ptr<sim::Stream>> dropped = streams.TakeIf(on_device);
  events.TakeIf(on_device);
  notifies.TakeIf(on_device);
  count_notifies.TakeIf(on_device);
  // Outside every table lock: cancelling runs the tasks' Cancel() hooks.
  for (auto& stream : dropped) stream->Discard(absl::CancelledError("device reset"));
}

v1::SessionStatus SessionState::Status() const {
  v1::SessionStatus status;
  status.set_session_id(id);
  status.set_pid(peer.pid);
  status.set_uid(peer.uid);
  status.set_host(peer.host);
  status.set_program(peer.program);
  const sim::VirtualAddressSpace::Usage vmm = services.devices->vmm().UsageOf(id);
  status.set_reserved_address_bytes(vmm.reserved_bytes);
  status.set_mapped_bytes(vmm.mapped_bytes);
  status.set_exports(services.ipc->exports_of(id));
  const AllocationLedger::Usage usage = memory.usage();
  for (const auto& [device, bytes] : usage.bytes_by_device) {
    (*status.mutable_memory_bytes())[device] += bytes;
  }
  uint32_t imports = usage.imports;
  for (const auto& handle : physical.All()) {
    (*status.mutable_physical_bytes())[handle->memory->device_id()] += handle->memory->size();
    imports += handle->imported;
  }
  status.set_streams(streams.size());
  for (const auto& stream : streams.All()) {
    (*status.mutable_device_streams())[stream->device_id()] += 1;
    (*status.mutable_queued_tasks())[stream->device_id()] += stream->pending();
  }
  status.set_events(events.size());
  status.set_allocations(usage.allocations);
  status.set_imports(imports);
  status.set_inline_copy_bytes(copied.inline_bytes.load());
  status.set_window_copy_bytes(copied.window_bytes.load());
  status.set_staging_copy_bytes(copied.staging_bytes.load());
  status.set_bulk_copy_bytes(copied.bulk_bytes.load());
  status.set_memory_used_bytes(memory.quota()->used());
  status.set_memory_limit_bytes(memory.quota()->limit());
  status.set_stream_limit(services.limits.streams);
  status.set_event_limit(services.limits.events);
  status.set_kernel_host_pid(kernels.host_pid());
  status.set_tenant(peer.tenant);
  status.set_cpu_weight(services.kernel_host.cpu_weight);
  return status;
}

}  // namespace npud::daemon
