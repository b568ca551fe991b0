#include "common/grpc/chrome_trace.h"

#include <algorithm>
#include <limits>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/json_string.h"
#include "npud/v1/calls.pb.h"

namespace npud {
namespace {

// Device processes get ids past any real pid (pid_max is at most 2^22); the
// AI cores of a device (block spans) are a process of their own, so that
// core tracks and stream tracks cannot share an id.
constexpr int64_t kDevicePidBase = 1'000'000'000;
constexpr int64_t kCorePidBase = 1'500'000'000;
// A host thread's markers go on a track of their own beside its calls.
constexpr int64_t kMarkerTidBase = 1'000'000;
int64_t DevicePid(int device_id) { return kDevicePidBase + device_id; }
int64_t CorePid(int device_id) { return kCorePidBase + device_id; }

const char* Category(v1::TraceKind kind) {
  switch (kind) {
    case v1::TRACE_KIND_COPY:
      return "copy";
    case v1::TRACE_KIND_MEMSET:
      return "memset";
    case v1::TRACE_KIND_KERNEL:
      return "kernel";
    case v1::TRACE_KIND_EVENT_RECORD:
      return "event";
    case v1::TRACE_KIND_WAIT:
      return "wait";
    case v1::TRACE_KIND_BLOCK:
      return "block";
    default:
      return "other";
  }
}

class EventWriter {
 public:
  explicit EventWriter(int64_t base_ns) : base_ns_(base_ns) {}

  // A complete event; `args` is a JSON object body ("" for none).
  void Complete(std::string_view name, const char* category, int64_t pid, uint64_t tid,
                int64_t start_ns, int64_t end_ns, const std::string& args) {
    Begin();
    out_.append("{\"name\":");
    AppendJsonString(&out_, name);
    absl::StrAppendFormat(&out_, ",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d", category,
                          pid, tid);
    absl::StrAppend(&out_, ",\"ts\":", Micros(start_ns - base_ns_),
                    ",\"dur\":", Micros(std::max<int64_t>(end_ns - start_ns, 0)));
    if (!args.empty()) absl::StrAppend(&out_, ",\"args\":{", args, "}");
    out_.push_back('}');
  }

  // An instant event on its thread's track.
  void Instant(std::string_view name, const char* category, int64_t pid, int64_t tid, int64_t at_ns,
               const std::string& args) {
    Begin();
    out_.append("{\"name\":");
    AppendJsonString(&out_, name);
    absl::StrAppendFormat(&out_, ",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%d,\"tid\":%d",
                          category, pid, tid);
    absl::StrAppend(&out_, ",\"ts\":", Micros(at_ns - base_ns_));
    if (!args.empty()) absl::StrAppend(&out_, ",\"args\":{", args, "}");
    out_.push_back('}');
  }

  // A metadata event naming a process (tid < 0) or a thread, and its order.
  void Name(int64_t pid, int64_t tid, std::string_view name, int64_t sort_index) {
    const bool process = tid < 0;
    Begin();
    absl::StrAppendFormat(&out_, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d",
                          process ? "process_name" : "thread_name", pid, process ? 0 : tid);
    out_.append(",\"args\":{\"name\":");
    AppendJsonString(&out_, name);
    out_.append("}}");
    Begin();
    absl::StrAppendFormat(&out_,
                          "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,"
                          "\"args\":{\"sort_index\":%d}}",
                          process ? "process_sort_index" : "thread_sort_index", pid,
                          process ? 0 : tid, sort_index);
  }

  std::string Take() && { return std::move(out_); }

 private:
  // Microseconds with nanosecond digits, as the format wants them.
  static std::string Micros(int64_t ns) {
    return absl::StrFormat("%d.%03d", ns / 1000, std::abs(ns % 1000));
  }
  void Begin() {
    if (!first_) out_.append(",\n");
    first_ = false;
  }

