#include "daemon/metrics_server.h"

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/acl_status.h"
#include "daemon/daemon_core.h"
#include "daemon/kernel_stats.h"
#include "prometheus/collectable.h"
#include "prometheus/exposer.h"
#include "prometheus/metric_family.h"

namespace npud::daemon {

// The figures of one scrape, read from DaemonCore.
class DaemonCollector final : public prometheus::Collectable {
 public:
  explicit DaemonCollector(DaemonCore* core) : core_(core) {}

  std::vector<prometheus::MetricFamily> Collect() const override {
    const v1::ListSessionsReply sessions = core_->ListSessions();
    const v1::ListDevicesReply devices = core_->ListDevices();

    prometheus::MetricFamily open = Gauge("npud_sessions", "Client sessions open now.");
    open.metric.push_back(Value({}, sessions.sessions_size()));

    prometheus::MetricFamily used =
        Gauge("npud_device_memory_used_bytes", "Device memory allocated on each device.");
    prometheus::MetricFamily total =
        Gauge("npud_device_memory_total_bytes", "Device memory (HBM) each device has.");
    prometheus::MetricFamily device_streams =
        Gauge("npud_device_streams", "Streams open on each device.");
    prometheus::MetricFamily device_sessions =
        Gauge("npud_device_sessions", "Sessions that use each device.");
    prometheus::MetricFamily device_queued =
        Gauge("npud_device_queued_tasks", "Tasks queued or running on each device's streams.");
    for (const v1::DeviceStatus& device : devices.devices()) {
      const Labels labels = {{"device", absl::StrCat(device.description().device_id())}};
      used.metric.push_back(Value(labels, device.used_bytes()));
      total.metric.push_back(Value(labels, device.description().hbm_bytes()));
      device_streams.metric.push_back(Value(labels, device.streams()));
      device_sessions.metric.push_back(Value(labels, device.sessions()));
      device_queued.metric.push_back(Value(labels, device.queued_tasks()));
    }

    prometheus::MetricFamily memory =
        Gauge("npud_session_memory_bytes", "Device memory counted against each session's limit.");
    prometheus::MetricFamily limit =
        Gauge("npud_session_memory_limit_bytes", "Each session's device memory limit (0: none).");
    prometheus::MetricFamily streams = Gauge("npud_session_streams", "Streams each session holds.");
    prometheus::MetricFamily events = Gauge("npud_session_events", "Events each session holds.");
    prometheus::MetricFamily session_queued =
        Gauge("npud_session_queued_tasks", "Tasks queued or running on each session's streams.");
    for (const v1::SessionStatus& session : sessions.sessions()) {
      const Labels labels = {{"session", absl::StrCat(session.session_id())},
                             {"pid", absl::StrCat(session.pid())},
                             {"program", session.program()}};
      memory.metric.push_back(Value(labels, session.memory_used_bytes()));
      limit.metric.push_back(Value(labels, session.memory_limit_bytes()));
      streams.metric.push_back(Value(labels, session.streams()));
      events.metric.push_back(Value(labels, session.events()));
      uint64_t queued = 0;
      for (const auto& [device, tasks] : session.queued_tasks()) queued += tasks;
      session_queued.metric.push_back(Value(labels, static_cast<double>(queued)));
    }

    // Monotonic since npud started: sessions add to the totals as they copy.
    prometheus::MetricFamily copied{"npud_copy_bytes_total",
                                    "Bytes copied between host and device memory, by the path "
                                    "they took (inline: inside messages; window: shared pinned "
                                    "memory; staging: the local staging ring; bulk: the bulk "
                                    "channel of remote sessions).",
                                    prometheus::MetricType::Counter,
                                    {}};
    const CopyCounters& counts = core_->copied();
    for (const auto& [path, bytes] :
         {std::pair{"inline", &counts.inline_bytes}, std::pair{"window", &counts.window_bytes},
          std::pair{"staging", &counts.staging_bytes}, std::pair{"bulk", &counts.bulk_bytes}}) {
      prometheus::ClientMetric metric;
      metric.label = {{"path", path}};
      metric.counter.value = static_cast<double>(bytes->load());
      copied.metric.push_back(std::move(metric));
    }

    prometheus::MetricFamily launches{
        "npud_kernel_launches_total",
        "Kernel launches by kernel name (past 512 names: \"(other)\").",
        prometheus::MetricType::Counter,
        {}};
    prometheus::MetricFamily kernel_seconds{
        "npud_kernel_seconds_total",
        "Time kernels ran on the device, by kernel name, as their kernel host measured it.",
        prometheus::MetricType::Counter,
        {}};
    // Every counter has a sample from npud's start, at 0 until something
    // counts: a series that first appears at 1 shows no increase, and a
    // chart of one that does not exist yet shows "no data". The labelled
    // families start with their overflow bucket (and the faults with the
    // codes kernels fail with).
    auto kernels = core_->kernel_stats().Kernels();
    kernels.try_emplace(std::string(KernelStats::kOther));
    for (const auto& [kernel, stats] : kernels) {
      launches.metric.push_back(
          CounterValue({{"kernel", kernel}}, static_cast<double>(stats.launches)));
      kernel_seconds.metric.push_back(
          CounterValue({{"kernel", kernel}}, static_cast<double>(stats.run_ns) * 1e-9));
    }
    prometheus::MetricFamily faults{"npud_kernel_faults_total",
                                    "Kernel launches that failed, by the ACL error code of the "
                                    "failure (e.g. 507015: a core trapped; 0: past 64 codes).",
                                    prometheus::MetricType::Counter,
                                    {}};
    auto fault_counts = core_->kernel_stats().Faults();
    for (const int32_t code : {0, static_cast<int32_t>(kRtAicoreException),
                               static_cast<int32_t>(kRtVectorCoreException)}) {
      fault_counts.try_emplace(code, 0);
    }
    for (const auto& [code, count] : fault_counts) {
      faults.metric.push_back(CounterValue({{"code", absl::StrCat(code)}}, count));
    }
    prometheus::MetricFamily compiles = Counter(
        "npud_compile_requests_total", "Run-time compilations asked for (aclrtc), cached or not.",
        static_cast<double>(core_->compiler().requests()));
    prometheus::MetricFamily compiler_runs =
        Counter("npud_compiler_runs_total", "Run-time compilations that ran the compiler.",
                static_cast<double>(core_->compiler().compiler_runs()));

    std::vector<prometheus::MetricFamily> families;
    for (prometheus::MetricFamily* family :
         {&open, &used, &total, &device_streams, &device_sessions, &device_queued, &memory, &limit,
          &streams, &events, &session_queued, &copied, &launches, &kernel_seconds, &faults,
          &compiles, &compiler_runs}) {
      families.push_back(std::move(*family));
    }
    return families;
  }

