// npud's Prometheus exposition (--metrics_listen) against a real npud:
// /metrics parses as the text format, and its figures follow what a real
// client process does (a session appears with its memory, copies add to
// the copy counters, and ending the session takes it away while the
// counters keep their totals); every counter is there at 0 before anything
// counts; the Grafana dashboard asks only for metrics that exist; metrics
// beyond loopback need --allow_insecure_tcp.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "gtest/gtest.h"
#include "tests/e2e/npud_process.h"

namespace {

using npud::testing::ChildProcess;
using npud::testing::NpudProcess;

// A TCP connection to 127.0.0.1:port whose reads give up after `timeout_ms`;
// -1 on failure.
int ConnectTo(int port, int timeout_ms) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const timeval timeout{timeout_ms / 1000, (timeout_ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// GET /metrics from 127.0.0.1:port; the body, or "" on failure (or when the
// answer takes longer than `timeout_ms`).
std::string Scrape(int port, int timeout_ms = 10000) {
  const int fd = ConnectTo(port, timeout_ms);
  std::string response;
  if (fd >= 0) {
    const std::string request = "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n";
    if (write(fd, request.data(), request.size()) == static_cast<ssize_t>(request.size())) {
      char buffer[4096];
      for (ssize_t n; (n = read(fd, buffer, sizeof(buffer))) > 0;) response.append(buffer, n);
    }
  }
  close(fd);
  const size_t body = response.find("\r\n\r\n");
  return body == std::string::npos ? "" : response.substr(body + 4);
}

// The samples of a scrape: "name{labels}" (as written) -> value. Fails the
// test on a line that is neither a comment nor a sample.
std::map<std::string, double> Samples(const std::string& text) {
  static const std::regex kSample(R"(^([a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})?) (\S+)$)");
  std::map<std::string, double> samples;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::smatch match;
    if (!std::regex_match(line, match, kSample)) {
      ADD_FAILURE() << "not a sample: " << line;
      continue;
    }
    double value = 0;
    if (match[3] == "Nan" || absl::SimpleAtod(match[3].str(), &value)) {
      samples[match[1]] = value;
    } else {
      ADD_FAILURE() << "not a value: " << line;
    }
  }
  return samples;
}

// The sum of every sample of metric `name` whose labels contain `label`.
double Sum(const std::map<std::string, double>& samples, const std::string& name,
           const std::string& label = "") {
  double sum = 0;
  for (const auto& [key, value] : samples) {
    const bool named = key == name || absl::StartsWith(key, name + "{");
    if (named && absl::StrContains(key, label)) sum += value;
  }
  return sum;
}

class MetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started =
        NpudProcess::Start(NpudProcess::Transport::kUnix, {"--metrics_listen=127.0.0.1:0"});
    ASSERT_TRUE(started.ok()) << started.status();
    daemon_ = *std::move(started);
    static const std::regex kLine(R"(metrics on 127\.0\.0\.1:(\d+)/metrics)");
    std::smatch match;
    const std::string log = daemon_->Log();
    ASSERT_TRUE(std::regex_search(log, match, kLine)) << log;
    port_ = std::stoi(match[1]);
  }
  void TearDown() override {
    const absl::Status stopped = daemon_->Stop();
    EXPECT_TRUE(stopped.ok()) << stopped << "\n" << daemon_->Log();
  }

  std::unique_ptr<NpudProcess> daemon_;
  int port_ = 0;
};

