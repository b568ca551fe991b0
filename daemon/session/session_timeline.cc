#include "daemon/session/session_timeline.h"

#include <utility>
#include <vector>

#include "common/acl_status.h"
#include "common/monotonic_clock.h"
#include "spdlog/spdlog.h"

namespace npud::daemon {
namespace {

v1::TraceKind ToProto(sim::TaskKind kind) {
  switch (kind) {
    case sim::TaskKind::kCopy:
      return v1::TRACE_KIND_COPY;
    case sim::TaskKind::kMemset:
      return v1::TRACE_KIND_MEMSET;
    case sim::TaskKind::kKernel:
      return v1::TRACE_KIND_KERNEL;
    case sim::TaskKind::kEventRecord:
      return v1::TRACE_KIND_EVENT_RECORD;
    case sim::TaskKind::kWait:
      return v1::TRACE_KIND_WAIT;
    case sim::TaskKind::kBlock:
      return v1::TRACE_KIND_BLOCK;
    case sim::TaskKind::kOther:
    case sim::TaskKind::kMarker:
      break;
  }
  return v1::TRACE_KIND_OTHER;
}

}  // namespace

void SessionTimeline::Finished(int device_id, uint64_t stream_id, const sim::Task& task,
                               int64_t start_ns, int64_t end_ns, const absl::Status& status) {
  const sim::TaskKind kind = task.kind();
  // Stream 0 is a synchronous copy, whose caller gets its error itself.
  if (!status.ok() && stream_id != 0 && kind != sim::TaskKind::kMarker && client_ != nullptr) {
    v1::ServerMessage message;
    v1::TaskFailed* failed = message.mutable_notification()->mutable_task_failed();
    failed->set_device_id(device_id);
    failed->set_stream_id(stream_id);
    failed->set_acl_error(static_cast<int32_t>(ToAclCode(status)));
    failed->set_message(std::string(status.message()));
    failed->set_task(task.name());
    failed->set_task_id(task.id());
    if (kind == sim::TaskKind::kKernel) {
      if (std::optional<sim::Task::Launch> launch = task.FailedLaunch()) {
        failed->set_binary_id(launch->binary_id);
        failed->set_kernel_index(launch->kernel);
        failed->set_args_size(static_cast<uint32_t>(launch->args.size()));
        absl::MutexLock lock(&keeper_mu_);
        if (keeper_) failed->set_args_address(keeper_(device_id, launch->args));
      }
    }
    client_->Send(std::move(message));
  }
  const bool kernel = kind == sim::TaskKind::kKernel;
  // Synchronize markers are the client's waits, which its own trace shows.
  const bool traced = kind != sim::TaskKind::kMarker && recorder_.active();
  if (!kernel && !traced) return;
  std::vector<sim::TaskSpan> spans;
  task.Spans(start_ns, end_ns, &spans);
  if (kernel) {
    absl::StatusOr<sim::Device*> device =
        devices_ != nullptr ? devices_->Get(device_id) : absl::StatusOr<sim::Device*>(nullptr);
    for (const sim::TaskSpan& span : spans) {
      if (span.kind != sim::TaskKind::kKernel) continue;
      if (stats_ != nullptr) stats_->AddRunTime(span.name, span.end_ns - span.start_ns);
      if (device.ok() && *device != nullptr) {
        (*device)->utilization().Add(span.kernel_type, span.block_dim, span.start_ns, span.end_ns);
      }
    }
    if (!status.ok() && stats_ != nullptr) {
      stats_->CountFault(static_cast<int32_t>(ToAclCode(status)));
    }
  }
  if (traced) recorder_.Add(device_id, stream_id, std::move(spans));
}

void SessionTimeline::SetArgsKeeper(ArgsKeeper keeper) {
  absl::MutexLock lock(&keeper_mu_);
  keeper_ = std::move(keeper);
}

absl::Status SessionTimeline::StartClientTrace(uint32_t tracer, bool blocks) {
  absl::MutexLock lock(&mu_);
  if (client_traces_.contains(tracer)) {
    return AclError(kRtParamInvalid, "the session already traces");
  }
  client_traces_[tracer] = ClientTrace{Start(blocks), blocks};
  return absl::OkStatus();
}

absl::StatusOr<v1::TraceResult> SessionTimeline::StopClientTrace(uint32_t tracer) {
  absl::MutexLock lock(&mu_);
  auto it = client_traces_.find(tracer);
  if (it == client_traces_.end()) return AclError(kRtParamInvalid, "the session does not trace");
  const ClientTrace trace = it->second;
  client_traces_.erase(it);
  return Stop(trace.cursor, trace.blocks);
}

uint64_t SessionTimeline::Start(bool blocks) {
  if (blocks) block_tracers_.fetch_add(1, std::memory_order_relaxed);
  return recorder_.Start();
}

v1::TraceResult SessionTimeline::Stop(uint64_t cursor, bool blocks) {
  if (blocks) block_tracers_.fetch_sub(1, std::memory_order_relaxed);
  sim::TraceRecorder::Result recorded = recorder_.Stop(cursor);
  v1::TraceResult result;
  result.set_session_id(session_id_);
  result.set_dropped(recorded.dropped);
  result.mutable_spans()->Reserve(static_cast<int>(recorded.spans.size()));
  for (sim::TracedSpan& traced : recorded.spans) {
    // Another trace of the session may have asked for blocks; this one did not.
    if (!blocks && traced.span.kind == sim::TaskKind::kBlock) continue;
    v1::TraceSpan* span = result.add_spans();
    span->set_device_id(traced.device_id);
    span->set_stream_id(traced.stream_id);
    span->set_name(std::move(traced.span.name));
    span->set_kind(ToProto(traced.span.kind));
    span->set_start_ns(traced.span.start_ns);
    span->set_duration_ns(traced.span.end_ns - traced.span.start_ns);
    span->set_bytes(traced.span.bytes);
    span->set_block_dim(traced.span.block_dim);
    if (traced.span.kind == sim::TaskKind::kBlock) {
      span->set_block(traced.span.block);
      span->set_core(traced.span.core);
    }
    span->set_has_blocks(blocks && traced.span.has_blocks);
  }
  if (recorded.dropped > 0) {
    spdlog::warn("session {}: trace kept {} spans and dropped {} (at most {} per trace)",
                 session_id_, result.spans_size(), recorded.dropped, sim::TraceRecorder::kMaxSpans);
  }
  result.set_daemon_clock_ns(MonotonicNanos());
  return result;
}

}  // namespace npud::daemon
