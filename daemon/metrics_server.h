// metrics_server.h
//
// MetricsServer: npud's Prometheus exposition (`--metrics_listen`), with
// prometheus-cpp. Every scrape reads DaemonCore afresh (sessions, devices,
// the copy totals), so serving metrics costs npud nothing between scrapes
// and nothing on the paths the figures come from. The names, all prefixed
// npud_, are listed in docs/design.md "Metrics".

#ifndef NPUD_DAEMON_METRICS_SERVER_H_
#define NPUD_DAEMON_METRICS_SERVER_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace prometheus {
class Exposer;
}  // namespace prometheus

namespace npud::daemon {

class DaemonCore;
class DaemonCollector;

class MetricsServer {
 public:
  // Serves /metrics on host:port (port 0: any free one). `core` must
  // outlive the server.
  static absl::StatusOr<std::unique_ptr<MetricsServer>> Start(DaemonCore* core,
                                                              const std::string& host_port);
  ~MetricsServer();
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  int port() const { return port_; }

 private:
  // Scrapes served at once, and how long a connection may take to send its
  // request (idle peers must not keep Prometheus out).
  static constexpr int kScrapeThreads = 8;
  static constexpr int kRequestTimeoutMs = 2000;

  MetricsServer() = default;

  std::shared_ptr<DaemonCollector> collector_;
  std::unique_ptr<prometheus::Exposer> exposer_;
  int port_ = 0;
};

}  // namespace npud::daemon

#endif  // NPUD_DAEMON_METRICS_SERVER_H_
