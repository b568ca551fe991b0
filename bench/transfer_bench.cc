// transfer_bench: host<->device copy bandwidth through npud, each figure next
// to a baseline measured in the same run.
//
//  * For 64 KiB, 1 MiB, 64 MiB and 1 GiB, host memory from aclrtMallocHost
//    (pinned) and from malloc (pageable), host-to-device and device-to-host,
//    over the unix socket (local) and over TCP loopback (remote). Local
//    figures are compared with a plain memcpy of the same size, remote ones
//    with a bare TCP stream of the same size between two processes.
//  * The same over TCP with TLS (a second npud with a throw-away
//    certificate), beside a bare TLS stream (bench/tls_baseline.h).
//  * Aggregate bandwidth of 1, 2, 4 and 8 client processes copying 64 MiB
//    pinned buffers at once over the unix socket (beside one memcpy) and
//    over TCP (beside as many bare TCP streams at once).
//
//   transfer_bench [--max_size=BYTES] [--json=FILE]
//
// The clients are this binary run again with --client (the ACL runtime binds
// one daemon per process).

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "bench/bench_support.h"
#include "bench/tcp_baseline.h"
#include "bench/tls_baseline.h"

namespace {

using npud::bench::RepsFor;
using npud::bench::TcpStreamGbps;
using Clock = std::chrono::steady_clock;

constexpr size_t kSizes[] = {64 << 10, 1 << 20, 64 << 20, size_t{1} << 30};

// Host memory of one kind, touched so page faults are not measured.
struct HostBuffer {
  HostBuffer(bool pinned, size_t size) : pinned(pinned) {
    if (pinned) {
      NPUD_BENCH_CHECK(aclrtMallocHost(&data, size));
    } else {
      data = std::malloc(size);
    }
    std::memset(data, 0x5A, size);
  }
  ~HostBuffer() {
    if (pinned) {
      aclrtFreeHost(data);
    } else {
      std::free(data);
    }
  }
  bool pinned;
  void* data = nullptr;
};

// Client: for every size, kind and direction prints
// "<pinned|pageable> <h2d|d2h> <bytes> <GB/s>".
int BandwidthClient(size_t max_size) {
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  for (size_t size : kSizes) {
    if (size > max_size) break;
    void* device = nullptr;
    NPUD_BENCH_CHECK(aclrtMalloc(&device, size, ACL_MEM_MALLOC_HUGE_FIRST));
    for (bool pinned : {true, false}) {
      HostBuffer host(pinned, size);
      for (bool h2d : {true, false}) {
        const int reps = RepsFor(size);
        const auto copy = [&] {
          if (h2d) {
            NPUD_BENCH_CHECK(aclrtMemcpy(device, size, host.data, size, ACL_MEMCPY_HOST_TO_DEVICE));
          } else {
            NPUD_BENCH_CHECK(aclrtMemcpy(host.data, size, device, size, ACL_MEMCPY_DEVICE_TO_HOST));
          }
        };
        copy();  // Warm up: device pages, buffers.
        const auto start = Clock::now();
        for (int i = 0; i < reps; ++i) copy();
        const double gbps =
            static_cast<double>(size) * reps / npud::bench::SecondsSince(start) / 1e9;
        std::printf("%s %s %zu %.4f\n", pinned ? "pinned" : "pageable", h2d ? "h2d" : "d2h", size,
                    gbps);
      }
    }
    NPUD_BENCH_CHECK(aclrtFree(device));
  }
  aclFinalize();
  return 0;
}

// Client of the aggregate run: copies `size` bytes each way `reps` times
// and prints "<bytes> <start> <end>" (monotonic seconds).
int AggregateClient(size_t size, int reps, const std::string& start_line) {
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  void* device = nullptr;
  NPUD_BENCH_CHECK(aclrtMalloc(&device, size, ACL_MEM_MALLOC_HUGE_FIRST));
  HostBuffer host(true, size);
  NPUD_BENCH_CHECK(aclrtMemcpy(device, size, host.data, size, ACL_MEMCPY_HOST_TO_DEVICE));
  npud::bench::StartLine::Arrive(start_line);
  const double start = npud::bench::MonotonicSeconds();
  for (int i = 0; i < reps; ++i) {
    NPUD_BENCH_CHECK(aclrtMemcpy(device, size, host.data, size, ACL_MEMCPY_HOST_TO_DEVICE));
    NPUD_BENCH_CHECK(aclrtMemcpy(host.data, size, device, size, ACL_MEMCPY_DEVICE_TO_HOST));
  }
  const double end = npud::bench::MonotonicSeconds();
  std::printf("%zu %.6f %.6f\n", 2 * size * reps, start, end);
  aclFinalize();
  return 0;
}

double MemcpyGbps(size_t size) {
  std::vector<char> a(size, 1), b(size, 2);
  std::memcpy(b.data(), a.data(), size);
  const int reps = RepsFor(size);
  const auto start = Clock::now();
  for (int i = 0; i < reps; ++i) {
    std::memcpy(i % 2 ? a.data() : b.data(), i % 2 ? b.data() : a.data(), size);
  }
  return static_cast<double>(size) * reps / npud::bench::SecondsSince(start) / 1e9;
}

struct Row {
  std::string name;
  double gbps;
  std::string baseline;
  double baseline_gbps;
};

std::string SizeName(size_t size) {
  if (size >= (size_t{1} << 30)) return std::to_string(size >> 30) + " GiB";
  if (size >= (size_t{1} << 20)) return std::to_string(size >> 20) + " MiB";
  return std::to_string(size >> 10) + " KiB";
}

// What the bandwidth rows of one transport are compared with.
enum class Baseline { kMemcpy, kTcpStream, kTlsStream };

void AddBandwidthRows(const std::string& output, const char* where, Baseline kind,
                      const std::string& cert_dir, std::vector<Row>* rows) {
  static const char* const kNames[] = {"memcpy", "TCP stream", "TLS stream"};
  std::istringstream in(output);
  std::string pinning, direction;
  size_t size;
  double gbps;
  while (in >> pinning >> direction >> size >> gbps) {
    // One baseline per kind and size, for all four rows of a size.
    static std::vector<std::tuple<Baseline, size_t, double>> cache;
    double baseline = 0;
    for (const auto& [k, s, g] : cache) {
      if (k == kind && s == size) baseline = g;
    }
    if (baseline == 0) {
      switch (kind) {
        case Baseline::kMemcpy:
          baseline = MemcpyGbps(size);
          break;
        case Baseline::kTcpStream:
          baseline = TcpStreamGbps(size);
          break;
        case Baseline::kTlsStream:
          baseline = npud::bench::TlsStreamGbps(size, RepsFor(size), cert_dir);
          break;
      }
      cache.emplace_back(kind, size, baseline);
    }
    rows->push_back({std::string(where) + " " + direction + " " + pinning + " " + SizeName(size),
                     gbps, kNames[static_cast<int>(kind)], baseline});
  }
}

}  // namespace

