#include "client/core/profiler.h"

#include <errno.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <random>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "client/core/client_log.h"
#include "client/core/host_trace.h"
#include "client/core/output_files.h"
#include "client/core/prof_markers.h"
#include "client/core/runtime.h"
#include "common/acl_status.h"
#include "common/grpc/chrome_trace.h"
#include "common/json_string.h"
#include "common/monotonic_clock.h"
#include "common/status_macros.h"

namespace npud::client {
namespace {

// acl_prof.h's collection bits; others are ACL_ERROR_PROF_MODULES_UNSUPPORTED.
constexpr uint64_t kAclApi = 0x1, kTaskTime = 0x2, kAicoreMetrics = 0x4, kRuntimeApi = 0x100;
constexpr uint64_t kSupported = 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x40 | 0x80 | 0x100 | 0x200 |
                                0x800 | 0x1000 | 0x2000 | 0x4000 | 0x8000 | 0x01000000ULL |
                                0x400000000ULL | 0x800000000ULL;
constexpr uint32_t kMaxDevices = 64;
constexpr size_t kMaxPath = 4096;
// aclprofConfigType.
constexpr int32_t kHardwareMemFreq = 3, kNtsMetrics = 15, kPathSetting = 16, kConfigTypeEnd = 17;
constexpr int32_t kLastMetric = 8;  // ACL_AICORE_MEMORY_ACCESS

const char* MetricName(int32_t metric) {
  static const char* const kNames[] = {
      "ArithmeticUtilization", "PipeUtilization", "Memory",  "MemoryL0",
      "ResourceConflictRatio", "MemoryUB",        "L2Cache", "PipelineExecuteUtilization",
      "MemoryAccess"};
  return metric >= 0 && metric <= kLastMetric ? kNames[metric] : "None";
}

absl::Status Invalid(const std::string& why) { return AclError(kAclInvalidParam, why); }

// The checks Start and Stop share.
absl::Status PreCheck(const aclprofConfig& config) {
  if (config.data_types == 0)
    return Invalid("the configuration collects nothing (dataTypeConfig 0)");
  if ((config.data_types & ~kSupported) != 0) {
    return AclError(kAclProfModulesUnsupported,
                    absl::StrFormat("dataTypeConfig 0x%x has bits no collection supports (0x%x)",
                                    config.data_types, config.data_types & ~kSupported));
  }
  if (config.devices.size() > kMaxDevices + 1) return Invalid("too many devices");
  return absl::OkStatus();
}

absl::StatusOr<std::string> Absolute(const std::string& path) {
  if (absl::StartsWith(path, "/")) return path;
  char cwd[kMaxPath];
  if (getcwd(cwd, sizeof(cwd)) == nullptr) {
    return AclError(kAclInvalidFile, absl::StrCat("cannot resolve ", path, ": ", strerror(errno)));
  }
  return absl::StrCat(cwd, "/", path);
}

// YYYYMMDDhhmmssmmm, local time.
std::string MillisTimestamp() {
  const auto now = std::chrono::system_clock::now();
  const int millis = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  return absl::StrFormat("%s%03d", LocalTimestamp(), millis);
}

int64_t EpochMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// start_info / end_info: when, by the wall clock and CLOCK_MONOTONIC.
std::string TimeInfo(bool begin) {
  const char* which = begin ? "Begin" : "End";
  std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char date[64];
  std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &local);
  return absl::StrFormat(
      "{\"collectionDate%s\": \"%s\", \"collectionTime%s\": \"%d\", \"clockMonotonicRaw\": "
      "\"%d\"}\n",
      which, date, which, EpochMicros(), MonotonicNanos());
}

std::string Micros(int64_t ns) { return absl::StrFormat("%.3f", static_cast<double>(ns) / 1e3); }

const char* TaskType(v1::TraceKind kind) {
  switch (kind) {
    case v1::TRACE_KIND_KERNEL:
      return "AI_CORE";
    case v1::TRACE_KIND_COPY:
      return "MEMCPY";
    case v1::TRACE_KIND_MEMSET:
      return "MEMSET";
    case v1::TRACE_KIND_EVENT_RECORD:
      return "EVENT_RECORD";
    case v1::TRACE_KIND_WAIT:
      return "EVENT_WAIT";
    default:
      return "OTHER";
  }
}

// A CSV cell: quoted when it holds a separator or a quote.
std::string Cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

Profiler& Profiler::Get() {
  static Profiler* profiler = new Profiler;  // used until exit
  return *profiler;
}

absl::Status Profiler::CheckConfig(const uint32_t* devices, uint32_t count, bool has_events,
                                   uint64_t data_types) {
  if (count != 0 && devices == nullptr) return Invalid("deviceIdList is null");
  if (has_events) return Invalid("aicoreEvents must be null");
  if (count > kMaxDevices) return Invalid(absl::StrCat("more than ", kMaxDevices, " devices"));
  if (count == 0 && (data_types & kMsproftx) == 0) {
    return Invalid("no devices, and not ACL_PROF_MSPROFTX");
  }
  if (count == 0) return absl::OkStatus();
  NPUD_ASSIGN_OR_RETURN(const std::vector<v1::DeviceDescription> known, Runtime::Get().Devices());
  if (count > known.size()) {
    return Invalid(absl::StrCat(count, " devices asked for, ", known.size(), " exist"));
  }
  std::set<uint32_t> seen;
  for (uint32_t i = 0; i < count; ++i) {
    if (devices[i] >= known.size())
      return Invalid(absl::StrCat("device ", devices[i], " does not exist"));
    if (!seen.insert(devices[i]).second)
      return Invalid(absl::StrCat("device ", devices[i], " twice"));
  }
  return absl::OkStatus();
}

absl::Status Profiler::Init(const char* path, size_t length) {
  if (const char* mode = std::getenv("PROFILING_MODE");
      mode != nullptr && std::string(mode) == "dynamic") {
    return AclError(kAclFeatureUnsupported, "PROFILING_MODE=dynamic: aclprofInit is not available");
  }
  if (path == nullptr) return Invalid("profilerResultPath is null");
  if (length == 0 || length >= kMaxPath)
    return Invalid(absl::StrCat("length ", length, " is out of range"));
  if (strnlen(path, kMaxPath) != length) return Invalid("length is not the path's length");
  absl::MutexLock lock(&mu_);
  if (mode_ == Mode::kSubscribe) {
    return AclError(kAclProfApiConflict,
                    "a model subscription is on: aclprofInit is not available");
  }
  if (mode_ == Mode::kApi) return AclError(kAclRepeatInitialize, "aclprofInit was already called");
  NPUD_ASSIGN_OR_RETURN(root_, Absolute(path));
  if (auto it = settings_.find(kPathSetting); it != settings_.end()) root_ = it->second;
  mode_ = Mode::kApi;
  return absl::OkStatus();
}

absl::Status Profiler::SetConfig(int32_t type, const char* value, size_t length) {
  if (type <= 0 || type >= kConfigTypeEnd) return Invalid(absl::StrCat("config type ", type));
  if (length > 256) return Invalid("configLength is more than 256");
  if (value == nullptr) return Invalid("config is null");
  if (strnlen(value, length + 1) != length)
    return Invalid("configLength is not the config's length");
  if (type == kNtsMetrics) return Invalid("ACL_PROF_NTS_METRICS is not available on this SoC");
  if (type == 2) {
    return AclError(kAclInvalidProfilingConfig, "config type 2 does not exist");
  }
  if (type == kHardwareMemFreq) {
    int frequency = 0;
    if (!absl::SimpleAtoi(value, &frequency) || frequency < 1 || frequency > 100) {
      return AclError(kAclInvalidProfilingConfig,
                      absl::StrCat("ACL_PROF_SYS_HARDWARE_MEM_FREQ \"", value,
                                   "\" is not a frequency of 1 to 100 Hz"));
    }
  }
  absl::MutexLock lock(&mu_);
  if (type == kPathSetting) {
    NPUD_ASSIGN_OR_RETURN(const std::string path, Absolute(value));
    settings_[type] = path;
    if (mode_ == Mode::kApi) root_ = path;
    return absl::OkStatus();
  }
  settings_[type] = value;
  return absl::OkStatus();
}

absl::Status Profiler::Start(const aclprofConfig* config) {
  if (config == nullptr) return Invalid("profilerConfig is null");
  NPUD_RETURN_IF_ERROR(PreCheck(*config));
  absl::MutexLock lock(&mu_);
  if (mode_ == Mode::kSubscribe) {
    return AclError(kAclProfApiConflict,
                    "a model subscription is on: aclprofStart is not available");
  }
  if (running_.has_value()) {
    if (running_->config.data_types == config->data_types) return absl::OkStatus();
    return AclError(kAclInvalidProfilingConfig,
                    "a collection with another dataTypeConfig runs: stop it first");
  }
  if ((config->data_types & kAicoreMetrics) != 0 &&
      (config->metrics < 0 || config->metrics > kLastMetric)) {
    return Invalid(absl::StrCat("AI Core metrics ", config->metrics, " cannot be collected"));
  }
  if (mode_ == Mode::kOff) {  // started without aclprofInit: into the set path or ./
    auto it = settings_.find(kPathSetting);
    NPUD_ASSIGN_OR_RETURN(root_, Absolute(it != settings_.end() ? it->second : "."));
    mode_ = Mode::kApi;
  }
  return StartLocked(*config);
}

absl::Status Profiler::StartLocked(const aclprofConfig& config) {
  std::mt19937 random(std::random_device{}());
  std::string tag;
  for (int i = 0; i < 8; ++i) tag += static_cast<char>('A' + random() % 18);
  const std::string dir = absl::StrFormat("%s/PROF_%06d_%s_%08d%s", root_, collections_ + 1,
                                          MillisTimestamp(), getpid(), tag);
  for (const std::string& sub :
       {std::string("/host"), std::string("/mindstudio_profiler_output")}) {
    if (absl::Status made = MakeDirectories(dir + sub); !made.ok()) {
      return AclError(kAclInvalidFile, made.message());
    }
  }
  NPUD_ASSIGN_OR_RETURN(CallPipeline* const session, Runtime::Get().Session());
  const std::string where = session->Describe();
  const bool same_clock = absl::StartsWith(where, "unix") || absl::StartsWith(where, "inproc");
  NPUD_ASSIGN_OR_RETURN(DaemonTrace daemon,
                        DaemonTrace::Begin(*session, DaemonTrace::kProfiling, same_clock, false));
  ++collections_;
  Collection& run = running_.emplace(Collection{config, dir, daemon, std::nullopt, std::nullopt});
  if ((config.data_types & (kAclApi | kRuntimeApi)) != 0) run.calls = HostCallLog::Start();
  if ((config.data_types & kMsproftx) != 0) {
    run.markers = MarkerLog::Start();
    ProfMarkers::Get().CreatePool();
  }
  NPUD_RETURN_IF_ERROR(WriteFile(dir + "/host/start_info", TimeInfo(true)));
  for (uint32_t device : config.devices) {
    NPUD_RETURN_IF_ERROR(WriteFile(
        absl::StrFormat("%s/device_%d/start_info.%d", dir, device, device), TimeInfo(true)));
  }
  std::string settings;
  for (const auto& [type, value] : settings_) {
    absl::StrAppend(&settings, settings.empty() ? "" : ", ", "\"", type, "\": ");
    AppendJsonString(&settings, value);
  }
  NPUD_RETURN_IF_ERROR(
      WriteFile(dir + "/host/sample.json",
                absl::StrFormat("{\"dataTypeConfig\": \"0x%x\", \"aicoreMetrics\": \"%s\", "
                                "\"devices\": [%s], \"settings\": {%s}}\n",
                                config.data_types, MetricName(config.metrics),
                                absl::StrJoin(config.devices, ", "), settings)));
  ClientLog().info("profiling into {}", dir);
  return absl::OkStatus();
}

absl::Status Profiler::Stop(const aclprofConfig* config) {
  absl::MutexLock lock(&mu_);
  if (mode_ != Mode::kApi || !running_.has_value()) return absl::OkStatus();  // nothing to stop
  const aclprofConfig& asked = config != nullptr ? *config : running_->config;
  NPUD_RETURN_IF_ERROR(PreCheck(asked));
  if (asked.data_types != running_->config.data_types) {
    return AclError(kAclInvalidProfilingConfig,
                    "the configuration is not the one the collection started with");
  }
  return StopLocked();
}

absl::Status Profiler::StopLocked() {
  Collection run = *std::move(running_);
  running_.reset();
  ChromeTraceInput input;
  input.pid = getpid();
  input.program = program_invocation_short_name;
  if (run.calls.has_value())
    input.host_calls = HostCallLog::Stop(*run.calls, &input.dropped_host_calls);
  uint64_t dropped_markers = 0;
  if (run.markers.has_value()) input.markers = MarkerLog::Stop(*run.markers, &dropped_markers);
  input.device_clock_offset_ns = run.daemon.offset_ns();
  NPUD_ASSIGN_OR_RETURN(CallPipeline* const session, Runtime::Get().Session());
  auto device = run.daemon.End(*session);
  if (!device.ok()) {
    return AclError(kAclProfilingFailure, absl::StrCat("the timeline could not be collected: ",
                                                       device.status().message()));
  }
  input.device = &*device;
  const std::string out = run.dir + "/mindstudio_profiler_output/";
  const std::string stamp = MillisTimestamp();
  NPUD_RETURN_IF_ERROR(
      WriteFile(absl::StrCat(out, "msprof_", stamp, ".json"), RenderChromeTrace(input)));

  const int64_t offset = run.daemon.offset_ns();
  std::string tasks =
      "Device_id,Stream ID,Task Type,Name,Task Start Time(us),Task Duration(us),Bytes\n";
  std::string ops =
      "Device_id,Stream ID,Op Name,Task Type,Task Start Time(us),Task Duration(us),Block Dim\n";
  for (const v1::TraceSpan& span : device->spans()) {
    const int64_t start = span.start_ns() - offset;
    absl::StrAppend(&tasks, span.device_id(), ",", span.stream_id(), ",", TaskType(span.kind()),
                    ",", Cell(span.name()), ",", Micros(start), ",", Micros(span.duration_ns()),
                    ",", span.bytes(), "\n");
    if (span.kind() == v1::TRACE_KIND_KERNEL) {
      absl::StrAppend(&ops, span.device_id(), ",", span.stream_id(), ",", Cell(span.name()),
                      ",AI_CORE,", Micros(start), ",", Micros(span.duration_ns()), ",",
                      span.block_dim(), "\n");
    }
  }
  if ((run.config.data_types & (kTaskTime | kAicoreMetrics)) != 0) {
    NPUD_RETURN_IF_ERROR(WriteFile(absl::StrCat(out, "task_time_", stamp, ".csv"), tasks));
    NPUD_RETURN_IF_ERROR(WriteFile(absl::StrCat(out, "op_summary_", stamp, ".csv"), ops));
  }
  if (run.markers.has_value()) {
    std::string tx =
        "pid,tid,category,event_type,payload_type,payload_value,Start_time(us),End_time(us),"
        "message_type,message,domain\n";
    for (const TraceMarker& marker : input.markers) {
      absl::StrAppend(&tx, input.pid, ",", marker.thread, ",0,",
                      marker.instant ? "marker" : "range", ",0,0,", Micros(marker.start_ns), ",",
                      Micros(marker.end_ns), ",0,", Cell(marker.message), ",", Cell(marker.domain),
                      "\n");
    }
    NPUD_RETURN_IF_ERROR(WriteFile(absl::StrCat(out, "msprof_tx_", stamp, ".csv"), tx));
  }
  NPUD_RETURN_IF_ERROR(WriteFile(run.dir + "/host/end_info", TimeInfo(false)));
  for (uint32_t id : run.config.devices) {
    NPUD_RETURN_IF_ERROR(
        WriteFile(absl::StrFormat("%s/device_%d/end_info.%d", run.dir, id, id), TimeInfo(false)));
  }
  ClientLog().info("profiling results in {}: {} ACL calls, {} markers, {} device spans", run.dir,
                   input.host_calls.size(), input.markers.size(), device->spans_size());
  return absl::OkStatus();
}

absl::Status Profiler::Finalize() {
  absl::MutexLock lock(&mu_);
  if (mode_ != Mode::kApi) return absl::OkStatus();
  absl::Status stopped = running_.has_value() ? StopLocked() : absl::OkStatus();
  mode_ = Mode::kOff;
  ProfMarkers::Get().DestroyPool();
  return stopped;
}

absl::Status Profiler::EnterSubscribeMode() {
  absl::MutexLock lock(&mu_);
  if (mode_ == Mode::kApi) {
    return AclError(kAclProfApiConflict, "aclprofInit is on: models cannot be subscribed");
  }
  mode_ = Mode::kSubscribe;
  return absl::OkStatus();
}

void Profiler::LeaveSubscribeMode() {
  absl::MutexLock lock(&mu_);
  if (mode_ == Mode::kSubscribe) mode_ = Mode::kOff;
}

}  // namespace npud::client
