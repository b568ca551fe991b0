// Device memory calls: allocation through the session's ledger, and copies
// and memsets that run on a stream or synchronously behind the session's
// queued work.

#include <iterator>
#include <memory>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "common/acl_status.h"
#include "common/monotonic_clock.h"
#include "common/status_macros.h"
#include "common/wire_constants.h"
#include "daemon/session/bulk_tasks.h"
#include "daemon/session/calls.h"
#include "daemon/session/sync_waiter.h"
#include "simdevice/detached_task.h"
#include "simdevice/memory_tasks.h"
#include "simdevice/random_task.h"
#include "simdevice/reduce_task.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

// The device-to-host bytes of one read, as DataChunks of its transfer, at
// the pace the client reads them (MessageSink::ReadyOrWake).
class TransferConsumer final : public sim::ReadConsumer {
 public:
  TransferConsumer(std::shared_ptr<MessageSink> sink, uint64_t transfer_id)
      : sink_(std::move(sink)), transfer_id_(transfer_id) {}

  void Deliver(uint64_t offset, absl::Span<const uint8_t> bytes, bool last) override {
    v1::ServerMessage message;
    v1::DataChunk* chunk = message.mutable_data();
    chunk->set_transfer_id(transfer_id_);
    chunk->set_offset(offset);
    chunk->set_data(bytes.data(), bytes.size());
    chunk->set_last(last);
    sink_->Send(std::move(message));
  }
  bool ReadyOrWake(const sim::Waker& wake) override { return sink_->ReadyOrWake(wake); }

 private:
  const std::shared_ptr<MessageSink> sink_;
  const uint64_t transfer_id_;
};

}  // namespace

Outcome Malloc(SessionState& s, const v1::Malloc& op) {
  NPUD_ASSIGN_OR_RETURN(const uint64_t address, s.memory.Allocate(op.device_id(), op.size()));
  spdlog::debug("session {}: malloc {} bytes on device {} -> {:#x}", s.id, op.size(),
                op.device_id(), address);
  v1::Reply reply;
  reply.mutable_malloc()->set_address(address);
  return reply;
}

Outcome Free(SessionState& s, const v1::Free& op) { return Done(s.memory.Free(op.address())); }

Outcome QueryAllocation(SessionState& s, const v1::QueryAllocation& op) {
  NPUD_ASSIGN_OR_RETURN(const sim::DeviceRange range, s.memory.Access(op.address(), 1));
  v1::Reply reply;
  reply.mutable_allocation()->set_base(range.base);
  reply.mutable_allocation()->set_size(range.extent);
  return reply;
}

TaskOrError MemsetTask(SessionState& s, const v1::Memset& op) {
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange range, s.memory.Access(op.address(), op.count()));
  if (op.pattern_bytes() == 4) {
    if (op.count() % 4 != 0) {
      return AclError(kRtParamInvalid, "a 32-bit memset of a length that is not a multiple of 4");
    }
    return sim::MakeFill32Task(std::move(range), op.value());
  }
  return sim::MakeMemsetTask(std::move(range), static_cast<uint8_t>(op.value()));
}

TaskOrError ReduceTask(SessionState& s, const v1::ReduceDevice& op) {
  static constexpr sim::ReduceType kTypes[] = {
      sim::ReduceType::kInt8,    sim::ReduceType::kInt16,    sim::ReduceType::kInt32,
      sim::ReduceType::kFloat16, sim::ReduceType::kBfloat16, sim::ReduceType::kFloat32};
  static constexpr sim::ReduceOp kOps[] = {sim::ReduceOp::kSum, sim::ReduceOp::kMax,
                                           sim::ReduceOp::kMin};
  if (op.type() < 0 || op.type() >= static_cast<int>(std::size(kTypes)) || op.op() < 0 ||
      op.op() >= static_cast<int>(std::size(kOps))) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("invalid reduce op %d or type %d", op.op(), op.type()));
  }
  const sim::ReduceType type = kTypes[op.type()];
  if (op.bytes() == 0 || op.bytes() % sim::ElementBytes(type) != 0) {
    return AclError(kRtParamInvalid,
                    absl::StrFormat("reduce of %d bytes: not a whole number of %d-byte elements",
                                    op.bytes(), sim::ElementBytes(type)));
  }
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange dst, s.memory.Access(op.dst(), op.bytes()));
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange src, s.memory.Access(op.src(), op.bytes()));
  if (op.dst() != op.src() && op.dst() < op.src() + op.bytes() &&
      op.src() < op.dst() + op.bytes()) {
    return AclError(kRtParamInvalid, "the reduce's source and destination overlap");
  }
  return sim::MakeReduceTask(std::move(dst), std::move(src), kOps[op.op()], type);
}

