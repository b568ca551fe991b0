// kernel_bench: kernels on the simulated device against baselines measured
// in the same run.
//
//  * An AscendC vector add (tiles through the unified buffer, double
//    buffered queues, vector adds) over 64M floats, against a plain C++ loop
//    over the same data in this process (each the best of ten runs).
//  * The rate of empty-kernel launches on one stream (launch N, then one
//    synchronize) through npud over the unix socket and over TCP, against
//    the same through the in-process transport.
//  * The aggregate launch rate of 1, 2, 4 and 8 client processes launching
//    at once over the unix socket, against one in-process client.
//  * Starting a kernel host: loading a binary (each load starts a new host)
//    and its first launch and synchronize, median of 30, against starting
//    and waiting for /bin/true.
//  * The cost of one SyncAll across 48 blocks (a launch of R barriers minus
//    one of none, best of five each), against the round trip of a 48-block
//    launch without barriers.
//
//   kernel_bench [--elements=N] [--launches=N] [--json=FILE]

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "bench/bench_support.h"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
// The vector add and its baseline each report the best of this many runs.
constexpr int kRepeats = 10;

struct AddArgs {
  void* x;
  void* y;
  void* z;
  uint64_t n;
};

// Runs in a child with NPUD_ADDRESS set: prints "<add seconds> <launches/s>
// <start> <end>" (the launch loop's monotonic start and end).
int ClientMain(uint64_t elements, int launches, const std::string& start_line) {
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  NPUD_BENCH_CHECK(aclrtCreateStream(&stream));
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle add = nullptr, empty = nullptr;
  NPUD_BENCH_CHECK(aclrtBinaryLoadFromFile(BENCH_KERNELS_PATH, nullptr, &binary));
  NPUD_BENCH_CHECK(aclrtBinaryGetFunction(binary, "vector_add", &add));
  NPUD_BENCH_CHECK(aclrtBinaryGetFunction(binary, "empty", &empty));

  double add_seconds = 0;
  if (elements > 0) {
    const size_t bytes = elements * sizeof(float);
    std::vector<float> host(elements, 1.5f);
    AddArgs args{};
    NPUD_BENCH_CHECK(aclrtMalloc(&args.x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    NPUD_BENCH_CHECK(aclrtMalloc(&args.y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    NPUD_BENCH_CHECK(aclrtMalloc(&args.z, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    NPUD_BENCH_CHECK(aclrtMemcpy(args.x, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    NPUD_BENCH_CHECK(aclrtMemcpy(args.y, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    args.n = elements;
    // Warm up (pages of z get touched), then the best of kRepeats launches.
    NPUD_BENCH_CHECK(
        aclrtLaunchKernelWithHostArgs(add, 48, stream, nullptr, &args, sizeof(args), nullptr, 0));
    NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
    for (int i = 0; i < kRepeats; ++i) {
      const auto start = Clock::now();
      NPUD_BENCH_CHECK(
          aclrtLaunchKernelWithHostArgs(add, 48, stream, nullptr, &args, sizeof(args), nullptr, 0));
      NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
      const double seconds = npud::bench::SecondsSince(start);
      if (i == 0 || seconds < add_seconds) add_seconds = seconds;
    }
    NPUD_BENCH_CHECK(aclrtMemcpy(host.data(), 4 * sizeof(float), args.z, 4 * sizeof(float),
                                 ACL_MEMCPY_DEVICE_TO_HOST));
    if (host[0] != 3.0f) return 3;
    NPUD_BENCH_CHECK(aclrtFree(args.x));
    NPUD_BENCH_CHECK(aclrtFree(args.y));
    NPUD_BENCH_CHECK(aclrtFree(args.z));
  }
  for (int i = 0; i < 100; ++i) {
    NPUD_BENCH_CHECK(
        aclrtLaunchKernelWithHostArgs(empty, 1, stream, nullptr, nullptr, 0, nullptr, 0));
  }
  NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
  npud::bench::StartLine::Arrive(start_line);
  const double start = npud::bench::MonotonicSeconds();
  for (int i = 0; i < launches; ++i) {
    NPUD_BENCH_CHECK(
        aclrtLaunchKernelWithHostArgs(empty, 1, stream, nullptr, nullptr, 0, nullptr, 0));
  }
  NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
  const double end = npud::bench::MonotonicSeconds();
  std::printf("%.6f %.1f %.6f %.6f\n", add_seconds, launches / (end - start), start, end);
  NPUD_BENCH_CHECK(aclrtBinaryUnLoad(binary));
  return 0;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Runs in a child with NPUD_ADDRESS set: loads the kernels `starts` times,
// each time launching once and synchronizing; prints the median in ms.
int HostStartMain(int starts) {
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  NPUD_BENCH_CHECK(aclrtCreateStream(&stream));
  std::vector<double> ms;
  for (int i = 0; i < starts; ++i) {
    const auto start = Clock::now();
    aclrtBinHandle binary = nullptr;
    aclrtFuncHandle empty = nullptr;
    NPUD_BENCH_CHECK(aclrtBinaryLoadFromFile(BENCH_KERNELS_PATH, nullptr, &binary));
    NPUD_BENCH_CHECK(aclrtBinaryGetFunction(binary, "empty", &empty));
    NPUD_BENCH_CHECK(
        aclrtLaunchKernelWithHostArgs(empty, 1, stream, nullptr, nullptr, 0, nullptr, 0));
    NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
    ms.push_back(1e3 * npud::bench::SecondsSince(start));
    NPUD_BENCH_CHECK(aclrtBinaryUnLoad(binary));
  }
  std::printf("%.3f\n", Median(ms));
  return 0;
}

// Runs in a child with NPUD_ADDRESS set: prints "<us per barrier> <us per
// 48-block launch and synchronize>" (sync_rounds with `rounds` and with none).
int BarrierMain(uint32_t rounds) {
  constexpr uint32_t kBlocks = 48;
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  NPUD_BENCH_CHECK(aclrtCreateStream(&stream));
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle sync_rounds = nullptr;
  NPUD_BENCH_CHECK(aclrtBinaryLoadFromFile(BENCH_KERNELS_PATH, nullptr, &binary));
  NPUD_BENCH_CHECK(aclrtBinaryGetFunction(binary, "sync_rounds", &sync_rounds));
  auto best_of_five = [&](uint32_t n) {
    double best = 1e30;
    for (int i = 0; i < 5; ++i) {
      const auto start = Clock::now();
      NPUD_BENCH_CHECK(aclrtLaunchKernelWithHostArgs(sync_rounds, kBlocks, stream, nullptr, &n,
                                                     sizeof(n), nullptr, 0));
      NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
      best = std::min(best, npud::bench::SecondsSince(start));
    }
    return best;
  };
  best_of_five(1);  // warm up: the host starts
  const double none = best_of_five(0);
  const double with = best_of_five(rounds);
  std::printf("%.3f %.3f\n", 1e6 * (with - none) / rounds, 1e6 * none);
  NPUD_BENCH_CHECK(aclrtBinaryUnLoad(binary));
  return 0;
}

// The baseline of a host start: starting a process and waiting for it.
double ProcessStartMillis(int starts) {
  std::vector<double> ms;
  for (int i = 0; i < starts; ++i) {
    const auto start = Clock::now();
    pid_t pid = 0;
    char program[] = "/bin/true";
    char* argv[] = {program, nullptr};
    if (posix_spawn(&pid, program, nullptr, nullptr, argv, environ) != 0) return 0;
    waitpid(pid, nullptr, 0);
    ms.push_back(1e3 * npud::bench::SecondsSince(start));
  }
  return Median(ms);
}

struct ClientResult {
  double add_seconds = 0;
  double rate = 0;
  double start = 0;
  double end = 0;
};

bool RunClient(const char* self, const std::string& address, uint64_t elements, int launches,
               ClientResult* result, const std::string& start_line_argument = "") {
  std::string output;
  return npud::bench::RunSelfAsClient(
             self, address,
             {"--elements=" + std::to_string(elements), "--launches=" + std::to_string(launches),
              start_line_argument},
             &output) &&
         std::sscanf(output.c_str(), "%lf %lf %lf %lf", &result->add_seconds, &result->rate,
                     &result->start, &result->end) == 4;
}

// Launches per second of `clients` processes launching `launches` each at
// once (from the first start to the last end), or 0 if one failed.
double AggregateRate(const char* self, const std::string& address, int clients, int launches) {
  std::vector<ClientResult> results(clients);
  std::vector<char> ok(clients, 0);
  std::vector<std::thread> threads;
  // All clients start launching at the same moment, once they are set up.
  npud::bench::StartLine start_line;
  for (int c = 0; c < clients; ++c) {
    threads.emplace_back([&, c] {
      ok[c] = RunClient(self, address, 0, launches, &results[c], start_line.Argument());
    });
  }
  const bool all_arrived = start_line.ReleaseWhenArrived(clients);
  for (std::thread& t : threads) t.join();
  if (!all_arrived) return 0;
  double first = 1e300, last = 0;
  for (int c = 0; c < clients; ++c) {
    if (!ok[c]) return 0;
    first = std::min(first, results[c].start);
    last = std::max(last, results[c].end);
  }
  return static_cast<double>(clients) * launches / (last - first);
}

// z = x + y, vectorized as the kernel's Add is: the baseline is the best a
// plain loop compiles to here, not a scalar one.
__attribute__((noinline)) void AddArrays(const float* __restrict x, const float* __restrict y,
                                         float* __restrict z, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
}

// The baseline of the vector add: a plain loop over the same amount of data.
double PlainLoopSeconds(uint64_t elements) {
  std::vector<float> x(elements, 1.5f), y(elements, 1.5f), z(elements, 0.0f);
  for (uint64_t i = 0; i < elements; ++i) z[i] = x[i] + y[i];  // Warm up (touch pages).
  double seconds = 0;
  for (int r = 0; r < kRepeats; ++r) {
    const auto start = Clock::now();
    AddArrays(x.data(), y.data(), z.data(), elements);
    const double took = npud::bench::SecondsSince(start);
    if (r == 0 || took < seconds) seconds = took;
  }
  if (z[elements / 2] != 3.0f) std::abort();
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t elements = 64ull << 20;
  int launches = 20000;
  std::string json;
  bool client = false;
  int host_starts = 0;
  int barriers = 0;
  std::string start_line;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--elements=", 11) == 0)
      elements = std::strtoull(argv[i] + 11, nullptr, 0);
    if (std::strncmp(argv[i], "--launches=", 11) == 0) launches = std::atoi(argv[i] + 11);
    if (std::strncmp(argv[i], "--json=", 7) == 0) json = argv[i] + 7;
    if (std::strncmp(argv[i], "--start_line=", 13) == 0) start_line = argv[i] + 13;
    if (std::strcmp(argv[i], "--client") == 0) client = true;
    if (std::strncmp(argv[i], "--host_starts=", 14) == 0) host_starts = std::atoi(argv[i] + 14);
    if (std::strncmp(argv[i], "--barriers=", 11) == 0) barriers = std::atoi(argv[i] + 11);
  }
  if (client && host_starts > 0) return HostStartMain(host_starts);
  if (client && barriers > 0) return BarrierMain(static_cast<uint32_t>(barriers));
  if (client) return ClientMain(elements, launches, start_line);
  elements = elements / (48 * 8192) * (48 * 8192);  // Whole tiles per block.
  if (elements == 0) {
    std::fprintf(stderr, "--elements must be at least %d\n", 48 * 8192);
    return 2;
  }

  npud::bench::BenchDaemon daemon;
  if (!daemon.ok()) {
    std::fprintf(stderr, "npud did not start\n");
    return 1;
  }

  const double plain = PlainLoopSeconds(elements);
  ClientResult unix_result, tcp_result, inproc_result;
  if (!RunClient(argv[0], daemon.unix_address(), elements, launches, &unix_result) ||
      !RunClient(argv[0], daemon.tcp_address(), 0, launches, &tcp_result) ||
      !RunClient(argv[0], "inproc:", 0, launches, &inproc_result)) {
    std::fprintf(stderr, "a benchmark client failed\n");
    return 1;
  }
  const double add_daemon = unix_result.add_seconds;
  const double inproc_rate = inproc_result.rate;
  std::vector<std::pair<int, double>> aggregate;
  for (int clients : {1, 2, 4, 8}) {
    aggregate.emplace_back(clients,
                           AggregateRate(argv[0], daemon.unix_address(), clients, launches));
  }

  constexpr int kStarts = 30;
  std::string host_start_output;
  double host_start_ms = 0;
  if (!npud::bench::RunSelfAsClient(argv[0], daemon.unix_address(),
                                    {"--host_starts=" + std::to_string(kStarts)},
                                    &host_start_output) ||
      std::sscanf(host_start_output.c_str(), "%lf", &host_start_ms) != 1) {
    std::fprintf(stderr, "the host start client failed\n");
    return 1;
  }
  const double process_start_ms = ProcessStartMillis(kStarts);

  std::string barrier_output;
  double barrier_us = 0, launch_us = 0;
  if (!npud::bench::RunSelfAsClient(argv[0], daemon.unix_address(), {"--barriers=200"},
                                    &barrier_output) ||
      std::sscanf(barrier_output.c_str(), "%lf %lf", &barrier_us, &launch_us) != 2) {
    std::fprintf(stderr, "the barrier client failed\n");
    return 1;
  }

  const double gb = 3.0 * elements * sizeof(float) / 1e9;
  std::printf("%-48s %12s %12s %10s\n", "figure", "value", "baseline", "ratio");
  const std::string add_label =
      "vector add " + std::to_string(elements >> 20) + "M floats: kernel vs plain loop";
  std::printf("%-48s %10.3f s %10.3f s %10.2f\n", add_label.c_str(), add_daemon, plain,
              plain / add_daemon);
  std::printf("%-48s %8.2f GB/s %8.2f GB/s\n", "  (bytes moved per second)", gb / add_daemon,
              gb / plain);
  std::printf("%-48s %10.0f/s %10.0f/s %10.2f\n", "empty launches, unix socket vs in process",
              unix_result.rate, inproc_rate, unix_result.rate / inproc_rate);
  std::printf("%-48s %10.0f/s %10.0f/s %10.2f\n", "empty launches, TCP vs in process",
              tcp_result.rate, inproc_rate, tcp_result.rate / inproc_rate);
  for (const auto& [clients, rate] : aggregate) {
    const std::string label =
        "aggregate launches, " + std::to_string(clients) + " unix client(s) vs 1 in process";
    std::printf("%-48s %10.0f/s %10.0f/s %10.2f\n", label.c_str(), rate, inproc_rate,
                rate / inproc_rate);
  }
  std::printf("%-48s %9.2f ms %9.2f ms %10.2f\n", "kernel host start vs a process start, p50",
              host_start_ms, process_start_ms, host_start_ms / process_start_ms);
  std::printf("%-48s %9.1f us %9.1f us %10.2f\n", "SyncAll of 48 blocks vs a 48-block launch",
              barrier_us, launch_us, barrier_us / launch_us);
  if (!json.empty()) {
    std::ofstream out(json);
    out << "{\"vector_add\": {\"elements\": " << elements << ", \"kernel_seconds\": " << add_daemon
        << ", \"plain_loop_seconds\": " << plain << ", \"ratio\": " << plain / add_daemon
        << "}, \"empty_launch_rate\": {\"unix_per_s\": " << unix_result.rate
        << ", \"tcp_per_s\": " << tcp_result.rate << ", \"inproc_per_s\": " << inproc_rate
        << ", \"ratio_unix\": " << unix_result.rate / inproc_rate
        << ", \"ratio_tcp\": " << tcp_result.rate / inproc_rate
        << "}, \"aggregate_launch_rate\": [";
    for (size_t i = 0; i < aggregate.size(); ++i) {
      out << (i ? ", " : "") << "{\"clients\": " << aggregate[i].first
          << ", \"per_s\": " << aggregate[i].second
          << ", \"ratio\": " << aggregate[i].second / inproc_rate << "}";
    }
    out << "], \"host_start_ms\": " << host_start_ms
        << ", \"process_start_ms\": " << process_start_ms
        << ", \"sync_all_48_blocks_us\": " << barrier_us
        << ", \"launch_48_blocks_us\": " << launch_us << "}\n";
  }
  return 0;
}
