// Device calls: aclrtSetDevice/aclrtResetDevice counting, synchronizing a
// whole device, memory figures.

#include <memory>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "common/acl_status.h"
#include "common/monotonic_clock.h"
#include "common/status_macros.h"
#include "daemon/session/calls.h"
#include "daemon/session/sync_waiter.h"

namespace npud::daemon {
namespace {

// Highest aclrtMemAttr value (ACL_MEM_P2P_HUGE1G).
constexpr uint32_t kMaxMemAttr = 17;

}  // namespace

Outcome OpenDevice(SessionState& s, const v1::OpenDevice& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  s.OpenDevice(op.device_id());
  return v1::Reply();
}

Outcome CloseDevice(SessionState& s, const v1::CloseDevice& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  NPUD_RETURN_IF_ERROR(s.CloseDevice(op.device_id()));
  s.ReleaseStreamsAndEvents(op.device_id());
  return v1::Reply();
}

void SynchronizeDevice(SessionState& s, uint64_t call_id, const v1::SynchronizeDevice& op) {
  if (auto device = s.devices().Get(op.device_id()); !device.ok()) {
    return s.Finish(call_id, 0, device.status());
  }
  std::vector<std::shared_ptr<sim::Stream>> streams;
  for (auto& stream : s.streams.All()) {
    if (stream->device_id() == op.device_id()) streams.push_back(std::move(stream));
  }
  auto waiter = std::make_shared<SyncWaiter>(s.sink(), call_id, kRtStreamSyncTimeout);
  waiter->ArmTimeout(s.services.timers, op.timeout_ms());
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

Outcome FloatOverflowStatus(SessionState& s, const v1::FloatOverflowStatus& op) {
  NPUD_RETURN_IF_ERROR(s.devices().Get(op.device_id()).status());
  v1::Reply reply;
  reply.mutable_overflow()->set_overflow(s.float_overflow->Test(op.device_id(), op.reset()));
  return reply;
}

Outcome GetMemInfo(SessionState& s, const v1::GetMemInfo& op) {
  NPUD_ASSIGN_OR_RETURN(sim::Device * device, s.devices().Get(op.device_id()));
  if (op.attr() > kMaxMemAttr) {
    return AclError(kRtInvalidMemoryType,
                    absl::StrFormat("invalid memory attribute %d", op.attr()));
  }
  const sim::DeviceMemory& memory = device->memory();
  v1::Reply reply;
  reply.mutable_mem_info()->set_total_bytes(memory.capacity());
  reply.mutable_mem_info()->set_free_bytes(memory.capacity() - memory.used_bytes());
  if (op.usage()) {
    const AllocationLedger::Usage mine = s.memory.usage();
    auto of = [](const absl::flat_hash_map<int, uint64_t>& bytes, int device) {
      auto it = bytes.find(device);
      return it == bytes.end() ? uint64_t{0} : it->second;
    };
    v1::MemUsage* app = reply.mutable_mem_info()->add_usage();
    app->set_name("app");
    app->set_current_bytes(of(mine.bytes_by_device, op.device_id()));
    app->set_peak_bytes(of(mine.peak_by_device, op.device_id()));
    v1::MemUsage* all = reply.mutable_mem_info()->add_usage();
    all->set_name("device");
    all->set_current_bytes(memory.used_bytes());
    all->set_peak_bytes(memory.peak_used_bytes());
  }
  return reply;
}

Outcome GetUtilization(SessionState& s, const v1::GetUtilization& op) {
  NPUD_ASSIGN_OR_RETURN(sim::Device * device, s.devices().Get(op.device_id()));
  const sim::CoreUtilization::Percent busy = device->utilization().At(MonotonicNanos());
  v1::Reply reply;
  reply.mutable_utilization()->set_vector_percent(busy.vector);
  reply.mutable_utilization()->set_cube_percent(busy.cube);
  return reply;
}

}  // namespace npud::daemon