 private:
  using Labels = std::vector<prometheus::ClientMetric::Label>;

  static prometheus::MetricFamily Gauge(const char* name, const char* help) {
    return {name, help, prometheus::MetricType::Gauge, {}};
  }
  static prometheus::MetricFamily Counter(const char* name, const char* help, double value) {
    prometheus::ClientMetric metric;
    metric.counter.value = value;
    return {name, help, prometheus::MetricType::Counter, {std::move(metric)}};
  }
  static prometheus::ClientMetric CounterValue(Labels labels, double value) {
    prometheus::ClientMetric metric;
    metric.label = std::move(labels);
    metric.counter.value = value;
    return metric;
  }
  static prometheus::ClientMetric Value(Labels labels, double value) {
    prometheus::ClientMetric metric;
    metric.label = std::move(labels);
    metric.gauge.value = value;
    return metric;
  }

  DaemonCore* const core_;
};

absl::StatusOr<std::unique_ptr<MetricsServer>> MetricsServer::Start(DaemonCore* core,
                                                                    const std::string& host_port) {
  std::unique_ptr<MetricsServer> server(new MetricsServer());
  server->collector_ = std::make_shared<DaemonCollector>(core);
  try {
    // civetweb (inside prometheus-cpp) throws when it cannot listen. A
    // connection holds one of its threads until its request is read: with
    // several threads and a deadline for that, a peer that connects and
    // says nothing delays no scrape and holds a thread for 2 s at most.
    server->exposer_ = std::make_unique<prometheus::Exposer>(std::vector<std::string>{
        "listening_ports", host_port, "num_threads", std::to_string(kScrapeThreads),
        "request_timeout_ms", std::to_string(kRequestTimeoutMs)});
  } catch (const std::exception& e) {
    return absl::UnavailableError(
        absl::StrCat("cannot serve metrics on ", host_port, ": ", e.what()));
  }
  server->exposer_->RegisterCollectable(server->collector_);
  const std::vector<int> ports = server->exposer_->GetListeningPorts();
  server->port_ = ports.empty() ? 0 : ports.front();
  return server;
}

MetricsServer::~MetricsServer() = default;

}  // namespace npud::daemon