int main(int argc, char** argv) {
  size_t max_size = size_t{1} << 30;
  std::string json;
  bool client = false;
  size_t aggregate_size = 0;
  int aggregate_reps = 0;
  std::string start_line_dir;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--max_size=", 11) == 0)
      max_size = std::strtoull(argv[i] + 11, nullptr, 0);
    if (std::strncmp(argv[i], "--json=", 7) == 0) json = argv[i] + 7;
    if (std::strncmp(argv[i], "--aggregate=", 12) == 0) {
      std::sscanf(argv[i] + 12, "%zu,%d", &aggregate_size, &aggregate_reps);
    }
    if (std::strncmp(argv[i], "--start_line=", 13) == 0) start_line_dir = argv[i] + 13;
    if (std::strcmp(argv[i], "--client") == 0) client = true;
  }
  if (client) {
    return aggregate_size != 0 ? AggregateClient(aggregate_size, aggregate_reps, start_line_dir)
                               : BandwidthClient(max_size);
  }

  npud::bench::BenchDaemon daemon;
  if (!daemon.ok()) {
    std::fprintf(stderr, "npud did not start\n");
    return 1;
  }
  npud::bench::ResidentMemory memory(daemon.pid());
  std::vector<Row> rows;
  const std::string size_arg = "--max_size=" + std::to_string(max_size);
  // Local, then remote over gRPC and as a framed session.
  struct Mode {
    const char* name;
    std::string address;
    Baseline baseline;
  };
  const Mode modes[] = {{"local", daemon.unix_address(), Baseline::kMemcpy},
                        {"TCP", daemon.tcp_address(), Baseline::kTcpStream},
                        {"TCP framed", daemon.framed_address(), Baseline::kTcpStream}};
  for (const Mode& mode : modes) {
    std::string output;
    if (!npud::bench::RunSelfAsClient(argv[0], mode.address, {size_arg}, &output)) {
      std::fprintf(stderr, "the %s bandwidth client failed\n", mode.name);
      return 1;
    }
    AddBandwidthRows(output, mode.name, mode.baseline, "", &rows);
  }

  // TLS: a second npud with a throw-away certificate, its clients trusting
  // the CA that signed it.
  {
    char cert_dir[] = "/tmp/npud-bench-certs-XXXXXX";
    const std::string certs = mkdtemp(cert_dir) != nullptr ? cert_dir : "";
    const std::string make_certs = std::string("sh ") + MAKE_TLS_CERTS + " " + certs;
    if (certs.empty() || std::system(make_certs.c_str()) != 0) {
      std::fprintf(stderr, "cannot make TLS certificates\n");
      return 1;
    }
    npud::bench::BenchDaemon tls_daemon(certs);
    setenv("NPUD_TLS_CA", (certs + "/ca.crt").c_str(), 1);
    for (bool framed : {false, true}) {
      std::string output;
      if (!tls_daemon.ok() ||
          !npud::bench::RunSelfAsClient(
              argv[0], framed ? tls_daemon.framed_address() : tls_daemon.tcp_address(), {size_arg},
              &output)) {
        std::fprintf(stderr, "the TLS bandwidth client failed\n");
        return 1;
      }
      AddBandwidthRows(output, framed ? "TLS framed" : "TLS", Baseline::kTlsStream, certs, &rows);
    }
    unsetenv("NPUD_TLS_CA");
    std::filesystem::remove_all(certs);
  }

  // Aggregate: K clients at once, 64 MiB pinned buffers, each way, on this
  // host and over TCP (beside K bare TCP streams at once).
  const size_t agg_size = std::min<size_t>(64 << 20, max_size);
  const double agg_baseline = MemcpyGbps(agg_size);
  for (const Mode& mode : modes) {
    const bool remote = mode.baseline != Baseline::kMemcpy;
    for (int clients : {1, 2, 4, 8}) {
      std::vector<std::string> outputs(clients);
      std::vector<std::thread> threads;
      std::vector<char> ok(clients, 0);
      // All clients start copying at the same moment, once they are set up.
      npud::bench::StartLine start_line;
      for (int c = 0; c < clients; ++c) {
        threads.emplace_back([&, c] {
          ok[c] = npud::bench::RunSelfAsClient(
              argv[0], mode.address,
              {"--aggregate=" + std::to_string(agg_size) + "," + std::to_string(8),
               start_line.Argument()},
              &outputs[c]);
        });
      }
      if (!start_line.ReleaseWhenArrived(clients))
        std::fprintf(stderr, "a client never got ready\n");
      for (std::thread& t : threads) t.join();
      double bytes = 0, first = 1e300, last = 0;
      for (int c = 0; c < clients; ++c) {
        double b, s, e;
        if (!ok[c] || std::sscanf(outputs[c].c_str(), "%lf %lf %lf", &b, &s, &e) != 3) {
          std::fprintf(stderr, "aggregate client failed\n");
          return 1;
        }
        bytes += b;
        first = std::min(first, s);
        last = std::max(last, e);
      }
      const std::string who = std::to_string(clients) + " client(s), pinned " + SizeName(agg_size);
      if (remote) {
        rows.push_back({std::string(mode.name) + " aggregate, " + who, bytes / (last - first) / 1e9,
                        std::to_string(clients) + " TCP stream(s)",
                        TcpStreamGbps(agg_size, clients)});
      } else {
        rows.push_back({"local aggregate, " + who, bytes / (last - first) / 1e9,
                        "memcpy (1 thread)", agg_baseline});
      }
    }
  }

  memory.Stop(std::chrono::seconds(10), 64);

  std::printf("%-44s %10s   %-18s %10s %8s\n", "copy", "GB/s", "baseline", "GB/s", "ratio");
  for (const Row& row : rows) {
    std::printf("%-44s %10.3f   %-18s %10.3f %8.2f\n", row.name.c_str(), row.gbps,
                row.baseline.c_str(), row.baseline_gbps, row.gbps / row.baseline_gbps);
  }
  std::printf("\ndaemon resident memory: idle %" PRIu64 " MiB, peak %" PRIu64
              " MiB, after the load %" PRIu64 " MiB (after - idle: %" PRId64 " MiB; goal <= 64)\n",
              memory.idle_mib(), memory.peak_mib(), memory.after_mib(),
              static_cast<int64_t>(memory.after_mib()) - static_cast<int64_t>(memory.idle_mib()));
  if (!json.empty()) {
    std::ofstream out(json);
    out << "{\"daemon_rss_mib\": {\"idle\": " << memory.idle_mib()
        << ", \"peak\": " << memory.peak_mib() << ", \"after\": " << memory.after_mib() << "}, ";
    out << "\"transfer_bandwidth\": [";
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& row = rows[i];
      out << (i ? ", " : "") << "{\"name\": \"" << row.name << "\", \"gbps\": " << row.gbps
          << ", \"baseline\": \"" << row.baseline << "\", \"baseline_gbps\": " << row.baseline_gbps
          << ", \"ratio\": " << row.gbps / row.baseline_gbps << "}";
    }
    out << "]}\n";
  }
  return 0;
}
