// sync_call_latency: how long a synchronous ACL call takes through npud.
//
// Measures aclrtSynchronizeStream on an idle stream (one round trip to the
// daemon, no device work) over the unix socket, over TCP loopback and in
// process, next to the baseline of the same run: a bare 1-byte ping-pong
// between two processes on a unix socket and on TCP loopback.
//
//   sync_call_latency [--iterations=N] [--json=FILE]
//
// The client side runs in child processes (the ACL runtime binds one daemon
// per process), started with --client and NPUD_ADDRESS set.

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "bench/bench_support.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Percentiles {
  double p50_us = 0;
  double p99_us = 0;
};

Percentiles Summarize(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  Percentiles p;
  p.p50_us = samples[samples.size() / 2];
  p.p99_us = samples[samples.size() * 99 / 100];
  return p;
}

int ClientMain(int iterations) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 3;
  std::vector<double> samples;
  samples.reserve(iterations);
  for (int i = 0; i < iterations + 1000; ++i) {
    const auto start = Clock::now();
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) return 4;
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    if (i >= 1000) samples.push_back(us);  // The first calls warm up.
  }
  const Percentiles p = Summarize(samples);
  std::printf("%.2f %.2f\n", p.p50_us, p.p99_us);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}

// Runs this binary as a client against `address`; returns its percentiles.
bool RunClient(const char* self, const std::string& address, int iterations, Percentiles* out) {
  std::string output;
  return npud::bench::RunSelfAsClient(self, address, {"--iterations=" + std::to_string(iterations)},
                                      &output) &&
         std::sscanf(output.c_str(), "%lf %lf", &out->p50_us, &out->p99_us) == 2;
}

// The baseline: a child echoes one byte per message on a connected socket.
Percentiles PingPong(bool tcp, int iterations) {
  int fds[2];
  if (tcp) {
    npud::bench::TcpLoopbackPair(fds);
  } else {
    socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
  }
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    char byte;
    while (read(fds[1], &byte, 1) == 1) {
      if (write(fds[1], &byte, 1) != 1) break;
    }
    _exit(0);
  }
  close(fds[1]);
  std::vector<double> samples;
  char byte = 'x';
  for (int i = 0; i < iterations + 1000; ++i) {
    const auto start = Clock::now();
    if (write(fds[0], &byte, 1) != 1 || read(fds[0], &byte, 1) != 1) break;
    const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
    if (i >= 1000) samples.push_back(us);
  }
  close(fds[0]);
  waitpid(pid, nullptr, 0);
  return Summarize(samples);
}

}  // namespace

int main(int argc, char** argv) {
  int iterations = 20000;
  std::string json;
  bool client = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--iterations=", 13) == 0) iterations = std::atoi(argv[i] + 13);
    if (std::strncmp(argv[i], "--json=", 7) == 0) json = argv[i] + 7;
    if (std::strcmp(argv[i], "--client") == 0) client = true;
  }
  if (client) return ClientMain(iterations);

  npud::bench::BenchDaemon daemon;
  if (!daemon.ok()) {
    std::fprintf(stderr, "npud did not start\n");
    return 1;
  }

  struct Row {
    const char* name;
    Percentiles value;
    Percentiles baseline;
    const char* baseline_name;
  };
  std::vector<Row> rows;
  const Percentiles unix_pingpong = PingPong(false, iterations);
  const Percentiles tcp_pingpong = PingPong(true, iterations);
  Percentiles p;
  if (RunClient(argv[0], daemon.unix_address(), iterations, &p)) {
    rows.push_back({"aclrtSynchronizeStream, unix socket", p, unix_pingpong, "unix ping-pong"});
  }
  if (RunClient(argv[0], daemon.tcp_address(), iterations, &p)) {
    rows.push_back({"aclrtSynchronizeStream, TCP gRPC", p, tcp_pingpong, "TCP ping-pong"});
  }
  if (RunClient(argv[0], daemon.framed_address(), iterations, &p)) {
    rows.push_back({"aclrtSynchronizeStream, TCP framed", p, tcp_pingpong, "TCP ping-pong"});
  }
  if (RunClient(argv[0], "inproc:", iterations, &p)) {
    rows.push_back({"aclrtSynchronizeStream, in process", p, unix_pingpong, "unix ping-pong"});
  }
  std::printf("%-40s %10s %10s   %-16s %10s %10s %8s\n", "synchronous call", "p50 us", "p99 us",
              "baseline", "p50 us", "p99 us", "p50 x");
  for (const Row& row : rows) {
    std::printf("%-40s %10.1f %10.1f   %-16s %10.1f %10.1f %8.2f\n", row.name, row.value.p50_us,
                row.value.p99_us, row.baseline_name, row.baseline.p50_us, row.baseline.p99_us,
                row.value.p50_us / row.baseline.p50_us);
  }
  if (!json.empty()) {
    std::ofstream out(json);
    out << "{\"sync_call_latency\": [";
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& row = rows[i];
      out << (i ? ", " : "") << "{\"name\": \"" << row.name
          << "\", \"p50_us\": " << row.value.p50_us << ", \"p99_us\": " << row.value.p99_us
          << ", \"baseline\": \"" << row.baseline_name
          << "\", \"baseline_p50_us\": " << row.baseline.p50_us
          << ", \"ratio_p50\": " << row.value.p50_us / row.baseline.p50_us << "}";
    }
    out << "]}\n";
  }
  return rows.size() == 4 ? 0 : 1;
}
