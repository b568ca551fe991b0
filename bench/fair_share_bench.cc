// fair_share_bench: how one session's kernels share a device with another's
// (issue 41's compute figures). Two client processes on one npud:
//
//   victim  a short kernel (1 block) and aclrtSynchronizeStream, back to
//           back; its round-trip latency, p50 / p99 / max
//   hog     48-block vector adds on 4 streams, each stream kept busy; its
//           launches per second
//
// Each runs alone first (the baselines, same run), then both together.
// Printed: the victim's p99 shared against alone (goal: <= 5 ms and <= 20x),
// and the hog's throughput alone and shared against its own (goals: alone
// unchanged by any scheduler, shared >= 0.45 against one victim).
//
//   fair_share_bench [--seconds=N] [--elements=N]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "bench_support.h"

namespace {

using Clock = std::chrono::steady_clock;

struct AddArgs {
  void* x;
  void* y;
  void* z;
  uint64_t n;
};

constexpr int kHogStreams = 4;
constexpr uint32_t kHogBlocks = 48;

// Client: empty kernel + synchronize for `seconds`; prints "rounds p50_us
// p99_us max_us".
int VictimMain(double seconds, const std::string& start_line) {
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  NPUD_BENCH_CHECK(aclrtCreateStream(&stream));
  const aclrtFuncHandle empty = npud::bench::LoadKernel(BENCH_KERNELS_PATH, "empty");
  for (int i = 0; i < 100; ++i) {  // warm: the kernel host is up
    NPUD_BENCH_CHECK(
        aclrtLaunchKernelWithHostArgs(empty, 1, stream, nullptr, nullptr, 0, nullptr, 0));
    NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
  }
  npud::bench::StartLine::Arrive(start_line);
  std::vector<double> us;
  const auto end = Clock::now() + std::chrono::duration<double>(seconds);
  while (Clock::now() < end) {
    const auto start = Clock::now();
    NPUD_BENCH_CHECK(
        aclrtLaunchKernelWithHostArgs(empty, 1, stream, nullptr, nullptr, 0, nullptr, 0));
    NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
    us.push_back(npud::bench::SecondsSince(start) * 1e6);
  }
  std::sort(us.begin(), us.end());
  std::printf("%zu %.1f %.1f %.1f\n", us.size(), us[us.size() / 2], us[us.size() * 99 / 100],
              us.back());
  return 0;
}

// Client: 48-block vector adds of `elements` floats on 4 streams for
// `seconds`, each stream with two launches queued; prints "launches/s".
int HogMain(double seconds, uint64_t elements, const std::string& start_line) {
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  const aclrtFuncHandle add = npud::bench::LoadKernel(BENCH_KERNELS_PATH, "vector_add");
  const size_t bytes = elements * sizeof(float);
  AddArgs args{};
  NPUD_BENCH_CHECK(aclrtMalloc(&args.x, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  NPUD_BENCH_CHECK(aclrtMalloc(&args.y, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  NPUD_BENCH_CHECK(aclrtMalloc(&args.z, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  NPUD_BENCH_CHECK(aclrtMemset(args.x, bytes, 0, bytes));
  NPUD_BENCH_CHECK(aclrtMemset(args.y, bytes, 0, bytes));
  args.n = elements;
  aclrtStream streams[kHogStreams];
  for (aclrtStream& stream : streams) NPUD_BENCH_CHECK(aclrtCreateStream(&stream));
  auto launch = [&](aclrtStream stream) {
    NPUD_BENCH_CHECK(aclrtLaunchKernelWithHostArgs(add, kHogBlocks, stream, nullptr, &args,
                                                   sizeof(args), nullptr, 0));
  };
  launch(streams[0]);  // warm: the kernel host is up, z's pages touched
  NPUD_BENCH_CHECK(aclrtSynchronizeStream(streams[0]));
  npud::bench::StartLine::Arrive(start_line);
  const auto start = Clock::now();
  const auto end = start + std::chrono::duration<double>(seconds);
  long launches = 0;
  for (aclrtStream stream : streams) launch(stream);
  while (Clock::now() < end) {
    for (aclrtStream stream : streams) launch(stream);
    for (aclrtStream stream : streams) {
      // Wait for the older of the stream's two launches: one stays queued.
      NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
      launch(stream);
      launches += 2;
    }
  }
  for (aclrtStream stream : streams) NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
  launches += kHogStreams;
  std::printf("%.1f\n", launches / npud::bench::SecondsSince(start));
  return 0;
}

struct Victim {
  long rounds = 0;
  double p50 = 0, p99 = 0, max = 0;
};

bool ParseVictim(const std::string& line, Victim* v) {
  return std::sscanf(line.c_str(), "%ld %lf %lf %lf", &v->rounds, &v->p50, &v->p99, &v->max) == 4;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 5;
  uint64_t elements = 48 * 8192 * 4;  // a few ms per launch on one core
  std::string role, start_line;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--seconds=", 10) == 0) seconds = std::atof(argv[i] + 10);
    if (std::strncmp(argv[i], "--elements=", 11) == 0)
      elements = std::strtoull(argv[i] + 11, nullptr, 0);
    if (std::strncmp(argv[i], "--role=", 7) == 0) role = argv[i] + 7;
    if (std::strncmp(argv[i], "--start_line=", 13) == 0) start_line = argv[i] + 13;
  }
  if (role == "victim") return VictimMain(seconds, start_line);
  if (role == "hog") return HogMain(seconds, elements, start_line);
  elements = std::max<uint64_t>(1, elements / (kHogBlocks * 8192)) * (kHogBlocks * 8192);

  npud::bench::BenchDaemon daemon;
  if (!daemon.ok()) {
    std::fprintf(stderr, "npud did not start\n");
    return 1;
  }
  const std::string time = "--seconds=" + std::to_string(seconds);
  const std::vector<std::string> victim = {"--role=victim", time};
  const std::vector<std::string> hog = {"--role=hog", time,
                                        "--elements=" + std::to_string(elements)};
  std::vector<std::string> alone_victim, alone_hog, shared;
  if (!npud::bench::RunClientsTogether(argv[0], daemon.unix_address(), {victim}, &alone_victim) ||
      !npud::bench::RunClientsTogether(argv[0], daemon.unix_address(), {hog}, &alone_hog) ||
      !npud::bench::RunClientsTogether(argv[0], daemon.unix_address(), {victim, hog}, &shared)) {
    std::fprintf(stderr, "a benchmark client failed\n");
    return 1;
  }
  Victim v_alone, v_shared;
  double hog_alone = 0, hog_shared = 0;
  if (!ParseVictim(alone_victim[0], &v_alone) || !ParseVictim(shared[0], &v_shared) ||
      std::sscanf(alone_hog[0].c_str(), "%lf", &hog_alone) != 1 ||
      std::sscanf(shared[1].c_str(), "%lf", &hog_shared) != 1) {
    std::fprintf(stderr, "unreadable client output\n");
    return 1;
  }
  std::printf(
      "fair share on one device, %.0f s per phase, hog: %u-block adds of %llu floats "
      "on %d streams\n",
      seconds, kHogBlocks, static_cast<unsigned long long>(elements), kHogStreams);
  std::printf("%-40s %12s %12s %10s\n", "figure", "shared", "alone", "ratio");
  std::printf("%-40s %12.1f %12.1f %10.2f\n", "victim launch+sync p50 (us)", v_shared.p50,
              v_alone.p50, v_shared.p50 / v_alone.p50);
  std::printf("%-40s %12.1f %12.1f %10.2f\n", "victim launch+sync p99 (us)", v_shared.p99,
              v_alone.p99, v_shared.p99 / v_alone.p99);
  std::printf("%-40s %12.1f %12.1f %10.2f\n", "victim launch+sync max (us)", v_shared.max,
              v_alone.max, v_shared.max / v_alone.max);
  std::printf("%-40s %12ld %12ld %10.2f\n", "victim round trips", v_shared.rounds, v_alone.rounds,
              static_cast<double>(v_shared.rounds) / v_alone.rounds);
  std::printf("%-40s %12.1f %12.1f %10.2f\n", "hog launches/s", hog_shared, hog_alone,
              hog_shared / hog_alone);
  std::printf(
      "goals (issue 41): victim p99 shared <= 5000 us and <= 20x alone; hog shared "
      ">= 0.45 of alone\n");
  return 0;
}