TEST_F(MetricsTest, FiguresFollowARealClient) {
  const auto idle = Samples(Scrape(port_));
  ASSERT_FALSE(idle.empty());
  EXPECT_EQ(Sum(idle, "npud_sessions"), 0);
  EXPECT_EQ(Sum(idle, "npud_device_memory_total_bytes", "device=\"0\""), 16.0 * (1 << 30));
  EXPECT_EQ(Sum(idle, "npud_device_memory_used_bytes"), 0);

  constexpr size_t kBytes = 8 << 20;
  auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "hold", std::to_string(kBytes)},
                                    {"NPUD_ADDRESS=" + daemon_->address()});
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_TRUE(absl::StartsWith((*client)->ReadLine(absl::Seconds(30)), "ADDR "));
  (*client)->WriteLine("check");  // an 8 MiB device-to-host copy
  ASSERT_EQ((*client)->ReadLine(absl::Seconds(30)), "INTACT 1");

  const auto busy = Samples(Scrape(port_));
  EXPECT_EQ(Sum(busy, "npud_sessions"), 1);
  EXPECT_GE(Sum(busy, "npud_device_memory_used_bytes", "device=\"0\""), kBytes);
  const std::string pid = "pid=\"" + std::to_string((*client)->pid()) + "\"";
  EXPECT_GE(Sum(busy, "npud_session_memory_bytes", pid), kBytes) << Scrape(port_);
  EXPECT_GE(Sum(busy, "npud_copy_bytes_total") - Sum(idle, "npud_copy_bytes_total"), kBytes);

  (*client)->CloseStdin();
  EXPECT_EQ((*client)->Wait(), 0);
  std::map<std::string, double> after;
  for (int i = 0; i < 200; ++i) {  // the session ends on npud's side just after
    after = Samples(Scrape(port_));
    if (Sum(after, "npud_sessions") == 0 && Sum(after, "npud_device_memory_used_bytes") == 0) {
      break;
    }
    usleep(50000);
  }
  EXPECT_EQ(Sum(after, "npud_sessions"), 0);
  EXPECT_EQ(Sum(after, "npud_session_memory_bytes", pid), 0);
  EXPECT_EQ(Sum(after, "npud_device_memory_used_bytes"), 0);
  // Counters keep what ended sessions copied.
  EXPECT_GE(Sum(after, "npud_copy_bytes_total"), Sum(busy, "npud_copy_bytes_total"));
}

// Launches count per kernel name while a real client launches kernels.
TEST_F(MetricsTest, LaunchesCountPerKernel) {
  auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "add-loop", E2E_KERNELS_PATH},
                                    {"NPUD_ADDRESS=" + daemon_->address()});
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_EQ((*client)->ReadLine(absl::Seconds(60)), "READY");
  usleep(300000);
  const auto during = Samples(Scrape(port_));
  (*client)->WriteLine("stop");
  const std::string summary = (*client)->ReadLine(absl::Seconds(60));
  EXPECT_EQ((*client)->Wait(), 0);
  EXPECT_GT(Sum(during, "npud_kernel_launches_total"), 0) << Scrape(port_);
  uint64_t rounds = 0;
  ASSERT_EQ(std::sscanf(summary.c_str(), "ROUNDS %" SCNu64, &rounds), 1) << summary;
  // Every round launched at least once; none is counted twice.
  const auto after = Samples(Scrape(port_));
  EXPECT_GE(Sum(after, "npud_kernel_launches_total"), rounds);
  EXPECT_GE(Sum(after, "npud_kernel_launches_total"), Sum(during, "npud_kernel_launches_total"));
  // Each round's 8 blocks add 1 MiB of floats: device time is counted, and
  // only for the kernel that ran.
  const std::string add = "kernel=\"add_float\"";
  EXPECT_GT(Sum(after, "npud_kernel_seconds_total", add), 0) << Scrape(port_);
  EXPECT_GE(Sum(after, "npud_kernel_seconds_total", add),
            Sum(during, "npud_kernel_seconds_total", add));
  EXPECT_EQ(Sum(after, "npud_kernel_seconds_total"), Sum(after, "npud_kernel_seconds_total", add));
  EXPECT_EQ(Sum(after, "npud_kernel_faults_total"), 0);
}

// A kernel that traps counts as a fault under its ACL code, once per
// failed launch.
TEST_F(MetricsTest, FaultsCountByCode) {
  auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "trap", E2E_KERNELS_PATH, "3"},
                                    {"NPUD_ADDRESS=" + daemon_->address()});
  ASSERT_TRUE(client.ok()) << client.status();
  const std::string codes = (*client)->ReadLine(absl::Seconds(60));
  EXPECT_EQ((*client)->Wait(), 0);
  int a = 0, b = 0, c = 0;
  ASSERT_EQ(std::sscanf(codes.c_str(), "CODES %d %d %d", &a, &b, &c), 3) << codes;
  ASSERT_EQ(a, b);
  ASSERT_EQ(a, c);
  ASSERT_NE(a, 0);
  const auto after = Samples(Scrape(port_));
  EXPECT_EQ(Sum(after, "npud_kernel_faults_total", "code=\"" + std::to_string(a) + "\""), 3)
      << Scrape(port_);
  EXPECT_EQ(Sum(after, "npud_kernel_faults_total"), 3);
}