  const int64_t base_ns_;
  std::string out_;
  bool first_ = true;
};

}  // namespace

std::string RenderChromeTrace(const ChromeTraceInput& input) {
  const int64_t offset = input.device_clock_offset_ns;
  // Times start at the first event, on the client's clock.
  int64_t base_ns = std::numeric_limits<int64_t>::max();
  for (const HostCall& call : input.host_calls) base_ns = std::min(base_ns, call.start_ns);
  for (const TraceMarker& marker : input.markers) base_ns = std::min(base_ns, marker.start_ns);
  if (input.device != nullptr) {
    for (const v1::TraceSpan& span : input.device->spans()) {
      base_ns = std::min(base_ns, span.start_ns() - offset);
    }
  }
  if (base_ns == std::numeric_limits<int64_t>::max()) base_ns = 0;

  EventWriter events(base_ns);
  if (input.pid != 0) {
    events.Name(input.pid, -1, absl::StrCat(input.program, " (pid ", input.pid, ")"), 0);
    std::set<int> threads;
    for (const HostCall& call : input.host_calls) threads.insert(call.thread);
    for (const int thread : threads) {
      events.Name(input.pid, thread, absl::StrCat("host thread ", thread), thread);
    }
  }
  for (const HostCall& call : input.host_calls) {
    events.Complete(call.name, "acl", input.pid, call.thread, call.start_ns, call.end_ns, "");
  }
  if (input.pid != 0) {
    std::set<int> threads;
    for (const TraceMarker& marker : input.markers) threads.insert(marker.thread);
    for (const int thread : threads) {
      events.Name(input.pid, kMarkerTidBase + thread,
                  absl::StrCat("markers of host thread ", thread), kMarkerTidBase + thread);
    }
    for (const TraceMarker& marker : input.markers) {
      std::string args;
      if (!marker.domain.empty()) {
        args = "\"domain\":";
        AppendJsonString(&args, marker.domain);
      }
      if (marker.id != 0) absl::StrAppend(&args, args.empty() ? "" : ",", "\"id\":", marker.id);
      if (marker.instant) {
        events.Instant(marker.message, "marker", input.pid, kMarkerTidBase + marker.thread,
                       marker.start_ns, args);
      } else {
        events.Complete(marker.message, "marker", input.pid, kMarkerTidBase + marker.thread,
                        marker.start_ns, marker.end_ns, args);
      }
    }
  }
  if (input.device != nullptr) {
    std::set<int> devices, core_devices;
    std::set<std::pair<int, uint64_t>> streams, cores;
    for (const v1::TraceSpan& span : input.device->spans()) {
      if (span.kind() == v1::TRACE_KIND_BLOCK) {
        core_devices.insert(span.device_id());
        cores.emplace(span.device_id(), span.core());
      } else {
        devices.insert(span.device_id());
        streams.emplace(span.device_id(), span.stream_id());
      }
    }
    const uint64_t session = input.device->session_id();
    // Each device's AI cores sort right after its streams.
    for (const int device : devices) {
      events.Name(DevicePid(device), -1,
                  device < 0 ? absl::StrCat("npud synchronous copies (session ", session, ")")
                             : absl::StrCat("npud device ", device, " (session ", session, ")"),
                  2 * (device + 2));
    }
    for (const int device : core_devices) {
      events.Name(CorePid(device), -1,
                  absl::StrCat("npud device ", device, " AI cores (session ", session, ")"),
                  2 * (device + 2) + 1);
    }
    for (const auto& [device, stream] : streams) {
      events.Name(DevicePid(device), static_cast<int64_t>(stream),
                  device < 0 ? std::string("synchronous") : absl::StrCat("stream ", stream),
                  static_cast<int64_t>(stream));
    }
    for (const auto& [device, core] : cores) {
      events.Name(CorePid(device), static_cast<int64_t>(core), absl::StrCat("core ", core),
                  static_cast<int64_t>(core));
    }
    for (const v1::TraceSpan& span : input.device->spans()) {
      const bool block = span.kind() == v1::TRACE_KIND_BLOCK;
      std::string args = absl::StrCat("\"stream\":", span.stream_id());
      if (span.bytes() > 0) absl::StrAppend(&args, ",\"bytes\":", span.bytes());
      if (span.block_dim() > 0) absl::StrAppend(&args, ",\"block_dim\":", span.block_dim());
      if (block) absl::StrAppend(&args, ",\"block\":", span.block());
      if (span.has_blocks()) absl::StrAppend(&args, ",\"blocks\":true");
      events.Complete(span.name(), Category(span.kind()),
                      block ? CorePid(span.device_id()) : DevicePid(span.device_id()),
                      block ? span.core() : span.stream_id(), span.start_ns() - offset,
                      span.start_ns() + span.duration_ns() - offset, args);
    }
  }
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  out += std::move(events).Take();
  absl::StrAppend(&out, "\n],\"otherData\":{\"clock\":\"CLOCK_MONOTONIC\",\"base_ns\":", base_ns,
                  ",\"device_clock_offset_ns\":", offset,
                  ",\"dropped_host_calls\":", input.dropped_host_calls);
  if (input.device != nullptr) {
    absl::StrAppend(&out, ",\"session\":", input.device->session_id(),
                    ",\"dropped_device_spans\":", input.device->dropped());
  }
  out += "}}\n";
  return out;
}

}  // namespace npud