TaskOrError RandomTask(SessionState& s, const v1::RandomNumbers& op) {
  if (op.distribution() < 0 || op.distribution() > v1::RANDOM_DISTRIBUTION_TRUNCATED_NORMAL ||
      op.type() < 0 || op.type() > v1::RANDOM_TYPE_FLOAT32) {
    return AclError(kRtParamInvalid, absl::StrFormat("invalid random distribution %d or type %d",
                                                     op.distribution(), op.type()));
  }
  sim::RandomSpec spec;
  spec.distribution = static_cast<sim::RandomDistribution>(op.distribution());
  spec.type = static_cast<sim::RandomType>(op.type());
  const bool bitmask = spec.distribution == sim::RandomDistribution::kDropoutBitmask;
  if (bitmask
          ? spec.type != sim::RandomType::kFloat32
          : spec.distribution != sim::RandomDistribution::kUniform &&
                (spec.type == sim::RandomType::kInt32 || spec.type == sim::RandomType::kInt64 ||
                 spec.type == sim::RandomType::kUint32 || spec.type == sim::RandomType::kUint64)) {
    return AclError(kRtParamInvalid, "normal numbers are floating point; a dropout ratio a float");
  }
  constexpr uint64_t kMaxCount = uint64_t{1} << 34;
  if (op.count() == 0 || op.count() > kMaxCount) {
    return AclError(kRtParamInvalid, absl::StrFormat("%d random numbers", op.count()));
  }
  const uint64_t bytes = bitmask ? (op.count() + 7) / 8 : op.count() * sim::ElementBytes(spec.type);
  NPUD_ASSIGN_OR_RETURN(spec.result, s.memory.Access(op.result(), bytes));
  NPUD_ASSIGN_OR_RETURN(spec.counter, s.memory.Access(op.counter(), 16));
  for (auto [from, to] : {std::pair{&op.a(), &spec.a}, std::pair{&op.b(), &spec.b},
                          std::pair{&op.seed(), &spec.seed}}) {
    if (from->size() > 8) return AclError(kRtParamInvalid, "a random parameter over 8 bytes");
    to->bits = from->bits();
    to->size = from->size();
    if (from->from_device()) {
      NPUD_ASSIGN_OR_RETURN(to->source, s.memory.Access(from->address(), from->size()));
    }
  }
  spec.count = op.count();
  return sim::MakeRandomTask(std::move(spec));
}

TaskOrError WriteTask(SessionState& s, v1::WriteDevice& op) {
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange range, s.memory.Access(op.address(), op.data().size()));
  s.CountCopy(&CopyCounters::inline_bytes, op.data().size());
  return sim::MakeWriteTask(std::move(range), std::move(*op.mutable_data()));
}

TaskOrError ReadTask(SessionState& s, const v1::ReadDevice& op) {
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange range, s.memory.Access(op.address(), op.size()));
  s.CountCopy(&CopyCounters::inline_bytes, op.size());
  return sim::MakeReadTask(std::move(range), kDataChunkBytes,
                           std::make_shared<TransferConsumer>(s.sink(), op.transfer_id()));
}

TaskOrError BulkWriteTask(SessionState& s, const v1::WriteDevice& op) {
  if (s.bulk == nullptr) return absl::InvalidArgumentError("this session has no bulk channel");
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange range, s.memory.Access(op.address(), op.bulk_size()));
  s.CountCopy(&CopyCounters::bulk_bytes, op.bulk_size());
  return MakeBulkReceiveTask(s.bulk, op.bulk_transfer_id(), std::move(range));
}

TaskOrError BulkReadTask(SessionState& s, const v1::ReadDevice& op) {
  if (s.bulk == nullptr) return absl::InvalidArgumentError("this session has no bulk channel");
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange range, s.memory.Access(op.address(), op.size()));
  s.CountCopy(&CopyCounters::bulk_bytes, op.size());
  return MakeBulkSendTask(s.bulk, op.transfer_id(), std::move(range), s.sink());
}

TaskOrError CopyTask(SessionState& s, const v1::CopyDevice& op) {
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange dst, s.memory.Access(op.dst(), op.size()));
  NPUD_ASSIGN_OR_RETURN(sim::DeviceRange src, s.memory.Access(op.src(), op.size()));
  return sim::MakeCopyTask(std::move(dst), std::move(src));
}

void EndFailedTransfer(SessionState& s, uint64_t transfer_id, const absl::Status& error) {
  v1::ServerMessage message;
  v1::DataChunk* chunk = message.mutable_data();
  chunk->set_transfer_id(transfer_id);
  chunk->set_last(true);
  chunk->set_acl_error(ToAclCode(error));
  s.sink()->Send(std::move(message));
}

void RunData(SessionState& s, uint64_t call_id, uint64_t stream_id, TaskOrError task) {
  if (!task.ok()) return s.Finish(call_id, stream_id, task.status());
  if (stream_id != 0) {
    return s.Finish(call_id, stream_id, Done(s.Submit(stream_id, *std::move(task))));
  }
  // A synchronous copy or memset runs after the work this process queued
  // before it, as CANN's synchronous calls see the results of earlier
  // launches. It never waits on a worker: the last stream to drain starts
  // it, and a read the client is slow to take continues when woken.
  std::shared_ptr<sim::Task> shared(std::move(*task));
  s.WhenStreamsDrained([shared, sink = s.sink(), call_id, timeline = s.timeline] {
    const int64_t start_ns = timeline->tracing() ? MonotonicNanos() : 0;
    // The detached run holds the task until `done` has run.
    sim::RunDetached(shared, [sink, call_id, timeline, start_ns,
                              task = shared.get()](const absl::Status& status) {
      if (start_ns != 0) timeline->Finished(-1, 0, *task, start_ns, MonotonicNanos(), status);
      if (call_id != 0) SendStatusReply(*sink, call_id, status);
    });
  });
}

}  // namespace npud::daemon
