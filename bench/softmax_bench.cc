// softmax_bench: row softmax over 64M floats (65536 rows of 1024) on the
// simulated device through npud over the unix socket — the advanced API's
// SoftMax over tiles of the unified buffer, 48 blocks (softmax_kernels.cc) —
// against a vectorised plain loop over the same data in this process (one
// thread; softmax_baseline.h). Each is the best of three runs; the results
// must agree to a relative 1e-4 element for element. Goal (issue 44): the
// kernel at 0.8x the plain loop or better.
//
//   softmax_bench [--rows=N] [--cols=N]   (cols a multiple of 8)

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "bench/bench_support.h"
#include "bench/softmax_baseline.h"

namespace {

constexpr int kRepeats = 3;
constexpr uint32_t kBlocks = 48;

}  // namespace

int main(int argc, char** argv) {
  uint32_t rows = 65536, cols = 1024;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--rows=", 7) == 0) rows = std::atoi(argv[i] + 7);
    if (std::strncmp(argv[i], "--cols=", 7) == 0) cols = std::atoi(argv[i] + 7);
  }
  if (rows == 0 || cols == 0 || cols % 8 != 0) {
    std::fprintf(stderr, "--rows must be positive, --cols a multiple of 8\n");
    return 2;
  }
  const uint64_t count = uint64_t{rows} * cols;
  std::vector<float> x(count), y(count), expected(count);
  for (uint64_t i = 0; i < count; ++i) x[i] = static_cast<float>((i * 7919) % 1000) / 100.0f;
  const double plain = npud::bench::BestSeconds(
      kRepeats, [&] { npud::bench::SoftmaxRows(x.data(), expected.data(), rows, cols); });

  npud::bench::BenchDaemon daemon;
  if (!daemon.ok()) {
    std::fprintf(stderr, "npud did not start\n");
    return 1;
  }
  aclrtStream stream = npud::bench::OpenStreamOn(daemon);
  const aclrtFuncHandle softmax = npud::bench::LoadKernel(SOFTMAX_KERNELS_PATH, "softmax_rows");
  const size_t bytes = count * sizeof(float);
  void *dx = nullptr, *dy = nullptr;
  NPUD_BENCH_CHECK(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  NPUD_BENCH_CHECK(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  NPUD_BENCH_CHECK(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  struct {
    void* x;
    void* y;
    uint32_t rows, cols;
  } args{dx, dy, rows, cols};
  const double device = npud::bench::BestSeconds(kRepeats, [&] {
    NPUD_BENCH_CHECK(aclrtLaunchKernelWithHostArgs(softmax, kBlocks, stream, nullptr, &args,
                                                   sizeof(args), nullptr, 0));
    NPUD_BENCH_CHECK(aclrtSynchronizeStream(stream));
  });
  NPUD_BENCH_CHECK(aclrtMemcpy(y.data(), bytes, dy, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint64_t i = 0; i < count; ++i) {
    if (!(std::fabs(y[i] - expected[i]) <= 1e-4f * std::fabs(expected[i]) + 1e-9f)) {
      std::fprintf(stderr, "element %llu: device %g, baseline %g\n",
                   static_cast<unsigned long long>(i), y[i], expected[i]);
      return 1;
    }
  }
  NPUD_BENCH_CHECK(aclrtFree(dx));
  NPUD_BENCH_CHECK(aclrtFree(dy));
  NPUD_BENCH_CHECK(aclrtDestroyStream(stream));
  NPUD_BENCH_CHECK(aclrtResetDevice(0));
  NPUD_BENCH_CHECK(aclFinalize());

  const double gb = 2.0 * bytes / 1e9;
  std::printf("%-44s %10s %10s %8s\n", "figure", "value", "baseline", "ratio");
  char label[96];
  std::snprintf(label, sizeof(label), "softmax %u x %u floats: kernel vs plain loop", rows, cols);
  std::printf("%-44s %8.3f s %8.3f s %8.2f\n", label, device, plain, plain / device);
  std::printf("%-44s %6.2f GB/s %6.2f GB/s\n", "  (bytes in and out per second)", gb / device,
              gb / plain);
  std::printf("goal (issue 44): the kernel at >= 0.8x the plain loop\n");
  return 0;
}