// Queue depths: a kernel that spins holds its stream, and the launches
// queued behind it show on the device and the session.
TEST_F(MetricsTest, QueueDepthsShowQueuedWork) {
  auto client = ChildProcess::Spawn({ACL_TEST_CLIENT, "spin", E2E_KERNELS_PATH, "3000"},
                                    {"NPUD_ADDRESS=" + daemon_->address()});
  ASSERT_TRUE(client.ok()) << client.status();
  ASSERT_EQ((*client)->ReadLine(absl::Seconds(60)), "LAUNCHED");
  const auto busy = Samples(Scrape(port_));
  EXPECT_GE(Sum(busy, "npud_device_queued_tasks", "device=\"0\""), 1) << Scrape(port_);
  const std::string pid = "pid=\"" + std::to_string((*client)->pid()) + "\"";
  EXPECT_GE(Sum(busy, "npud_session_queued_tasks", pid), 1);
  // The stream it created and the default stream: all the session's.
  EXPECT_GE(Sum(busy, "npud_device_streams", "device=\"0\""), 1);
  EXPECT_EQ(Sum(busy, "npud_device_streams", "device=\"0\""),
            Sum(busy, "npud_session_streams", pid));
  (*client)->Kill(SIGKILL);
  (*client)->Wait();
}

// Every counter has a sample at 0 before anything happened (a series that
// first appears at 1 shows no increase in Prometheus, and a dashboard panel
// of a series that does not exist yet shows "no data"): the kernel faults
// with the codes kernels fail with, the per-kernel families with their
// overflow bucket.
TEST_F(MetricsTest, EveryCounterIsThereAtZeroFromTheStart) {
  const std::string scrape = Scrape(port_);
  const auto idle = Samples(scrape);
  static const std::regex kCounter(R"(# TYPE (npud_[a-z_]+) counter)");
  int counters = 0;
  for (auto it = std::sregex_iterator(scrape.begin(), scrape.end(), kCounter);
       it != std::sregex_iterator(); ++it, ++counters) {
    const std::string name = (*it)[1];
    int samples = 0;
    for (const auto& [key, value] : idle) {
      if (key == name || absl::StartsWith(key, name + "{")) ++samples;
    }
    EXPECT_GE(samples, 1) << name << " has no sample:\n" << scrape;
    EXPECT_EQ(Sum(idle, name), 0) << name;
  }
  EXPECT_GE(counters, 6) << scrape;
  EXPECT_EQ(idle.count("npud_kernel_faults_total{code=\"507035\"}"), 1u) << scrape;
  EXPECT_EQ(idle.count("npud_kernel_faults_total{code=\"507015\"}"), 1u) << scrape;
  EXPECT_EQ(idle.count("npud_kernel_launches_total{kernel=\"(other)\"}"), 1u) << scrape;
}

// The Grafana dashboard in deploy/ asks only for metrics npud exports.
TEST_F(MetricsTest, TheDashboardsMetricsExist) {
  std::ifstream in(NPUD_DASHBOARD);
  const std::string dashboard((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
  ASSERT_FALSE(dashboard.empty()) << NPUD_DASHBOARD;
  const std::string scrape = Scrape(port_);
  static const std::regex kName(R"(npud_[a-z_]+)");
  int names = 0;
  for (auto it = std::sregex_iterator(dashboard.begin(), dashboard.end(), kName);
       it != std::sregex_iterator(); ++it, ++names) {
    EXPECT_TRUE(absl::StrContains(scrape, "# TYPE " + it->str() + " "))
        << it->str() << " is in the dashboard but not in /metrics";
  }
  EXPECT_GE(names, 6);
}

// Peers that connect to the metrics port and say nothing keep no scrape
// out, and npud closes them after its request deadline (2 s). Before, one
// such connection held the only thread and every scrape timed out.
TEST_F(MetricsTest, IdleConnectionsDoNotBlockScrapes) {
  std::vector<int> idle;
  for (int i = 0; i < 4; ++i) {
    idle.push_back(ConnectTo(port_, 5000));
    ASSERT_GE(idle.back(), 0);
  }
  for (int i = 0; i < 3; ++i) {
    // Well within the request deadline: the answer came from another thread.
    EXPECT_TRUE(absl::StrContains(Scrape(port_, /*timeout_ms=*/1000), "npud_")) << "scrape " << i;
  }
  for (int fd : idle) {
    char byte;
    // End of stream (0), not our read timeout (-1): npud hung up.
    EXPECT_EQ(read(fd, &byte, 1), 0) << "an idle connection was kept past 5 s";
    close(fd);
  }
}

TEST(MetricsListenTest, BeyondLoopbackNeedsAllowInsecureTcp) {
  auto refused = NpudProcess::Start(NpudProcess::Transport::kUnix, {"--metrics_listen=0.0.0.0:0"});
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(absl::StrContains(refused.status().message(), "--allow_insecure_tcp"))
      << refused.status();
}

}  // namespace
