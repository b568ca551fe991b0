// trace_overhead: what a session timeline (NPUD_TRACE) costs the work it
// records. The same client runs three ways against one npud over the unix
// socket: without NPUD_TRACE (the baseline), with NPUD_TRACE, and with
// NPUD_TRACE and NPUD_TRACE_BLOCKS=1 (a record per block). Each run launches
// an 8-block empty kernel and makes a small async host-to-device copy per
// step, so the trace records kernels, blocks, copies and the host calls
// around them; the figure is steps per second (best of three runs), and the
// ratio to the untraced run is the overhead.
//
// A second untraced run shows the noise of the figure: "off" costs nothing
// by construction (one pointer test per call).
//
//   trace_overhead [--steps=N]

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "bench/bench_support.h"

namespace {

constexpr int kRepeats = 3;
constexpr uint32_t kBlocks = 8;
constexpr size_t kCopyBytes = 4096;

// Runs in a child with NPUD_ADDRESS (and maybe NPUD_TRACE) set: prints the
// steps per second of `steps` launch-and-copy steps.
int ClientMain(int steps) {
  NPUD_BENCH_CHECK(aclInit(nullptr));
  NPUD_BENCH_CHECK(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  NPUD_BENCH_CHECK(aclrtCreateStream(&stream));
  aclrtBinHandle binary = nullptr;
  aclrtFuncHandle empty = nullptr;
  NPUD_BENCH_CHECK(aclrtBinaryLoadFromFile(BENCH_KERNELS_PATH, nullptr, &binary));
  NPUD_BENCH_CHECK(aclrtBinaryGetFunction(binary, "empty", &empty));
  void* device = nullptr;
  void* host = nullptr;
  NPUD_BENCH_CHECK(aclrtMalloc(&device, kCopyBytes, ACL_MEM_MALLOC_HUGE_FIRST));
  NPUD_BENCH_CHECK(aclrtMallocHost(&host, kCopyBytes));
  std::memset(host, 7, kCopyBytes);

  auto run = [&](int count) {
    for (int i = 0; i < count; ++i) {
      NPUD_BENCH_CHECK(
          aclrtLaunchKernelWithHostArgs(empty, kBlocks, stream, nullptr, nullptr, 0, nullptr, 0));
      NPUD_BENCH_CHECK(aclrtMemcpyAsync(device, kCopyBytes, host, kCopyBytes,
                                        ACL_MEMCPY_HOST_TO_DEVICE, stream));
    }
    NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
  };
  run(100);  // Warm up.
  const double start = npud::bench::MonotonicSeconds();
  run(steps);
  const double seconds = npud::bench::MonotonicSeconds() - start;
  std::printf("%.1f\n", steps / seconds);

  NPUD_BENCH_CHECK(aclrtFree(device));
  NPUD_BENCH_CHECK(aclrtFreeHost(host));
  NPUD_BENCH_CHECK(aclrtBinaryUnLoad(binary));
  NPUD_BENCH_CHECK(aclrtDestroyStream(stream));
  NPUD_BENCH_CHECK(aclrtResetDevice(0));
  NPUD_BENCH_CHECK(aclFinalize());  // Writes the trace.
  return 0;
}

// The best steps-per-second of kRepeats client runs with `trace` as
// NPUD_TRACE ("" for none) and `blocks` as NPUD_TRACE_BLOCKS; 0 on failure.
double BestRate(const char* self, const std::string& address, int steps, const std::string& trace,
                bool blocks) {
  if (trace.empty()) {
    unsetenv("NPUD_TRACE");
  } else {
    setenv("NPUD_TRACE", trace.c_str(), 1);
  }
  if (blocks) {
    setenv("NPUD_TRACE_BLOCKS", "1", 1);
  } else {
    unsetenv("NPUD_TRACE_BLOCKS");
  }
  double best = 0;
  for (int r = 0; r < kRepeats; ++r) {
    std::string output;
    double rate = 0;
    if (!npud::bench::RunSelfAsClient(self, address, {"--steps=" + std::to_string(steps)},
                                      &output) ||
        std::sscanf(output.c_str(), "%lf", &rate) != 1) {
      return 0;
    }
    if (rate > best) best = rate;
  }
  unsetenv("NPUD_TRACE");
  unsetenv("NPUD_TRACE_BLOCKS");
  return best;
}

long FileBytes(const std::string& path) {
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return -1;
  std::fseek(file, 0, SEEK_END);
  const long bytes = std::ftell(file);
  std::fclose(file);
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  int steps = 10000;
  bool client = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--steps=", 8) == 0) steps = std::atoi(argv[i] + 8);
    if (std::strcmp(argv[i], "--client") == 0) client = true;
  }
  if (steps <= 0) {
    std::fprintf(stderr, "--steps must be positive\n");
    return 2;
  }
  if (client) return ClientMain(steps);

  npud::bench::BenchDaemon daemon;
  if (!daemon.ok()) {
    std::fprintf(stderr, "npud did not start\n");
    return 1;
  }
  char dir_template[] = "/tmp/npud-trace-bench-XXXXXX";
  const char* dir = mkdtemp(dir_template);
  if (dir == nullptr) return 1;
  const std::string trace = std::string(dir) + "/trace.json";
  const std::string block_trace = std::string(dir) + "/blocks.json";

  const std::string& address = daemon.unix_address();
  const double off = BestRate(argv[0], address, steps, "", false);
  const double on = BestRate(argv[0], address, steps, trace, false);
  const double on_blocks = BestRate(argv[0], address, steps, block_trace, true);
  const double off_again = BestRate(argv[0], address, steps, "", false);
  if (off == 0 || on == 0 || on_blocks == 0 || off_again == 0) {
    std::fprintf(stderr, "a client run failed\n");
    return 1;
  }
  std::printf("%d steps of an %u-block empty kernel and a %zu-byte async copy, unix socket\n",
              steps, kBlocks, kCopyBytes);
  std::printf("%-28s %12s %8s %14s\n", "run", "steps/s", "ratio", "trace bytes");
  std::printf("%-28s %12.0f %8.3f %14s\n", "NPUD_TRACE unset", off, 1.0, "-");
  std::printf("%-28s %12.0f %8.3f %14s\n", "NPUD_TRACE unset (again)", off_again, off_again / off,
              "-");
  std::printf("%-28s %12.0f %8.3f %14ld\n", "NPUD_TRACE", on, on / off, FileBytes(trace));
  std::printf("%-28s %12.0f %8.3f %14ld\n", "NPUD_TRACE + TRACE_BLOCKS", on_blocks, on_blocks / off,
              FileBytes(block_trace));
  std::remove(trace.c_str());
  std::remove(block_trace.c_str());
  rmdir(dir);
  return 0;
}
